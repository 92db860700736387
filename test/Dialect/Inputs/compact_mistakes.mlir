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
// -----
imeta.spec @s {
  imeta.input @a : i32
  imeta.field @f seq = "\61 + \61 + b"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}
// -----
imeta.spec @s {
  imeta.formula @g(p) = "p * \70 + nothing"
  imeta.input @a : i32
  imeta.field @f seq = "g(a)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}
// -----
imeta.spec @s {
  imeta.input @a : !imeta.list
  imeta.input @m : i32
  imeta.field @f seq = "m + count(a)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}
// -----
imeta.spec @s {
  imeta.input @m : i32
  imeta.field @f seq = "m"
  imeta.field @g seq = "max_of(f, 2)"
  imeta.path @p target(cpu) { imeta.output "g" = @g }
}
