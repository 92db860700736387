#!/usr/bin/env python3
"""Measurement-only: a copy of the generated V4 sources whose decode_async
step kernel stamps each phase (globaltimer and clock64, thread 0 of every
CTA), and whose decode_async_check prints the per-phase medians and maxima
over the CTAs every 50th call (stderr, one line a bench case).

  python3 bench/gpu/stamp_async_step.py build/test/generated build/stamp/gen
  cmake -S . -B build/stamp/b -G Ninja -DIMETA_GPU_ONLY=ON \
        -DIMETA_GENERATED_DIR=$PWD/build/stamp/gen -DCMAKE_BUILD_TYPE=Release
  ninja -C build/stamp/b imeta-bench-async-step
  (on the GPU) imeta-bench-async-step 30 2> stamps.txt

Phases: ctx (the context into shared memory and its layout), zero (the own
steps' values zeroed), rows (every slot's state rows checked), lvl0, lvl1,
lvl2+ (the stage's levels), caps (the outputs' capacities), leaves (the
proof's leaves), box (the box compared), grid (the grid-wide verdict), fill.
The anchors are the generated text's: a change of the emitter that moves
them fails here with an assertion, not a wrong stamp.
"""
import re, sys, shutil, os
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
for f in os.listdir(src):
    if os.path.isfile(os.path.join(src, f)):
        shutil.copy(os.path.join(src, f), os.path.join(dst, f))
MAC = r'''
#ifndef IMETA_STAMPS_DEFINED
#define IMETA_STAMPS_DEFINED
#if defined(__CUDACC__)
__device__ unsigned long long imeta_stamps[2048 * 32];
#endif
#if defined(__CUDA_ARCH__)
#define IMETA_STAMP(k) do { if (threadIdx.x == 0) { unsigned long long t_; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t_)); imeta_stamps[blockIdx.x * 32 + 2 * (k)] = t_; imeta_stamps[blockIdx.x * 32 + 2 * (k) + 1] = clock64(); } } while (0)
#else
#define IMETA_STAMP(k) do {} while (0)
#endif
#endif
'''
# impl.h: stamps in the stage
p = os.path.join(dst, 'deepinfer_v4_impl.h')
t = open(p).read().split('\n')
start = next(i for i, l in enumerate(t) if l.startswith('IMETA_HD bool decode_async_sequence_stage('))
end = next(i for i in range(start, len(t)) if t[i] == '}')
# insert macros before the template line preceding start
ins = {}
for i in range(start, end):
    l = t[i]
    if l == '  // Request state, read at each sequence\'s slot.': ins[i] = 'IMETA_STAMP(2);'
    if l == '  // Level 0.': ins[i] = 'IMETA_STAMP(3);'
    if l == '  // Level 1.': ins[i] = 'IMETA_STAMP(4);'
    if l == '  // Level 2.': ins[i] = 'IMETA_STAMP(5);'
assert len(ins) == 4, ins
for i in sorted(ins, reverse=True):
    t.insert(i, '  ' + ins[i])
t.insert(start - 1, MAC)
open(p, 'w').write('\n'.join(t))
# .cu: kernel stamps and the dump in decode_async_check
p = os.path.join(dst, 'deepinfer_v4.cu')
s = open(p).read()
k0 = s.index('decode_async_step_kernel(const decode_async_ctx')
body_start = s.index('{', k0) + 1
s = s[:body_start] + '\n  IMETA_STAMP(0);' + s[body_start:]
def after(s, anchor, text, frm):
    i = s.index(anchor, frm) + len(anchor)
    return s[:i] + text + s[i:]
k0 = s.index('decode_async_step_kernel(const decode_async_ctx')
s = after(s, 'decode_async_step_layout(c, reinterpret_cast<char *>(step_shared), c.num_seqs);\n  __syncthreads();', '\n  IMETA_STAMP(1);', k0)
s = after(s, 'if (!decode_async_sequence_stage(c, ln)) { mine = ln.best; return; }', '\n  IMETA_STAMP(6);', k0)
s = after(s, '  if (ln.failed()) { mine = ln.best; return; }', '\n  IMETA_STAMP(7);', k0)
s = after(s, 'decode_async_proof_leaves(c, ln, lv);', '\n  IMETA_STAMP(8);', k0)
s = after(s, '  }();\n  bool writes = false;', '\n  IMETA_STAMP(9);', k0)
s = after(s, 'verdict, writes);', '\n  IMETA_STAMP(10);', k0)
kend = s.index('/// A device step\'s stage key: after the error record', k0)
close = s.rindex('}', k0, kend)
s = s[:close] + '  __syncthreads();\n  IMETA_STAMP(11);\n' + s[close:]
dump = r'''
static void imeta_dump_stamps(const GpuStaging &s) {
  static int calls = 0;
  if (++calls % 50 != 45) return;
  const int B = int(s.blocks), K = 12;
  std::vector<unsigned long long> v(size_t(B) * 32);
  if (cudaMemcpyFromSymbol(v.data(), imeta_stamps, v.size() * 8)) return;
  int dev = 0, khz = 0; cudaGetDevice(&dev); cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
  unsigned long long g0 = ~0ull, g1 = 0;
  std::vector<std::vector<double>> ph(K);
  for (int b = 0; b < B; ++b) {
    const unsigned long long *r = &v[size_t(b) * 32];
    g0 = std::min(g0, r[0]); g1 = std::max(g1, r[2 * 11]);
    for (int k = 1; k < K; ++k) if (r[2 * k + 1] && r[2 * (k - 1) + 1]) ph[k].push_back(double(r[2 * k + 1] - r[2 * (k - 1) + 1]) / (khz / 1000.0));
  }
  std::fprintf(stderr, "[stamps] CTAs %d, kernel span (globaltimer) %.2f us; phase medians/max us:", B, (g1 - g0) / 1000.0);
  const char *names[] = {"", "ctx", "zero", "rows", "lvl0", "lvl1", "lvl2+", "caps", "leaves", "box", "grid", "fill"};
  for (int k = 1; k < K; ++k) { auto &x = ph[k]; if (x.empty()) continue; std::sort(x.begin(), x.end()); std::fprintf(stderr, " %s %.2f/%.2f", names[k], x[x.size() / 2], x.back()); }
  unsigned long long lastStart = 0; for (int b = 0; b < B; ++b) lastStart = std::max(lastStart, v[size_t(b) * 32]);
  std::fprintf(stderr, "; last CTA start +%.2f\n", (lastStart - g0) / 1000.0);
  std::memset(v.data(), 0, v.size() * 8); cudaMemcpyToSymbol(imeta_stamps, v.data(), v.size() * 8);
}
'''
c0 = s.index('Status decode_async_check(const GpuStaging &s, cudaStream_t stream) {')
s = s[:c0] + dump + s[c0:]
s = after(s, 'Status decode_async_check(const GpuStaging &s, cudaStream_t stream) {\n  if (cudaError_t e = cudaStreamSynchronize(stream)) return cuda_fail("decode_async: kernel", e);', '\n  imeta_dump_stamps(s);', c0)
open(p, 'w').write(s)
print('ok')
