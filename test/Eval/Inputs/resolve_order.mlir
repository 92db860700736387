// A resolving path with no rule after the resolution: the resolving
// field is computed before the base's fields (README, "Which failure is
// first"), so where both fail the resolution's failure is the one named
// (the generated code once computed it where its first reader needed it).
imeta.spec @resolve_order {
  imeta.input @a0 : i32
  imeta.input @a1 : i32
  imeta.input @slot : i32 {optional}
  imeta.input @sx : i32 {slot = @slot, optional}
  imeta.field @f2 seq = "a0 + 1"
  imeta.field @g seq = "a1"
  imeta.field @res_a1 seq = "sx + 1"
  imeta.path @p target(cpu) needs [@slot, @sx] {
    imeta.output "f2" = @f2
    imeta.output "g" = @g
  }
  imeta.path @pr target(cpu) extends @p {
    imeta.resolve @a1 = @res_a1
  }
  imeta.path @prg target(gpu) extends @pr {
  }
}
