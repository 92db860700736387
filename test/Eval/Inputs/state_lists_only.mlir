// Request state as lists alone (test/Eval/state-lists-only.test): each
// sequence's rows are its slot's row of `hist`, plus 100 x its index.
imeta.spec @slot_rows {
  imeta.input @slot : i32 {min = -1 : i64, optional}
  imeta.input @hist : !imeta.list {slot = @slot, min = 0 : i64, optional}
  imeta.field @n_of seq = "len(hist)"
  imeta.field @rows_of rows(@n_of) = "hist[j] + 100 * i"
  imeta.path @tail target(cpu) needs [@slot, @hist] {
    imeta.output "vals" = @rows_of
  }
}
