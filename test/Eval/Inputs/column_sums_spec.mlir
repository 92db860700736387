// Sums per column: a prefix sum of a field with several values a
// sequence (cols(@w), or K yielded) read at [i, column] and total(cu, c);
// reductions over a scalar's or a seq field's columns; an output padded
// to a scalar's row count, rows(@len).
imeta.spec @column_sums {
  imeta.config @w : i32 {min = 0 : i64}
  imeta.config @pick : i32
  imeta.config @extra : i32
  imeta.input @q : i32 {min = 1 : i64}
  imeta.field @nq seq = "q"
  imeta.field @by_col seq cols(@w) = "q * (col + 1)"
  imeta.prefix_sum @cu_by_col = @by_col : !imeta.prefix<exclusive>
  imeta.prefix_sum @end_by_col = @by_col : !imeta.prefix<inclusive>
  imeta.field @pair seq = "q, 10 * q"
  imeta.prefix_sum @cu_pair = @pair : !imeta.prefix<exclusive>
  imeta.field @col_totals scalar cols(@w) = "total(cu_by_col, col)"
  imeta.field @largest_total scalar = "max_of(col_totals)"
  imeta.field @smallest_entry scalar = "min_of(by_col)"
  imeta.field @all_sum scalar = "sum_of(by_col)"
  imeta.field @starts rows(@nq) = "cu_by_col[i, pick] + j"
  imeta.field @pair_starts seq = "cu_pair[i, 0] + cu_pair[i, 1]"
  imeta.field @len scalar = "total(cu_pair, 0) + extra"
  imeta.field @padded rows(@nq) = "starts"
  imeta.path @all target(cpu) {
    imeta.output "cu_by_col" = @cu_by_col
    imeta.output "end_by_col" = @end_by_col
    imeta.output "cu_pair" = @cu_pair
    imeta.output "col_totals" = @col_totals
    imeta.output "largest_total" = @largest_total
    imeta.output "smallest_entry" = @smallest_entry
    imeta.output "all_sum" = @all_sum
    imeta.output "starts" = @starts
    imeta.output "pair_starts" = @pair_starts
    imeta.output "padded" = @padded fill(-1) rows(@len)
  }
}
