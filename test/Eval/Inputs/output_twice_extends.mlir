// A field output twice across 'extends' (review of issue 35's change): a
// derived path that drops the first output, one that overrides an
// inherited output with the same field; the base keeps its own outputs.
imeta.spec @output_twice_extends {
  imeta.input @q : i32 {min = 1 : i64}
  imeta.field @qf seq = "q"
  imeta.field @g seq = "q + 1"
  imeta.field @pos rows(@qf) = "10 * i + j"
  imeta.path @p1 target(gpu) {
    imeta.output "a" = @pos
    imeta.output "b" = @pos
    imeta.output "c" = @g
  }
  imeta.path @dropped target(gpu) extends @p1 {
    imeta.drop "a"
  }
  imeta.path @overridden target(gpu) extends @p1 {
    imeta.output "c" = @pos
  }
}
