// Conditions compared with == and != (issue 35): whether a sequence's two
// tests agree.
imeta.spec @bool_compare {
  imeta.input @a : i32
  imeta.input @b : i32
  imeta.field @same seq = "(a > 0) == (b > 0)" : i1
  imeta.field @differ seq = "int((a > 0) != (b > 0))"
  imeta.path @p target(cpu) {
    imeta.output "same" = @same
    imeta.output "differ" = @differ
  }
}
