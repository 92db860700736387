// A table input read by its length only: the GPU path has a check kernel
// (the table's rows written and, kept on the device alone, checked before
// the fill) but no fast fill that can fail, so no dry run and no record.
imeta.spec @resident_len {
  imeta.config @block_size : i32 {min = 1 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @ids : !imeta.list {min = 0 : i64, resident}
  imeta.field @nq seq = "q"
  imeta.field @blocks rows(@nq) = "len(ids) + j"
  imeta.path @step target(gpu) {
    imeta.output "blocks" = @blocks
  }
}
