#!/usr/bin/env python3
"""The decode_async step inside the engine's own CUDA graph, with a real
consumer: a toy model's decode loop on request state kept on the device.

Each step, ONE torch.cuda.graph replays (on the CPU the same calls run
eagerly, without a graph):
  1. imeta's decode_async metadata step (`run()`: the slots' copy and the
     generated kernel, which reads each sequence's state at its slot and
     checks every rule before it writes a field);
  2. a paged KV write: each query row's K and V (embeddings of its token,
     `input_ids`, plus its position, `positions`) stored through the
     ratio-1 bucket of `slot_mapping_store_ca`;
  3. attention by PyTorch's scaled_dot_product_attention (code this
     project did not write) over each row's keys gathered through
     `block_tables`, masked at `context_lens`;
  4. a sampler on the device: the logits' argmax per row, the drafts
     verified (accepted while they equal the argmax of the row before),
     then per slot the new last token, new drafts (0..nextn), num_computed
     advanced by 1 + accepted and the block-table row's length grown, all
     written into the request state the next step reads.
The host, per step, writes the batch's slots (live requests, padded to N
with slot -1 placeholders) and calls plan() (the slots into the pinned
staging), then replays. Requests finish at their target length and new
ones join free slots between steps (their prompt's KV and state written
by plain torch ops). After every step the test (only the test) copies the
state back and checks each live sequence's attention output, row by row,
against dense attention over its whole history computed on the CPU in
float64 from the tokens the host tracked: |diff| <= 1e-4 + 1e-4 |ref|.

  decode_loop.py --gen DIR [--device cpu|cuda] [--steps 200] [--max-seqs 32]
                 [--build-dir DIR] [--torchscript] [--bench]

DIR holds `imeta-gen specs/deepinfer_v4.mlir --paths decode_async --torch
-o DIR`. --bench (CUDA): also times the metadata step alone through the
binding (plan() + a graph of run() + sync, µs medians) at N = max-seqs.
"""

import argparse
import math
import os
import random
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine as E  # noqa: E402

NEXTN = 2
BLOCK = 16
MAX_BLOCKS = 32                      # a block-table row: 512 tokens
CONFIG = {"block_size": BLOCK, "window_size": BLOCK, "swa_block_size": BLOCK + NEXTN + 2,
          "max_model_len": BLOCK * MAX_BLOCKS, "max_num_blocks": MAX_BLOCKS,
          "force_load_balance": 0, "nextn": NEXTN}
LISTS = {"dense_ratios": [1], "sparse_ratios": [4]}
VOCAB, HEADS, DIM = 6, 2, 16
ATOL = RTOL = 1e-4


class Model:
    """Fixed random weights: token embeddings for q, k, v, a position
    embedding, and the output projection to the vocabulary."""

    def __init__(self, device):
        g = torch.Generator().manual_seed(7)
        rnd = lambda *s: (torch.randn(*s, generator=g) * 0.5).to(device)
        self.qe, self.ke, self.ve = (rnd(VOCAB, HEADS, DIM) for _ in range(3))
        self.pe = rnd(CONFIG["max_model_len"] + NEXTN + 1, HEADS, DIM)
        self.w = rnd(HEADS * DIM, VOCAB)

    def kv(self, tokens, positions):
        return (self.ke[tokens] + self.pe[positions],
                self.ve[tokens] + self.pe[positions])

    def q(self, tokens, positions):
        return self.qe[tokens] + self.pe[positions]


class Engine:
    """The request state on `device`, the paged KV cache, the step's
    inputs and the bound out tensors."""

    def __init__(self, cls, device, n, slots, seed):
        self.device, self.n, self.slots = device, n, slots
        self.rng = random.Random(seed)
        self.model = Model(device)
        i32 = dict(dtype=torch.int32, device=device)
        # One slot more than the requests use: placeholders' sampler writes
        # land there (slot `slots`), never on a live request's row.
        s = slots + 1
        self.state = {
            "num_computed": torch.zeros(s, **i32),
            "slot_last_token": torch.zeros(s, **i32),
            "num_drafts": torch.zeros(s, **i32),
            "slot_draft_tokens": torch.zeros(s, NEXTN, **i32),
            "slot_draft_tokens_lengths": torch.full((s,), NEXTN, **i32),
            "slot_state_id": torch.arange(s, **i32),
            "slot_block_table": torch.zeros(s, MAX_BLOCKS, **i32),
            "slot_block_table_lengths": torch.ones(s, **i32),
        }
        self.num_blocks = slots * MAX_BLOCKS
        self.free_blocks = list(range(self.num_blocks))
        self.rng.shuffle(self.free_blocks)
        # The KV cache: a row a token slot, one more as the trash row.
        rows = self.num_blocks * BLOCK + 1
        self.k_cache = torch.zeros(rows, HEADS, DIM, device=device)
        self.v_cache = torch.zeros(rows, HEADS, DIM, device=device)
        # The step's inputs, in host memory (pinned for a CUDA graph).
        pin = device.type == "cuda"
        self.slot = torch.full((n,), -1, dtype=torch.int32).pin_memory() \
            if pin else torch.full((n,), -1, dtype=torch.int32)
        self.ph = torch.ones(n, dtype=torch.bool).pin_memory() \
            if pin else torch.ones(n, dtype=torch.bool)
        self.live = {}      # slot -> request (host's record)
        self.drafts = [0, 0]  # drafts accepted, proposed
        self.free_slots = list(range(slots))
        self.meta = self.make_meta(cls)

    def make_meta(self, cls):
        """The binding, its out tensors sized at the widest batch (every
        sequence nextn drafts, the longest rows), bound once."""
        staging = (1 << 20) + 64 * self.n
        meta = cls(CONFIG, LISTS, str(self.device), self.n, staging)
        host = {k: v.cpu().clone() for k, v in self.state.items()}
        host["num_drafts"][:] = NEXTN
        host["num_computed"][:] = CONFIG["max_model_len"] - NEXTN - 1
        host["slot_block_table_lengths"][:] = MAX_BLOCKS
        widest = dict(host, slot=torch.arange(self.n, dtype=torch.int32) %
                      self.slots, is_placeholder=torch.zeros(self.n,
                                                             dtype=torch.bool))
        self.outs = E.out_tensors(meta.shape(widest), str(self.device))
        meta.bind_outputs(self.outs)
        self.names = meta.outputs()
        return meta

    # -- the host's part: joins, finishes, the batch ----------------------
    def join(self):
        slot = self.free_slots.pop(self.rng.randrange(len(self.free_slots)))
        prompt = self.rng.randint(1, 120)
        target = prompt + self.rng.randint(4, 60)
        blocks = -(-(target + NEXTN + 1) // BLOCK)
        ids = [self.free_blocks.pop() for _ in range(blocks)]
        tokens = [self.rng.randrange(VOCAB) for _ in range(prompt + 1)]
        self.live[slot] = {"tokens": tokens[:prompt], "target": target,
                           "blocks": ids}
        st, dev = self.state, self.device
        row = torch.zeros(MAX_BLOCKS, dtype=torch.int32)
        row[:blocks] = torch.tensor(ids, dtype=torch.int32)
        st["slot_block_table"][slot] = row.to(dev)
        st["slot_block_table_lengths"][slot] = -(-(prompt + 1 + NEXTN) // BLOCK)
        st["num_computed"][slot] = prompt
        st["slot_last_token"][slot] = tokens[prompt]
        st["num_drafts"][slot] = 0
        st["slot_draft_tokens"][slot] = 0
        # The prompt's KV (a prefill would write it).
        pos = torch.arange(prompt, device=dev)
        tok = torch.tensor(tokens[:prompt], device=dev)
        where = row.to(dev).long()[pos // BLOCK] * BLOCK + pos % BLOCK
        k, v = self.model.kv(tok, pos)
        self.k_cache[where] = k
        self.v_cache[where] = v

    def finish(self, slot):
        self.free_blocks += self.live.pop(slot)["blocks"]
        self.free_slots.append(slot)

    def batch(self):
        """The live requests (a few joining, the ones done leaving), in
        slot order, padded to N with placeholders at slot -1."""
        while self.free_slots and len(self.live) < self.n and \
                (len(self.live) < self.n // 2 or self.rng.random() < 0.3):
            self.join()
        order = sorted(self.live)
        self.slot.fill_(-1)
        self.ph.fill_(True)
        self.slot[:len(order)] = torch.tensor(order, dtype=torch.int32)
        self.ph[:len(order)] = False
        return order

    def inputs(self):
        return dict(self.state, slot=self.slot, is_placeholder=self.ph)

    # -- the device's part: KV write, attention, sampler ------------------
    def consume(self):
        o, m, st = self.outs, self.model, self.state
        rows = o["input_ids"].shape[-2] if o["input_ids"].dim() > 1 else \
            o["input_ids"].shape[0]
        flat = lambda t: t.reshape(-1)[:rows]
        ids = flat(o["input_ids"]).long().clamp(0, VOCAB - 1)
        pos = flat(o["positions"]).long().clamp(0, m.pe.shape[0] - 1)
        valid = flat(o["valid_token_mask"])
        slot_ca = o["slot_mapping_store_ca"][self.ratio_one].reshape(-1)[:rows]
        seqlens = o["seqlens_q"].reshape(-1)[:self.n].long()
        ends = o["cu_seqlens_q"].reshape(-1)[:self.n].long()
        live_rows = torch.arange(rows, device=ids.device) < ends[-1]
        trash = self.k_cache.shape[0] - 1
        ok = valid & live_rows & (slot_ca >= 0)
        dest = torch.where(ok, slot_ca.long(), torch.full_like(ids, trash))
        k, v = m.kv(ids, pos)
        self.k_cache.index_put_((dest,), k)
        self.v_cache.index_put_((dest,), v)
        # Attention over each row's blocks, masked at its context length.
        table = o["block_tables"].reshape(-1, MAX_BLOCKS)[:rows].long()
        table = table.clamp(0, self.num_blocks - 1)
        cols = torch.arange(MAX_BLOCKS * BLOCK, device=ids.device)
        where = table[:, cols // BLOCK] * BLOCK + cols % BLOCK
        ctx = flat(o["context_lens"]).long()
        mask = (cols[None, :] < ctx[:, None]) | (cols[None, :] == 0)
        q = m.q(ids, pos).unsqueeze(2)                      # [R, H, 1, D]
        kk = self.k_cache[where].permute(0, 2, 1, 3)        # [R, H, L, D]
        vv = self.v_cache[where].permute(0, 2, 1, 3)
        att = torch.nn.functional.scaled_dot_product_attention(
            q, kk, vv, attn_mask=mask[:, None, None, :])
        self.attn = att.squeeze(2)                          # [R, H, D]
        # The sampler: per sequence, its rows' argmax verify its drafts.
        tok = (self.attn.reshape(rows, -1) @ m.w).argmax(-1)
        start = ends - seqlens
        j = torch.arange(NEXTN + 1, device=ids.device)
        at = (start[:, None] + j[None, :]).clamp(0, rows - 1)
        drafts = seqlens - 1
        seq_tok = tok[at]                                   # [N, nextn + 1]
        proposed = ids[(at + 1).clamp(0, rows - 1)][:, :NEXTN]
        match = (j[None, :NEXTN] < drafts[:, None]) & \
            (proposed == seq_tok[:, :NEXTN])
        accepted = match.int().cumprod(1).sum(1)
        new_last = seq_tok.gather(1, accepted[:, None].long()).squeeze(1)
        first = start.clamp(0, rows - 1)
        real = valid[first]
        slot = flat(o["state_block_idx"])[first].long()
        slot = torch.where(real, slot, torch.full_like(slot, self.slots))
        nc = st["num_computed"][slot] + 1 + accepted.int()
        st["num_computed"].index_put_((slot,), nc)
        st["slot_last_token"].index_put_((slot,), new_last.int())
        nd = (new_last + nc) % (NEXTN + 1)
        st["num_drafts"].index_put_((slot,), nd.int())
        nxt = (new_last[:, None] * 5 + nc[:, None] + j[None, :NEXTN]) % VOCAB
        st["slot_draft_tokens"].index_put_((slot,), nxt.int())
        need = (nc + 1 + NEXTN + BLOCK - 1) // BLOCK
        st["slot_block_table_lengths"].index_put_(
            (slot,), need.clamp(max=MAX_BLOCKS).int())

    # -- the test's part: dense attention over each history ---------------
    def check(self, step, order, before):
        """Every live sequence's rows against dense attention (float64,
        CPU) over its history; then the host's histories advanced from
        the state the sampler wrote."""
        attn = self.attn.double().cpu()
        m = self.model
        ke, ve, qe, pe = (t.double().cpu() for t in (m.ke, m.ve, m.qe, m.pe))
        after = {k: self.state[k].cpu() for k in
                 ("num_computed", "slot_last_token")}
        row = 0
        worst = 0.0
        for slot in order:
            req = self.live[slot]
            s = int(before["num_computed"][slot])
            d = int(before["num_drafts"][slot])
            step_tokens = [int(before["slot_last_token"][slot])] + \
                [int(t) for t in before["slot_draft_tokens"][slot][:d]]
            if len(req["tokens"]) != s:
                sys.exit(f"step {step}: slot {slot}: the host tracked "
                         f"{len(req['tokens'])} tokens, num_computed {s}")
            toks = torch.tensor(req["tokens"] + step_tokens)
            pos = torch.arange(len(toks))
            k = ke[toks] + pe[pos]
            v = ve[toks] + pe[pos]
            for j in range(1 + d):
                qj = qe[toks[s + j]] + pe[s + j]                 # [H, D]
                kj, vj = k[:s + j + 1], v[:s + j + 1]            # [L, H, D]
                w = torch.softmax(torch.einsum("hd,lhd->hl", qj, kj) /
                                  math.sqrt(DIM), -1)
                ref = torch.einsum("hl,lhd->hd", w, vj)
                got = attn[row + j]
                err = (got - ref).abs() - RTOL * ref.abs()
                if err.max() > ATOL:
                    sys.exit(f"step {step}: sequence of slot {slot}, query "
                             f"row {j} (position {s + j}): attention "
                             f"differs from dense by {err.max():.3g}")
                worst = max(worst, float((got - ref).abs().max()))
            row += 1 + d
            acc = int(after["num_computed"][slot]) - s - 1
            if not 0 <= acc <= d:
                sys.exit(f"step {step}: slot {slot}: num_computed {s} -> "
                         f"{int(after['num_computed'][slot])} with {d} drafts")
            req["tokens"] += step_tokens[:1 + acc]
            self.drafts[0] += acc
            self.drafts[1] += d
        return worst

    def after_step(self, order):
        for slot in order:
            if len(self.live[slot]["tokens"]) >= self.live[slot]["target"]:
                self.finish(slot)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--build-dir", default=None)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--max-seqs", type=int, default=32)
    ap.add_argument("--torchscript", action="store_true")
    ap.add_argument("--bench", action="store_true")
    args = ap.parse_args()
    device = torch.device(args.device)
    cls = E.build(args.gen, args.device,
                  args.build_dir or os.path.join(args.gen, "torch-" +
                                                 args.device),
                  torchscript=args.torchscript, path="DecodeAsync")
    eng = Engine(cls, device, args.max_seqs, args.max_seqs + 8, seed=33)
    ratios = eng.meta.ratios()
    k = eng.names.index("slot_mapping_store_ca")
    eng.ratio_one = [int(r) for r in ratios[k]].index(1) \
        if 1 in [int(r) for r in ratios[k]] else 0
    graph = None
    joined = finished = 0
    worst = 0.0
    t0 = time.time()
    for step in range(args.steps):
        before_live = set(eng.live)
        order = eng.batch()
        joined += len(set(eng.live) - before_live)
        before = {k: eng.state[k].cpu().clone() for k in
                  ("num_computed", "num_drafts", "slot_last_token",
                   "slot_draft_tokens")}
        eng.meta.plan(eng.inputs())
        if device.type == "cpu" or step == 0:
            # The CPU runs the step eagerly; on CUDA the first step too
            # (it fixes the launch's geometry and warms the consumer's
            # kernels and cuBLAS, which a capture cannot start).
            eng.meta.run()
            eng.consume()
        else:
            if graph is None:
                side = torch.cuda.Stream()
                side.wait_stream(torch.cuda.current_stream())
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph, stream=side):
                    eng.meta.run()
                    eng.consume()
                # Capture ran nothing: the replay below is the step.
            graph.replay()
        if device.type == "cuda":
            torch.cuda.synchronize()
            eng.meta.check()
        worst = max(worst, eng.check(step, order, before))
        n_live = len(eng.live)
        eng.after_step(order)
        finished += n_live - len(eng.live)
    took = time.time() - t0
    print(f"decode_async in the engine's {'graph' if graph else 'eager loop'}"
          f" on {args.device}: {args.steps} steps at N = {args.max_seqs}, "
          f"{joined} requests joined, {finished} finished, "
          f"{eng.drafts[0]} of {eng.drafts[1]} drafts accepted; every live "
          f"sequence's attention equal to dense attention over its history "
          f"(max |diff| {worst:.2e}, tolerance {ATOL} + {RTOL} |ref|); "
          f"{took:.1f} s")
    if args.bench and device.type == "cuda":
        bench(eng)


def bench(eng):
    """The metadata step alone through the binding: plan() + a graph of
    run() + sync, µs medians of 500 after 50, at the engine's batch."""
    eng.batch()
    eng.meta.plan(eng.inputs())
    graph = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.graph(graph, stream=side):
        eng.meta.run()
    times, host = [], []
    inputs = eng.inputs()
    for it in range(550):
        t0 = time.perf_counter()
        eng.meta.plan(inputs)
        t1 = time.perf_counter()
        graph.replay()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        if it >= 50:
            times.append((t2 - t0) * 1e6)
            host.append((t1 - t0) * 1e6)
    eng.meta.check()
    times.sort()
    host.sort()
    print(f"torch step N={eng.n}: {times[len(times) // 2]:.1f} us "
          f"(plan {host[len(host) // 2]:.2f} us), staging "
          f"{eng.meta.staging_used()} B")


if __name__ == "__main__":
    main()
