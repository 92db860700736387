// A prefix sum of a rows field read from a list without a declared
// bound (the proof knows nothing of its values: the sums are checked).
imeta.spec @s7 {
  imeta.input @vals : !imeta.list
  imeta.field @nq seq = "len(vals)"
  imeta.field @len rows(@nq) = "vals[j]"
  imeta.prefix_sum @starts = @len : !imeta.prefix<exclusive>
  imeta.prefix_sum @ends = @len : !imeta.prefix<inclusive>
  imeta.path @cpu target(cpu) {
    imeta.output "starts" = @starts
    imeta.output "ends" = @ends
  }
  imeta.path @gpu target(gpu) extends @cpu {}
}
