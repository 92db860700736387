// Rules whose operands are a ratio set's minimum (a read that can fail on
// an empty set) and a resolved list's element (test/Eval/rule-values.test).
imeta.spec @rule_values {
  imeta.config @cap : i32
  imeta.ratios @rs
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @ids : !imeta.list {min = 0 : i64}
  imeta.input @slot : i32 {optional}
  imeta.input @len : i32 {slot = @slot, min = 0 : i64, optional}
  imeta.input @tok : !imeta.list {slot = @slot, optional}
  imeta.field @q_of seq = "1 + len"
  imeta.field @ids_count seq = "slot >= 0 ? len(tok) : 0"
  imeta.field @ids_of rows(@ids_count) = "tok[j] + 1"
  imeta.field @qf seq = "q"
  imeta.field @pos rows(@qf) = "ids[j % len(ids)]"
  imeta.path @ratios target(gpu) {
    imeta.require "A" "ratio_min(rs) <= cap" scalar = "ratio_min(rs) <= cap"
    imeta.output "qf" = @qf
  }
  imeta.path @base target(cpu) {
    imeta.require "F" "ids[0] <= cap" seq = "ids[0] <= cap"
    imeta.output "pos" = @pos
  }
  imeta.path @slotted target(gpu) extends @base needs [@slot, @len, @tok] {
    imeta.resolve @q = @q_of
    imeta.resolve @ids = @ids_of
  }
}
