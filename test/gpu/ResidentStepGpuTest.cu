//===- ResidentStepGpuTest.cu - the resident decode step on the device ---===//
//
// decode_zos and decode_zos_expanded as an engine runs them: block tables
// resident on the device (DeviceResidentTable, changed by the step
// stream's deltas), each step packed into double-buffered pinned staging
// and run as one graph (copy + kernel, runtime/StepGraph.h) on buffers
// allocated once. Every step's device fields must equal the generated CPU
// routine's on the same batch with block tables rebuilt from scratch (that
// routine equals the evaluator: test/unit), the device rows must equal the
// rebuilt tables, and no buffer may move.
//
//===----------------------------------------------------------------------===//

#include "GeneratedInputs.h"
#include "GpuTestSupport.h"
#include "StepStream.h"
#include "deepinfer_v4_cuda.h"
#include "runtime/BufferSet.h"
#include "runtime/DeviceResidentTable.h"
#include "runtime/StepGraph.h"

#include <cstring>
#include <vector>

namespace gen = imeta_gen::deepinfer_v4;
using namespace imeta;

namespace {

template <typename Buffers>
using Set = runtime::BufferSet<Buffers, gen::OutputInfo>;

/// Columns of row r a field specifies: block_tables' first num_blocks of
/// the row's sequence (the rest are unspecified, SPEC.md §4), else all.
std::vector<int64_t> liveCols(const ref::Batch &batch, const char *name,
                              const gen::Buffer &shape) {
  std::vector<int64_t> cols;
  for (const ref::Sequence &s : batch.sequences)
    for (int64_t j = 0; j < s.seqlenQ; ++j)
      cols.push_back(std::string(name) == "block_tables"
                         ? ref::numBlocks(batch.config, s.seqlenK)
                         : shape.cols[0]);
  return cols;
}

/// Output k of `set` (device) as host bytes: its live values under
/// `shape`, row r its first cols[r] columns.
template <typename Buffers>
std::vector<char> liveBytes(Set<Buffers> &set, const gen::OutputInfo *info,
                            int k, const gen::Buffer &shape,
                            const std::vector<int64_t> &cols) {
  gen::Buffer &b = set.at(k);
  size_t elem = info[k].is_bool ? 1 : 4;
  std::vector<char> all(size_t(b.bucket_stride) * b.max_buckets * elem);
  if (cudaMemcpy(all.data(), b.data, all.size(), cudaMemcpyDeviceToHost))
    return {};
  return ref::liveBytes(all.data(), b, shape, elem, &cols);
}

/// `steps` steps of a stream through one path's graph.
template <typename Buffers, typename Pack, typename Launch, typename Check,
          typename Cpu>
bool streamSteps(const char *path, const gen::OutputInfo *info, Pack pack,
                 Launch launch, Check check, Cpu cpu, int64_t q, int steps,
                 cudaStream_t stream) {
  ref::StepStreamOptions opt;
  opt.numSeqs = 24;
  opt.q = q;
  opt.maxHistory = 1500;
  opt.finishChance = 0.05;
  opt.poolBlocks = 5000;
  opt.seed = 100 + uint64_t(q);
  ref::StepStream stream_(ref::smallStreamConfig(), opt);
  runtime::DeviceResidentTable<gen::ListTable> table("block_table", 64, 128,
                                                     opt.poolBlocks);
  CHECK(table.allocation() == cudaSuccess, "%s: device table", path);
  ref::Batch batch;
  std::vector<int32_t> rows;
  int64_t appended = 0;
  CHECK(stream_.start(table, batch, rows, appended).empty(), "%s: start", path);

  // Buffers at the largest shape any step can have (max_model_len).
  Set<Buffers> set(info);
  {
    ref::Batch widest = batch;
    for (ref::Sequence &s : widest.sequences) {
      s.seqlenK = widest.config.maxModelLen;
      s.blockTable.assign(size_t(ref::numBlocks(widest.config, s.seqlenK)), 0);
    }
    ref::GeneratedInputs in(widest);
    Buffers shape;
    gen::Status st = cpu(in.config, in.seqs, shape, /*shapeOnly=*/true);
    CHECK(st.ok, "%s: shape: %s", path, st.message.c_str());
    for (int k = 0; k < Buffers::kCount; ++k) {
      gen::Buffer &b = shape.begin()[k];
      int64_t rowsMax = 1;
      for (int32_t r = 0; r < b.buckets; ++r)
        rowsMax = std::max(rowsMax, b.rows[r]);
      CHECK(set.getOrCreate(info[k].name, rowsMax, b.width, b.buckets,
                            runtime::Memory::Device)
                .empty(),
            "%s: allocate %s", path, info[k].name);
    }
  }
  std::vector<void *> where;
  for (int k = 0; k < Buffers::kCount; ++k)
    where.push_back(set.at(k).data);

  gen::GpuStaging staging;
  gen::Status st = gen::gpu_staging_create(staging, opt.numSeqs, 1 << 20);
  CHECK(st.ok, "%s: staging: %s", path, st.message.c_str());
  runtime::StepGraph graph;
  std::string e = graph.create(staging.device, staging.bytes, stream,
                               [&](cudaStream_t s) { return launch(staging, s); });
  CHECK(e.empty(), "%s: %s", path, e.c_str());

  for (int step = 0; step < steps; ++step) {
    if (step > 0)
      CHECK(stream_.next(table, batch, rows, appended).empty(), "%s: step",
            path);
    ref::GeneratedInputs in(batch);
    gen::Sequences seqs = ref::withTable(in.seqs, table.gpuView(), rows);
    staging.host = graph.next();
    CHECK(staging.host, "%s: step %d: staging wait", path, step);
    st = pack(staging, in.config, seqs, set.buffers());
    CHECK(st.ok && st.proven, "%s: step %d: pack: %s (proven %d)", path, step,
          st.message.c_str(), int(st.proven));
    e = graph.replay(staging.used, stream);
    CHECK(e.empty(), "%s: step %d: %s", path, step, e.c_str());
    st = check(staging, stream);
    CHECK(st.ok, "%s: step %d: kernel: %s", path, step, st.message.c_str());
    // The same batch, packed, on the CPU.
    Buffers host;
    st = cpu(in.config, in.seqs, host, /*shapeOnly=*/true);
    CHECK(st.ok, "%s: step %d: cpu shape: %s", path, step, st.message.c_str());
    std::vector<std::vector<char>> storage =
        ref::allocateHost(host, info, 0x3c);
    st = cpu(in.config, in.seqs, host, /*shapeOnly=*/false);
    CHECK(st.ok, "%s: step %d: cpu: %s", path, step, st.message.c_str());
    for (int k = 0; k < Buffers::kCount; ++k) {
      CHECK(set.at(k).data == where[k], "%s: buffer %s moved", path,
            info[k].name);
      std::vector<int64_t> cols = liveCols(batch, info[k].name, host.begin()[k]);
      gen::Buffer &h = host.begin()[k];
      CHECK(liveBytes(set, info, k, h, cols) ==
                ref::liveBytes(static_cast<const char *>(h.data), h, h,
                               info[k].is_bool ? 1 : 4, &cols),
            "%s: step %d: '%s' differs from the CPU routine's", path, step,
            info[k].name);
    }
  }
  // The device rows after every delta equal the tables rebuilt.
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::vector<int64_t> &want = batch.sequences[i].blockTable;
    std::vector<int32_t> got(want.size());
    CHECK(cudaMemcpy(got.data(),
                     table.gpuView().device + int64_t(rows[i]) * 128,
                     got.size() * 4, cudaMemcpyDeviceToHost) == cudaSuccess,
          "copy back");
    for (size_t c = 0; c < want.size(); ++c)
      CHECK(got[c] == want[c], "%s: device row %d col %zu: %d, want %lld",
            path, rows[i], c, got[c], (long long)want[c]);
  }
  staging.host = staging.host_owned;
  gen::gpu_staging_destroy(staging);
  std::printf("%s, q = %lld: %d steps through one graph equal the CPU "
              "routine; device rows equal the rebuilt tables\n",
              path, (long long)q, steps);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  int steps = argc > 1 ? std::atoi(argv[1]) : 300;
  if (!gputest::haveDevice())
    return 77;
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess)
    return 1;
  bool ok = true;
  for (int64_t q : {1, 2}) {
    ok = ok &&
         streamSteps<gen::DecodeZosBuffers>(
             "decode_zos", gen::kDecodeZosOutputs,
             [](gen::GpuStaging &s, const gen::Config &c,
                const gen::Sequences &q_, gen::DecodeZosBuffers &o) {
               return gen::decode_zos_pack(s, c, q_, o);
             },
             gen::decode_zos_launch, gen::decode_zos_check,
             [](const gen::Config &c, const gen::Sequences &q_,
                gen::DecodeZosBuffers &o, bool shapeOnly) {
               return shapeOnly ? gen::decode_zos_shape(c, q_, o)
                                : gen::decode_zos(c, q_, o);
             },
             q, steps, stream);
    ok = ok &&
         streamSteps<gen::DecodeZosExpandedBuffers>(
             "decode_zos_expanded", gen::kDecodeZosExpandedOutputs,
             [](gen::GpuStaging &s, const gen::Config &c,
                const gen::Sequences &q_, gen::DecodeZosExpandedBuffers &o) {
               return gen::decode_zos_expanded_pack(s, c, q_, o);
             },
             gen::decode_zos_expanded_launch, gen::decode_zos_expanded_check,
             [](const gen::Config &c, const gen::Sequences &q_,
                gen::DecodeZosExpandedBuffers &o, bool shapeOnly) {
               return shapeOnly ? gen::decode_zos_expanded_shape(c, q_, o)
                                : gen::decode_zos_expanded(c, q_, o);
             },
             q, steps / 3, stream);
  }
  cudaStreamDestroy(stream);
  return gputest::finish(ok);
}
