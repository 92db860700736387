// Scalar and per-sequence fields of more than one value a point: K values
// yielded, or `cols` wide (a config or a per-bucket scalar width, with
// live columns), generated as well as evaluated.
imeta.spec @host_columns {
  imeta.config @w : i32 {min = 0 : i64}
  imeta.ratios @set
  imeta.input @n_in : i32 {min = 0 : i64}
  imeta.input @vals : !imeta.list
  imeta.field @pair seq = "n_in, 10 * n_in"
  imeta.field @live seq = "n_in"
  imeta.field @table seq cols(@w) live(@live) = "vals[col]"
  imeta.field @span scalar over @set = "n + 1"
  imeta.field @ramp seq over @set cols(@span) = "n_in * n + col"
  imeta.field @bounds scalar = "w, 2 * w, 3 * w"
  imeta.path @p target(cpu) {
    imeta.output "pair" = @pair
    imeta.output "table" = @table
    imeta.output "ramp" = @ramp
    imeta.output "bounds" = @bounds
  }
}
