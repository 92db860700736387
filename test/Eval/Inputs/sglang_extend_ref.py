#!/usr/bin/env python3
"""specs/examples/sglang_extend.mlir against a transcription of SGLang's
own code on random batches: FlashInferIndicesUpdaterPrefill (the paged
wrapper's paged_kernel_lens: the prefix with use_ragged, else the whole
sequence; kv_indptr from them, kv_indices by
create_flashinfer_kv_indices_triton's loop; the sliding-window wrapper's
paged_kernel_lens and kv_start_idx), compute_position, the extend start
locations, and FlashAttentionBackend's extend metadata with page_size > 1
(page_table = req_to_token[pool, :max_seq_len_k][:, ::page_size] //
page_size). Written from that code's logic, list for tensor; each batch
run by imeta-run on the evaluator and on the generated C++.

  sglang_extend_ref.py IMETA_RUN SPEC WORKDIR [BATCHES]
"""

from ref_compare import cumsum0, run_batches


def kv_indices(req_to_token, pool, lens, indptr, start):
    # create_flashinfer_kv_indices_triton: program i copies
    # req_to_token[pool[i], start[i]:start[i] + lens[i]] to indptr[i].
    out = [0] * indptr[-1]
    for i in range(len(pool)):
        for t in range(lens[i]):
            out[indptr[i] + t] = req_to_token[pool[i]][start[i] + t]
    return out


def reference(batch):
    cfg, seqs = batch["config"], batch["sequences"]
    rows = batch["state"]["req_to_token"]
    width = max(len(r) for r in rows)
    # The engine's table: [max_requests, max_context_len], zeros unwritten.
    req_to_token = [r + [0] * (width - len(r)) for r in rows]
    pool = [s["req_pool_idx"] for s in seqs]
    seq_lens = [s["seq_len"] for s in seqs]
    prefix_lens = [s["prefix_len"] for s in seqs]
    extend = [k - p for k, p in zip(seq_lens, prefix_lens)]
    bs = len(seqs)
    # call_begin_forward: the paged wrapper holds the prefix alone where
    # the ragged one takes the new tokens.
    paged = prefix_lens if cfg["use_ragged"] else seq_lens
    kv_indptr = cumsum0(paged)
    window = cfg["sliding_window"]
    swa_lens = [min(k, window + k - p) for k, p in zip(seq_lens, prefix_lens)]
    swa_start = [k - w for k, w in zip(seq_lens, swa_lens)]
    swa_indptr = cumsum0(swa_lens)
    positions = [p + j for p, e in zip(prefix_lens, extend) for j in range(e)]
    out_cache_loc = [req_to_token[pool[i]][prefix_lens[i] + j]
                     for i in range(bs) for j in range(extend[i])]
    qo_indptr = cumsum0(extend)
    fi = {
        "qo_indptr": qo_indptr,
        "kv_indptr": kv_indptr,
        "kv_indices": kv_indices(req_to_token, pool, paged, kv_indptr,
                                 [0] * bs),
        "kv_last_page_len": [1] * bs,
        "window.kv_indptr": swa_indptr,
        "window.kv_indices": kv_indices(req_to_token, pool, swa_lens,
                                        swa_indptr, swa_start),
        "positions": positions,
        "out_cache_loc": out_cache_loc,
        "extend_start_loc": [c - e for c, e in zip(qo_indptr[1:], extend)],
    }
    ps = cfg["page_size"]
    max_k = max(seq_lens) if seq_lens else 0
    strided = range(0, max_k, ps)
    page_table = []
    for i in range(bs):
        row = req_to_token[pool[i]][:max_k]
        # Past a request's own tokens the kernel reads nothing
        # (cache_seqlens bounds it): the table's stale slots there, which
        # the spec gives as 0.
        page_table.append([row[c] // ps if c < seq_lens[i] else 0
                           for c in strided])
    fa3 = {
        "cu_seqlens_q": qo_indptr,
        "cu_seqlens_k": cumsum0(seq_lens),
        "cache_seqlens": seq_lens,
        "max_seq_len_q": max(extend) if extend else 0,
        "max_seq_len_k": max_k,
        "page_table": page_table,
        "positions": positions,
        "out_cache_loc": out_cache_loc,
    }
    return {"flashinfer": fi, "fa3": fa3}


def random_batch(rng):
    slots = 8
    bs = rng.randint(1, 6)
    pools = rng.sample(range(slots), bs)
    rows = [[rng.randint(0, 9999) for _ in range(rng.randint(0, 5))]
            for _ in range(slots)]
    seqs = []
    for p in pools:
        k = rng.randint(1, 40)
        # The request's row: its tokens' slots, and stale ones past them.
        rows[p] = [rng.randint(0, 9999) for _ in range(k + rng.randint(0, 3))]
        seqs.append({"req_pool_idx": p, "prefix_len": rng.randint(0, k - 1),
                     "seq_len": k})
    return {"config": {"sliding_window": rng.randint(1, 8),
                       "page_size": rng.randint(1, 4),
                       "use_ragged": rng.random() < 0.5},
            "state": {"req_to_token": rows}, "sequences": seqs}


def main():
    run_batches(35, lambda rng, n: random_batch(rng),
                [("flashinfer", lambda b: reference(b)["flashinfer"]),
                 ("fa3", lambda b: reference(b)["fa3"])],
                "SGLang", "both paths equal SGLang's on interp and cpu")


if __name__ == "__main__":
    main()
