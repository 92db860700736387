// Maxima, minima and sums per column over the sequences: max_of(f, c) of
// a field with several values a sequence (cols(@w), or K yielded values),
// in a scalar field with columns and in a rule; the GPU path reads them
// in its kernel.
imeta.spec @column_reductions {
  imeta.config @w : i32 {min = 1 : i64}
  imeta.config @pick : i32
  imeta.config @cap : i32
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @k : i32 {min = 1 : i64}
  imeta.field @nq seq = "q"
  imeta.field @by_col seq cols(@w) = "k - q * col"
  imeta.field @pair seq = "q, k - 10"
  imeta.field @col_max scalar cols(@w) = "max_of(by_col, col)"
  imeta.field @col_min scalar cols(@w) = "min_of(by_col, col)"
  imeta.field @col_sum scalar cols(@w) = "sum_of(by_col, col)"
  imeta.field @pair_max scalar = "max_of(pair, 0), max_of(pair, 1)"
  imeta.field @picked scalar = "max_of(by_col, pick)"
  imeta.require "C1" "column 0's largest is at most cap" scalar = "max_of(by_col, 0) <= cap"
  imeta.field @rows_seen rows(@nq) = "picked - j"
  imeta.path @cpu target(cpu) {
    imeta.output "col_max" = @col_max
    imeta.output "col_min" = @col_min
    imeta.output "col_sum" = @col_sum
    imeta.output "pair_max" = @pair_max
    imeta.output "picked" = @picked
    imeta.output "rows_seen" = @rows_seen
  }
  imeta.path @gpu target(gpu) {
    imeta.output "col_max" = @col_max
    imeta.output "col_min" = @col_min
    imeta.output "col_sum" = @col_sum
    imeta.output "pair_max" = @pair_max
    imeta.output "picked" = @picked
    imeta.output "rows_seen" = @rows_seen
  }
}
