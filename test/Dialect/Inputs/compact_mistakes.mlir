// Compact formulas with a mistake each (test/Dialect/compact-errors.test,
// which splits the file).
imeta.spec @s {
  imeta.input @seq_len : i32 {min = 1 : i64}
  imeta.field @a seq = "seq_len +"
  imeta.path @p target(cpu) { imeta.output "a" = @a }
}
// -----
imeta.spec @s {
  imeta.formula @bad(p) = "p + nothing"
  imeta.input @len : i32
  imeta.field @f seq = "bad(len)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}
