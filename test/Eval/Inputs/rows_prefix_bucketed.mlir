// A prefix sum of a rows field bucketed over a ratio set: one sum a
// bucket, its closing row bucketed as the count.
imeta.spec @s13 {
  imeta.ratios @rs {rule = "R1"}
  imeta.input @q : i32 {min = 0 : i64}
  imeta.require "R1" "nonempty" scalar = "ratio_count(rs) > 0"
  imeta.field @qq seq = "q"
  imeta.prefix_sum @cq = @qq : !imeta.prefix<exclusive>
  imeta.field @cnt seq over @rs = "(cq[i] + q) / n - cq[i] / n"
  imeta.field @vals rows(@cnt) over @rs = "n * 10 + j"
  imeta.prefix_sum @cv = @vals : !imeta.prefix<exclusive>
  imeta.prefix_sum @cvi = @vals : !imeta.prefix<inclusive>
  imeta.field @tot scalar over @rs = "total(cv) + 1000 * total(cvi)"
  imeta.path @cpu target(cpu) {
    imeta.output "cnt" = @cnt
    imeta.output "vals" = @vals
    imeta.output "cv" = @cv
    imeta.output "cvi" = @cvi
    imeta.output "tot" = @tot
  }
  imeta.path @gpu target(gpu) extends @cpu {}
}
