// A bucketed prefix sum that leaves i32: its bucket named by its set.
imeta.spec @bucketed_sum {
  imeta.ratios @set
  imeta.input @q : i32 {min = 1 : i64}
  imeta.field @w seq over @set = "q * n"
  imeta.prefix_sum @cu = @w : !imeta.prefix<exclusive>
  imeta.path @p target(cpu) { imeta.output "cu" = @cu }
  imeta.path @pg target(gpu) { imeta.output "cu" = @cu }
}
