// A reduction of a rows field that itself gathers another: the gather in
// the reduced formula is expanded too (the evaluator once met it
// unexpanded: an internal error with an empty reason).
imeta.spec @gather_reduce {
  imeta.input @q : i32 {min = 0 : i64}
  imeta.field @nq seq = "q"
  imeta.field @g0 rows(@nq) = "j * 10"
  imeta.field @g1 rows(@nq) = "gather(g0, q - 1 - j)"
  imeta.field @per_seq seq = "sum_of(g1)"
  imeta.field @largest scalar = "max_of(g1)"
  imeta.field @shifted rows(@nq) = "gather(g0, q - j)"
  imeta.field @bad seq = "sum_of(shifted)"
  imeta.path @p target(cpu) {
    imeta.require "G1" "the rows stay small" scalar = "max_of(g1) < 1000"
    imeta.output "per_seq" = @per_seq
    imeta.output "largest" = @largest
  }
  imeta.path @pg target(gpu) extends @p {
  }
  imeta.path @out_of_range target(cpu) {
    imeta.output "bad" = @bad
  }
}
