// TensorRT-LLM's paged-KV attention metadata (PyTorch backend, trtllm.py
// at 00bede19: TrtllmAttentionMetadata.prepare; beam width 1, self
// attention): context requests first, then generations.
// kv_cache_block_offsets is [pool][seq][2][max_blocks_per_seq], its pool
// axis declared as such (copy_batch_block_offsets, the C++ manager's
// setOffsets: block * the pool's layers * kv_factor + 0 for K, 1 for V).
// Path trtllm_mla adds MLA's paged context (prepare_paged_context_mla:
// offsets over the contexts) and chunked prefill
// (pre_process_for_chunked_prefill: [loop][seq] tensors, a loop axis).
// Conventions: entries past a sequence's blocks are 0 (TensorRT-LLM leaves
// them as they were); the loop tensors have max_chunk_loops buckets, a
// captured shape (TensorRT-LLM allocates chunked_loop_num rows, one more
// for merge ops), those past its rows 0 (chunk lengths, offsets, "skip");
// without contexts chunked_loop_num is 0 (TensorRT-LLM keeps the last).
imeta.spec @trtllm_paged_kv {
  imeta.config @tokens_per_block : i32 {min = 1 : i64}
  imeta.config @max_blocks_per_seq : i32 {min = 1 : i64}
  imeta.config @num_pools : i32 {min = 1 : i64}
  imeta.config @pool_num_layers : !imeta.list {min = 1 : i64}
  imeta.config @kv_factor : i32 {min = 1 : i64}
  imeta.config @num_extra_kv_tokens : i32 {min = 0 : i64}
  imeta.config @chunk_size : i32 {min = 1 : i64, optional}
  imeta.config @max_chunk_loops : i32 {min = 1 : i64, optional}
  imeta.axis @pools = @num_pools
  imeta.require "T1" "one layer count a pool" scalar = "len(pool_num_layers) == num_pools"
  imeta.require "T1" "kv_factor is 1 (K only) or 2" scalar = "kv_factor <= 2"
  imeta.input @is_context : i1
  imeta.input @seq_len : i32 {min = 1 : i64}
  imeta.input @num_cached_tokens : i32 {min = 0 : i64}
  imeta.input @prompt_len : i32 {min = 1 : i64}
  imeta.input @block_ids : !imeta.list {min = 0 : i64}
  imeta.field @kv_len seq = "num_cached_tokens + seq_len"
  imeta.field @blocks seq = "len(block_ids)"
  imeta.require "T2" "one block per tokens_per_block KV tokens" seq = "blocks == ceildiv(kv_len, tokens_per_block)"
  imeta.require "T2" "blocks fit max_blocks_per_seq" seq = "blocks <= max_blocks_per_seq"
  imeta.field @in_context seq = "is_context" : i1
  imeta.field @context seq = "int(is_context)"
  imeta.prefix_sum @contexts_before = @context : !imeta.prefix<exclusive>
  imeta.require "T3" "contexts come before generations" seq = "is_context || contexts_before[i] == total(contexts_before)"
  imeta.field @is_generation seq = "!is_context" : i1
  imeta.field @num_contexts scalar = "total(contexts_before)"
  imeta.field @prompt_lens seq = "prompt_len"
  imeta.field @host_kv_lens seq = "kv_len + num_extra_kv_tokens"
  imeta.field @request_type seq = "int(!is_context)"
  imeta.field @offset_cols scalar = "2 * max_blocks_per_seq"
  imeta.field @kv_cache_block_offsets seq over @pools cols(@offset_cols) = "b = col % max_blocks_per_seq; b < blocks ? (block_ids[b] * pool_num_layers[n]) * kv_factor + (kv_factor == 2 ? col / max_blocks_per_seq : 0) : 0"
  imeta.field @kv_block_ids seq cols(@max_blocks_per_seq) = "col < blocks ? block_ids[col] : 0"
  imeta.field @gen_block_ids seq(@is_generation) cols(@max_blocks_per_seq) = "col < blocks ? block_ids[col] : 0"
  imeta.path @trtllm target(cpu) {
    imeta.output "num_contexts" = @num_contexts
    imeta.output "prompt_lens_cuda" = @prompt_lens
    imeta.output "kv_lens_cuda" = @kv_len
    imeta.output "kv_lens" = @host_kv_lens
    imeta.output "host_request_types" = @request_type
    imeta.output "kv_cache_block_offsets" = @kv_cache_block_offsets
    imeta.output "kv_block_ids_per_seq" = @kv_block_ids
    imeta.output "block_ids_per_seq" = @gen_block_ids
  }
  imeta.path @trtllm_gpu target(gpu) extends @trtllm {
  }
  // MLA's paged context: offsets over the contexts.
  imeta.field @cached_c seq(@in_context) = "num_cached_tokens"
  imeta.field @new_c seq(@in_context) = "seq_len"
  imeta.field @kv_c seq(@in_context) = "kv_len"
  imeta.prefix_sum @ctx_cached_token_indptr = @cached_c : !imeta.prefix<exclusive>
  imeta.prefix_sum @ctx_uncached_token_indptr = @new_c : !imeta.prefix<exclusive>
  imeta.prefix_sum @ctx_kv_indptr = @kv_c : !imeta.prefix<exclusive>
  imeta.field @num_ctx_cached_tokens scalar = "total(ctx_cached_token_indptr)"
  imeta.field @max_ctx_cached_token_len scalar = "max_of(cached_c)"
  imeta.field @max_ctx_kv_len scalar = "max_of(kv_c)"
  imeta.field @max_ctx_seq_len scalar = "max_of(new_c)"
  // Chunked prefill: loop n reads the cached KV's chunk n; the merge op
  // copies (2) its first chunk, merges (1) the next, skips (0) the rest;
  // row chunked_loop_num merges the uncached KV (copies it without cache).
  imeta.axis @loops = @max_chunk_loops
  imeta.field @chunked_loop_num scalar = "ceildiv(max_ctx_cached_token_len, chunk_size)"
  imeta.field @chunked_seq_len seq over @loops = "is_context && n < chunked_loop_num ? clamp(num_cached_tokens - n * chunk_size, 0, chunk_size) : 0"
  imeta.field @chunked_c seq(@in_context) over @loops = "chunked_seq_len"
  imeta.prefix_sum @cu_chunked_seq_len = @chunked_c : !imeta.prefix<exclusive>
  imeta.field @merge_op seq(@in_context) over @loops = "n < chunked_loop_num ? (chunked_seq_len == 0 ? 0 : n == 0 ? 2 : 1) : n == chunked_loop_num ? (num_cached_tokens == 0 ? 2 : 1) : 0"
  imeta.path @trtllm_mla target(cpu) extends @trtllm needs [@chunk_size, @max_chunk_loops] {
    imeta.require "T4" "the chunk loops and the last merge fit max_chunk_loops" scalar = "chunked_loop_num < max_chunk_loops"
    imeta.output "ctx_cached_token_indptr" = @ctx_cached_token_indptr
    imeta.output "ctx_uncached_token_indptr" = @ctx_uncached_token_indptr
    imeta.output "ctx_kv_indptr" = @ctx_kv_indptr
    imeta.output "num_ctx_cached_tokens" = @num_ctx_cached_tokens
    imeta.output "max_ctx_cached_token_len" = @max_ctx_cached_token_len
    imeta.output "max_ctx_kv_len" = @max_ctx_kv_len
    imeta.output "max_ctx_seq_len" = @max_ctx_seq_len
    imeta.output "chunked_loop_num" = @chunked_loop_num
    imeta.output "chunked_seq_len" = @chunked_seq_len
    imeta.output "cu_chunked_seq_len" = @cu_chunked_seq_len
    imeta.output "merge_op_tensor" = @merge_op
  }
  imeta.path @trtllm_mla_gpu target(gpu) extends @trtllm_mla {
  }
}
