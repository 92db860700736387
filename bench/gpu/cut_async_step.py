#!/usr/bin/env python3
"""Measurement-only: a copy of the generated V4 sources whose decode_async
step kernel returns at a chosen phase (`IMETA_CUT=<k>` in the environment,
read once per process; 0 or unset: the whole kernel), so that the step's
wall time with the kernel cut after phase k, minus the time cut after phase
k - 1, is what phase k costs the user (stamps say where a CTA's clock goes;
this says what the whole step loses or gains). The outputs are not written
past a cut, so the bench's comparison with the CPU routine is off
(`IMETA_BENCH_NO_CHECK`, which only this use sets).

  python3 bench/gpu/cut_async_step.py build/test/generated build/cut/gen
  cmake -S . -B build/cut/b -G Ninja -DIMETA_GPU_ONLY=ON \
        -DIMETA_GENERATED_DIR=$PWD/build/cut/gen -DCMAKE_BUILD_TYPE=Release
  ninja -C build/cut/b imeta-bench-async-step
  (on the GPU) for k in 1 2 3 4 5 6 7 0; do IMETA_CUT=$k \
      IMETA_BENCH_NO_CHECK=1 imeta-bench-async-step 30; done

Every cut, 0 included, reads the cut from constant memory and carries its
branches: compare cuts with each other, and the whole step with the
unpatched bench in the same call. IMETA_BENCH_NO_CHECK also leaves (b'')
unchecked.

A cut before the grid's verdict (3-6) relies on every CTA reaching it
alike, true of this kernel (each runs the stage over the whole batch,
and the bench's batches pass): a kernel whose CTAs could fail apart
would leave some at the barrier. A process run with a cut before 5
never writes the leaves `_check` widens the proof box from: use it for
cuts only.

Cuts: 1 at entry (the graph, the copy and a launch that returns), 2 after
the context's copy into shared memory and its layout, 3 after the sequence
stage, 4 after the capacities, 5 after the proof's leaves and the box, 6
after the dry run of the fast fill, 7 after the grid's verdict (0: the
fills too). The anchors are the generated text's: a change of the emitter
that moves them fails here with an assertion, not a wrong cut.
"""
import os
import shutil
import sys

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
for f in os.listdir(src):
    if os.path.isfile(os.path.join(src, f)):
        shutil.copy(os.path.join(src, f), os.path.join(dst, f))
p = os.path.join(dst, 'deepinfer_v4.cu')
s = open(p).read()
k0 = s.index('decode_async_step_kernel(const decode_async_ctx')
k1 = s.index("/// A device step's stage key: after the error record", k0)
body = s[k0:k1]


def put(anchor, text, before=False):
    """`text` after (or before) the one occurrence of `anchor`."""
    global body
    assert body.count(anchor) == 1, anchor
    i = body.index(anchor) + (0 if before else len(anchor))
    body = body[:i] + text + body[i:]


# (anchor, text, before the anchor): cut k returns after phase k; a cut
# inside the stage's lambda leaves it, and the kernel returns after it.
QUIT = '  if (cut == {0}) {{ quit = true; return; }}\n'
EXIT = '  if (threadIdx.x == 0) c.err = err;\n  __syncthreads();\n  }}();'
for anchor, text, before in [
        ('  extern __shared__ int4 step_shared[];\n',
         '  const int cut = imeta_cut;\n  if (cut == 1) return;\n', False),
        ('  const int64_t N = c.num_seqs;\n  BlockLanes ln(sh);',
         '  if (cut == 2) return;\n  bool quit = false;\n', True),
        ('if (!decode_async_sequence_stage(c, ln)) { mine = ln.best; return; }',
         '\n' + QUIT.format(3), False),
        ('  if (ln.failed()) { mine = ln.best; return; }\n  if (threadIdx.x == 0) {',
         QUIT.format(4), True),
        ('  if (threadIdx.x == 0) c.err = &dry;\n', QUIT.format(5), True),
        (EXIT.format(), '\n  if (quit) return;', False),
        (EXIT.format(), QUIT.format(6), True),
        ('  if (best != kStageOk) return;\n', '  if (cut == 7) return;\n', False)]:
    put(anchor, text, before)
s = s[:k0] + body + s[k1:]
decl = ('__constant__ int imeta_cut;\n'
        'static const int imeta_cut_set = [] {\n'
        '  const char *e = std::getenv("IMETA_CUT");\n'
        '  const int v = e ? std::atoi(e) : 0;\n'
        '  if (cudaMemcpyToSymbol(imeta_cut, &v, sizeof v) != cudaSuccess) {\n'
        '    std::fprintf(stderr, "cut_async_step: IMETA_CUT not set on the device\\n");\n'
        '    std::exit(1);\n'
        '  }\n'
        '  std::fprintf(stderr, "cut_async_step: the step kernel cut after phase %d\\n", v);\n'
        '  return v;\n'
        '}();\n')
g0 = s.rindex('\n', 0, s.rindex('__global__', 0, k0)) + 1
s = s[:g0] + decl + s[g0:]
s = '#include <cstdio>\n#include <cstdlib>\n' + s
open(p, 'w').write(s)
print('ok')
