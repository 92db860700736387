imeta.spec @nul {
  imeta.input @q : i32 {min = 1 : i64, rule = "R\0A\22x"}
  imeta.require "F\001" "holds \0A\00 the \5C pages\22" seq = "q >= 1"
  imeta.field @f seq = "q"
  imeta.path @p target(cpu) {
    imeta.output "f" = @f
  }
}
