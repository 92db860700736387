// A path that extends another and drops one of its outputs; another that
// replaces one and drops another; one that extends two (their common
// base once, the later one's replacement winning).
imeta.spec @drop {
  imeta.input @q : i32 {min = 1 : i64}
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @twice seq {
    %q = imeta.get_input @q : i32
    %t = arith.addi %q, %q : i32
    imeta.yield %t : i32
  }
  imeta.field @pos rows(@nq) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.path @full target(cpu) {
    imeta.output "q" = @nq
    imeta.output "twice" = @twice
    imeta.output "pos" = @pos
  }
  imeta.path @lite target(cpu) extends @full {
    imeta.drop "twice"
  }
  imeta.path @swap target(cpu) extends @lite {
    imeta.output "q" = @twice
    imeta.drop "pos"
  }
  imeta.path @both target(cpu) extends @lite, @swap {
    imeta.output "extra" = @twice
  }
}
