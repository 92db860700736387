//===- FailureText.h - a formula failure's words, shared ---------*- C++ -*-===//
//
// The evaluator's messages come from the same text the generated code
// embeds (runtime/FailureText.inc), so both say the same thing.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_FAILURETEXT_H
#define IMETA_DIALECT_FAILURETEXT_H

#include <cstdint>
#include <string>

namespace imeta::text {
#include "runtime/ErrorRecord.inc"
#include "runtime/FailureText.inc"
} // namespace imeta::text

#endif // IMETA_DIALECT_FAILURETEXT_H
