// Integer division at the edges of i32, stated once and run by both
// backends: floor/ceil/trunc quotients and remainders of negative values,
// and INT32_MIN / -1, which leaves i32.
imeta.spec @division {
  imeta.input @a : i32
  imeta.input @b : i32
  imeta.field @one seq {
    %c1 = arith.constant 1 : i32
    imeta.yield %c1 : i32
  }
  imeta.field @q rows(@one) {
    %a = imeta.get_input @a : i32
    %b = imeta.get_input @b : i32
    %d = arith.divsi %a, %b : i32
    %f = arith.floordivsi %a, %b : i32
    %c = arith.ceildivsi %a, %b : i32
    %r = arith.remsi %a, %b : i32
    imeta.yield %d, %f, %c, %r : i32, i32, i32, i32
  }
  imeta.field @rem_only rows(@one) {
    %a = imeta.get_input @a : i32
    %b = imeta.get_input @b : i32
    %r = arith.remsi %a, %b : i32
    imeta.yield %r : i32
  }
  imeta.path @all target(cpu) {
    imeta.output "q" = @q
  }
  imeta.path @rem target(cpu) {
    imeta.output "rem" = @rem_only
  }
}
