// A prefix sum of a rows field: one entry a row in field order (and,
// exclusive, the closing total); its total read elsewhere.
imeta.spec @rows_prefix {
  imeta.input @q : i32 {min = 0 : i64}
  imeta.field @nq seq = "q"
  imeta.field @len rows(@nq) = "j + 1"
  imeta.prefix_sum @starts = @len : !imeta.prefix<exclusive>
  imeta.prefix_sum @ends = @len : !imeta.prefix<inclusive>
  imeta.field @total scalar = "total(starts) + 100 * total(ends)"
  imeta.path @cpu target(cpu) {
    imeta.output "starts" = @starts optional
    imeta.output "ends" = @ends
    imeta.output "total" = @total
  }
  imeta.path @gpu target(gpu) extends @cpu {
  }
}
