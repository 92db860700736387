#!/usr/bin/env python3
"""specs/examples/trtllm_paged_kv.mlir (paths trtllm and trtllm_mla) against
a transcription of TensorRT-LLM's paged-KV attention metadata (PyTorch
backend) on random batches. Written from the logic of the code, lists for
tensors; read in the public repository NVIDIA/TensorRT-LLM, each file at the
commit named:

- tensorrt_llm/_torch/attention_backend/trtllm.py (00bede19e84a): the
  TrtllmAttentionMetadata buffers of __post_init__ and
  __post_init_with_buffers__ (host_kv_cache_block_offsets torch.empty
  [num_pools, max_num_sequences, 2, max_blocks_per_seq]; kv_block_ids_per_seq
  and block_ids_per_seq torch.zeros; ctx_*_indptr torch.zeros), and
  * prepare(): prompt_lens_cuda = prompt_lens; kv_lens_cuda = cached +
    seq_lens_kv; kv_lens (host) = that + kv_cache_params.num_extra_kv_tokens;
    host_request_types 0 for the num_contexts first rows, 1 for the rest;
    kv_cache_block_offsets filled by copy_batch_block_offsets for the
    contexts (beam 1, offset 0) and then the generations (beam_width, offset
    num_contexts);
  * prepare_flash_mla(): kv_block_ids_per_seq[:num_seqs, :W] and
    block_ids_per_seq[:num_generations, :W] (the generations' rows) from
    get_block_ids_per_seq, W its padded width;
  * prepare_paged_context_mla(): num_ctx_cached_tokens,
    max_ctx_cached_token_len, max_ctx_kv_len, max_ctx_seq_len (0 each
    without contexts), chunked_loop_num = ceil(max_ctx_cached_token_len /
    chunk_size) (runtime_features.chunked_prefill on), and the cumsums into
    ctx_cached_token_indptr, ctx_uncached_token_indptr and ctx_kv_indptr
    from [1:num_contexts + 1] (entry 0 stays the zeros of the allocation;
    kv_lens here without the extra kv tokens);
  * pre_process_for_chunked_prefill(): for loop n < chunked_loop_num,
    chunked_seq_len[n][s] = clamp(cached[s] - n * chunk_size, 0, chunk_size)
    over the contexts, cu_chunked_seq_len[n] = [0] + its cumsum,
    merge_op_tensor[n][s] = 2 (n == 0 and > 0), 1 (> 0) or 0; the last row
    merge_op_tensor[chunked_loop_num][s] = 2 if cached[s] == 0 else 1.
- tensorrt_llm/_torch/attention_backend/interface.py (000a01de66f0):
  AttentionMetadata: seq_lens, seq_lens_kv (seq_lens when unset: self
  attention), num_contexts, num_generations = len(seq_lens) - num_contexts
  (on_update), num_seqs.
- tensorrt_llm/_torch/metadata.py (10637b323e20): KVCacheParams
  (num_cached_tokens_per_seq, num_extra_kv_tokens, default 0).
- cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp (002ba6a7cc5e): the
  WindowBlockManager constructor (mKVFactor = 1 for CacheType::kSELFKONLY
  else 2; primary block b has memory pool block index b),
  WindowBlockManager::setOffsets (for every pool p of the window and x in
  {K=0, V=1}: flat_index3(memoryPoolBlockIndex, layerIdx = 0, fieldIdx,
  pool.numLayers, mKVFactor) = (block * numLayers_p + 0) * kvFactor +
  fieldIdx, fieldIdx = 0 for kSELFKONLY else x), KVCacheManager::
  cacheBlockOffsets (one setOffsets per block of the sequence) and
  KVCacheManager::copyBlockOffsets (memcpy of the sequence's
  len(block_ids) entries per pool, beam and x into row outputSlotOffset +
  beam: the rest of the row is not written).
- cpp/tensorrt_llm/nanobind/batch_manager/kvCacheManager.cpp (00825c4ee813):
  copy_batch_block_offsets = copyBlockOffsets(output, i * beamWidth +
  offset, requestIds[i]) for each request i.
- tensorrt_llm/_torch/pyexecutor/resource_manager.py (001541bad83b):
  KVCacheManager.get_batch_cache_indices (beam 0's block ids) and
  get_block_ids_per_seq (pad_sequence, batch_first, padding_value 0: width
  the longest block list of the batch).

Later versions of trtllm.py differ and are not transcribed: there
prepare_paged_context_mla is prepare_context_mla_with_cached_kv and the
chunked prefill packs every context's cached tokens into one buffer of
chunk_size * chunked_prefill_buffer_batch_size per loop (chunked_loop_num =
ceil(num_ctx_cached_tokens / that), a chunked_global_offset, merge op 2 at a
sequence's first non-empty loop, chunked_seq_len torch.zeros); and
prepare_flash_mla fill_(0)s both block id buffers before the copy (so the
spec's 0 padding there is then TensorRT-LLM's own value).

Model: beam width 1, self attention, contexts first; the memory pool block
index of a block is its id in the batch; kv_factor 1 is the K-only cache
(MLA), 2 K and V.

What is compared as TensorRT-LLM's value (a "reference" mismatch when it
differs) and what is only the spec's convention (a "convention" mismatch;
both fail the run):
- kv_cache_block_offsets.p, row s: entries b < len(block_ids[s]) (x * M + b)
  are TensorRT-LLM's; the others copyBlockOffsets never writes (stale host
  memory): convention 0.
- kv_block_ids_per_seq / block_ids_per_seq: b < W (the batch's longest block
  list, pad_sequence's width) are TensorRT-LLM's (its ids, then pad 0); b >=
  W prepare_flash_mla leaves as they were: convention 0.
- chunked_loop_num without contexts: TensorRT-LLM does not assign it (a
  stale attribute): convention 0.
- chunked_seq_len.n: the contexts' columns for n < chunked_loop_num are
  TensorRT-LLM's (its tensor is torch.empty, the generations' columns
  unwritten): generations' columns and every row n >= chunked_loop_num
  convention 0. cu_chunked_seq_len.n and merge_op_tensor.n: rows n <
  chunked_loop_num (and merge_op_tensor's row chunked_loop_num) are
  TensorRT-LLM's; later rows (TensorRT-LLM allocates exactly
  chunked_loop_num, +1 for merge ops) convention all 0.

Each batch is written to WORKDIR and run by imeta-run on the evaluator and
on the generated C++ (--backend cpu) for both paths; the verdict is
ref_compare.mismatches against the full expected field file (reference and
convention values together); a failing run's field file is then split
into reference and convention mismatches.

  trtllm_ref.py IMETA_RUN SPEC WORKDIR [BATCHES]
"""

from ref_compare import cdiv, cumsum0, run_batches, show

REF, CONV = "R", "C"  # an entry TensorRT-LLM defines; the spec's convention


def like(value, kind):
    # The mask of a value: the same shape, every leaf `kind`.
    if isinstance(value, list):
        return [like(v, kind) for v in value]
    return kind


def block_offsets(cfg, seqs):
    """kv_cache_block_offsets[p][s] flattened ([2][M], x major): setOffsets
    through cacheBlockOffsets, copied by copyBlockOffsets (row s for
    sequence s: contexts at offset 0, generations at num_contexts)."""
    m, kv_factor = cfg["max_blocks_per_seq"], cfg["kv_factor"]
    out = {}
    for p, num_layers in enumerate(cfg["pool_num_layers"]):
        rows, masks = [], []
        for s in seqs:
            row, mask = [0] * (2 * m), [CONV] * (2 * m)
            for x in (0, 1):  # kIdx, vIdx
                field = 0 if kv_factor == 1 else x  # kSELFKONLY: K only
                for b, block in enumerate(s["block_ids"]):
                    layer = 0
                    row[x * m + b] = ((block * num_layers + layer) * kv_factor
                                      + field)
                    mask[x * m + b] = REF
            rows.append(row)
            masks.append(mask)
        out[f"kv_cache_block_offsets.{p}"] = (rows, masks)
    return out


def block_ids_rows(cfg, seqs, first):
    """prepare_flash_mla: rows from get_block_ids_per_seq (padded with 0 to
    the batch's longest list, W) for the sequences from `first` on, copied
    into [:, :W] of a [*, max_blocks_per_seq] buffer."""
    m = cfg["max_blocks_per_seq"]
    width = max(len(s["block_ids"]) for s in seqs)
    rows, masks = [], []
    for s in seqs[first:]:
        ids = s["block_ids"]
        rows.append(ids + [0] * (m - len(ids)))
        masks.append([REF] * width + [CONV] * (m - width))
    return rows, masks


def reference(batch, mla):
    """The field file TensorRT-LLM's prepare() gives for `batch`, with a
    mask (same shape) saying which entries are its values (REF) and which
    the spec's convention (CONV)."""
    cfg, seqs = batch["config"], batch["sequences"]
    n = len(seqs)
    nc = sum(1 for s in seqs if s["is_context"])
    assert all(s["is_context"] for s in seqs[:nc])
    seq_lens = [s["seq_len"] for s in seqs]
    cached = [s["num_cached_tokens"] for s in seqs]
    # seq_lens_kv is seq_lens (self attention).
    kv_lens = [c + q for c, q in zip(cached, seq_lens)]
    fields = {
        "num_contexts": (nc, REF),
        "prompt_lens_cuda": [s["prompt_len"] for s in seqs],
        "kv_lens_cuda": kv_lens,
        "kv_lens": [k + cfg["num_extra_kv_tokens"] for k in kv_lens],
        "host_request_types": [0] * nc + [1] * (n - nc),
    }
    out = {k: (v if isinstance(v, tuple) else (v, like(v, REF)))
           for k, v in fields.items()}
    out.update(block_offsets(cfg, seqs))
    out["kv_block_ids_per_seq"] = block_ids_rows(cfg, seqs, 0)
    out["block_ids_per_seq"] = block_ids_rows(cfg, seqs, nc)
    if mla:
        out.update(paged_context_mla(cfg, seqs, nc, cached, kv_lens))
    want = {k: v for k, (v, _) in out.items()}
    mask = {k: m for k, (_, m) in out.items()}
    return want, mask


def paged_context_mla(cfg, seqs, nc, cached, kv_lens):
    chunk, loops = cfg["chunk_size"], cfg["max_chunk_loops"]
    n = len(seqs)
    ctx_cached = cached[:nc]
    out = {}

    def ref(key, value):
        out[key] = (value, like(value, REF))

    ref("ctx_cached_token_indptr", cumsum0(ctx_cached))
    ref("ctx_uncached_token_indptr", cumsum0(s["seq_len"] for s in seqs[:nc]))
    ref("ctx_kv_indptr", cumsum0(kv_lens[:nc]))
    ref("num_ctx_cached_tokens", sum(ctx_cached))
    ref("max_ctx_cached_token_len", max(ctx_cached, default=0))
    ref("max_ctx_kv_len", max(kv_lens[:nc], default=0))
    ref("max_ctx_seq_len", max((s["seq_len"] for s in seqs[:nc]), default=0))
    if nc > 0:
        loop_num = cdiv(max(ctx_cached), chunk)
        ref("chunked_loop_num", loop_num)
    else:
        loop_num = 0  # not assigned by TensorRT-LLM: the spec's 0
        out["chunked_loop_num"] = (0, CONV)
    assert loop_num < loops, "an invalid batch (the spec refuses it)"
    for i in range(loops):
        if i < loop_num:
            # pre_process_for_chunked_prefill, loop i.
            used = i * chunk
            lens = [min(max(c - used, 0), chunk) for c in ctx_cached]
            out[f"chunked_seq_len.{i}"] = (lens + [0] * (n - nc),
                                            [REF] * nc + [CONV] * (n - nc))
            ref(f"cu_chunked_seq_len.{i}", cumsum0(lens))
            ref(f"merge_op_tensor.{i}",
                [(2 if i == 0 else 1) if v > 0 else 0 for v in lens])
        else:
            out[f"chunked_seq_len.{i}"] = ([0] * n, [CONV] * n)
            out[f"cu_chunked_seq_len.{i}"] = ([0] * (nc + 1),
                                               [CONV] * (nc + 1))
            if i == loop_num:
                # The last attention (the uncached kv): its merge ops.
                ref(f"merge_op_tensor.{i}",
                    [2 if c == 0 else 1 for c in ctx_cached])
            else:
                out[f"merge_op_tensor.{i}"] = ([0] * nc, [CONV] * nc)
    return out


def classify(got, want, mask, where=""):
    """(kind, where, got, want) for each leaf of `got` that differs from
    `want`; a shape difference is a reference mismatch (the contract)."""
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [(REF, where + " shape", got, want)]
        bad = []
        for i, (g, w, m) in enumerate(zip(got, want, mask)):
            bad += classify(g, w, m, f"{where}[{i}]")
        return bad
    if type(got) != type(want) or got != want:
        return [(mask, where, got, want)]
    return []


def explain(name, got, want, mask):
    """Which entries of run `name`'s field file `got` differ from `want`, as
    reference or convention mismatches."""
    ref_bad, conv_bad = [], []
    for k in sorted(set(want) & set(got)):
        for kind, where, g, w in classify(got[k], want[k], mask[k]):
            line = (f"{name}: {k}{where} got {show(g)}, "
                    f"{'TensorRT-LLM' if kind == REF else 'spec convention'} "
                    f"{show(w)}")
            (ref_bad if kind == REF else conv_bad).append(line)
    return ref_bad, conv_bad


def random_cached(rng, chunk, loops, room):
    # Cached tokens of a context: ceil(c / chunk) < loops and c <= room.
    top = min(chunk * (loops - 1), room)
    if top <= 0:
        return 0
    r = rng.random()
    if r < 0.25:
        return 0
    if r < 0.45:  # on a chunk boundary, or next to one
        c = (chunk * rng.randint(1, max(1, top // chunk))
             + rng.choice([-1, 0, 0, 1]))
        return max(0, min(c, top))
    return rng.randint(0, top)


def random_batch(rng, shape):
    """shape: 0 mixed, 1 contexts only, 2 generations only, 3 a single
    sequence."""
    tpb = rng.choice([1, 2, 4, 8, 16, 64])
    chunk = rng.choice([1, 3, 4, 8, 16, 64, 256])
    loops = rng.randint(1, 16)
    num_pools = rng.randint(1, 4)
    max_tokens = tpb * rng.randint(1, 24)  # keep block lists short
    if shape == 3:
        n_ctx, n_gen = (1, 0) if rng.random() < 0.5 else (0, 1)
    else:
        n_ctx = 0 if shape == 2 else rng.randint(1, 6)
        n_gen = 0 if shape == 1 else rng.randint(1, 6)
        if shape == 0 and rng.random() < 0.3:
            n_ctx, n_gen = rng.randint(1, 3), rng.randint(1, 3)
    seqs = []
    for i in range(n_ctx + n_gen):
        is_ctx = i < n_ctx
        if is_ctx:
            q = rng.randint(1, max(1, min(max_tokens, 3 * tpb + 7)))
            c = random_cached(rng, chunk, loops, max_tokens - q)
            prompt = c + q + rng.choice([0, 0, rng.randint(1, 50)])
        else:
            q = 1 if rng.random() < 0.7 else rng.randint(2, 4)
            c = rng.randint(0, max(0, max_tokens - q))
            prompt = rng.randint(1, max(1, c))
        nblocks = cdiv(c + q, tpb)
        seqs.append({"is_context": is_ctx, "seq_len": q,
                     "num_cached_tokens": c, "prompt_len": prompt,
                     "block_ids": rng.sample(range(5000), nblocks)})
    longest = max(len(s["block_ids"]) for s in seqs)
    cfg = {"tokens_per_block": tpb,
           "max_blocks_per_seq": longest + rng.choice([0, 0, 1, 3]),
           "num_pools": num_pools,
           "pool_num_layers": [rng.randint(1, 80) for _ in range(num_pools)],
           "kv_factor": rng.choice([1, 2]),
           "num_extra_kv_tokens": rng.choice([0, 0, 0, 1, 3]),
           "chunk_size": chunk,
           "max_chunk_loops": loops}
    return {"config": cfg, "sequences": seqs}


def describe(batch):
    seqs = batch["sequences"]
    nc = sum(1 for s in seqs if s["is_context"])
    cached = [s["num_cached_tokens"] for s in seqs[:nc]]
    cfg = batch["config"]
    loop_num = cdiv(max(cached), cfg["chunk_size"]) if nc else 0
    return (f"{nc} contexts, {len(seqs) - nc} generations, "
            f"{cfg['num_pools']} pools, kv_factor {cfg['kv_factor']}, "
            f"{loop_num} of {cfg['max_chunk_loops']} chunk loops")


def main():
    def why(name, got, path, batch):
        # Each differing entry, as TensorRT-LLM's value or the spec's 0.
        want, mask = reference(batch, path == "trtllm_mla")
        lines = []
        for title, found in zip(
                ("reference (TensorRT-LLM's value)", "convention (the spec's 0)"),
                explain(name, got, want, mask)):
            if found:
                lines.append(f"{len(found)} {title} mismatches, first:")
                lines += ["  " + line for line in found[:6]]
        return lines

    # The first four: mixed, contexts only, generations only, a single
    # sequence; then random shapes.
    run_batches(7, lambda rng, n: random_batch(
                    rng, n if n < 4 else rng.choice([0, 0, 0, 0, 1, 2, 3])),
                [("trtllm", lambda b: reference(b, False)[0]),
                 ("trtllm_mla", lambda b: reference(b, True)[0])],
                "TensorRT-LLM", "paths trtllm and trtllm_mla equal "
                "TensorRT-LLM's metadata on the evaluator and cpu", describe,
                why)


if __name__ == "__main__":
    main()
