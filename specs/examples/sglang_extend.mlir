// SGLang's extend metadata (a prefill over a cached prefix), from the
// scheduler's per-request lengths and its request-to-token table: the
// FlashInfer wrappers (qo_indptr, kv_indptr, kv_indices, kv_last_page_len;
// with `use_ragged` the paged wrapper holds the prefix alone, the new
// tokens go through the ragged one over qo_indptr), the sliding-window
// wrapper (the window plus the new tokens, the last of each request's, as
// SGLang plans it without ragged; its SWA pool's own slot numbering,
// translate_loc_from_full_to_swa, is not modelled) and
// FlashAttention-3's page table (page size > 1; 0 past a request's own
// tokens, where SGLang leaves the table's stale slots, which the kernel
// never reads). `req_to_token` is the engine's 2-D table
// [max_requests, max_context_len], a row per request slot: read where it
// lives, at each sequence's `req_pool_idx` (SPEC-async.md's state, the
// batch file's "state"), not copied into the batch; state is `optional`
// and each path that reads it lists it in `needs`.
imeta.spec @sglang_extend {
  imeta.config @sliding_window : i32 {min = 1 : i64}
  imeta.config @page_size : i32 {min = 1 : i64}
  imeta.config @use_ragged : i1
  imeta.input @req_pool_idx : i32 {optional}
  imeta.input @prefix_len : i32 {min = 0 : i64}
  imeta.input @seq_len : i32 {min = 1 : i64}
  imeta.input @req_to_token : !imeta.list {slot = @req_pool_idx, optional}
  imeta.require "S1" "prefix_len < seq_len" seq = "prefix_len < seq_len"
  imeta.require "S2" "req_to_token holds the request's tokens" seq = "len(req_to_token) >= seq_len"

  imeta.field @extend_len seq = "seq_len - prefix_len"
  imeta.field @k seq = "seq_len"
  imeta.field @paged_len seq = "use_ragged ? prefix_len : seq_len"
  imeta.prefix_sum @qo_indptr = @extend_len : !imeta.prefix<exclusive>
  imeta.prefix_sum @kv_indptr = @paged_len : !imeta.prefix<exclusive>
  imeta.prefix_sum @cu_seqlens_k = @k : !imeta.prefix<exclusive>
  imeta.field @extend_start_loc seq = "qo_indptr[i]"
  imeta.field @positions rows(@extend_len) = "prefix_len + j"
  // The new tokens' KV slots, and every cached token's in request order.
  imeta.field @out_cache_loc rows(@extend_len) = "req_to_token[prefix_len + j]"
  imeta.field @kv_indices rows(@paged_len) = "req_to_token[j]"
  imeta.field @kv_last_page_len seq = "1"

  // Sliding-window layers: the last min(seq_len, window + extend) tokens.
  imeta.field @swa_len seq = "min(seq_len, sliding_window + extend_len)"
  imeta.prefix_sum @swa_kv_indptr = @swa_len : !imeta.prefix<exclusive>
  imeta.field @swa_kv_indices rows(@swa_len) = "req_to_token[seq_len - swa_len + j]"

  // FlashAttention-3: every page_size-th token's slot over the longest
  // request, divided by page_size (0 past a request's own tokens).
  imeta.field @max_seq_len_q scalar = "max_of(extend_len)"
  imeta.field @max_seq_len_k scalar = "max_of(k)"
  imeta.field @num_pages scalar = "ceildiv(max_seq_len_k, page_size)"
  imeta.field @page_table seq cols(@num_pages) = "col * page_size < seq_len ? req_to_token[col * page_size] / page_size : 0"

  imeta.path @flashinfer target(gpu) needs [@req_pool_idx, @req_to_token] {
    imeta.output "qo_indptr" = @qo_indptr
    imeta.output "kv_indptr" = @kv_indptr
    imeta.output "kv_indices" = @kv_indices
    imeta.output "kv_last_page_len" = @kv_last_page_len
    imeta.output "window.kv_indptr" = @swa_kv_indptr
    imeta.output "window.kv_indices" = @swa_kv_indices
    imeta.output "positions" = @positions
    imeta.output "out_cache_loc" = @out_cache_loc
    imeta.output "extend_start_loc" = @extend_start_loc
  }
  imeta.path @fa3 target(gpu) needs [@req_pool_idx, @req_to_token] {
    imeta.output "cu_seqlens_q" = @qo_indptr
    imeta.output "cu_seqlens_k" = @cu_seqlens_k
    imeta.output "cache_seqlens" = @k
    imeta.output "max_seq_len_q" = @max_seq_len_q
    imeta.output "max_seq_len_k" = @max_seq_len_k
    imeta.output "page_table" = @page_table
    imeta.output "positions" = @positions
    imeta.output "out_cache_loc" = @out_cache_loc
  }
}
