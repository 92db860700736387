//===- PackBench.cu - the decode step's host work, without a GPU ---------===//
//
// The host half of bench/gpu/StepBench.cu's step, timed where there is no
// GPU (and beside it on the H200 host): decode_zos_pack (the batch's
// checks, the host stage, the int32 proof, the table's changed rows, all
// packed into the staging) against (b')'s pack (bench/baseline/
// ResidentDecode: scalars and appended ids, no checks), on the same
// scheduler stream and config as StepBench. The staging is plain host
// memory and no CUDA call is made, so the figures are the host's alone:
// what the step pays before its one copy. Medians of 200 steps after 20.
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"
#include "GeneratedInputs.h"
#include "ResidentDecode.h"
#include "StepCases.h"
#include "StepStream.h"
#include "deepinfer_v4_cuda.h"

#include <cstdio>
#include <memory>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;
using bench::die;
using bench::median;
using bench::nowUs;

namespace {

struct Row {
  double zos, bprime, zosBytes, bprimeBytes;
};

Row run(int64_t n, int64_t q, int64_t hist) {
  const ref::StepStreamOptions opt = bench::stepStream(n, q, hist);
  ref::StepStream stream(bench::stepConfig(), opt);
  ref::Table table("block_table", opt.rows, 1024, opt.poolBlocks);
  // Stand-ins for the device rows and staging: addresses only, never read.
  std::vector<int32_t> deviceRows(1);
  baseline::ResidentDecode bprime(bench::stepConfig(), opt.rows, 1024, n,
                                  /*onDevice=*/false);

  // Stand-ins for the output buffers, at the widest shape (pack checks
  // their capacities and widths; the kernel would write them).
  gen::DecodeZosBuffers out;
  static char outputs;
  for (int k = 0; k < gen::DecodeZosBuffers::kCount; ++k) {
    gen::Buffer &b = out.begin()[k];
    const int32_t w = gen::kDecodeZosOutputs[k].width;
    b.data = &outputs;
    b.capacity = n * q + 1;
    b.width = w ? w : 1024;
    b.max_buckets = 2;
    b.bucket_stride = b.capacity * b.width;
  }
  const size_t bytes = size_t(16) << 20;
  std::unique_ptr<char[]> host(new char[bytes]), device(new char[bytes]);
  gen::GpuStaging staging;
  staging.host = staging.host_owned = host.get();
  staging.device = device.get();
  staging.bytes = bytes;
  staging.max_seqs = n;
  // What gpu_staging_create sets besides the memory: the one-stage-at-a-
  // time flag every stage and pack claims.
  staging.in_use = std::make_shared<std::atomic<bool>>(false);

  ref::Batch batch;
  std::vector<int32_t> rows;
  int64_t appended = 0;
  if (std::string e = stream.start(table, batch, rows, appended); !e.empty())
    die(e);
  std::vector<Row> steps;
  for (int step = 0; step < 221; ++step) {
    if (step > 0)
      if (std::string e = stream.next(table, batch, rows, appended);
          !e.empty())
        die(e);
    ref::GeneratedInputs in(batch, /*blockTables=*/false);
    gen::Sequences seqs =
        ref::withTable(in.seqs, table.gpuView(deviceRows.data()), rows);
    Row r{};
    double t0 = nowUs();
    gen::Status st =
        gen::decode_zos_pack(staging, in.config, seqs, out);
    r.zos = nowUs() - t0;
    if (!st.ok || !st.proven)
      die("pack: " + st.message);
    t0 = nowUs();
    if (!bprime.pack(batch, rows, stream.deltas()))
      die("(b') pack: staging too small");
    r.bprime = nowUs() - t0;
    r.zosBytes = double(staging.used);
    r.bprimeBytes = double(bprime.lastBytes());
    if (step >= 21)
      steps.push_back(r);
  }
  staging.host = staging.device = nullptr; // owned here, not by staging
  auto med = [&](double Row::*f) {
    std::vector<double> v;
    for (const Row &r : steps)
      v.push_back(r.*f);
    return median(v);
  };
  return Row{med(&Row::zos), med(&Row::bprime), med(&Row::zosBytes),
             med(&Row::bprimeBytes)};
}

} // namespace

int main() {
  std::printf("decode step host work, us per step (medians of 200 steps); "
              "bytes packed per step\n");
  std::printf("%5s %2s %7s %8s %8s %7s %9s %9s\n", "N", "q", "hist",
              "zos_pack", "b'_pack", "ratio", "bytes_zos", "bytes_b'");
  for (const bench::StepCase &c : bench::stepCases()) {
    Row r = run(c.n, c.q, c.hist);
    std::printf("%5lld %2lld %7lld %8.1f %8.1f %7.2f %9.0f %9.0f\n",
                (long long)c.n, (long long)c.q, (long long)c.hist, r.zos,
                r.bprime, r.zos / r.bprime, r.zosBytes, r.bprimeBytes);
  }
  return 0;
}
