//===- DecodeChecks.h - SPEC.md's decode rules, checked by hand --*- C++ -*-===//
//
// What an engine would have to add in front of (a)'s loops to keep SPEC.md's
// contract: every rule of the decode path (R1-R3, R5, R6) checked before a
// value is written. Written plainly by hand, as efficiently as the rules
// allow (one pass over the sequences, a sequence's block ids or-ed into one
// bound), not generated. The CPU benchmark times (a) behind it.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_BENCH_DECODECHECKS_H
#define IMETA_BENCH_DECODECHECKS_H

#include "ReferenceV4.h"

#include <string>

namespace imeta::baseline {

/// Empty when `batch` keeps every rule of the decode path, else a message
/// naming the rule (and the sequence where there is one).
std::string decodeChecks(const ref::Batch &batch);

} // namespace imeta::baseline

#endif // IMETA_BENCH_DECODECHECKS_H
