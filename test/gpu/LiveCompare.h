//===- LiveCompare.h - a decode path's GPU outputs against the CPU's -*- C++ -*-===//
//
// The GPU tests' comparison of a decode path's device outputs with the
// generated CPU routine's (the oracle): the live rows of every output,
// each row's live columns (block-table columns past num_blocks(i) are
// unspecified). Shared by DecodeZosGpuTest (decode_zos_expanded, rows
// known on the host) and DeviceStepGpuTest (decode_zos's device step, rows
// device values).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_GPU_LIVECOMPARE_H
#define IMETA_TEST_GPU_LIVECOMPARE_H

#include "GpuTestSupport.h"
#include "ReferenceV4.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace imeta::gputest {

/// Whether the live rows of every output in `gpu` (a BufferSet) equal the
/// CPU's in `cpu` (the routine's Buffers), `info` naming the outputs.
/// `hostShape`: the GPU buffers' buckets, widths and rows were set on the
/// host and must equal the CPU's (a device step's rows are device values).
template <class Buffers, class Set, class Info>
bool compareLive(const ref::Batch &batch, const Info *info, Buffers &cpu,
                 Set &gpu, const char *what, bool hostShape) {
  auto elemSize = [&](int k) { return info[k].is_bool ? 1 : 4; };
  std::vector<int64_t> liveCols;
  for (const ref::Sequence &s : batch.sequences)
    for (int64_t j = 0; j < s.seqlenQ; ++j)
      liveCols.push_back(ref::numBlocks(batch.config, s.seqlenK));
  for (int k = 0; k < Buffers::kCount; ++k) {
    auto &c = cpu.begin()[k];
    auto &g = gpu.at(k);
    if (hostShape) {
      CHECK(c.buckets == g.buckets, "%s: %s: %d buckets vs %d", what,
            info[k].name, g.buckets, c.buckets);
      CHECK(c.width == g.width, "%s: %s: row stride %lld vs %lld", what,
            info[k].name, (long long)g.width, (long long)c.width);
    }
    const int64_t cpuWidth = std::max<int64_t>(c.width, 1);
    const int64_t gpuWidth = std::max<int64_t>(g.width, 1);
    const bool isTable = std::string(info[k].name) == "block_tables";
    for (int b = 0; b < c.buckets; ++b) {
      if (hostShape)
        CHECK(c.rows[b] == g.rows[b], "%s: %s: rows differ", what,
              info[k].name);
      const size_t bytes = size_t(c.rows[b]) * gpuWidth * elemSize(k);
      std::vector<char> got(bytes + 1);
      cudaError_t e = cudaMemcpy(got.data(), gpu.bucketView(k, b), bytes,
                                 cudaMemcpyDeviceToHost);
      CHECK(e == cudaSuccess, "%s: copy back: %s", what,
            cudaGetErrorString(e));
      const char *want = static_cast<const char *>(c.data) +
                         size_t(b) * c.bucket_stride * elemSize(k);
      for (int64_t r = 0; r < c.rows[b]; ++r) {
        // A row holds cols[b] values (a bucket may be narrower than the
        // stride); block-table columns past num_blocks are unspecified.
        const int64_t cols = isTable ? liveCols[size_t(r)] : c.cols[b];
        CHECK(std::memcmp(got.data() + size_t(r) * gpuWidth * elemSize(k),
                          want + size_t(r) * cpuWidth * elemSize(k),
                          size_t(cols) * elemSize(k)) == 0,
              "%s: output %s bucket %d row %lld differs", what, info[k].name,
              b, (long long)r);
      }
    }
  }
  return true;
}

} // namespace imeta::gputest

#endif // IMETA_TEST_GPU_LIVECOMPARE_H
