// Parses, but does not verify: an output of a field the spec lacks.
imeta.spec @unverified {
  imeta.input @q : i32 {min = 1 : i64}
  imeta.field @nq seq = "q"
  imeta.path @all target(cpu) {
    imeta.output "nq" = @nq
    imeta.output "gone" = @no_such_field
  }
}
