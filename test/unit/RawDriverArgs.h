//===- RawDriverArgs.h - a batch file's values as they are ------*- C++ -*-===//
//
// A batch file's values handed to a generated driver without the
// evaluator's parser (what a caller of the driver's C ABI could pass):
// the tests give the driver a file the evaluator refuses this way and
// check that the driver refuses it in the same words.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_UNIT_RAWDRIVERARGS_H
#define IMETA_TEST_UNIT_RAWDRIVERARGS_H

#include "dialect/IMetaOps.h"
#include "runtime/DriverArgs.h"

#include "llvm/Support/JSON.h"

#include <optional>

namespace imeta::test {

/// The values of batch file `root` for `path`: config parameters and ratio
/// sets by name; each sequence input the path does not resolve
/// (imeta.resolve), one value (a list: its values and offsets) per
/// sequence; each state input given in the file's `state` object (under
/// its key, e.g. `last_token` for @slot_last_token), by its symbol, one
/// value (a list: a row, with offsets) per slot. std::nullopt where the
/// file has a shape the ABI cannot carry (a missing or unknown key, a
/// string, a list where one value belongs, a resolved input given, state
/// lists of another number of rows than the state's scalars, a slot left
/// out of a sequence).
std::optional<runtime::DriverArgs>
rawDriverArgs(SpecOp spec, PathOp path, const llvm::json::Object &root);

} // namespace imeta::test

#endif // IMETA_TEST_UNIT_RAWDRIVERARGS_H
