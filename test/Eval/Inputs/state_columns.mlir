// A paged decode as a new user might write it against engine state (a
// reviewer's spec, kept): each request's cached length, its block ids and
// a paused flag at its slot (an int, a list and a bool of state), a
// per-layer limit table in config read by a rule and a host value, and
// two `cols` fields, one with a division under a split. No rule ties the
// block ids to the pages, so a short row is the fill's refusal, past the
// first tiles of a warp's walk on the GPU (test/Eval/state-columns.test;
// test/gpu/every-spec.txt runs it host-staged and by the device step).
imeta.spec @state_columns {
  imeta.config @page : i32 {min = 1 : i64}
  imeta.config @max_pages : i32 {min = 1 : i64}
  imeta.config @limits : !imeta.list {min = 0 : i64}
  imeta.input @slot : i32 {optional}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @cached : i32 {slot = @slot, min = 0 : i64, optional}
  imeta.input @blocks : !imeta.list {slot = @slot, optional}
  imeta.input @paused : i1 {slot = @slot, optional}
  imeta.field @nq seq = "paused ? 1 : q"
  imeta.field @kv seq = "cached + q"
  imeta.field @npages seq = "(kv + page - 1) / page"
  imeta.field @cap seq = "limits[0] + len(limits)"
  imeta.require "L1" "kv within the limit" seq = "kv <= limits[0]"
  imeta.field @pos rows(@nq) = "cached + j"
  imeta.field @table rows(@nq) cols(@max_pages) = "col < npages ? blocks[col] : -1"
  imeta.field @slots rows(@nq) cols(@max_pages) = "p = col * page; p < kv ? blocks[p / page] * page + p % page : 0"
  imeta.path @decode target(gpu) needs [@slot, @cached, @blocks, @paused] {
    imeta.output "positions" = @pos
    imeta.output "block_table" = @table
    imeta.output "slots" = @slots
    imeta.output "cap" = @cap
  }
}
