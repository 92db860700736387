// A `cols` field whose live column count comes from the batch, with no
// rule bounding it by the width: both backends must refuse a row that
// would spill into the next.
imeta.spec @cols {
  imeta.config @w : i32
  imeta.input @n : i32
  imeta.input @vals : !imeta.list
  imeta.field @one seq {
    %c1 = arith.constant 1 : i32
    imeta.yield %c1 : i32
  }
  imeta.field @live seq {
    %n = imeta.get_input @n : i32
    imeta.yield %n : i32
  }
  imeta.field @table rows(@one) cols(@w) live(@live) {
    %c = imeta.col_index : i32
    %v = imeta.load @vals[%c] : i32
    imeta.yield %v : i32
  }
  imeta.path @p target(cpu) {
    imeta.output "table" = @table
  }
}
