// FlashMLA's decode tile scheduler (get_mla_metadata): every sequence's
// KV blocks (block_size_n tokens each, plus a fixed overhead a piece)
// dealt greedily to num_sm_parts SM parts of one payload, a sequence split
// where a part runs out. Folds over the sequences carry the part reached
// and the payload left there; each part's row of tile_scheduler_metadata
// is read from the one sequence in progress at its start and its end.
imeta.spec @flashmla_sched {
  imeta.config @num_sm_parts : i32 {min = 1 : i64}
  imeta.config @block_size_n : i32 {min = 1 : i64}
  imeta.config @fixed_overhead_num_blocks : i32 {min = 1 : i64}
  imeta.input @seqlen_k : i32 {min = 0 : i64}
  imeta.field @klen seq = "seqlen_k"
  imeta.field @blocks seq = "ceildiv(seqlen_k, block_size_n)"
  imeta.field @cost seq = "blocks + fixed_overhead_num_blocks"
  imeta.field @payload scalar = "ceildiv(sum_of(cost), num_sm_parts) + fixed_overhead_num_blocks"
  imeta.field @w scalar = "payload - fixed_overhead_num_blocks"
  // With `l` of its part's payload left: whether the sequence fits there,
  // the blocks it takes there if not, the whole parts it fills after.
  imeta.formula @fits(l) = "l >= blocks + fixed_overhead_num_blocks"
  imeta.formula @first(l) = "max(l - fixed_overhead_num_blocks, 0)"
  imeta.formula @spill(l) = "max(ceildiv(blocks - first(l), w) - 1, 0)"
  // The folds: the payload left and the part reached after each sequence
  // (before the first: nothing left, part -1).
  imeta.field @left seq = "l = prev(); fits(l) ? l - blocks - fixed_overhead_num_blocks : payload - (blocks - first(l) - spill(l) * w) - fixed_overhead_num_blocks"
  imeta.field @part seq = "l = prev(left); p = i == 0 ? -1 : prev(); fits(l) ? p : p + 1 + spill(l)"
  imeta.field @start seq = "i == 0 ? -1 : prev(part)"
  imeta.field @taken seq = "l = prev(left); fits(l) ? 0 : first(l)"
  imeta.field @pieces seq = "l = prev(left); fits(l) ? 1 : int(first(l) > 0) + spill(l) + 1"
  imeta.prefix_sum @num_splits = @pieces : !imeta.prefix<exclusive>
  // Per SM part (a column), what the sequence in progress at its start
  // (begin) and at its end gives it; past the last sequence, its end.
  imeta.formula @done(q) = "i == N - 1 && q >= part"
  imeta.formula @at_begin(q) = "start < q && q <= part"
  imeta.formula @at_end(q) = "start <= q && q < part"
  imeta.formula @now_block(q) = "taken + (q - start) * w"
  imeta.field @begin_idx seq cols(@num_sm_parts) = "at_begin(col) ? i : done(col) && col > part ? N : 0"
  imeta.field @begin_seqlen seq cols(@num_sm_parts) = "at_begin(col) ? block_size_n * now_block(col - 1) : 0"
  imeta.field @begin_split seq cols(@num_sm_parts) = "at_begin(col) ? int(taken > 0) + col - start - 1 : 0"
  imeta.field @end_idx seq cols(@num_sm_parts) = "at_end(col) ? (now_block(col) > 0 ? i : i - 1) : done(col) ? N - 1 : 0"
  imeta.field @end_seqlen seq cols(@num_sm_parts) = "at_end(col) ? (now_block(col) > 0 ? now_block(col) * block_size_n : prev(klen)) : done(col) ? seqlen_k : 0"
  imeta.field @meta_width scalar = "num_sm_parts * 8"
  imeta.field @tile_scheduler_metadata scalar cols(@meta_width) = "q = col / 8; k = col % 8; k == 0 ? sum_of(begin_idx, q) : k == 1 ? sum_of(begin_seqlen, q) : k == 2 ? sum_of(end_idx, q) : k == 3 ? sum_of(end_seqlen, q) : k == 4 ? sum_of(begin_split, q) : 0"
  imeta.path @sched target(cpu) {
    imeta.output "tile_scheduler_metadata" = @tile_scheduler_metadata
    imeta.output "num_splits" = @num_splits
  }
  imeta.path @sched_gpu target(gpu) extends @sched {
  }
}
