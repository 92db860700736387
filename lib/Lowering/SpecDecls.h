//===- SpecDecls.h - a spec's config and input declarations -----*- C++ -*-===//
//
// Private to lib/Lowering. The one model of what a spec declares that the
// generated code holds per step: its config parameters and its inputs,
// each classified once (a value or a lookup list; a per-sequence value, a
// packed list, a resident list, request state kept by slot, a slot that
// state is read at) with its C++ element type. Every emitter (header,
// host stage, fills, CUDA stage, driver, torch binding) walks these lists
// instead of the spec's ops, so a new kind of declaration is added here
// and then handled where its code is printed.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_SPECDECLS_H
#define IMETA_LOWERING_SPECDECLS_H

#include "dialect/IMetaOps.h"

#include <vector>

namespace imeta::emit {

/// A config parameter (`imeta.config`).
struct ConfigDecl {
  /// (A handle: MLIR's accessors are not const.)
  mutable ConfigOp op;
  llvm::StringRef name;
  /// A lookup table (`list<i32>`): Config holds `X` and `num_X`; only the
  /// host reads it (context members `cfgl_X`, `cfgn_X`). Otherwise one
  /// value: Config's `X`, the context's `cfg_X` and divider `dv_cfg_X`.
  bool isList = false;
  bool isBool = false;
  /// Config's C++ type of the value (a list: of its elements).
  const char *cType() const { return isBool ? "bool" : "int32_t"; }
};

/// How the generated code holds an input.
enum class InputKind {
  kValue,        ///< one value a sequence: Sequences' `X[i]`
  kList,         ///< values a sequence: `X` packed with `X_offsets`
  kResidentList, ///< a kList that may instead be read from `X_table`
  kStateValue,   ///< request state: one value a slot, read at the slot
  kStateList,    ///< request state: one row a slot, `X` with `X_offsets`
};

/// A per-sequence input or request state (`imeta.input`).
struct InputDecl {
  /// (A handle: MLIR's accessors are not const.)
  mutable InputOp op;
  llvm::StringRef name;
  InputKind kind = InputKind::kValue;
  bool isBool = false;
  /// Other inputs' state is read at its values (Sequences' `X_slots`).
  bool isSlot = false;
  bool isOptional = false;

  bool isList() const {
    return kind == InputKind::kList || kind == InputKind::kResidentList ||
           kind == InputKind::kStateList;
  }
  bool isState() const {
    return kind == InputKind::kStateValue || kind == InputKind::kStateList;
  }
  bool isResident() const { return kind == InputKind::kResidentList; }
  /// The C++ type of its values.
  const char *elemType() const { return isBool ? "bool" : "int32_t"; }
};

/// A spec's declarations, in declaration order.
class SpecDecls {
public:
  explicit SpecDecls(SpecOp spec);

  llvm::ArrayRef<ConfigDecl> configs() const { return configList; }
  llvm::ArrayRef<InputDecl> inputs() const { return inputList; }
  /// The declaration of `op` (a ConfigOp or InputOp of the spec), if any.
  const ConfigDecl *config(mlir::Operation *op) const;
  const InputDecl *input(mlir::Operation *op) const;
  /// Whether some input is a resident list (the header then has
  /// ListTable).
  bool hasResidentInput() const;

private:
  std::vector<ConfigDecl> configList;
  std::vector<InputDecl> inputList;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_SPECDECLS_H
