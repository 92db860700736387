#!/usr/bin/env python3
"""specs/examples/vllm_mamba2.mlir against a transcription of vLLM's own
code on random batches: Mamba2AttentionMetadataBuilder.build
(vllm/v1/attention/backends/mamba2_attn.py, the path without speculative
decoding and without prefix caching: state_indices_tensor =
block_table_tensor[:, 0], the prefill-only has_initial_states_p,
prep_initial_states and query_start_loc_p, the chunk loop that gives
seq_idx_p, cu_chunk_seqlen_p and last_chunk_indices_p, chunks aligned to
chunk_size given num_computed_tokens), split_decodes_and_prefills
(vllm/v1/attention/backends/utils.py, decode_threshold =
reorder_batch_threshold = 1, require_uniform off) and
compute_causal_conv1d_metadata (same file, BLOCK_M = 8, PAD_SLOT_ID = -1,
batch_ptr and token_chunk_offset_ptr as a fresh call allocates them).
Written from that code's logic, list for tensor; each batch run by
imeta-run on the evaluator and on the generated C++ (--backend cpu).

Outputs vLLM leaves None when a batch has no prefill must be absent from
imeta-run's field file; the comparison checks absence as well as values.
The spec's one stated departure (its header says why): without a
prefill, nums_dict's tot and mlist_len are 0 and batch_ptr and
token_chunk_offset_ptr all PAD_SLOT_ID (a scalar and a padded output are
never absent), where vLLM leaves nums_dict and both pointers None.

With prefix caching (path mamba2_prefix_caching): the whole block table as
state_indices_tensor (rows padded with 0 to max_num_blocks) and
_compute_prefix_caching_block_indices (mamba_attn.py).

  mamba2_ref.py IMETA_RUN SPEC WORKDIR [BATCHES]
"""
from ref_compare import cdiv, cumsum0, run_batches

PAD_SLOT_ID = -1
BLOCK_M = 8
DECODE_THRESHOLD = 1  # BaseMambaAttentionMetadataBuilder.reorder_batch_threshold


def split_decodes_and_prefills(query_start_loc, threshold):
    # utils.split_decodes_and_prefills on a batch already ordered decodes
    # first: everything a decode when the longest query is one; else the
    # first query longer than the threshold starts the prefills.
    query_lens = [b - a for a, b in zip(query_start_loc, query_start_loc[1:])]
    num_reqs, num_tokens = len(query_lens), query_start_loc[-1]
    if max(query_lens) <= threshold:
        return num_reqs, 0, num_tokens, 0
    if query_lens[0] > threshold:
        return 0, num_reqs, 0, num_tokens
    is_prefill = [q > threshold for q in query_lens]
    first = is_prefill.index(True)
    assert all(q <= threshold for q in query_lens[:first])
    decode_tokens = query_start_loc[first]
    return first, num_reqs - first, decode_tokens, num_tokens - decode_tokens


def causal_conv1d_metadata(query_start_loc_p):
    # utils.compute_causal_conv1d_metadata for its one BLOCK_M, first call.
    seqlens = [b - a for a, b in zip(query_start_loc_p, query_start_loc_p[1:])]
    nums = [cdiv(s, BLOCK_M) for s in seqlens]
    mlist = [i for i, n in enumerate(nums) for _ in range(n)]
    offsetlist = [j for n in nums for j in range(n)]
    mlist_len = len(mlist)
    max_programs = max(1024, mlist_len) * 2
    pad = [PAD_SLOT_ID] * (max_programs - mlist_len)
    key = f"nums_dict.block{BLOCK_M}."
    return {
        key + "nums": nums,
        key + "tot": sum(nums),
        key + "mlist": mlist,
        key + "mlist_len": mlist_len,
        key + "offsetlist": offsetlist,
        "batch_ptr": mlist + pad,
        "token_chunk_offset_ptr": offsetlist + pad,
    }


def chunk_metadata(chunk_size, computed_p, query_start_loc_p):
    # The loop in build(): a first chunk finishes a context that stops short
    # of a chunk boundary, then whole chunks of chunk_size.
    cu_chunk_seqlen, seq_idx, last_chunk_indices = [], [], []
    pos = 0
    for req in range(len(computed_p)):
        computed = computed_p[req]
        new = query_start_loc_p[req + 1] - query_start_loc_p[req]
        if computed % chunk_size != 0:
            seq_idx.append(req)
            cu_chunk_seqlen.append(pos)
            take = min(cdiv(computed, chunk_size) * chunk_size - computed, new)
            pos += take
            new -= take
        for _ in range(cdiv(new, chunk_size)):
            seq_idx.append(req)
            cu_chunk_seqlen.append(pos)
            take = min(chunk_size, new)
            pos += take
            new -= take
        assert new == 0
        last_chunk_indices.append(len(cu_chunk_seqlen) - 1)
    cu_chunk_seqlen.append(pos)
    return seq_idx, cu_chunk_seqlen, last_chunk_indices


def reference(batch):
    chunk_size = batch["config"]["chunk_size"]
    seqs = batch["sequences"]
    query_lens = [s["query_len"] for s in seqs]
    seq_lens = [s["seq_len"] for s in seqs]
    computed = [k - q for k, q in zip(seq_lens, query_lens)]
    query_start_loc = cumsum0(query_lens)
    num_reqs = len(seqs)
    nd, np_, ndt, npt = split_decodes_and_prefills(query_start_loc,
                                                   DECODE_THRESHOLD)
    out = {
        "num_decodes": nd,
        "num_prefills": np_,
        "num_decode_tokens": ndt,
        "num_prefill_tokens": npt,
        "seq_lens": seq_lens,
        "state_indices_tensor": [s["block_table"][0] for s in seqs],
        "prep_initial_states": False,
    }
    if np_ == 0:
        # The spec's stated departure: a fresh call's values over no
        # prefill, not None.
        out.update(causal_conv1d_metadata([0]))
        del out["nums_dict.block8.nums"], out["nums_dict.block8.mlist"]
        del out["nums_dict.block8.offsetlist"]
        return out
    has_initial = [c > 0 for c in computed[num_reqs - np_:]]
    qsl_p = [x - ndt for x in query_start_loc[-np_ - 1:]]
    seq_idx, cu_chunk, last_chunk = chunk_metadata(
        chunk_size, computed[num_reqs - np_:], qsl_p)
    out.update({
        "prep_initial_states": any(has_initial),
        "has_initial_states_p": has_initial,
        "query_start_loc_p": qsl_p,
        "seq_idx_p": seq_idx,
        "cu_chunk_seqlen_p": cu_chunk,
        "last_chunk_indices_p": last_chunk,
    })
    out.update(causal_conv1d_metadata(qsl_p))
    return out


def reference_prefix_caching(batch):
    # The same build with enable_prefix_caching: state_indices_tensor the
    # whole block_table_tensor (rows padded to max_num_blocks, 0 here), and
    # _compute_prefix_caching_block_indices (mamba_attn.py).
    out = reference(batch)
    cfg, seqs = batch["config"], batch["sequences"]
    bs, width = cfg["mamba_block_size"], cfg["max_num_blocks"]
    computed = [s["seq_len"] - s["query_len"] for s in seqs]
    out["state_indices_tensor"] = [
        s["block_table"] + [0] * (width - len(s["block_table"])) for s in seqs]
    out["block_idx_last_computed_token"] = [
        max(cdiv(c, bs) - 1, 0) for c in computed]
    out["block_idx_last_scheduled_token"] = [
        max(cdiv(s["seq_len"], bs) - 1, 0) for s in seqs]
    np_ = out["num_prefills"]
    if np_ > 0:
        tail = computed[len(seqs) - np_:]
        out["block_idx_first_scheduled_token_p"] = [
            cdiv(c + 1, bs) - 1 for c in tail]
        out["num_computed_tokens_p"] = tail
    return out


def random_computed(rng, chunk_size):
    r = rng.random()
    if r < 0.2:
        return 0
    if r < 0.4:
        return chunk_size * rng.randint(1, 3000 // chunk_size)
    return rng.randint(0, 3000)


def random_batch(rng, shape):
    chunk_size = rng.choice([4, 8, 16, 64, 256])
    # shape: 0 mixed, 1 decodes only, 2 prefills only.
    n_dec = 0 if shape == 2 else rng.randint(1 if shape == 1 else 0, 6)
    n_pre = 0 if shape == 1 else rng.randint(1 if shape == 2 else 0, 6)
    if n_dec + n_pre == 0:
        n_pre = 1
    no_context = rng.random() < 0.15  # every prefill a fresh prompt
    seqs = []
    for i in range(n_dec + n_pre):
        q = 1 if i < n_dec else rng.randint(2, 300)
        c = 0 if (no_context and i >= n_dec) else random_computed(rng,
                                                                  chunk_size)
        seqs.append({"query_len": q, "seq_len": c + q,
                     "block_table": [rng.randint(0, 999)
                                     for _ in range(rng.randint(1, 4))]})
    return {"config": {"chunk_size": chunk_size,
                       "mamba_block_size": rng.choice([16, 256, 1024]),
                       "max_num_blocks": 4},
            "sequences": seqs}


def describe(batch):
    want = reference(batch)
    return (f"{want['num_decodes']} decodes, {want['num_prefills']} "
            f"prefills, {len(want.get('seq_idx_p', []))} chunks, chunk_size "
            f"{batch['config']['chunk_size']}")


def main():
    # The first three: mixed, decodes only, prefills only; then random.
    run_batches(2, lambda rng, n: random_batch(
                    rng, n if n < 3 else rng.choice([0, 0, 0, 1, 2])),
                [("mamba2", reference),
                 ("mamba2_prefix_caching", reference_prefix_caching)],
                "vLLM", "paths mamba2 and mamba2_prefix_caching equal vLLM's "
                "Mamba2 metadata on the evaluator and cpu", describe)


if __name__ == "__main__":
    main()
