// A paged slot mapping as a new user would first write it: each row's KV
// slot read from the sequence's block ids, and no rule that the ids cover
// the sequence's tokens. The fast fill then checks each read itself (the
// range proof cannot bound an index into a list), so a short list is a
// refusal that names the field, the sequence and its first bad row, and a
// GPU run writes nothing (the check kernel before the fill).
imeta.spec @list_reads {
  imeta.config @block_size : i32 {min = 1 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @k : i32 {min = 1 : i64}
  imeta.input @block_ids : !imeta.list {min = 0 : i64}
  imeta.require "L1" "q <= k" seq = "q <= k"
  imeta.field @nq seq = "q"
  imeta.field @positions rows(@nq) = "k - q + j"
  imeta.field @slots rows(@nq) = "block_ids[positions / block_size] * block_size + positions % block_size"
  imeta.field @klen seq = "k"
  imeta.path @step target(gpu) {
    imeta.output "positions" = @positions
    imeta.output "slot_mapping" = @slots
    imeta.output "klen" = @klen
  }
}
