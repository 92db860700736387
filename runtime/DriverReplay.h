//===- DriverReplay.h - a driver's run, written down and read back -*- C++ -*-===//
//
// One run of a generated driver (DriverAbi.h) as a text file: the path,
// the number of sequences, the capacity and every value by name. `imeta-run
// --write-replay FILE` writes the run it makes; a machine without LLVM
// (the GPU machine) reads it back and runs the driver it links
// (test/gpu/ReplayDriver.cpp, scripts/gpu-every-spec.sh). Header-only.
//
//   imeta-replay 1
//   path NAME
//   num_seqs N
//   capacity C
//   config NAME COUNT v... 0
//   input NAME COUNT v... NUM_OFFSETS o...
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_RUNTIME_DRIVERREPLAY_H
#define IMETA_RUNTIME_DRIVERREPLAY_H

#include "DriverArgs.h"

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace imeta::runtime {

struct DriverReplay {
  std::string path;
  int32_t numSeqs = 0;
  DriverArgs args;
};

inline void writeReplay(std::ostream &os, const std::string &path,
                        int32_t numSeqs, const DriverArgs &args) {
  os << "imeta-replay 1\npath " << path << "\nnum_seqs " << numSeqs
     << "\ncapacity " << args.capacity << "\n";
  auto put = [&](const char *kind, const imeta_value &v) {
    os << kind << ' ' << v.name << ' ' << v.count;
    for (int64_t k = 0; k < v.count; ++k)
      os << ' ' << v.data[k];
    os << ' ' << v.num_offsets;
    for (int64_t k = 0; k < v.num_offsets; ++k)
      os << ' ' << v.offsets[k];
    os << '\n';
  };
  for (const imeta_value &v : args.configValues())
    put("config", v);
  for (const imeta_value &v : args.inputValues())
    put("input", v);
}

/// The run in `is`, or false (`error` says where the file is malformed).
inline bool readReplay(std::istream &is, DriverReplay &out,
                       std::string &error) {
  std::string word;
  int version = 0;
  if (!(is >> word >> version) || word != "imeta-replay" || version != 1) {
    error = "not an imeta-replay 1 file";
    return false;
  }
  if (!(is >> word >> out.path) || word != "path" ||
      !(is >> word >> out.numSeqs) || word != "num_seqs" ||
      !(is >> word >> out.args.capacity) || word != "capacity") {
    error = "expected path, num_seqs and capacity lines";
    return false;
  }
  std::string kind, name;
  while (is >> kind) {
    int64_t count = 0, numOffsets = 0;
    if ((kind != "config" && kind != "input") || !(is >> name >> count) ||
        count < 0) {
      error = "malformed value record '" + kind + "'";
      return false;
    }
    std::vector<int64_t> data(size_t(count), 0), offsets;
    for (int64_t &v : data)
      if (!(is >> v)) {
        error = "value '" + name + "': fewer values than its count";
        return false;
      }
    if (!(is >> numOffsets) || numOffsets < 0) {
      error = "value '" + name + "': no offset count";
      return false;
    }
    offsets.resize(size_t(numOffsets));
    for (int64_t &o : offsets)
      if (!(is >> o)) {
        error = "value '" + name + "': fewer offsets than its count";
        return false;
      }
    if (kind == "config")
      out.args.config(name, std::move(data));
    else
      out.args.input(name, std::move(data), std::move(offsets));
  }
  return true;
}

} // namespace imeta::runtime

#endif // IMETA_RUNTIME_DRIVERREPLAY_H
