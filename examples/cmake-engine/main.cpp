// An engine's step: the batch of batch.json, filled by the generated
// routine into buffers the engine owns, printed as imeta-run prints a
// field file (the test compares the two).
#include "engine_meta.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace gen = imeta_gen::engine;

int main() {
  std::vector<int32_t> q = {3, 1, 2}, k = {7, 9, 2};
  std::vector<int32_t> tables = {5, 1, 2, 4, 0, 3};
  std::vector<int64_t> offsets = {0, 2, 5, 6};
  gen::Config config;
  config.block_size = 4;
  gen::Sequences seqs;
  seqs.num_seqs = int32_t(q.size());
  seqs.q = q.data();
  seqs.k = k.data();
  seqs.block_table = tables.data();
  seqs.block_table_offsets = offsets.data();

  // Size the buffers once (an engine would at its largest batch), fill.
  gen::StepBuffers out;
  gen::Status status = gen::step_shape(config, seqs, out);
  std::vector<std::vector<int32_t>> storage(gen::StepBuffers::kCount);
  for (int b = 0; b < gen::StepBuffers::kCount && status.ok; ++b) {
    gen::Buffer &buffer = out.begin()[b];
    int64_t rows = std::max<int64_t>(buffer.rows[0], 1);
    storage[b].assign(size_t(rows * std::max<int64_t>(buffer.width, 1)), 0);
    buffer.data = storage[b].data();
    buffer.capacity = rows;
    buffer.bucket_stride = int64_t(storage[b].size());
  }
  if (status.ok)
    status = gen::step(config, seqs, out);
  if (!status.ok) {
    std::fprintf(stderr, "engine: %s\n", status.message.c_str());
    return 1;
  }

  std::printf("{");
  for (int b = 0; b < gen::StepBuffers::kCount; ++b) {
    const gen::OutputInfo &info = gen::kStepOutputs[b];
    const gen::Buffer &buffer = out.begin()[b];
    const int32_t *values = static_cast<const int32_t *>(buffer.data);
    std::printf("%s\n \"%s\": ", b ? "," : "", info.name);
    if (info.is_scalar) {
      std::printf("%d", values[0]);
      continue;
    }
    std::printf("[");
    for (int64_t r = 0; r < buffer.rows[0]; ++r)
      std::printf("%s%d", r ? "," : "", values[r]);
    std::printf("]");
  }
  std::printf("\n}\n");
  return 0;
}
