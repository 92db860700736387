// Fields that fail on purpose (products past i32), for the one order in
// which both backends name the first failure (failure-order.test).
imeta.spec @failure_order {
  imeta.input @a : i32 {min = 0 : i64}
  imeta.input @b : i32 {min = 0 : i64}
  imeta.config @w : i32 {min = 0 : i64}
  imeta.field @q seq = "a % 4 + 1"
  imeta.field @seqf seq = "a * 536870912"
  imeta.field @big seq = "b * 536870912"
  imeta.require "R2" "big is not negative" seq = "big >= 0"
  imeta.field @rowsa rows(@q) = "(a + j) * 1073741824"
  imeta.field @rowsb rows(@q) = "(b + j) * 1073741824"
  imeta.field @wide rows(@q) cols(@w) = "(a + col) * 1073741824"
  imeta.path @p target(cpu) {
    imeta.output "rowsb" = @rowsb
    imeta.output "rowsa" = @rowsa
    imeta.output "seqf" = @seqf
  }
  imeta.path @cols target(cpu) {
    imeta.output "rowsb" = @rowsb
    imeta.output "wide" = @wide
  }
}
