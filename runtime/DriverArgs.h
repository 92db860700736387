//===- DriverArgs.h - a batch's values for a driver ------------*- C++ -*-===//
//
// What a caller of the driver's C ABI (DriverAbi.h) builds: the config
// values and inputs by name, as `imeta_value` records whose names and
// arrays it owns. `imeta-run --backend cpu|cuda` runs a driver it loaded;
// the GPU tests run the one they link.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_RUNTIME_DRIVERARGS_H
#define IMETA_RUNTIME_DRIVERARGS_H

#include "DriverAbi.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace imeta::runtime {

class DriverArgs {
public:
  /// A config parameter: one value, or a ratio set's or list's values.
  void config(std::string name, std::vector<int64_t> values) {
    add(configs, std::move(name), std::move(values), nullptr, 0);
  }
  /// An input: one value per sequence, or a list input's values with its
  /// num_seqs + 1 offsets (request state: one value a slot, or a list's
  /// values with slots + 1 offsets).
  void input(std::string name, std::vector<int64_t> values,
             std::vector<int64_t> offsets = {}) {
    const int64_t entries = int64_t(offsets.size());
    const int64_t *offs =
        offsets.empty() ? nullptr : keep(std::move(offsets));
    add(inputs, std::move(name), std::move(values), offs, entries);
  }
  /// Rows per bucket of every output buffer (0: the rows each needs);
  /// outputs with a declared fill print up to it.
  int64_t capacity = 0;

  const std::vector<imeta_value> &configValues() const { return configs; }
  const std::vector<imeta_value> &inputValues() const { return inputs; }

  /// Runs `path` through the driver's `entry`, on the host (`gpu` 0) or the
  /// device; returns the driver's exit code and sets `out` to the field
  /// file or the error.
  int run(imeta_driver_run_fn entry, const char *path, int32_t numSeqs,
          int gpu, std::string &out) const {
    const char *json = nullptr, *error = nullptr;
    int rc = entry(path, numSeqs, configs.data(), int(configs.size()),
                   inputs.data(), int(inputs.size()), gpu, capacity, &json,
                   &error);
    out = rc == 0 ? (json ? json : "") : (error ? error : "");
    return rc;
  }

private:
  const int64_t *keep(std::vector<int64_t> values) {
    return store.emplace_back(std::move(values)).data();
  }
  void add(std::vector<imeta_value> &to, std::string name,
           std::vector<int64_t> values, const int64_t *offsets,
           int64_t numOffsets) {
    const char *n = names.emplace_back(std::move(name)).c_str();
    int64_t count = int64_t(values.size());
    to.push_back({n, keep(std::move(values)), count, offsets, numOffsets});
  }

  std::vector<imeta_value> configs, inputs;
  /// Stable addresses: a deque's elements stay where they are.
  std::deque<std::string> names;
  std::deque<std::vector<int64_t>> store;
};

} // namespace imeta::runtime

#endif // IMETA_RUNTIME_DRIVERARGS_H
