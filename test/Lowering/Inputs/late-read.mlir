// A fill schedule that computes a field before one it reads
// (test/Lowering/schedule-errors.mlir: nothing is written).
imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @pos rows(@nq) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @plus_one rows(@nq) {
    %p = imeta.get @pos : i32
    imeta.yield %p : i32
  }
  imeta.path @p target(cpu) attributes {imeta.fill = [[@nq, @plus_one, @pos]]} {
    imeta.output "plus_one" = @plus_one
  }
}
