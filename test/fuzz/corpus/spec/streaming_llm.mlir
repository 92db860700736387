// A StreamingLLM decode step: each sequence's one new token attends to the
// first `sink` tokens and the last `window` of its k (all of them while
// k <= sink + window). Per sequence, the KV slots it reads, in order,
// padded with -1 to sink + window columns.
imeta.spec @streaming_llm {
  imeta.config @block_size : i32 {min = 1 : i64}
  imeta.config @sink : i32 {min = 0 : i64}
  imeta.config @window : i32 {min = 1 : i64}
  imeta.input @seq_len : i32 {min = 1 : i64}
  imeta.input @block_table : !imeta.list {min = 0 : i64}
  imeta.field @budget scalar = "sink + window"
  // Column col: token col in the sinks (or all of a short sequence), else
  // token k - budget + col; its slot through the block table.
  imeta.formula @slot(p) = "block_table[p / block_size] * block_size + p % block_size"
  imeta.field @kv_slots seq cols(@budget) =
      "t = seq_len <= budget || col < sink ? col : seq_len - budget + col; col < min(seq_len, budget) ? slot(t) : -1"
  imeta.path @decode target(cpu) {
    imeta.output "kv_slots" = @kv_slots
  }
}
