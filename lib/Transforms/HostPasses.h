//===- HostPasses.h - a host stage's passes over the sequences --*- C++ -*-=//
//
// The host stage computes a path's rules, scalar and per-sequence fields
// and prefix sums in order (PathPlan::host). Step by step, each is a loop
// over the sequences of its own. A run of consecutive per-sequence steps
// is one loop instead, computing every step at sequence i before i + 1:
// a per-sequence field or rule reads only its own sequence's values, a
// prefix sum's entry i needs the entries up to i. A step that reads a
// prefix sum of its run (at any index, or its total) needs the whole sum
// first and starts the next run.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TRANSFORMS_HOSTPASSES_H
#define IMETA_TRANSFORMS_HOSTPASSES_H

#include "lib/Analysis/PathPlan.h"

namespace imeta {

/// Steps [begin, end) of a plan's host stage.
struct HostPass {
  size_t begin, end;
  /// Whether it is a run of two or more steps, computed in one loop.
  bool fused() const { return end - begin >= 2; }
};

/// The passes of `plan`'s host stage, in order; every step is in one.
std::vector<HostPass> hostPasses(const PathPlan &plan);

} // namespace imeta

#endif // IMETA_TRANSFORMS_HOSTPASSES_H
