// vLLM's FlashAttention metadata (v1 FlashAttentionMetadata), one step of
// mixed prefill and decode: per sequence q new tokens after k - q cached
// ones, KV in blocks of block_size through its block table.
imeta.spec @vllm_flash_attn {
  imeta.config @block_size : i32 {min = 1 : i64}
  imeta.input @query_len : i32 {min = 1 : i64}
  imeta.input @seq_len : i32 {min = 1 : i64}
  imeta.input @block_table : !imeta.list {min = 0 : i64}
  imeta.require "V1" "query_len <= seq_len" seq = "query_len <= seq_len"
  imeta.field @q seq = "query_len"
  imeta.field @k seq = "seq_len"
  imeta.prefix_sum @query_start_loc = @q : !imeta.prefix<exclusive>
  imeta.field @max_query_len scalar = "max_of(q)"
  imeta.field @max_seq_len scalar = "max_of(k)"
  imeta.field @num_actual_tokens scalar = "sum_of(q)"
  // The KV slot of position p: its block's physical block, its offset.
  imeta.formula @slot(p) = "block_table[p / block_size] * block_size + p % block_size"
  imeta.field @slot_mapping rows(@q) = "slot(k - q + j)"
  imeta.path @flash_attn target(cpu) {
    imeta.output "query_start_loc" = @query_start_loc
    imeta.output "seq_lens" = @k
    imeta.output "max_query_len" = @max_query_len
    imeta.output "max_seq_len" = @max_seq_len
    imeta.output "num_actual_tokens" = @num_actual_tokens
    // Rows past the live ones, up to a captured graph's size: -1 (vLLM's pad).
    imeta.output "slot_mapping" = @slot_mapping fill(-1)
  }
}
