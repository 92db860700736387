//===- CompactSyntax.h - the names compact formulas define ------*- C++ -*-===//
//
// The one table of the names a compact formula (dialect/CompactFormula.h)
// gives a meaning of its own: the point and the constants, read bare, and
// the built-in functions, called. The parser, its error words and the
// verifier's refusals read it here.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_COMPACTSYNTAX_H
#define IMETA_DIALECT_COMPACTSYNTAX_H

#include "llvm/ADT/StringRef.h"

namespace imeta::syntax {

/// A name read bare: what it means.
struct BuiltinName {
  llvm::StringLiteral name;
  llvm::StringLiteral meaning;
};

inline constexpr BuiltinName kPointNames[] = {
    {"i", "the sequence"},
    {"j", "the row within the sequence"},
    {"r", "the row within the field"},
    {"col", "the column"},
    {"n", "the bucket's ratio or axis index"},
    {"N", "the number of sequences"},
    {"true", "the condition that holds"},
    {"false", "the condition that does not hold"},
};

/// The built-in functions, called `name(...)`: a sub-formula of the same
/// name could never be called.
inline constexpr llvm::StringLiteral kFunctionNames[] = {
    "count",  "select",      "int",    "gather", "len",    "total",
    "ratio_min", "ratio_count", "sum_of", "max_of", "min_of", "min",
    "max",    "floordiv",    "ceildiv", "clamp",  "prev"};

/// What bare name `name` means in a formula, or null where it is no
/// built-in.
inline const BuiltinName *pointName(llvm::StringRef name) {
  for (const BuiltinName &b : kPointNames)
    if (b.name == name)
      return &b;
  return nullptr;
}

inline bool isFunctionName(llvm::StringRef name) {
  for (llvm::StringRef f : kFunctionNames)
    if (f == name)
      return true;
  return false;
}

} // namespace imeta::syntax

#endif // IMETA_DIALECT_COMPACTSYNTAX_H
