// The DeepInfer V4 input metadata (../shared/SPEC.md), for the paths
// prompt, decode and decode_zos, and the GPU paths with their expansions.
// Every field's meaning is its formula here; no backend knows any field by
// name.
//
// Notation as in SPEC.md: q = seqlen_q, k = seqlen_k, s = k - q (query
// start), j the row within the sequence, pos = s + j, n a ratio,
// bc(n) = block_size / n, B/W/S = block_size/window_size/swa_block_size.

imeta.spec @deepinfer_v4 attributes {overflow_rule = "R6"} {
  //===--------------------------------------------------------------------===//
  // Config (one per batch) and its rules (R1)
  //===--------------------------------------------------------------------===//
  imeta.config @block_size : i32 {min = 1 : i64, rule = "R1"}
  imeta.config @window_size : i32 {min = 1 : i64, rule = "R1"}
  imeta.config @swa_block_size : i32 {min = 1 : i64, rule = "R1"}
  imeta.ratios @dense_ratios {rule = "R1"}
  imeta.ratios @sparse_ratios {rule = "R1"}
  imeta.ratio_union @ca_ratios = [@dense_ratios, @sparse_ratios]
  imeta.config @max_model_len : i32 {min = 1 : i64, rule = "R1"}
  imeta.config @max_num_blocks : i32 {min = 0 : i64, rule = "R1"}
  imeta.config @force_load_balance : i1 {rule = "R1"}

  imeta.require "R1" "swa_block_size >= window_size" scalar = "swa_block_size >= window_size"
  imeta.require "R1" "ca_ratios (dense_ratios + sparse_ratios) is non-empty" scalar = "ratio_count(ca_ratios) > 0"
  imeta.require "R1" "every ratio divides block_size" scalar over @ca_ratios = "block_size % n == 0"

  //===--------------------------------------------------------------------===//
  // Sequence inputs and their rules (R2, R3)
  //===--------------------------------------------------------------------===//
  imeta.input @seqlen_q : i32 {min = 1 : i64, rule = "R3"}
  imeta.input @seqlen_k : i32 {min = 1 : i64, rule = "R3"}
  // Resident: an engine keeps its block tables across steps (padded rows
  // and lengths, on the device); the generated API reads them in place.
  imeta.input @block_table : !imeta.list {min = 0 : i64, resident, rule = "R3"}
  imeta.input @state_id : i32 {min = 0 : i64, rule = "R3"}
  imeta.input @is_placeholder : i1 {optional}
  imeta.input @swa_valid_start : i32 {min = 0 : i64, optional, rule = "R3"}
  imeta.input @token_ids : !imeta.list
  imeta.input @draft_tokens : !imeta.list {optional}

  imeta.require "R2" "the batch has at least one sequence" scalar = "N >= 1"
  imeta.require "R3" "seqlen_q <= seqlen_k" seq = "q <= k"
  imeta.require "R3" "seqlen_k <= max_model_len" seq = "k <= max_model_len"
  imeta.require "R3" "block_table has at least num_blocks entries" seq = "len(block_table) >= num_blocks"

  //===--------------------------------------------------------------------===//
  // Per-sequence quantities shared by every path
  //===--------------------------------------------------------------------===//
  imeta.field @q seq = "seqlen_q"
  imeta.field @k seq = "seqlen_k"
  // s = k - q: the absolute position of the sequence's first query token.
  imeta.field @query_start seq = "k - q"
  // num_blocks(i) = ceil((k / r0) / bc(r0)), r0 = min(ca_ratios).
  imeta.field @num_blocks seq = "r0 = ratio_min(ca_ratios); ceildiv(k / r0, block_size / r0)"
  imeta.field @state seq = "state_id"
  imeta.prefix_sum @cu_seqlens_q = @q : !imeta.prefix<exclusive>
  imeta.prefix_sum @cu_seqlens_q_inclusive = @q : !imeta.prefix<inclusive>
  imeta.prefix_sum @cu_seqlens_k = @k : !imeta.prefix<exclusive>

  // bc(n) = block_size / n: compressed tokens per block.
  imeta.field @tokens_per_block scalar over @ca_ratios = "block_size / n"
  // max(1, k / n): a sequence's compressed keys after loading, where an
  // empty history still takes one (zero-filled) row. Used by the compressed
  // prefix sums, ks/ke, the kv_ca offsets and the paged load plan.
  imeta.field @compressed_len seq over @ca_ratios = "max(k / n, 1)"
  imeta.prefix_sum @cu_compressed_seqlens_k = @compressed_len : !imeta.prefix<exclusive>
  imeta.field @total_k_compressed scalar over @ca_ratios = "total(cu_compressed_seqlens_k)"
  // Where sequence i's compressed keys start in the loaded buffer.
  imeta.field @compressed_start seq over @ca_ratios = "cu_compressed_seqlens_k[i]"

  //===--------------------------------------------------------------------===//
  // Per-row fields shared by every path
  //===--------------------------------------------------------------------===//
  imeta.field @positions rows(@q) = "query_start + j"
  imeta.field @gate_force_random rows(@q) = "force_load_balance" : i1
  imeta.field @valid_token_mask rows(@q) = "!is_placeholder" : i1
  // Only the last S query rows stay in the ring; placeholders write no KV.
  imeta.field @slot_mapping_store_swa rows(@q) = "select(q - j <= swa_block_size && !is_placeholder, state * swa_block_size + positions % swa_block_size, -1)"

  //===--------------------------------------------------------------------===//
  // Prompt
  //===--------------------------------------------------------------------===//
  imeta.field @prompt_input_ids rows(@q) = "token_ids[positions]"

  // block_table[c / bc]·bc + c % bc: where compressed token c of the
  // sequence lives in the paged compressed cache (bc = tokens_per_block).
  imeta.formula @ca_slot(c) = "bc = tokens_per_block; block_table[c / bc] * bc + c % bc"
  // The same for p, an offset into the flattened [T, max_num_blocks]
  // table (row r's slice starts at r·max_num_blocks blocks).
  imeta.formula @ca_slot_in_row(p) = "bc = tokens_per_block; block_table[p / bc - r * max_num_blocks] * bc + p % bc"
  // ncq(i) = max(1, k/n - s/n): new compressed rows, at least one.
  imeta.field @new_compressed_rows seq over @ca_ratios = "max(k / n - query_start / n, 1)"
  imeta.prefix_sum @cu_seqlens_cq = @new_compressed_rows : !imeta.prefix<exclusive>
  // The compressed index c = s/n + t of new compressed row t, or -1 for the
  // placeholder row of an empty range and for placeholder sequences.
  imeta.field @new_compressed_index rows(@new_compressed_rows) over @ca_ratios = "c = query_start / n + j; select(c < k / n && !is_placeholder, c, -1)"
  imeta.field @prompt_positions_c rows(@new_compressed_rows) over @ca_ratios = "c = new_compressed_index; select(c >= 0, c * n, 0)"
  // block_table[c / bc]·bc + c % bc, or -1 where no row is written.
  imeta.field @prompt_slot_mapping_store_ca rows(@new_compressed_rows) over @ca_ratios = "c = new_compressed_index; c >= 0 ? ca_slot(c) : -1"

  // Paged load plan: m = k / n compressed keys in ceil(m / bc) block rows,
  // then the zero-fill of compressed_len - m rows (one when m = 0).
  imeta.field @ca_load_rows seq over @ca_ratios = "m = k / n; ceildiv(m, tokens_per_block) + int(compressed_len > m)"
  // Row b: (block, 0, count, dst) for paged block b of the keys, then
  // (-1, 0, zero rows, dst) for the zero-fill.
  imeta.field @load_segments_ca rows(@ca_load_rows) over @ca_ratios = "m = k / n; bc = tokens_per_block; paged = j < ceildiv(m, bc); lo = paged ? j * bc : m; paged ? block_table[j] : -1, 0, paged ? min(m, lo + bc) - lo : compressed_len - m, compressed_start + lo"

  // ks/ke: the compressed keys row r may see, [ks, ke).
  imeta.field @ks rows(@q) over @sparse_ratios = "compressed_start"
  imeta.field @visible_compressed rows(@q) over @ca_ratios = "(positions + 1) / n"
  imeta.field @ke rows(@q) over @sparse_ratios = "compressed_start + visible_compressed"
  imeta.field @prompt_kv_ca_index_offset_len rows(@q) over @dense_ratios = "compressed_start, visible_compressed"

  imeta.field @total_k_swa scalar = "N * window_size"

  // SWA load plan. Sequence i owns history rows [i·W, i·W + W) holding
  // positions [hb, he), he = s, hb = s - W; the first pad of them are
  // zero-filled (below swa_valid_start or before the sequence began), the
  // ring range [vb, he) is copied in at most two runs (the ring wraps once,
  // as he - vb <= W <= S).
  // pad = clamp(swa_valid_start - hb, 0, W), written as
  // max(0, min(swa_valid_start, s) - hb) so no intermediate can overflow.
  imeta.field @swa_pad seq = "s = query_start; max(min(swa_valid_start, s) - (s - window_size), 0)"
  // Length of the ring range [vb, he): W - pad.
  imeta.field @swa_ring_len seq = "window_size - swa_pad"
  // Length of the first run, up to the end of the ring.
  imeta.field @swa_first_run seq = "S = swa_block_size; vb = query_start - window_size + swa_pad; min(swa_ring_len, S - vb % S)"
  imeta.field @swa_load_rows seq = "int(swa_pad > 0) + int(swa_ring_len > 0) + int(swa_first_run < swa_ring_len)"
  // Row t: the zero-fill (-1, 0, pad, home) where pad > 0, then ring run
  // u = 0, 1: (state, begin slot, end slot, home + pad + what run 0 took).
  imeta.field @load_segments_swa rows(@swa_load_rows) = "u = j - int(swa_pad > 0); fill = u < 0; second = u == 1; skip = select(second, swa_first_run, 0); begin = (query_start - window_size + swa_pad + skip) % swa_block_size; fill ? -1 : state, fill ? 0 : begin, fill ? swa_pad : begin + select(second, swa_ring_len - swa_first_run, swa_first_run), i * window_size + (fill ? 0 : swa_pad + skip)"

  // SWA pivots (P0, P1, P2, P3): row r sees history rows [P0, P0 + P1) and
  // this step's keys [P2, P2 + P3).
  // abs_lo = min(max(pos - W + 1, swa_valid_start, 0), pos + 1): the lowest
  // position row r may see.
  imeta.field @pivot_abs_lo rows(@q) = "p1 = positions + 1; min(max(max(p1 - window_size, swa_valid_start), 0), p1)"
  // start_slot = min(abs_lo, s) - (s - W): where the visible history starts
  // in the sequence's W history rows; k_lo = max(0, abs_lo - s): the first
  // of this step's keys the row sees.
  imeta.formula @swa_start_slot(abs_lo) = "s = query_start; min(abs_lo, s) - (s - window_size)"
  imeta.formula @swa_k_lo(abs_lo) = "max(abs_lo - query_start, 0)"
  imeta.field @pivot_start_slot rows(@q) = "swa_start_slot(pivot_abs_lo)"
  imeta.field @pivot_k_lo rows(@q) = "swa_k_lo(pivot_abs_lo)"
  // P0 = i·W + start_slot, P1 = W - start_slot, P2 = N·W + cu_q[i] + k_lo
  // (this step's keys follow all history), P3 = j - k_lo + 1.
  imeta.field @pivot_p0 rows(@q) = "i * window_size + pivot_start_slot"
  imeta.field @pivot_p1 rows(@q) = "window_size - pivot_start_slot"
  imeta.field @pivot_p2 rows(@q) = "N * window_size + cu_seqlens_q[i] + pivot_k_lo"
  imeta.field @pivot_p3 rows(@q) = "j - pivot_k_lo + 1"
  imeta.field @kv_swa_full_index_pivots rows(@q) = "pivot_p0, pivot_p1, pivot_p2, pivot_p3"

  imeta.field @state_block_idx seq = "state"

  imeta.path @prompt target(cpu) {
    imeta.require "R4" "token_ids has at least seqlen_k entries" seq = "len(token_ids) >= k"
    imeta.require "R4" "draft_tokens is empty" seq = "len(draft_tokens) == 0"
    imeta.output "cu_seqlens_q" = @cu_seqlens_q
    imeta.output "cu_seqlens_k" = @cu_seqlens_k
    imeta.output "positions" = @positions
    imeta.output "input_ids" = @prompt_input_ids
    imeta.output "gate_force_random" = @gate_force_random
    imeta.output "valid_token_mask" = @valid_token_mask
    imeta.output "state_block_idx" = @state_block_idx
    imeta.output "slot_mapping_store_swa" = @slot_mapping_store_swa
    imeta.output "cu_compressed_seqlens_k" = @cu_compressed_seqlens_k
    imeta.output "total_k_compressed" = @total_k_compressed
    imeta.output "positions_c" = @prompt_positions_c
    imeta.output "slot_mapping_store_ca" = @prompt_slot_mapping_store_ca
    imeta.output "cu_seqlens_cq" = @cu_seqlens_cq
    imeta.output "load_segments_ca" = @load_segments_ca
    imeta.output "ks" = @ks
    imeta.output "ke" = @ke
    imeta.output "kv_ca_index_offset_len" = @prompt_kv_ca_index_offset_len
    imeta.output "total_k_swa" = @total_k_swa
    imeta.output "load_segments_swa" = @load_segments_swa
    imeta.output "kv_swa_full_index_pivots" = @kv_swa_full_index_pivots
  }

  //===--------------------------------------------------------------------===//
  // Decode (decode: CPU routine; decode_zos: GPU kernel, same fields)
  //===--------------------------------------------------------------------===//
  // The last confirmed token, the last entry of token_ids (token_ids[s]
  // when the whole history is given; R5 also accepts that token alone):
  // read once per sequence, so the per-row code never needs the history.
  imeta.field @last_token seq = "token_ids[len(token_ids) - 1]"
  // j = 0: the last confirmed token; j >= 1: draft j - 1.
  imeta.field @decode_input_ids rows(@q) = "j == 0 ? last_token : draft_tokens[j - 1]"
  // Placeholders get a sentinel far beyond any batch, so that indexing with
  // it faults instead of reading a wrong row.
  imeta.field @query_indices rows(@q) = "select(is_placeholder, 998244353, i)"
  imeta.field @context_lens rows(@q) = "positions + 1"
  imeta.field @decode_state_block_idx rows(@q) = "state"
  imeta.field @block_tables rows(@q) cols(@max_num_blocks) live(@num_blocks) = "block_table[col]"
  // The compressed index c = pos / n when row r closes a compressed block
  // ((pos + 1) % n = 0) of a real sequence, else -1.
  imeta.field @closed_compressed_index rows(@q) over @ca_ratios = "select((positions + 1) % n == 0 && !is_placeholder, positions / n, -1)"
  imeta.field @decode_positions_c rows(@q) over @ca_ratios = "c = closed_compressed_index; select(c >= 0, c * n, 0)"
  imeta.field @decode_slot_mapping_store_ca rows(@q) over @ca_ratios = "c = closed_compressed_index; c >= 0 ? ca_slot(c) : -1"
  imeta.field @klen rows(@q) over @sparse_ratios = "visible_compressed"
  // The ring window of row r: w = min(pos + 1, W) slots ending at pos,
  // starting at ring slot offset.
  imeta.field @swa_window rows(@q) = "min(positions + 1, window_size)"
  imeta.field @swa_window_offset rows(@q) = "S = swa_block_size; state * S + (positions + 1 - swa_window) % S"
  imeta.field @kv_swa_index_offset_len rows(@q) = "swa_window_offset, swa_window"
  // Row r's slice of the flattened [T, max_num_blocks] block table, in
  // compressed tokens.
  imeta.field @decode_kv_ca_offset rows(@q) over @dense_ratios = "r * max_num_blocks * tokens_per_block"
  imeta.field @decode_kv_ca_index_offset_len rows(@q) over @dense_ratios = "decode_kv_ca_offset, visible_compressed"

  //===--------------------------------------------------------------------===//
  // Expansions (SPEC.md §3.4, §4): dense index rows, -1 past their length
  //===--------------------------------------------------------------------===//
  // The dense expansions' width, 128-aligned: ceil((max_model_len / n) /
  // 128) · 128.
  imeta.field @kv_ca_width scalar over @dense_ratios = "ceildiv(max_model_len / n, 128) * 128"
  // Decode: kv_ca_index.n[r, t] = block_tables_flat[p / bc]·bc + p % bc,
  // p = offset + t, for t < len; row r's table is its sequence's.
  imeta.field @decode_kv_ca_index rows(@q) over @dense_ratios cols(@kv_ca_width) = "t = col; t < visible_compressed ? ca_slot_in_row(decode_kv_ca_offset + t) : -1"
  // Decode: kv_swa_index[r, t] = base + (offset - base + t) % S for t < len,
  // base = (offset / S)·S (the sequence's ring).
  imeta.field @kv_swa_index rows(@q) cols(@window_size) = "t = col; off = swa_window_offset; S = swa_block_size; base = off / S * S; select(t < swa_window, base + (off - base + t) % S, -1)"
  // Prompt: kv_swa_full_index[r, 0:P1] = P0 + t, [P1:P1+P3] = P2 + t - P1.
  imeta.field @kv_swa_full_index rows(@q) cols(@window_size) = "t = col; P1 = pivot_p1; select(t < P1, pivot_p0 + t, select(t < P1 + pivot_p3, pivot_p2 + (t - P1), -1))"
  // Prompt: kv_ca_index.n[r, t] = offset + t for t < len.
  imeta.field @prompt_kv_ca_index rows(@q) over @dense_ratios cols(@kv_ca_width) = "t = col; select(t < visible_compressed, compressed_start + t, -1)"

  imeta.path @decode target(cpu) {
    // The whole confirmed history, or its last token alone (what an engine
    // holds per step); only the last entry is read.
    imeta.require "R5" "token_ids has exactly seqlen_k - seqlen_q + 1 entries or exactly 1" seq = "len(token_ids) == query_start + 1 || len(token_ids) == 1"
    imeta.require "R5" "draft_tokens has exactly seqlen_q - 1 entries" seq = "len(draft_tokens) == q - 1"
    imeta.require "R5" "num_blocks <= max_num_blocks" seq = "num_blocks <= max_num_blocks"
    // Decode writes its rows into the ring before reading: a smaller ring
    // would let the last draft overwrite a slot the first row still reads.
    imeta.require "R5" "swa_block_size >= window_size + seqlen_q - 1" seq {
      %S = imeta.get_config @swa_block_size : i32
      %W = imeta.get_config @window_size : i32
      %q = imeta.get @q : i32
      %S64 = arith.extsi %S : i32 to i64
      %W64 = arith.extsi %W : i32 to i64
      %q64 = arith.extsi %q : i32 to i64
      %c1 = arith.constant 1 : i64
      %wq = arith.addi %W64, %q64 : i64
      %need = arith.subi %wq, %c1 : i64
      %ok = arith.cmpi sge, %S64, %need : i64
      imeta.yield %ok : i1
    }
    // The dense expansion indexes the flattened block table up to
    // T · max_num_blocks · bc(n) compressed tokens.
    imeta.require "R6" "total_q * max_num_blocks * block_size / n fits in int32" scalar over @dense_ratios {
      %T = imeta.prefix_total @cu_seqlens_q : i32
      %mnb = imeta.get_config @max_num_blocks : i32
      %bc = imeta.get @tokens_per_block : i32
      %T64 = arith.extsi %T : i32 to i64
      %mnb64 = arith.extsi %mnb : i32 to i64
      %bc64 = arith.extsi %bc : i32 to i64
      %tm = arith.muli %T64, %mnb64 : i64
      %all = arith.muli %tm, %bc64 : i64
      %max = arith.constant 2147483647 : i64
      %ok = arith.cmpi sle, %all, %max : i64
      imeta.yield %ok : i1
    }
    imeta.output "cu_seqlens_q" = @cu_seqlens_q
    imeta.output "positions" = @positions
    imeta.output "input_ids" = @decode_input_ids
    imeta.output "gate_force_random" = @gate_force_random
    imeta.output "valid_token_mask" = @valid_token_mask
    imeta.output "query_indices" = @query_indices
    imeta.output "context_lens" = @context_lens
    imeta.output "state_block_idx" = @decode_state_block_idx
    imeta.output "block_tables" = @block_tables
    imeta.output "slot_mapping_store_swa" = @slot_mapping_store_swa
    imeta.output "positions_c" = @decode_positions_c
    imeta.output "slot_mapping_store_ca" = @decode_slot_mapping_store_ca
    imeta.output "klen" = @klen
    imeta.output "kv_swa_index_offset_len" = @kv_swa_index_offset_len
    imeta.output "kv_ca_index_offset_len" = @decode_kv_ca_index_offset_len
  }

  // The graph-captured path (SPEC.md §4): decode's fields and rules, but
  // the inclusive [N] cu_seqlens_q the ZOS kernel produces.
  imeta.path @decode_zos target(gpu) extends @decode {
    imeta.output "cu_seqlens_q" = @cu_seqlens_q_inclusive
  }

  // decode_zos with its expansions (SPEC.md §4, "Expansions (GPU)") in the
  // same launch: the dense index rows the attention kernels read.
  imeta.path @decode_zos_expanded target(gpu) extends @decode_zos {
    imeta.output "kv_swa_index" = @kv_swa_index
    imeta.output "kv_ca_index" = @decode_kv_ca_index
  }

  // Prompt on the GPU with its expansions: the prompt's fields, then the
  // dense index rows the attention kernels read.
  imeta.path @prompt_expanded target(gpu) extends @prompt {
    imeta.output "kv_swa_full_index" = @kv_swa_full_index
    imeta.output "kv_ca_index" = @prompt_kv_ca_index
  }

  //===--------------------------------------------------------------------===//
  // MTP varlen decode (SPEC-variants.md §7): decode_zos, each sequence
  // verifying its own number of drafts, 1 <= q <= nextn + 1 (R10). Every
  // decode row formula already reads its own q and the varlen row.
  //===--------------------------------------------------------------------===//
  imeta.config @nextn : i32 {min = 0 : i64, optional, rule = "R10"}
  imeta.path @decode_varlen target(gpu) extends @decode_zos needs [@nextn] {
    imeta.require "R10" "seqlen_q <= nextn + 1" seq = "q <= nextn + 1"
    imeta.output "seqlens_q" = @q
  }

  //===--------------------------------------------------------------------===//
  // Decode on request state kept on the device (../shared/SPEC-async.md):
  // each sequence names a request slot; its q, k, last token, drafts,
  // state id and block table are read from the engine's arrays at that
  // slot; slot -1 (a placeholder) reads none: q = k = 1, token 0, state 0,
  // a block table of num_blocks zeros. The fields are decode_varlen's of
  // the resolved batch (R11, then R1-R6 and R10).
  //===--------------------------------------------------------------------===//
  // In [-1, slots): checked where the state is read (a slot has no `min`
  // of its own, so that the first sequence out of range is named first).
  imeta.input @slot : i32 {optional, rule = "R11"}
  imeta.input @num_computed : i32 {slot = @slot, min = 0 : i64, optional, rule = "R11"}
  imeta.input @slot_last_token : i32 {slot = @slot, key = "last_token", optional, rule = "R11"}
  imeta.input @num_drafts : i32 {slot = @slot, min = 0 : i64, optional, rule = "R11"}
  imeta.input @slot_draft_tokens : !imeta.list {slot = @slot, key = "draft_tokens", width = @nextn, optional, rule = "R11"}
  imeta.input @slot_state_id : i32 {slot = @slot, key = "state_id", optional, rule = "R11"}
  imeta.input @slot_block_table : !imeta.list {slot = @slot, key = "block_table", optional, rule = "R11"}
  // The resolved sequence (SPEC-async.md §3). At slot -1 a state input
  // reads 0 (a list: empty), which gives q = k = 1, token 0, state 0.
  imeta.field @async_seqlen_q seq = "1 + num_drafts"
  imeta.field @async_seqlen_k seq = "num_computed + async_seqlen_q"
  imeta.field @async_state_id seq = "slot_state_id"
  imeta.field @async_token_count seq = "1"
  imeta.field @async_token_ids rows(@async_token_count) = "slot_last_token"
  imeta.field @async_draft_count seq = "num_drafts"
  imeta.field @async_draft_tokens rows(@async_draft_count) = "slot_draft_tokens[j]"
  // Slot -1: num_blocks(i) zeros, at k = 1.
  imeta.field @async_block_count seq = "r0 = ratio_min(ca_ratios); slot >= 0 ? len(slot_block_table) : ceildiv(1 / r0, block_size / r0)"
  imeta.field @async_block_table rows(@async_block_count) = "slot >= 0 ? slot_block_table[j] : 0"
  imeta.field @async_swa_valid_start seq = "0"
  imeta.path @decode_async target(gpu) extends @decode_varlen needs [@slot, @num_computed, @slot_last_token, @num_drafts, @slot_draft_tokens, @slot_state_id, @slot_block_table] {
    imeta.require "R11" "slot is -1 only for a placeholder" seq = "slot >= 0 || is_placeholder"
    imeta.require "R11" "num_drafts <= nextn" seq = "num_drafts <= nextn"
    imeta.resolve @seqlen_q = @async_seqlen_q
    imeta.resolve @seqlen_k = @async_seqlen_k
    imeta.resolve @token_ids = @async_token_ids
    imeta.resolve @draft_tokens = @async_draft_tokens
    imeta.resolve @state_id = @async_state_id
    imeta.resolve @block_table = @async_block_table
    imeta.resolve @swa_valid_start = @async_swa_valid_start
  }

  //===--------------------------------------------------------------------===//
  // The CP mirror (SPEC-variants.md §2.1, §3): sequence i's query rows cut
  // into 2p pieces of ps = ceil(q / 2p) rows; rank rho holds piece rho and
  // piece 2p - 1 - rho, each padded to ps rows, sequence after sequence.
  //===--------------------------------------------------------------------===//
  imeta.config @cp_size : i32 {min = 1 : i64, optional, rule = "R7"}
  imeta.config @cp_rank : i32 {min = 0 : i64, optional, rule = "R7"}
  imeta.field @cp_piece seq = "ceildiv(q, 2 * cp_size)"
  imeta.field @cp_mirror_rows seq = "2 * cp_piece"
  imeta.prefix_sum @cu_mirror = @cp_mirror_rows : !imeta.prefix<exclusive>
  imeta.field @cp_mirror_len scalar = "total(cu_mirror)"
  // Mirror row m (m = j within the sequence) of pieces of ps rows takes
  // local row u: piece b = rho (first half) or 2p - 1 - rho (second), row
  // m % ps of it.
  imeta.formula @mirror_row(m, ps) = "h = m / ps; b = h == 0 ? cp_rank : 2 * cp_size - 1 - cp_rank; b * ps + m - h * ps"
  // Local row u of a sequence whose mirror starts at `start` in every
  // rank's mirror of `len` rows: its row in their all-gather. Rank
  // rho' = b or 2p - 1 - b holds piece b, in its first or second half.
  imeta.formula @mirror_reverse(u, ps, len, start) = "b = u / ps; low = b < cp_size; rk = low ? b : 2 * cp_size - 1 - b; rk * len + start + (low ? 0 : ps) + u % ps"
  // Its row in the sequence's query rows, -1 on a pad row: what the
  // gathered fields read (a negative row gathers the pad value).
  imeta.field @mirror_local rows(@cp_mirror_rows) = "u = mirror_row(j, cp_piece); u < q ? u : -1"
  imeta.field @mirror_cp_index rows(@cp_mirror_rows) = "mirror_local >= 0 ? cu_seqlens_q[i] + mirror_local : -1"
  imeta.field @cp_positions rows(@cp_mirror_rows) = "gather(positions, mirror_local)"
  imeta.field @cp_gate_force_random rows(@cp_mirror_rows) = "gather(gate_force_random, mirror_local)" : i1
  imeta.field @cp_valid_token_mask rows(@cp_mirror_rows) = "mirror_row(j, cp_piece) < q && !is_placeholder" : i1
  imeta.field @cp_ks rows(@cp_mirror_rows) over @sparse_ratios = "mirror_row(j, cp_piece) < q ? compressed_start : 0"
  imeta.field @cp_ke rows(@cp_mirror_rows) over @sparse_ratios = "u = mirror_row(j, cp_piece); u < q ? compressed_start + (query_start + u + 1) / n : 0"
  // The expansions under CP (§3): the prompt's rows gathered through the
  // mirror, all columns -1 on a pad row. Gathered as the per-row values
  // they expand (the SWA pivots, the visible compressed length), then
  // expanded as kv_swa_full_index and kv_ca_index are: the same rows,
  // without recomputing a row's pivots for each of its columns.
  imeta.field @cp_pivot_p0 rows(@cp_mirror_rows) = "gather(pivot_p0, mirror_local)"
  imeta.field @cp_pivot_p1 rows(@cp_mirror_rows) = "gather(pivot_p1, mirror_local)"
  imeta.field @cp_pivot_p2 rows(@cp_mirror_rows) = "gather(pivot_p2, mirror_local)"
  imeta.field @cp_pivot_p3 rows(@cp_mirror_rows) = "gather(pivot_p3, mirror_local)"
  imeta.field @cp_kv_swa_full_index rows(@cp_mirror_rows) cols(@window_size) =
      "mirror_local < 0 ? -1 : col < cp_pivot_p1 ? cp_pivot_p0 + col : col < cp_pivot_p1 + cp_pivot_p3 ? cp_pivot_p2 + col - cp_pivot_p1 : -1"
  imeta.field @cp_visible_compressed rows(@cp_mirror_rows) over @dense_ratios = "gather(visible_compressed, mirror_local)"
  imeta.field @cp_kv_ca_index rows(@cp_mirror_rows) over @dense_ratios cols(@kv_ca_width) =
      "mirror_local >= 0 && col < cp_visible_compressed ? compressed_start + col : -1"
  imeta.field @mirror_cp_reverse_index rows(@q) = "mirror_reverse(j, cp_piece, cp_mirror_len, cu_mirror[i])"

  imeta.path @prompt_cp target(cpu) extends @prompt needs [@cp_size, @cp_rank] {
    imeta.require "R7" "cp_rank < cp_size" scalar = "cp_rank < cp_size"
    imeta.output "mirror_cp_index" = @mirror_cp_index
    imeta.output "cp_mirror_len" = @cp_mirror_len
    imeta.output "mirror_cp_reverse_index" = @mirror_cp_reverse_index
    imeta.output "positions" = @cp_positions
    imeta.output "positions_cp" = @positions
    imeta.output "gate_force_random" = @cp_gate_force_random
    imeta.output "gate_force_random_cp" = @gate_force_random
    imeta.output "valid_token_mask" = @cp_valid_token_mask
    imeta.output "ks" = @cp_ks
    imeta.output "ke" = @cp_ke
  }
  // The mirror alone on the GPU, one launch (prompt_cp's new fields).
  imeta.path @prompt_cp_mirror target(gpu) needs [@cp_size, @cp_rank] {
    imeta.require "R7" "cp_rank < cp_size" scalar = "cp_rank < cp_size"
    imeta.output "mirror_cp_index" = @mirror_cp_index
    imeta.output "cp_mirror_len" = @cp_mirror_len
    imeta.output "mirror_cp_reverse_index" = @mirror_cp_reverse_index
    imeta.output "positions" = @cp_positions
    imeta.output "gate_force_random" = @cp_gate_force_random
    imeta.output "valid_token_mask" = @cp_valid_token_mask
    imeta.output "ks" = @cp_ks
    imeta.output "ke" = @cp_ke
  }
  // The mirror and the gathered expansions ([Tm, W]) on the GPU, one
  // launch.
  imeta.path @prompt_cp_expanded target(gpu) extends @prompt_cp_mirror {
    imeta.output "kv_swa_full_index" = @cp_kv_swa_full_index
    imeta.output "kv_ca_index" = @cp_kv_ca_index
  }

  //===--------------------------------------------------------------------===//
  // YoCo truncation (SPEC-variants.md §4): the consumer layers compute the
  // prompt's last K tokens, the rectangle [data_len - K, data_len); a chunk
  // drops its first clip rows (keeping at least its last).
  //===--------------------------------------------------------------------===//
  imeta.config @yoco_prefill_keep_tokens : i32 {min = 0 : i64, optional, rule = "R8"}
  imeta.input @data_len : i32 {optional, rule = "R8"}
  imeta.field @yoco_rect_lo seq = "max(0, data_len - yoco_prefill_keep_tokens)"
  imeta.field @yoco_clip seq = "clamp(data_len - yoco_prefill_keep_tokens - query_start, 0, q - 1)"
  imeta.field @yoco_kept seq = "q - yoco_clip"
  imeta.prefix_sum @yoco_cu_qc = @yoco_kept : !imeta.prefix<exclusive>
  imeta.field @yoco_total_q scalar = "total(yoco_cu_qc)"
  // The lowest position row jj sees under YoCo: also not below rect_lo.
  imeta.formula @yoco_abs_lo(jj) = "pos = query_start + jj; min(max(max(pos + 1 - window_size, yoco_rect_lo), max(swa_valid_start, 0)), pos + 1)"
  imeta.field @yoco_mask_swa_index_pivots rows(@q) = "lo = yoco_abs_lo(j); s1 = swa_start_slot(lo); kl = swa_k_lo(lo); i * window_size + s1, window_size - s1, N * window_size + cu_seqlens_q[i] + kl, j - kl + 1"
  // The compact view: kept row j of a sequence is its row jj = clip + j.
  imeta.field @yoco_consumer_query_indices rows(@yoco_kept) = "cu_seqlens_q[i] + yoco_clip + j"
  imeta.field @yoco_consumer_positions rows(@yoco_kept) = "query_start + yoco_clip + j"
  imeta.field @yoco_consumer_slot_mapping_store_swa rows(@yoco_kept) = "jj = yoco_clip + j; pos = query_start + jj; !is_placeholder && pos >= yoco_rect_lo && q - jj <= swa_block_size ? state * swa_block_size + pos % swa_block_size : -1"
  imeta.field @yoco_consumer_ks rows(@yoco_kept) over @sparse_ratios = "compressed_start"
  imeta.field @yoco_consumer_ke rows(@yoco_kept) over @sparse_ratios = "compressed_start + (query_start + yoco_clip + j + 1) / n"
  imeta.field @yoco_consumer_kv_ca_index_offset_len rows(@yoco_kept) over @dense_ratios = "compressed_start, (query_start + yoco_clip + j + 1) / n"
  // Section 2 holds only the kept rows: P2 counts from the compact start.
  imeta.field @yoco_consumer_swa_index_pivots rows(@yoco_kept) = "jj = yoco_clip + j; lo = yoco_abs_lo(jj); s1 = swa_start_slot(lo); kl = swa_k_lo(lo); i * window_size + s1, window_size - s1, N * window_size + yoco_cu_qc[i] + kl - yoco_clip, jj - kl + 1"

  imeta.path @prompt_yoco target(cpu) extends @prompt needs [@yoco_prefill_keep_tokens, @data_len] {
    imeta.require "R8" "seqlen_k <= data_len" seq = "k <= data_len"
    imeta.require "R8" "data_len <= max_model_len" seq = "data_len <= max_model_len"
    imeta.output "yoco_clip_prefix" = @yoco_clip
    imeta.output "yoco_mask_swa_index_pivots" = @yoco_mask_swa_index_pivots
    imeta.output "yoco_consumer_cu_seqlens_q" = @yoco_cu_qc
    imeta.output "yoco_consumer_total_q" = @yoco_total_q
    imeta.output "yoco_consumer_query_indices" = @yoco_consumer_query_indices
    imeta.output "yoco_consumer_positions" = @yoco_consumer_positions
    imeta.output "yoco_consumer_slot_mapping_store_swa" = @yoco_consumer_slot_mapping_store_swa
    imeta.output "yoco_consumer_ks" = @yoco_consumer_ks
    imeta.output "yoco_consumer_ke" = @yoco_consumer_ke
    imeta.output "yoco_consumer_kv_ca_index_offset_len" = @yoco_consumer_kv_ca_index_offset_len
    imeta.output "yoco_consumer_swa_index_pivots" = @yoco_consumer_swa_index_pivots
  }

  //===--------------------------------------------------------------------===//
  // YoCo under CP (SPEC-variants.md §5): compact first, then mirror. The
  // compact mirror is MIRROR(kc, rho); the full mirror's kept rows (u >=
  // clip) are each rank's contribution to the boundary all-gather.
  //===--------------------------------------------------------------------===//
  imeta.field @yoco_cp_piece seq = "ceildiv(yoco_kept, 2 * cp_size)"
  imeta.field @yoco_cp_mirror_rows seq = "2 * yoco_cp_piece"
  imeta.prefix_sum @yoco_cu_mirror = @yoco_cp_mirror_rows : !imeta.prefix<exclusive>
  imeta.field @yoco_cp_mirror_len scalar = "total(yoco_cu_mirror)"
  // A compact-mirror row's kept-row offset, -1 on a pad row.
  imeta.field @yoco_mirror_local rows(@yoco_cp_mirror_rows) = "u = mirror_row(j, yoco_cp_piece); u < yoco_kept ? u : -1"
  imeta.field @yoco_consumer_mirror_cp_index rows(@yoco_cp_mirror_rows) = "yoco_mirror_local >= 0 ? yoco_cu_qc[i] + yoco_mirror_local : -1"
  imeta.field @yoco_consumer_mirror_cp_reverse_index rows(@yoco_kept) = "mirror_reverse(j, yoco_cp_piece, yoco_cp_mirror_len, yoco_cu_mirror[i])"
  imeta.field @yoco_consumer_cp_positions rows(@yoco_cp_mirror_rows) = "gather(yoco_consumer_positions, yoco_mirror_local)"
  imeta.field @yoco_consumer_cp_valid_token_mask rows(@yoco_cp_mirror_rows) = "yoco_mirror_local >= 0 && !is_placeholder" : i1
  imeta.field @yoco_consumer_cp_ks rows(@yoco_cp_mirror_rows) over @sparse_ratios = "gather(yoco_consumer_ks, yoco_mirror_local)"
  imeta.field @yoco_consumer_cp_ke rows(@yoco_cp_mirror_rows) over @sparse_ratios = "gather(yoco_consumer_ke, yoco_mirror_local)"
  // The rows of piece b of the full chunk that survive compaction.
  imeta.formula @kept_in_piece(b) = "ps = cp_piece; max(min(ps * (b + 1), q) - max(ps * b, yoco_clip), 0)"
  imeta.field @yoco_cp_kept_by_rank seq cols(@cp_size) = "kept_in_piece(col) + kept_in_piece(2 * cp_size - 1 - col)"
  imeta.prefix_sum @yoco_cp_cu_kept = @yoco_cp_kept_by_rank : !imeta.prefix<exclusive>
  imeta.field @yoco_cp_contrib scalar cols(@cp_size) = "total(yoco_cp_cu_kept, col)"
  imeta.field @yoco_cp_contrib_pad_len scalar = "max_of(yoco_cp_contrib)"
  // This rank's contribution: its full-mirror rows that survive, in order
  // (those of its first piece, then of its second).
  imeta.field @yoco_cp_kept_mine seq = "kept_in_piece(cp_rank) + kept_in_piece(2 * cp_size - 1 - cp_rank)"
  imeta.field @yoco_cp_contrib_rows rows(@yoco_cp_kept_mine) = "ps = cp_piece; n0 = kept_in_piece(cp_rank); first = j < n0; b = first ? cp_rank : 2 * cp_size - 1 - cp_rank; cu_mirror[i] + (first ? 0 : ps) + max(ps * b, yoco_clip) - ps * b + (first ? j : j - n0)"
  // A compact-mirror row's place in the all-gather of every rank's
  // contribution: its global row's piece b is held by rank rk.
  imeta.field @yoco_cp_boundary_index rows(@yoco_cp_mirror_rows) = "u = yoco_mirror_local; jj = yoco_clip + max(u, 0); ps = cp_piece; b = jj / ps; low = b < cp_size; rk = low ? b : 2 * cp_size - 1 - b; t = yoco_cp_cu_kept[i, rk] + (low ? 0 : kept_in_piece(rk)) + jj - max(ps * b, yoco_clip); u < 0 ? -1 : rk * yoco_cp_contrib_pad_len + t"

  // prompt_yoco's fields and prompt_cp's (the full mirror, for the layers
  // before the boundary), then the compact mirror.
  imeta.path @prompt_yoco_cp target(cpu) extends @prompt_yoco, @prompt_cp {
    // Every rank's kept rows are columns of each sequence (cols(@cp_size)):
    // the work grows with N * cp_size, so cp_size has a stated limit (a
    // 383-byte batch with cp_size 10^6 ran for seconds).
    imeta.require "R7" "cp_size <= 4096 (prompt_yoco_cp's work is one column per rank)" scalar = "cp_size <= 4096"
    // The compact mirror and the boundary redistribution.
    imeta.output "yoco_consumer_cp_mirror_len" = @yoco_cp_mirror_len
    imeta.output "yoco_consumer_mirror_cp_index" = @yoco_consumer_mirror_cp_index
    imeta.output "yoco_consumer_mirror_cp_reverse_index" = @yoco_consumer_mirror_cp_reverse_index
    imeta.output "yoco_consumer_cp_positions" = @yoco_consumer_cp_positions
    imeta.output "yoco_consumer_cp_valid_token_mask" = @yoco_consumer_cp_valid_token_mask
    imeta.output "yoco_consumer_cp_ks" = @yoco_consumer_cp_ks
    imeta.output "yoco_consumer_cp_ke" = @yoco_consumer_cp_ke
    imeta.output "yoco_consumer_cp_contrib_pad_len" = @yoco_cp_contrib_pad_len
    imeta.output "yoco_cp_contrib_index" = @yoco_cp_contrib_rows fill(-1) rows(@yoco_cp_contrib_pad_len)
    imeta.output "yoco_cp_boundary_index" = @yoco_cp_boundary_index
  }

  //===--------------------------------------------------------------------===//
  // Engram n-gram rows (SPEC-variants.md §6): row r, column c holds the
  // compressed id of the token c steps back, or the pad where there is
  // none or an image sentinel lies between.
  //===--------------------------------------------------------------------===//
  imeta.config @max_ngram_size : i32 {min = 1 : i64, optional, rule = "R9"}
  imeta.config @engram_pad_token : i32 {optional, rule = "R9"}
  imeta.config @engram_image_token : i32 {min = -1 : i64, optional, rule = "R9"}
  imeta.config @engram_lookup_table : !imeta.list {min = 0 : i64, optional, rule = "R9"}
  imeta.field @ngram_token_ids rows(@q) cols(@max_ngram_size) = "pos = positions; t = pos - col; img = engram_image_token; t < 0 ? engram_pad_token : (count(token_ids, t, pos + 1, img, img) > 0 ? engram_pad_token : engram_lookup_table[token_ids[t]])"

  imeta.path @prompt_engram target(cpu) extends @prompt needs [@max_ngram_size, @engram_pad_token, @engram_image_token, @engram_lookup_table] {
    // A cell's count reads up to max_ngram_size tokens: the work grows
    // with T * G^2, so G has a stated limit (a 17.8 KB batch ran 17 s).
    imeta.require "R9" "max_ngram_size <= 128 (each n-gram cell reads up to max_ngram_size tokens)" scalar = "max_ngram_size <= 128"
    imeta.require "R9" "engram_lookup_table is not empty" scalar = "len(engram_lookup_table) > 0"
    imeta.require "R9" "every token_ids entry lies in [0, len(engram_lookup_table))" seq = "n = len(token_ids); count(token_ids, 0, n, 0, len(engram_lookup_table) - 1) == n"
    imeta.output "ngram_token_ids" = @ngram_token_ids
  }
}
