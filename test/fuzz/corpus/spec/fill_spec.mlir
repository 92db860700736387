// Declared fills of the rows past the live batch (imeta.output ... fill),
// on a rows field, a bool rows field, a bucketed rows field, a per-sequence
// field of columns and a prefix sum; the outputs without one keep their
// live rows.
imeta.spec @fill {
  imeta.config @w : i32 {min = 0 : i64}
  imeta.ratios @set
  imeta.input @q : i32 {min = 0 : i64}
  imeta.field @nq seq = "q"
  imeta.prefix_sum @cu = @nq : !imeta.prefix<exclusive>
  imeta.field @pos rows(@nq) = "10 * i + j"
  imeta.field @odd rows(@nq) = "j % 2 == 1" : i1
  imeta.field @scaled rows(@nq) over @set = "n * j"
  imeta.field @grid seq cols(@w) = "i + col"
  imeta.path @p target(cpu) {
    imeta.output "cu" = @cu fill(9)
    imeta.output "pos" = @pos fill(7)
    imeta.output "odd" = @odd fill(1)
    imeta.output "scaled" = @scaled fill(5)
    imeta.output "grid" = @grid fill(-3)
    imeta.output "q" = @nq
  }
}
