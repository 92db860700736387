// An i64 product that leaves i64 (x^4, x = 2000000): the failure the
// generated code records as kOverflow64 (test/Lowering/failure-kinds.test).
imeta.spec @overflow64 {
  imeta.input @x : i32
  imeta.field @cube seq {
    %x = imeta.get_input @x : i32
    %w = arith.extsi %x : i32 to i64
    %sq = arith.muli %w, %w : i64
    %cube = arith.muli %sq, %sq : i64
    %one = arith.constant 1 : i64
    %lo = arith.andi %cube, %one : i64
    %r = arith.trunci %lo : i64 to i32
    imeta.yield %r : i32
  }
  imeta.path @p target(cpu) { imeta.output "cube" = @cube }
}
