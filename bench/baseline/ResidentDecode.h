//===- ResidentDecode.h - (b'): a vLLM-style resident decode step -*- C++ -*-===//
//
// Baseline (b') of issue 16, written by hand, not generated: the decode
// step as vLLM's current runner builds it. The block table lives on the
// device across steps ([rows, max_num_blocks]); per step the host packs
// O(N) scalars plus the appended ids into one pinned buffer, issues one
// host-to-device copy and one fused kernel (FusedDecode's, which first
// writes each sequence's appended ids into its row). No rule checks.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_RESIDENTDECODE_H
#define IMETA_BENCH_RESIDENTDECODE_H

#include "FusedDecode.h"
#include "StepStream.h"

namespace imeta::baseline {

class ResidentDecode {
public:
  /// A device table of `rows` x `maxBlocks` ids and staging for
  /// `maxSeqs` sequences; `outputs` as FusedDecodeArgs's views. Without
  /// `onDevice`, host memory alone, for timing pack() where there is no
  /// GPU (step() is then not to be called).
  ResidentDecode(const ref::Config &config, int32_t rows, int32_t maxBlocks,
                 int64_t maxSeqs, bool onDevice = true);
  ~ResidentDecode();
  cudaError_t status() const { return error; }
  /// The output views (set once; the kernel writes them every step).
  FusedDecodeArgs &args() { return a; }

  /// One step: packs the batch's scalars and the step's `deltas`
  /// (ref::StepStream::deltas), copies, launches. The caller syncs.
  cudaError_t step(const ref::Batch &batch, const std::vector<int32_t> &rows,
                   const std::vector<ref::StepStream::Delta> &deltas,
                   cudaStream_t stream);
  /// The step's host work alone (no CUDA call): packs into the pinned
  /// staging and points args() at the device copy; false when it does not
  /// fit.
  bool pack(const ref::Batch &batch, const std::vector<int32_t> &rows,
            const std::vector<ref::StepStream::Delta> &deltas);
  /// Bytes the last step copied to the device.
  size_t lastBytes() const { return used; }

private:
  FusedDecodeArgs a{};
  int32_t stride;
  int64_t maxSeqs;
  bool onDevice;
  size_t capacity, used = 0;
  char *host = nullptr, *device = nullptr;
  int32_t *table = nullptr;
  std::vector<int32_t> deltaOf; // per row: index in deltas, or -1
  cudaError_t error = cudaSuccess;
};

} // namespace imeta::baseline

#endif // IMETA_BENCH_RESIDENTDECODE_H
