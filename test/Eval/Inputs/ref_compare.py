"""What the transcriptions of engines' code (*_ref.py) share: run
imeta-run on a batch for one path and backend, and say how its field file
differs from the reference's outputs (exactly: a bool is not an int, and
a key the engine leaves None must be absent); the arithmetic they all
spell (ceiling division, an exclusive cumsum)."""
import json
import os
import random
import subprocess
import sys


def cdiv(a, b):
    return -(-a // b)


def cumsum0(xs):
    out = [0]
    for x in xs:
        out.append(out[-1] + x)
    return out


def same(a, b):
    # Exact, bool told apart from int (True == 1 in Python).
    if type(a) != type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def show(v):
    s = json.dumps(v)
    return s if len(s) <= 200 else s[:200] + f"... ({len(v)} entries)"


def first_diff(got, want):
    if isinstance(got, list) and isinstance(want, list):
        for i, (x, y) in enumerate(zip(got, want)):
            if not same(x, y):
                return f" (first at [{i}]: {json.dumps(x)} vs {json.dumps(y)})"
        if len(got) != len(want):
            return f" (lengths {len(got)} vs {len(want)})"
    return ""


def mismatches(name, got, want, engine):
    """The differences of field file `got` (of the run `name`) from `want`,
    the reference `engine`'s outputs."""
    bad = []
    for k in sorted(set(want) | set(got)):
        if k not in got:
            bad.append(f"{name}: {k} missing, {engine} {show(want[k])}")
        elif k not in want:
            bad.append(f"{name}: {k} present ({show(got[k])}), {engine} "
                       f"leaves it None")
        elif not same(got[k], want[k]):
            bad.append(f"{name}: {k} got {show(got[k])}, {engine} "
                       f"{show(want[k])}{first_diff(got[k], want[k])}")
    return bad


def run_batches(seed, make_batch, checks, engine, summary, describe=None,
                explain=None):
    """The command line of every *_ref.py, `IMETA_RUN SPEC WORKDIR
    [BATCHES]` (12 by default): each batch `make_batch(rng, n)` (rng seeded
    with `seed`) is written to WORKDIR/batchN.json and each (path,
    reference) of `checks` run on the evaluator and the generated C++
    against `reference(batch)`. One line a batch (`describe(batch)` says
    what it holds; `explain(name, got, path, batch)` gives more lines where
    run `name`'s field file `got` differs), then `N batches: SUMMARY`, or
    how many differ and exit status 1."""
    imeta_run, spec, work = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 12
    os.makedirs(work, exist_ok=True)
    rng = random.Random(seed)
    failed = 0
    for n in range(count):
        batch = make_batch(rng, n)
        path = os.path.join(work, f"batch{n}.json")
        with open(path, "w") as f:
            json.dump(batch, f)
        bad, more = [], []
        for vpath, reference in checks:
            want = reference(batch)
            for backend in (None, "cpu"):
                name = f"{vpath} {backend or 'evaluator'}"
                cmd = [imeta_run, spec, "--path", vpath, "--batch", path]
                r = subprocess.run(cmd + ["--backend", backend or "interp"],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    bad.append(f"{name}: imeta-run failed: {r.stderr.strip()}")
                    continue
                got = json.loads(r.stdout)
                here = mismatches(name, got, want, engine)
                bad += here
                if here and explain:
                    more += explain(name, got, vpath, batch)
        status = "ok" if not bad else f"{len(bad)} MISMATCHES"
        what = f" ({describe(batch)})" if describe else ""
        print(f"batch {n}{what}: {status} ({path})")
        for line in bad[:8] + more:
            print(f"  {line}")
        failed += bool(bad)
    if failed:
        print(f"{failed} of {count} batches differ from {engine}'s metadata")
        sys.exit(1)
    print(f"{count} batches: {summary}")
