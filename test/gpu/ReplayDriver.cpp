//===- ReplayDriver.cpp - run a generated driver on a written-down run ----===//
//
// `replay-driver FILE MODE`: reads the run `imeta-run --write-replay FILE`
// wrote (runtime/DriverReplay.h) and makes it through the generated
// driver this program is linked with, MODE 0 on the host, 1 on the GPU
// (a driver built with -DIMETA_DRIVER_CUDA), 2 the GPU path's device stage
// run on the host, 3 on the GPU by the path's device step. Prints the field
// file, or the driver's error on stderr and exits with its code. No LLVM: it
// builds on the GPU machine (scripts/gpu-every-spec.sh).
//
//===----------------------------------------------------------------------===//

#include "runtime/DriverReplay.h"

#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char **argv) {
  const std::string mode = argc == 3 ? argv[2] : "";
  if (mode != "0" && mode != "1" && mode != "2" && mode != "3") {
    std::fprintf(stderr, "usage: %s REPLAY-FILE 0|1|2|3\n", argv[0]);
    return 64;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cannot read '%s'\n", argv[1]);
    return 64;
  }
  imeta::runtime::DriverReplay run;
  std::string error, out;
  if (!imeta::runtime::readReplay(in, run, error)) {
    std::fprintf(stderr, "%s: %s\n", argv[1], error.c_str());
    return 64;
  }
  int rc = run.args.run(&imeta_driver_run, run.path.c_str(), run.numSeqs,
                        mode[0] - '0', out);
  std::fputs(out.c_str(), rc == 0 ? stdout : stderr);
  if (rc != 0)
    std::fputc('\n', stderr);
  return rc;
}
