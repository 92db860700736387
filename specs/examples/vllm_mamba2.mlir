// vLLM's Mamba2 metadata (v1 Mamba2AttentionMetadataBuilder.build, without
// speculative decoding; path mamba2_prefix_caching with prefix caching,
// _compute_prefix_caching_block_indices): the batch split into decodes and
// prefills (split_decodes_and_prefills; the runner puts decodes first), the
// prefill-only tensors over the prefills alone, None without a prefill
// (`optional`), the SSD kernels' chunks (none crosses a sequence or a
// multiple of chunk_size of its tokens; cu_chunk_seqlen_p is a prefix sum
// of the chunks' lengths, one entry a chunk and the closing one) and
// causal_conv1d's programs of 8 tokens (compute_causal_conv1d_metadata).
// One departure: without a prefill vLLM leaves nums_dict and the two
// program pointers None; here a scalar (tot, mlist_len: 0) and an output
// padded to rows(@max_programs) (all -1) are given every step.
imeta.spec @vllm_mamba2 {
  imeta.config @chunk_size : i32 {min = 1 : i64}
  imeta.config @mamba_block_size : i32 {min = 1 : i64, optional}
  imeta.config @max_num_blocks : i32 {min = 1 : i64, optional}
  imeta.input @query_len : i32 {min = 1 : i64}
  imeta.input @seq_len : i32 {min = 1 : i64}
  imeta.input @block_table : !imeta.list {min = 0 : i64}
  imeta.require "V1" "query_len <= seq_len" seq = "query_len <= seq_len"
  imeta.require "V2" "a state block" seq = "len(block_table) >= 1"
  imeta.field @is_prefill seq = "query_len > 1" : i1
  imeta.field @prefill seq = "int(is_prefill)"
  imeta.prefix_sum @prefills_before = @prefill : !imeta.prefix<exclusive>
  imeta.require "V3" "decodes come before prefills" seq = "is_prefill || prefills_before[i] == 0"
  imeta.field @computed seq = "seq_len - query_len"
  imeta.field @q_p seq(@is_prefill) = "query_len"
  imeta.prefix_sum @query_start_loc_p = @q_p : !imeta.prefix<exclusive>
  imeta.field @num_prefills scalar = "total(prefills_before)"
  imeta.field @num_decodes scalar = "N - num_prefills"
  imeta.field @num_prefill_tokens scalar = "total(query_start_loc_p)"
  imeta.field @seq_lens seq = "seq_len"
  imeta.field @state_index seq = "block_table[0]"
  imeta.field @has_initial_states_p seq(@is_prefill) = "computed > 0" : i1
  imeta.field @prep_initial_states scalar = "max_of(has_initial_states_p)" : i1
  // Chunks: a first one up to the next multiple of chunk_size where the
  // computed tokens stop short of one, then chunk_size at a time.
  imeta.formula @head(c) = "c % chunk_size == 0 ? 0 : min(chunk_size - c % chunk_size, query_len)"
  imeta.field @chunks seq = "is_prefill ? int(computed % chunk_size != 0) + ceildiv(query_len - head(computed), chunk_size) : 0"
  imeta.prefix_sum @chunks_end = @chunks : !imeta.prefix<inclusive>
  imeta.field @seq_idx_p rows(@chunks) = "prefills_before[i]"
  imeta.field @last_chunk_indices_p seq(@is_prefill) = "chunks_end[i] - 1"
  imeta.field @chunk_len rows(@chunks) = "h = head(computed); h > 0 && j == 0 ? h : min(chunk_size, query_len - h - (h > 0 ? j - 1 : j) * chunk_size)"
  imeta.prefix_sum @cu_chunk_seqlen_p = @chunk_len : !imeta.prefix<exclusive>
  // causal_conv1d: ceil(q / 8) programs a prefill, each its prefill and
  // its block of 8 tokens, padded with -1 to max(1024, programs) * 2.
  imeta.field @nums_p seq(@is_prefill) = "ceildiv(query_len, 8)"
  imeta.field @programs seq = "is_prefill ? ceildiv(query_len, 8) : 0"
  imeta.field @tot scalar = "sum_of(programs)"
  imeta.field @max_programs scalar = "max(1024, tot) * 2"
  imeta.field @mlist rows(@programs) = "prefills_before[i]"
  imeta.field @offsetlist rows(@programs) = "j"
  imeta.path @mamba2 target(cpu) {
    imeta.output "num_decodes" = @num_decodes
    imeta.output "num_prefills" = @num_prefills
    imeta.output "num_decode_tokens" = @num_decodes
    imeta.output "num_prefill_tokens" = @num_prefill_tokens
    imeta.output "seq_lens" = @seq_lens
    imeta.output "state_indices_tensor" = @state_index fill(-1)
    imeta.output "prep_initial_states" = @prep_initial_states
    imeta.output "query_start_loc_p" = @query_start_loc_p optional
    imeta.output "has_initial_states_p" = @has_initial_states_p optional
    imeta.output "seq_idx_p" = @seq_idx_p optional
    imeta.output "cu_chunk_seqlen_p" = @cu_chunk_seqlen_p optional
    imeta.output "last_chunk_indices_p" = @last_chunk_indices_p optional
    imeta.output "nums_dict.block8.nums" = @nums_p optional
    imeta.output "nums_dict.block8.tot" = @tot
    imeta.output "nums_dict.block8.mlist" = @mlist optional
    imeta.output "nums_dict.block8.mlist_len" = @tot
    imeta.output "nums_dict.block8.offsetlist" = @offsetlist optional
    imeta.output "batch_ptr" = @mlist fill(-1) rows(@max_programs)
    imeta.output "token_chunk_offset_ptr" = @offsetlist fill(-1) rows(@max_programs)
  }
  imeta.path @mamba2_gpu target(gpu) extends @mamba2 {
  }
  // Prefix caching: each request's whole block table (padded with 0 to
  // max_num_blocks, a tensor's row) and the blocks that hold its state.
  imeta.field @state_table seq cols(@max_num_blocks) = "col < len(block_table) ? block_table[col] : 0"
  imeta.field @block_idx_last_computed_token seq = "max(ceildiv(computed, mamba_block_size) - 1, 0)"
  imeta.field @block_idx_last_scheduled_token seq = "max(ceildiv(seq_len, mamba_block_size) - 1, 0)"
  imeta.field @block_idx_first_scheduled_token_p seq(@is_prefill) = "ceildiv(computed + 1, mamba_block_size) - 1"
  imeta.field @num_computed_tokens_p seq(@is_prefill) = "computed"
  imeta.path @mamba2_prefix_caching target(cpu) extends @mamba2 needs [@mamba_block_size, @max_num_blocks] {
    imeta.require "V4" "a block table fits max_num_blocks" seq = "len(block_table) <= max_num_blocks"
    imeta.output "state_indices_tensor" = @state_table
    imeta.output "block_idx_last_computed_token" = @block_idx_last_computed_token
    imeta.output "block_idx_last_scheduled_token" = @block_idx_last_scheduled_token
    imeta.output "block_idx_first_scheduled_token_p" = @block_idx_first_scheduled_token_p optional
    imeta.output "num_computed_tokens_p" = @num_computed_tokens_p optional
  }
}
