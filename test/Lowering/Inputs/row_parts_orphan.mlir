// A rows field no output of the row reads, only a cols field: the split
// fill (lib/Analysis/RowParts.h) still computes it, with its check, at every row.
imeta.spec @orphan {
  imeta.config @w : i32 {min = 0 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @vals : !imeta.list
  imeta.field @nq seq = "q"
  imeta.field @a rows(@nq) = "j + 1"
  imeta.field @b rows(@nq) = "j * 2"
  imeta.field @h rows(@nq) = "vals[j + 3]"
  imeta.field @t rows(@nq) cols(@w) = "h + col"
  imeta.path @g target(gpu) {
    imeta.output "a" = @a
    imeta.output "b" = @b
    imeta.output "t" = @t
  }
}
