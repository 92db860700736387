#!/usr/bin/env python3
"""The hostile user's campaign: mutated batch files through imeta-run and
mutated specs through imeta-opt and imeta-gen, each run as a user runs the
tools (a process per run, 5 s and 4 GB at most), every outcome classified.

A run is `ok` (exit 0), a clean `error` (exit 1, 2 or 3 - a rule, a usage
error, a spec's diagnostic - with an `error:` line on stderr, no
sanitizer report), or a failure: `crash` (a signal, a sanitizer
or LLVM fatal report, an assertion, any other exit code), `hang` (past the
time limit), `oom` (past the memory limit), or `escape` (imeta-gen wrote
outside its -o). Failures are saved under --out with the command that
failed; the exit status is 1 if there is any.

Meant for the sanitizer build (scripts/sanitize.sh), whose tools report
memory errors; its memory limit is then ASan's resident limit (the
shadow memory rules out an address-space limit), else `ulimit -v`.

Usage: test/fuzz/hostile.py --tools build-san/tools [--batches 10000]
       [--specs 5000] [--seed 1] [--jobs 2] [--out build-san/hostile]
"""

import argparse
import concurrent.futures as futures
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
V4 = os.path.join(ROOT, "specs", "deepinfer_v4.mlir")
PATHS = ("prompt", "decode", "decode_zos")
LIMIT_S = 5
LIMIT_MB = 4096

SPECIAL_NUMBERS = [
    "2147483648", "2147483647", "-2147483648", "-2147483649",
    "9223372036854775808", "9223372036854775807", "18446744073709551616",
    "-1", "0", "-0", "NaN", "Infinity", "1e400", "-1e400", "64.0", "1e3",
    "0.5", "1" + "0" * 400, "0x10", "+1", "01", "1073741824", "16777215",
]
WEIRD_STRINGS = [
    "", "\u00e9", "\u202e", "\ud7ff", "\U0001f600", "\\u0000", "\\ud800",
    "\x01", "a" * 10000, "../escaped", "x y", "class", "\\\\",
]
WEIRD_NAMES = [
    '"../escaped"', '"x y"', '"class"', '"\\\\"', '"int"', '"a-b"',
    '"\u00e9t\u00e9"', '"0abc"', '""', '"std"', '"namespace"', '"/tmp/x"',
    "_", "a" * 300, "main", "Status", "Config",
    # Round three: names the generated code or its headers already use.
    "Buffer", "NULL", "EOF", "INT32_MAX", "stdin", "threadIdx", "int32_t",
    "__x", "_Y", "std", "linux", "assert", "errno", "dim3", "Sequences",
]

# Round three: compact formulas that nest or grow (the parser's limit, the
# tools' time), spliced into a formula string of a spec.
def deep_formula(rng):
    n = rng.choice([255, 256, 257, 3000, 20000])
    kind = rng.randrange(6)
    if kind == 0:
        return "(" * n + "q" + ")" * n
    if kind == 1:
        return "min(" * n + "q" + ", 1)" * n
    if kind == 2:
        return "-" * n + "q"
    if kind == 3:
        return "!" * n + "true ? 1 : 0"
    if kind == 4:
        return "".join("q > %d ? %d : " % (t, t) for t in range(n)) + "0"
    return " + ".join(["(q % 7)"] * rng.choice([1000, 50000]))


def json_values(node, acc):
    """Every (container, key) in a parsed JSON tree."""
    if isinstance(node, dict):
        for k in list(node):
            acc.append((node, k))
            json_values(node[k], acc)
    elif isinstance(node, list):
        for i in range(len(node)):
            acc.append((node, i))
            json_values(node[i], acc)
    return acc


def mutate_tree(rng, text):
    """A structural mutation of a JSON text: a value changed, a key gone or
    doubled, a list made long, a value nested deep."""
    try:
        tree = json.loads(text)
    except ValueError:
        return None
    slots = json_values(tree, [])
    if not slots:
        return None
    holder, key = rng.choice(slots)
    kind = rng.randrange(7)
    if kind == 0:  # a special number, written raw
        marker = "@@NUM%d@@" % rng.randrange(1 << 30)
        holder[key] = marker
        return json.dumps(tree).replace('"%s"' % marker, rng.choice(SPECIAL_NUMBERS))
    if kind == 1:  # a value of the wrong type
        holder[key] = rng.choice([None, True, "7", [], {}, [1, 2], {"a": 1},
                                  rng.choice(WEIRD_STRINGS)])
    elif kind == 2 and isinstance(holder, dict):  # a key missing
        del holder[key]
    elif kind == 3 and isinstance(holder, dict):  # a key twice
        body = json.dumps(tree)
        dup = '"%s": %s, ' % (key, json.dumps(holder[key]))
        at = body.find('"%s":' % key)
        return body[:at] + dup + body[at:] if at >= 0 else body
    elif kind == 4:  # a long list
        n = rng.choice([100, 10_000, 200_000])
        item = holder[key] if not isinstance(holder[key], list) else 1
        holder[key] = [item] * n
    elif kind == 5:  # deep nesting
        depth = rng.choice([8, 33, 1000, 50_000])
        marker = "@@DEEP@@"
        holder[key] = marker
        body = json.dumps(tree)
        wrap = rng.choice(["[", '{"a":'])
        close = "]" if wrap == "[" else "}"
        return body.replace('"%s"' % marker, wrap * depth + "1" + close * depth)
    else:  # a large value where sizes come from
        holder[key] = rng.choice([1 << 20, 1 << 24, (1 << 24) - 1, 1 << 28,
                                  1 << 30, (1 << 31) - 1])
    return json.dumps(tree)


def mutate_bytes(rng, data):
    """A byte-level mutation: truncation, garbage, unicode, a splice."""
    kind = rng.randrange(6)
    if not data:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
    at = rng.randrange(len(data))
    if kind == 0:
        return data[:at]
    if kind == 1:
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 32)))
        return data[:at] + junk + data[at + rng.randrange(8):]
    if kind == 2:
        s = rng.choice(WEIRD_STRINGS).encode("utf-8", "surrogatepass")
        return data[:at] + s + data[at:]
    if kind == 3:
        b = bytearray(data)
        for _ in range(rng.randrange(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if kind == 4:
        other = rng.randrange(len(data))
        return data[:at] + data[other:other + rng.randrange(1, 200)] + data[at:]
    return data[:at] + rng.choice(["[", "{", '"', "\\", ",", ":", "-"]).encode() + data[at:]


def round_three(rng, text):
    """A batch text with a key repeated under an escaped spelling, a number
    with a leading zero, or an unknown top-level key (round three)."""
    kind = rng.randrange(3)
    keys = [k for k in ("seqlen_q", "seqlen_k", "state_id", "block_size",
                        "slot") if ('"%s"' % k) in text]
    if kind == 0 and keys:
        k = rng.choice(keys)
        escaped = k.replace("_", "\\u005f", 1)
        return text.replace('"%s":' % k, '"%s": 7, "%s":' % (escaped, k), 1)
    if kind == 1:
        at = [i for i in range(1, len(text)) if text[i].isdigit() and
              not text[i - 1].isdigit() and text[i - 1] != "."]
        if at:
            i = rng.choice(at)
            return text[:i] + "0" + text[i:]
    return text.replace("{", '{"%s": 1, ' % rng.choice(["stat", "path",
                                                         "sequence"]), 1)


def make_batch(rng, seeds):
    text = rng.choice(seeds)
    if rng.random() < 0.15:
        return round_three(rng, text.decode("utf-8", "replace")).encode(
            "utf-8", "surrogatepass")
    for _ in range(rng.choice([1, 1, 2, 3])):
        if rng.random() < 0.6:
            try:
                out = mutate_tree(rng, text.decode("utf-8", "replace"))
            except RecursionError:  # nested too deep for Python's json
                out = None
            text = out.encode("utf-8", "surrogatepass") if out is not None else mutate_bytes(rng, text)
        else:
            text = mutate_bytes(rng, text)
    return text


def make_spec(rng, seeds):
    lines = rng.choice(seeds).splitlines(keepends=True)
    for _ in range(rng.choice([1, 1, 2, 3])):
        if not lines:
            break
        i = rng.randrange(len(lines))
        kind = rng.randrange(11)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3 and "@" in lines[i]:  # a symbol renamed
            at = lines[i].index("@") + 1
            end = at
            while end < len(lines[i]) and (lines[i][end].isalnum() or lines[i][end] in '_"'):
                end += 1
            lines[i] = lines[i][:at] + rng.choice(WEIRD_NAMES) + lines[i][end:]
        elif kind == 4:  # a number changed
            words = lines[i].split(" ")
            nums = [k for k, w in enumerate(words) if w.strip(",)]").lstrip("(-").isdigit()]
            if nums:
                k = rng.choice(nums)
                words[k] = rng.choice(SPECIAL_NUMBERS)
                lines[i] = " ".join(words)
        elif kind == 5:  # a character gone or added
            s = lines[i]
            at = rng.randrange(len(s) + 1)
            if rng.random() < 0.5 and s:
                lines[i] = s[:at] + s[at + 1:]
            else:
                lines[i] = s[:at] + rng.choice('{}()[]<>:@%,="-') + s[at:]
        elif kind == 6:  # an output's or field's string renamed
            if '"' in lines[i]:
                a = lines[i].index('"')
                b = lines[i].find('"', a + 1)
                if b > a:
                    lines[i] = lines[i][:a] + rng.choice(WEIRD_NAMES[:12]) + lines[i][b + 1:]
        elif kind == 7:  # truncated
            lines = lines[:i]
        elif kind == 9 and ' = "' in lines[i]:  # a formula nested or grown
            a = lines[i].index(' = "') + 4
            b = lines[i].find('"', a)
            if b > a:
                lines[i] = lines[i][:a] + deep_formula(rng) + lines[i][b:]
        elif kind == 10:  # regions nested past MLIR's parser's depth
            n = rng.choice([900, 1001, 5000])
            lines.insert(i, "{\n" * n + "}\n" * n)
        else:  # a word from elsewhere
            words = lines[i].split(" ")
            donor = lines[rng.randrange(len(lines))].split(" ")
            if words and donor:
                words[rng.randrange(len(words))] = rng.choice(donor)
                lines[i] = " ".join(words)
    return "".join(lines).encode("utf-8", "surrogatepass")


def sanitized(tool):
    """Whether the tool carries ASan (then ulimit -v would stop it)."""
    with open(tool, "rb") as f:
        return b"__asan_init" in f.read()


class Runner:
    def __init__(self, tools, out):
        self.tools = tools
        self.out = out
        self.asan = sanitized(os.path.join(tools, "imeta-run", "imeta-run"))
        self.env = dict(os.environ)
        self.env["ASAN_OPTIONS"] = "hard_rss_limit_mb=%d:detect_leaks=0" % LIMIT_MB
        self.env["UBSAN_OPTIONS"] = "print_stacktrace=1"
        self.env.setdefault("IMETA_CACHE_DIR", os.path.join(out, "cache"))

    def limit(self):
        if not self.asan:
            b = LIMIT_MB << 20
            resource.setrlimit(resource.RLIMIT_AS, (b, b))

    def run(self, argv, cwd):
        """(outcome, seconds, stderr tail) of one tool run."""
        start = time.monotonic()
        try:
            p = subprocess.run(argv, cwd=cwd, env=self.env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=LIMIT_S,
                               preexec_fn=self.limit)
        except subprocess.TimeoutExpired:
            return "hang", time.monotonic() - start, ""
        secs = time.monotonic() - start
        err = p.stderr.decode("utf-8", "replace")
        tail = err[-3000:]
        if "hard rss limit" in err or "out of memory" in err or "allocation-size-too-big" in err:
            return "oom", secs, tail
        bad = ("AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:",
               "LLVM ERROR", "Assertion", "Stack dump", "terminate called")
        if p.returncode == 0 and not any(b in err for b in bad):
            return "ok", secs, tail
        if p.returncode in (1, 2, 3) and "error:" in err and not any(b in err for b in bad):
            return "error", secs, tail
        return "crash", secs, tail


def campaign(kind, count, seed, runner, jobs, make, seeds, counts, failures, slowest):
    tools = runner.tools
    work = tempfile.mkdtemp(prefix="hostile-%s-" % kind)

    def one(n):
        rng = random.Random(seed * 1_000_003 + n)
        data = make(rng, seeds)
        base = os.path.join(work, str(n))
        os.makedirs(base)
        results = []
        if kind == "batch":
            path = os.path.join(base, "batch.json")
            with open(path, "wb") as f:
                f.write(data)
            for p in PATHS:
                argv = [os.path.join(tools, "imeta-run", "imeta-run"), V4, "--path", p,
                        "--batch", path]
                results.append((argv, runner.run(argv, base)))
        else:
            path = os.path.join(base, "spec.mlir")
            with open(path, "wb") as f:
                f.write(data)
            cwd = os.path.join(base, "cwd")
            os.makedirs(os.path.join(cwd, "out"))
            argv = [os.path.join(tools, "imeta-opt", "imeta-opt"), path]
            results.append((argv, runner.run(argv, cwd)))
            argv = [os.path.join(tools, "imeta-gen", "imeta-gen"), path, "-o", "out"]
            res = runner.run(argv, cwd)
            strays = sorted(set(os.listdir(base)) - {"spec.mlir", "cwd"}) + \
                sorted(set(os.listdir(cwd)) - {"out"})
            if strays and res[0] in ("ok", "error"):
                res = ("escape", res[1], "wrote outside -o: %s" % strays)
            results.append((argv, res))
        kept = None
        for argv, (outcome, secs, tail) in results:
            if outcome not in ("ok", "error"):
                kept = kept or os.path.join(runner.out, "%s-%d" % (kind, n))
        if kept:
            os.makedirs(kept, exist_ok=True)
            shutil.copy(path, kept)
        shutil.rmtree(base, ignore_errors=True)
        return n, results, kept

    with futures.ThreadPoolExecutor(jobs) as pool:
        for n, results, kept in pool.map(one, range(count)):
            for argv, (outcome, secs, tail) in results:
                counts[outcome] = counts.get(outcome, 0) + 1
                slowest.append((secs, "%s-%d %s" % (kind, n, " ".join(argv[2:4]))))
                if outcome not in ("ok", "error"):
                    failures.append("%s: %s-%d: %s\n%s" % (outcome, kind, n,
                                                           " ".join(argv), tail))
                    with open(os.path.join(kept, "failures.txt"), "a") as f:
                        f.write("%s: %s\n%s\n" % (outcome, " ".join(argv), tail))
            if (n + 1) % 500 == 0:
                print("  %s: %d inputs, %s" % (kind, n + 1, counts), flush=True)
    shutil.rmtree(work, ignore_errors=True)


def read_all(paths):
    out = []
    for p in paths:
        with open(p, "rb") as f:
            out.append(f.read())
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", required=True, help="the build's tools/ folder")
    ap.add_argument("--batches", type=int, default=10000)
    ap.add_argument("--specs", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", default=os.path.join(ROOT, "build-san", "hostile"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    runner = Runner(os.path.abspath(args.tools), os.path.abspath(args.out))
    print("hostile: %d batches x %s, %d specs (imeta-opt, imeta-gen); %d s, %d MB "
          "(%s); seed %d" % (args.batches, "/".join(PATHS), args.specs, LIMIT_S, LIMIT_MB,
                             "ASan rss limit" if runner.asan else "ulimit -v", args.seed))
    ex = os.path.join(ROOT, "specs", "examples")
    batch_seeds = read_all([os.path.join(ex, f) for f in ("decode_small.json", "prompt_small.json")])
    corpus = os.path.join(ROOT, "test", "fuzz", "corpus", "batch")
    batch_seeds += read_all(sorted(os.path.join(corpus, f) for f in os.listdir(corpus))[:64])
    spec_files = [V4] + [os.path.join(ex, f) for f in sorted(os.listdir(ex)) if f.endswith(".mlir")]
    spec_seeds = [s.decode("utf-8") for s in read_all(spec_files)]
    total = {}
    failures, slowest = [], []
    start = time.monotonic()
    for kind, count, make, seeds in (("batch", args.batches, make_batch, batch_seeds),
                                     ("spec", args.specs, make_spec, spec_seeds)):
        counts = {}
        campaign(kind, count, args.seed, runner, args.jobs, make, seeds, counts,
                 failures, slowest)
        print("hostile: %d %s inputs, %d runs: %s" % (count, kind, sum(counts.values()),
                                                     json.dumps(counts, sort_keys=True)))
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    slowest.sort(reverse=True)
    print("hostile: slowest runs: " + "; ".join("%.2f s %s" % s for s in slowest[:5]))
    print("hostile: %.0f s in all" % (time.monotonic() - start))
    bad = sum(v for k, v in total.items() if k not in ("ok", "error"))
    if bad:
        print("hostile: %d failures, inputs under %s" % (bad, args.out))
        for f in failures[:20]:
            print(f)
        return 1
    print("hostile: no crash, hang, out-of-memory death or escape")
    return 0


if __name__ == "__main__":
    sys.exit(main())
