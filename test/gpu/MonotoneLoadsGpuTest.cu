//===- MonotoneLoadsGpuTest.cu - reads checked once per row, on the GPU ---===//
//
// test/gpu/monotone_loads.mlir through its generated driver (imeta-run
// --backend cuda's runtime half). Its kernel checks two of its four list
// reads once per row, at the ends of the columns that read them
// (lib/Lowering/MonotoneLoads.h); the host routine checks every value.
// On random batches (rows of 1 to 3000 columns: one to many tiles a row)
// the GPU's field file must equal the host's (one batch in two in buffers
// with spare rows, which `gather`'s declared fill pads); on batches where
// one row reads past its list, both must fail with the same message
// (field, sequence, row, index). Without a GPU it prints why and exits 77.
//
// LLVM-free: builds from pre-generated sources with nvcc alone.
//
//===----------------------------------------------------------------------===//

#include "GpuTestSupport.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace imeta;
using imeta::gputest::DriverArgs;

namespace {

struct Sequence {
  int64_t q, n;
  std::vector<int64_t> src;
};

struct Batch {
  int64_t width, d;
  std::vector<Sequence> seqs;
};

/// The smallest `src` every read of a sequence stays within: gather reads
/// (j + t) / d for t < min(n, width), reverse width - 1 - t, wrap t % d,
/// tail t - n for n <= t < width, nested t * d / 2 for t < min(n, 50,
/// width).
int64_t neededLength(const Batch &b, const Sequence &s) {
  int64_t visible = std::min(s.n, b.width);
  int64_t gather = visible > 0 ? (s.q - 1 + visible - 1) / b.d + 1 : 0;
  int64_t low = std::min<int64_t>(visible, 50);
  int64_t nested = low > 0 ? (low - 1) * b.d / 2 + 1 : 0;
  return std::max({gather, nested, b.width, std::min(b.d, b.width),
                   b.width - visible});
}

Batch randomBatch(std::mt19937_64 &rng) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Batch b{pick(1, 3000), pick(1, 9), {}};
  for (int64_t i = 0, n = pick(1, 40); i < n; ++i) {
    Sequence s{pick(1, 3), pick(0, b.width + 8), {}};
    s.src.resize(neededLength(b, s) + pick(0, 3));
    for (int64_t &v : s.src)
      v = pick(0, 1 << 20);
    b.seqs.push_back(std::move(s));
  }
  return b;
}

/// Runs the driver on the host (gpu = 0) or the device; returns its exit
/// code and sets `out` to the field file or the error.
int run(const Batch &b, int gpu, std::string &out) {
  std::vector<int64_t> q, n, src, offsets{0};
  for (const Sequence &s : b.seqs) {
    q.push_back(s.q);
    n.push_back(s.n);
    src.insert(src.end(), s.src.begin(), s.src.end());
    offsets.push_back(int64_t(src.size()));
  }
  DriverArgs args;
  // One batch in two in buffers of a few rows more than it needs: the
  // kernel writes `gather`'s declared fill (-7) into them as the host does.
  int64_t rows = 0;
  for (const Sequence &s : b.seqs)
    rows += s.q;
  args.capacity = b.seqs.size() % 2 ? rows + 7 : 0;
  args.config("width", {b.width});
  args.config("d", {b.d});
  args.input("q", q);
  args.input("n", n);
  args.input("src", src, offsets);
  return args.run(imeta_driver_run, "p", int32_t(b.seqs.size()), gpu, out);
}

/// Valid batches: the device's field file is the host's.
bool validBatches(int count) {
  std::mt19937_64 rng(20261130);
  for (int k = 0; k < count; ++k) {
    Batch b = randomBatch(rng);
    std::string cpu, gpu;
    int rcCpu = run(b, 0, cpu), rcGpu = run(b, 1, gpu);
    CHECK(rcCpu == 0, "batch %d, host: %s", k, cpu.c_str());
    CHECK(rcGpu == 0, "batch %d, device: %s", k, gpu.c_str());
    CHECK(cpu == gpu, "batch %d (width %lld, d %lld): the device's field "
                      "file differs from the host's",
          k, (long long)b.width, (long long)b.d);
    // Spare rows (odd batch sizes): gather's padding shows its fill.
    CHECK(b.seqs.size() % 2 == 0 || cpu.find("-7") != std::string::npos,
          "batch %d: no fill(-7) in the padded rows", k);
  }
  std::printf("monotone loads: %d random batches, GPU field file == CPU "
              "field file (half of them with fill-padded spare rows)\n",
              count);
  return true;
}

/// One sequence's second row reads one element past its list (d = 1,
/// n >= width, src of width elements: gather's index at the last column
/// is width): host and device fail alike, naming gather, the sequence,
/// the row and the index.
bool readPastTheList(int count) {
  std::mt19937_64 rng(7);
  for (int k = 0; k < count; ++k) {
    Batch b = randomBatch(rng);
    b.d = 1;
    for (Sequence &s : b.seqs)
      s.src.resize(neededLength(b, s));
    Sequence &bad = b.seqs[rng() % b.seqs.size()];
    bad.q = 2;
    bad.n = b.width + int64_t(rng() % 4);
    bad.src.resize(b.width);
    std::string cpu, gpu;
    int rcCpu = run(b, 0, cpu), rcGpu = run(b, 1, gpu);
    CHECK(rcCpu != 0 && cpu.find("field 'gather'") != std::string::npos &&
              cpu.find("out of range") != std::string::npos,
          "batch %d, host: rc %d: %s", k, rcCpu, cpu.c_str());
    CHECK(rcGpu != 0 && gpu == cpu, "batch %d: device rc %d: '%s', host '%s'",
          k, rcGpu, gpu.c_str(), cpu.c_str());
  }
  std::printf("monotone loads: %d batches reading past a list, the device "
              "fails as the host does\n",
              count);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int count = argc > 1 ? std::atoi(argv[1]) : 200;
  if (!gputest::haveDevice())
    return 77;
  bool ok = validBatches(count) && readPastTheList(count / 4 + 1);
  return gputest::finish(ok);
}
