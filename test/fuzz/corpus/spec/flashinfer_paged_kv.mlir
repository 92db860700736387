// FlashInfer's paged-KV plan (BatchPrefillWithPagedKVCacheWrapper.plan):
// per sequence q new tokens, k tokens of KV in pages of page_size.
imeta.spec @flashinfer_paged_kv {
  imeta.config @page_size : i32 {min = 1 : i64}
  imeta.input @query_len : i32 {min = 1 : i64}
  imeta.input @kv_len : i32 {min = 1 : i64}
  imeta.input @page_table : !imeta.list {min = 0 : i64}
  imeta.field @q seq = "query_len"
  // The pages sequence i uses.
  imeta.field @num_pages seq = "ceildiv(kv_len, page_size)"
  imeta.require "F1" "page_table holds the sequence's pages" seq =
      "len(page_table) >= num_pages"
  imeta.prefix_sum @qo_indptr = @q : !imeta.prefix<exclusive>
  imeta.prefix_sum @paged_kv_indptr = @num_pages : !imeta.prefix<exclusive>
  // The used pages of every sequence, concatenated.
  imeta.field @paged_kv_indices rows(@num_pages) = "page_table[j]"
  imeta.field @paged_kv_last_page_len seq = "(kv_len - 1) % page_size + 1"
  imeta.path @plan target(cpu) {
    imeta.output "qo_indptr" = @qo_indptr
    imeta.output "paged_kv_indptr" = @paged_kv_indptr
    imeta.output "paged_kv_indices" = @paged_kv_indices
    imeta.output "paged_kv_last_page_len" = @paged_kv_last_page_len
  }
}
