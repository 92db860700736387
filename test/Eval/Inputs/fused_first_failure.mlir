// Host-stage steps the generated code runs in one fused pass over the
// sequences: where two fail, the step-by-step passes after it name the
// failure the evaluator reports first (field by field, then sequence by
// sequence), not the one the fused pass met first (its record was once
// kept, and a rule's message could carry another field's failure).
imeta.spec @fused_first_failure {
  imeta.input @a : i32
  imeta.input @b : i32
  imeta.input @lst : !imeta.list
  imeta.field @f0 seq = "7 / a"
  imeta.field @f1 seq = "7 / b"
  imeta.path @fields target(cpu) {
    imeta.output "f0" = @f0
    imeta.output "f1" = @f1
  }
  imeta.path @fields_gpu target(gpu) extends @fields {
  }
  imeta.field @first seq = "lst[0]"
  imeta.path @rule target(cpu) {
    imeta.require "U0" "the list is short" seq = "len(lst) * 1073741824 <= 100"
    imeta.output "first" = @first
  }
}
