// A rows field output twice (issue 35): each output fills its own buffer,
// one padded with a fill, one without; a bucketed rows field twice too.
imeta.spec @output_twice {
  imeta.ratios @set
  imeta.input @q : i32 {min = 1 : i64}
  imeta.field @qf seq = "q"
  imeta.prefix_sum @cu = @qf : !imeta.prefix<exclusive>
  imeta.field @pos rows(@qf) = "cu[i] + j"
  imeta.field @scaled rows(@qf) over @set = "n * j"
  imeta.path @p target(cpu) {
    imeta.output "positions" = @pos fill(-1)
    imeta.output "token_index" = @pos
    imeta.output "scaled" = @scaled
    imeta.output "scaled_again" = @scaled fill(0)
  }
  // The same on a GPU path (its host stage run as the device runs it:
  // --backend stage).
  imeta.path @pg target(gpu) {
    imeta.output "positions" = @pos fill(-1)
    imeta.output "token_index" = @pos
    imeta.output "scaled" = @scaled
    imeta.output "scaled_again" = @scaled fill(0)
  }
}
