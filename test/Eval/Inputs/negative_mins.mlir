// Declared minimums below 0: a config value's, a config list's, a
// scalar input's and a list input's, each checked on a GPU path's host
// stage and the CPU routine as the evaluator checks them (a minimum was
// once printed into the generated code as an unsigned 64-bit literal, so
// every batch was refused).
imeta.spec @negative_mins {
  imeta.config @c : i32 {min = -5 : i64}
  imeta.config @t : !imeta.list {min = -2147483648 : i64}
  imeta.input @a : i32 {min = -3 : i64}
  imeta.input @l : !imeta.list {min = -2 : i64}
  imeta.field @f seq = "a + c + len(t)"
  imeta.field @g rows(@f) = "l[0] + j"
  imeta.path @cpu target(cpu) {
    imeta.output "f" = @f
    imeta.output "g" = @g
  }
  imeta.path @gpu target(gpu) extends @cpu {
  }
}
