#!/usr/bin/env python3
"""Small legal batches that ask for the most work, on every path of the
shipped spec (issue 34): each at most 4 KB, its knobs at the spec's stated
limits (max_ngram_size 128, cp_size 4096, max_num_blocks as large as the
value budget lets, long prompts, many sequences), run by the evaluator and
the generated CPU code; prints each path's slowest run. With --limits,
fails when a legal batch takes more than 0.5 s or any run fails in a way
other than a refusal (exit 1). Seeded: the same batches wherever it runs.

Usage: batch_campaign.py IMETA_RUN SPEC [--limits] [--count N] [--keep DIR]
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

PROMPT_PATHS = ["prompt", "prompt_expanded", "prompt_cp", "prompt_cp_mirror",
                "prompt_cp_expanded", "prompt_yoco", "prompt_yoco_cp",
                "prompt_engram"]
DECODE_PATHS = ["decode", "decode_zos", "decode_zos_expanded",
                "decode_varlen"]


def config(rng, block_size, max_num_blocks, max_model_len):
    c = {"block_size": block_size, "window_size": rng.choice([1, 4, 128]),
         "swa_block_size": 0, "dense_ratios": rng.choice([[1], [1, 4], [4]]),
         "sparse_ratios": rng.choice([[4], [2, 4], [1]]),
         "max_model_len": max_model_len, "max_num_blocks": max_num_blocks,
         "force_load_balance": rng.random() < 0.5,
         "cp_size": rng.choice([1, 2, 64, 4096]),
         "yoco_prefill_keep_tokens": rng.choice([0, 1, 64, 100000]),
         "max_ngram_size": rng.choice([1, 8, 128]),
         "engram_pad_token": 0, "engram_image_token": 7,
         "engram_lookup_table": list(range(100, 116)), "nextn": 2}
    c["cp_rank"] = rng.randrange(c["cp_size"])
    c["swa_block_size"] = c["window_size"] + 3
    # Ratios divide block_size (R1).
    for key in ("dense_ratios", "sparse_ratios"):
        c[key] = [r for r in c[key] if block_size % r == 0] or [1]
    return c


def prompt_batch(rng):
    """One to a few long prompts: as many tokens as 4 KB holds."""
    block_size = rng.choice([4, 16, 64])
    seqs, budget = [], 3000
    while budget > 200:
        k = rng.randint(1, budget // 3)
        q = rng.randint(1, k)
        seqs.append((q, k))
        budget -= 3 * k + 60
    max_model_len = max(k for _, k in seqs)
    max_blocks = -(-max_model_len // block_size)
    c = config(rng, block_size, max_blocks, max_model_len)
    out = []
    for i, (q, k) in enumerate(seqs):
        blocks = -(-k // block_size)
        out.append({"seqlen_q": q, "seqlen_k": k,
                    "block_table": [rng.randrange(64) for _ in range(blocks)],
                    "state_id": i, "data_len": k,
                    "token_ids": [rng.randrange(16) for _ in range(k)]})
    return {"config": c, "sequences": out}


def decode_batch(rng):
    """Many decodes with long histories, or few with the widest tables."""
    block_size = rng.choice([1, 16, 64])
    n = rng.choice([1, 8, 200])
    # The block-table columns of N sequences stay inside the value budget.
    max_blocks = min(4096, (1 << 21) // n)
    max_model_len = max_blocks * block_size
    c = config(rng, block_size, max_blocks, max_model_len)
    seqs = []
    room = 3500 // n
    for i in range(n):
        blocks = max(1, min(max_blocks, room // 3 - 20))
        k = rng.randint(1, blocks * block_size)
        blocks = -(-k // block_size)
        q = rng.randint(1, min(3, k))
        seqs.append({"seqlen_q": q, "seqlen_k": k,
                     "block_table": [rng.randrange(64) for _ in range(blocks)],
                     "state_id": i, "token_ids": [5],
                     "draft_tokens": [9] * (q - 1)})
    return {"config": c, "sequences": seqs}


def async_batch(rng):
    n = rng.choice([1, 16, 100])
    block_size = rng.choice([1, 16])
    max_blocks = min(4096, (1 << 21) // n)
    c = config(rng, block_size, max_blocks, max_blocks * block_size)
    slots = n + 2
    room = 3000 // slots
    state = {"num_computed": [], "last_token": [], "num_drafts": [],
             "draft_tokens": [], "state_id": [], "block_table": []}
    for s in range(slots):
        blocks = max(1, min(max_blocks, room // 3 - 10))
        drafts = rng.randint(0, 2)
        k = rng.randint(1 + drafts, max(1 + drafts, blocks * block_size))
        state["num_computed"].append(k - 1 - drafts)
        state["last_token"].append(rng.randrange(50))
        state["num_drafts"].append(drafts)
        state["draft_tokens"].append([1, 2])
        state["state_id"].append(s)
        state["block_table"].append([rng.randrange(64) for _ in
                                     range(-(-k // block_size))])
    seqs = [{"slot": s} for s in rng.sample(range(slots), n)]
    return {"config": c, "state": state, "sequences": seqs}


def run(imeta_run, spec, path, batch, backend):
    start = time.monotonic()
    proc = subprocess.run([imeta_run, spec, "--path", path, "--batch", batch,
                           "--backend", backend], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=120)
    return time.monotonic() - start, proc.returncode, proc.stderr.decode()


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    imeta_run, spec = args[0], args[1]
    limits = "--limits" in args
    count = int(args[args.index("--count") + 1]) if "--count" in args else 6
    work = (args[args.index("--keep") + 1] if "--keep" in args
            else tempfile.mkdtemp(prefix="imeta-campaign-"))
    os.makedirs(work, exist_ok=True)
    rng = random.Random(34)
    paths = [(p, prompt_batch) for p in PROMPT_PATHS] + \
            [(p, decode_batch) for p in DECODE_PATHS] + \
            [("decode_async", async_batch)]
    ok, runs, legal = True, 0, 0
    print("%-20s %6s %6s %9s %9s" % ("path", "legal", "runs", "slowest s",
                                      "bytes"))
    for path, make in paths:
        slowest, path_legal, size_max = 0.0, 0, 0
        for k in range(count):
            batch = make(rng)
            text = json.dumps(batch, separators=(",", ":"))
            if len(text) > 4096:
                continue
            size_max = max(size_max, len(text))
            file = os.path.join(work, "%s_%d.json" % (path, k))
            with open(file, "w") as f:
                f.write(text)
            for backend in ("interp", "cpu"):
                seconds, rc, err = run(imeta_run, spec, path, file, backend)
                runs += 1
                if rc not in (0, 1):
                    print("FAIL: %s %s %s: exit %d: %s" % (path, backend, file,
                                                          rc, err[:300]))
                    ok = False
                if rc == 0:
                    path_legal += 1
                    slowest = max(slowest, seconds)
                    if limits and seconds > 0.5:
                        print("FAIL: %s %s %s: %.2f s" % (path, backend, file,
                                                         seconds))
                        ok = False
        legal += path_legal
        print("%-20s %6d %6d %9.3f %9d" % (path, path_legal, 2 * count,
                                           slowest, size_max))
    print("batch-campaign: %d runs, %d legal, %s" % (runs, legal,
                                                    "ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
