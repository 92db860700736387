// vLLM's FlashAttention metadata (v1 FlashAttentionMetadata), one step of
// mixed prefill and decode: per sequence q new tokens after k - q cached
// ones, KV in blocks of block_size through its block table.
imeta.spec @vllm_flash_attn {
  imeta.config @block_size : i32 {min = 1 : i64}
  imeta.input @query_len : i32 {min = 1 : i64}
  imeta.input @seq_len : i32 {min = 1 : i64}
  imeta.input @block_table : !imeta.list {min = 0 : i64}
  imeta.require "V1" "query_len <= seq_len" seq {
    %q = imeta.get_input @query_len : i32
    %k = imeta.get_input @seq_len : i32
    %ok = arith.cmpi sle, %q, %k : i32
    imeta.yield %ok : i1
  }
  imeta.field @q seq {
    %q = imeta.get_input @query_len : i32
    imeta.yield %q : i32
  }
  imeta.field @k seq {
    %k = imeta.get_input @seq_len : i32
    imeta.yield %k : i32
  }
  imeta.prefix_sum @query_start_loc = @q : !imeta.prefix<exclusive>
  imeta.field @max_query_len scalar {
    %m = imeta.reduce max @q : i32
    imeta.yield %m : i32
  }
  imeta.field @max_seq_len scalar {
    %m = imeta.reduce max @k : i32
    imeta.yield %m : i32
  }
  imeta.field @num_actual_tokens scalar {
    %t = imeta.reduce sum @q : i32
    imeta.yield %t : i32
  }
  // slot_mapping: pos = k - q + j, block_table[pos / B] * B + pos % B.
  imeta.field @slot_mapping rows(@q) {
    %q = imeta.get @q : i32
    %k = imeta.get @k : i32
    %j = imeta.row_index : i32
    %s = arith.subi %k, %q : i32
    %pos = arith.addi %s, %j : i32
    %B = imeta.get_config @block_size : i32
    %blk = arith.divsi %pos, %B : i32
    %off = arith.remsi %pos, %B : i32
    %phys = imeta.load @block_table[%blk] : i32
    %base = arith.muli %phys, %B : i32
    %slot = arith.addi %base, %off : i32
    imeta.yield %slot : i32
  }
  imeta.path @flash_attn target(cpu) {
    imeta.output "query_start_loc" = @query_start_loc
    imeta.output "seq_lens" = @k
    imeta.output "max_query_len" = @max_query_len
    imeta.output "max_seq_len" = @max_seq_len
    imeta.output "num_actual_tokens" = @num_actual_tokens
    imeta.output "slot_mapping" = @slot_mapping
  }
}
