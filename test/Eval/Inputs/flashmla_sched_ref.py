#!/usr/bin/env python3
"""specs/examples/flashmla_sched.mlir (path sched) against a transcription
of FlashMLA's dense decode tile scheduler on random batches:
get_mla_metadata_kernel, deepseek-ai/FlashMLA commit 414a2f3 (Initial
commit, 2025-02-21), csrc/flash_fwd_mla_kernel.h; the same body moved to
csrc/flash_fwd_mla_metadata.cu in 65fb773 and is unchanged through b31bfe7
(2025-03-01). The kernel's thread 0 runs the scheduler sequentially, so a
Python loop is its faithful form; the other threads only sum
ceil_div(seqlens_k[i], block_size_n) + fixed_overhead_num_blocks and copy
num_splits out. num_sm_parts, block_size_n (64, kBlockN) and
fixed_overhead_num_blocks (5) come from get_mla_metadata in
csrc/flash_api.cpp (num_sm_parts = sm_count / num_heads_k /
ceil_div(num_heads_per_head_k, 64)); here all three are batch config values.

Outputs: num_splits ([b + 1], num_splits_shared) and
tile_scheduler_metadata, flattened row-major from [num_sm_parts][8]
(TileSchedulerMetaDataSize): [begin_idx, begin_seqlen, end_idx,
end_seqlen, begin_n_split_idx, 0, 0, 0]. Entries 5..7 the kernel never
writes (torch::empty): 0 here. SM parts after every sequence is done get
begin_idx = b, begin_seqlen = 0, end_idx = b - 1, end_seqlen =
seqlens_k[b - 1], begin_n_split_idx = 0, as the loop writes them.

Later commits differ: c2067be (2025-04-22, csrc/kernels/get_mla_metadata.cu)
makes payload max(ceil_div(total, parts) + o, 2 * o); c28eca9 writes block
indices instead of token counts. Neither is transcribed here.

Each batch is run by imeta-run on the evaluator and on the generated C++
(--backend cpu) and compared exactly.

  flashmla_sched_ref.py IMETA_RUN SPEC WORKDIR [BATCHES]
"""
from ref_compare import cdiv as ceil_div, run_batches

TILE_SCHEDULER_METADATA_SIZE = 8


def get_mla_metadata(seqlens_k, num_sm_parts, block_size_n,
                     fixed_overhead_num_blocks):
    batch_size = len(seqlens_k)
    o = fixed_overhead_num_blocks
    # The warp's sum (every thread its strided share, then __shfl_xor_sync).
    num_blocks_shared = [ceil_div(s, block_size_n) for s in seqlens_k]
    total_num_blocks = sum(n + o for n in num_blocks_shared)
    num_splits_shared = [0] * (batch_size + 1)
    meta = [0] * (num_sm_parts * TILE_SCHEDULER_METADATA_SIZE)

    # threadIdx.x == 0
    payload = ceil_div(total_num_blocks, num_sm_parts) + o
    now_idx, now_block, now_n_split_idx, cum_num_splits = 0, 0, 0, 0
    num_splits_shared[0] = 0
    for i in range(num_sm_parts):
        md0 = [now_idx, now_block * block_size_n, 0, 0]
        md1 = now_n_split_idx
        remain_payload = payload
        while now_idx < batch_size:
            num_blocks = num_blocks_shared[now_idx]
            now_remain_blocks = num_blocks - now_block
            if remain_payload >= now_remain_blocks + o:
                cum_num_splits += now_n_split_idx + 1
                num_splits_shared[now_idx + 1] = cum_num_splits
                remain_payload -= now_remain_blocks + o
                now_idx += 1
                now_block = 0
                now_n_split_idx = 0
            else:
                if remain_payload - o > 0:
                    now_block += remain_payload - o
                    now_n_split_idx += 1
                    remain_payload = 0
                break
        md0[2] = now_idx if now_block > 0 else now_idx - 1
        md0[3] = (now_block * block_size_n if now_block > 0
                  else seqlens_k[now_idx - 1])
        base = i * TILE_SCHEDULER_METADATA_SIZE
        meta[base:base + 4] = md0
        meta[base + 4] = md1
    # FLASH_DEVICE_ASSERT
    assert now_idx == batch_size and now_block == 0 and now_n_split_idx == 0
    return {"num_splits": num_splits_shared,
            "tile_scheduler_metadata": meta}


def reference(batch):
    cfg = batch["config"]
    return get_mla_metadata([s["seqlen_k"] for s in batch["sequences"]],
                            cfg["num_sm_parts"], cfg["block_size_n"],
                            cfg["fixed_overhead_num_blocks"])


PARTS = [1, 2, 3, 8, 33, 66, 132]


def random_seqlen(rng, kind):
    if kind == 0:
        return rng.randint(1, 70)
    if kind == 1:
        return 64 * rng.randint(1, 20000 // 64)
    return rng.randint(1, 20000)


def random_batch(rng, n):
    # 0: one sequence; 1: few short sequences on many parts (parts left
    # over after everything is done); then random.
    if n == 0:
        seqs = [rng.randint(1, 20000)]
        parts = rng.choice(PARTS)
    elif n == 1:
        seqs = [rng.randint(1, 70) for _ in range(rng.randint(1, 3))]
        parts = 132
    else:
        count = rng.randint(1, 40)
        mode = rng.choice(["small", "mult", "mixed", "mixed"])
        if mode == "mixed":
            seqs = [random_seqlen(rng, rng.choice([0, 1, 2, 2]))
                    for _ in range(count)]
        else:
            kind = 0 if mode == "small" else 1
            seqs = [random_seqlen(rng, kind) for _ in range(count)]
        parts = rng.choice(PARTS)
    return {"config": {"num_sm_parts": parts, "block_size_n": 64,
                       "fixed_overhead_num_blocks": 5},
            "sequences": [{"seqlen_k": k} for k in seqs]}


def describe(batch):
    want = reference(batch)
    b = len(batch["sequences"])
    parts = batch["config"]["num_sm_parts"]
    busy = sum(1 for i in range(parts)
               if want["tile_scheduler_metadata"][8 * i] < b)
    return (f"{b} sequences, {parts} SM parts, {busy} busy, "
            f"{want['num_splits'][-1]} splits")


def main():
    run_batches(5, random_batch, [("sched", reference)], "FlashMLA",
                "path sched equals FlashMLA's get_mla_metadata on the "
                "evaluator and cpu", describe)


if __name__ == "__main__":
    main()
