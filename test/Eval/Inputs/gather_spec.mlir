// imeta.gather: a rows field read at another row of the same sequence.
// `rev` walks a sequence's rows backwards (and past them: pad rows where
// the index is negative), `twice` gathers a field that reads another rows
// field (the read gathered in turn), `grid` gathers column by column,
// `last` reads a row from a per-sequence field, `off` a row the batch
// gives (past the rows: an error naming the field).
imeta.spec @gather {
  imeta.config @w : i32 {min = 0 : i64}
  imeta.input @q : i32 {min = 0 : i64}
  imeta.input @pick : i32
  imeta.input @vals : !imeta.list
  imeta.field @nq seq = "q"
  imeta.field @pad_rows seq = "q + 2"
  imeta.field @val rows(@nq) = "vals[j]"
  imeta.field @val_plus_row rows(@nq) = "val + 100 * j"
  imeta.field @flag rows(@nq) = "val % 2 == 0" : i1
  imeta.field @rev rows(@pad_rows) = "gather(val, q - 1 - j)"
  imeta.field @rev_flag rows(@pad_rows) = "gather(flag, q - 1 - j)" : i1
  imeta.field @twice rows(@nq) = "gather(val_plus_row, j / 2)"
  imeta.field @cells rows(@nq) cols(@w) = "val * 10 + col"
  imeta.field @grid rows(@nq) cols(@w) = "gather(cells, q - 1 - j)"
  imeta.field @last seq = "gather(val, q - 1)"
  imeta.field @off seq = "gather(val, pick)"
  imeta.path @p target(cpu) {
    imeta.output "rev" = @rev
    imeta.output "rev_flag" = @rev_flag
    imeta.output "twice" = @twice
    imeta.output "grid" = @grid
    imeta.output "last" = @last
  }
  imeta.path @picked target(cpu) {
    imeta.output "off" = @off
  }
}
