// A GPU path that reads request state in place, without imeta.resolve
// (test/Eval/state-gpu-stage.test, test/gpu/StateStepGpuTest.cu):
// vLLM-style decode metadata from each request's slot (its computed
// tokens, its block-table row, its drafts of a declared width), one query
// token a sequence.
imeta.spec @state_decode {
  imeta.config @block_size : i32 {min = 1 : i64, rule = "R1"}
  imeta.config @nextn : i32 {min = 0 : i64, rule = "R1"}
  imeta.input @slot : i32 {optional, rule = "R11"}
  imeta.input @is_placeholder : i1 {optional}
  imeta.input @computed : i32 {slot = @slot, min = 0 : i64, optional, rule = "R11"}
  imeta.input @accepted : i32 {slot = @slot, optional, rule = "R11"}
  imeta.input @drafts : !imeta.list {slot = @slot, width = @nextn, optional, rule = "R11"}
  imeta.input @table : !imeta.list {slot = @slot, optional, rule = "R11"}
  imeta.field @q seq = "1"
  imeta.field @k seq = "computed + 1"
  imeta.prefix_sum @cu_q = @q : !imeta.prefix<exclusive>
  imeta.field @positions rows(@q) = "computed + j"
  imeta.field @slot_mapping rows(@q) = "p = computed + j; is_placeholder ? -1 : table[p / block_size] * block_size + p % block_size"
  imeta.field @seq_lens seq = "k"
  imeta.field @last_draft seq = "n = len(drafts); n > 0 ? drafts[n - 1] : -1"
  imeta.field @accepted_rows seq = "accepted"
  imeta.path @decode target(gpu) needs [@slot, @is_placeholder, @computed, @accepted, @drafts, @table] {
    imeta.require "R11" "the block table covers k" seq = "slot < 0 || len(table) * block_size >= k"
    imeta.require "R11" "accepted <= nextn" seq = "accepted <= nextn"
    imeta.output "cu_seqlens_q" = @cu_q
    imeta.output "positions" = @positions
    imeta.output "slot_mapping" = @slot_mapping
    imeta.output "seq_lens" = @seq_lens
    imeta.output "last_draft" = @last_draft
    imeta.output "accepted" = @accepted_rows
  }
}
