"""What the transcriptions of engines' code (*_ref.py) share: run
imeta-run on a batch for one path and backend, and say how its field file
differs from the reference's outputs (exactly: a bool is not an int, and
a key the engine leaves None must be absent)."""
import json
import subprocess


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


def mismatches(imeta_run, spec, path, batch_file, want, backend, engine):
    """The differences of `path` on `batch_file` (backend None: the
    evaluator) from `want`, the reference `engine`'s outputs."""
    cmd = [imeta_run, spec, "--path", path, "--batch", batch_file]
    if backend:
        cmd += ["--backend", backend]
    name = f"{path} {backend or 'evaluator'}"
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return [f"{name}: imeta-run failed: {r.stderr.strip()}"]
    got = json.loads(r.stdout)
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
