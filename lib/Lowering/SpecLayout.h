//===- SpecLayout.h - what every generated file names, read-only -*- C++ -*-=//
//
// Private to lib/Lowering. The one object the emitters of a spec's files
// share (EmitHeader.h, EmitFill.h, EmitHost.h, EmitCuda.h, EmitDriver.h):
// the spec, its paths' plans, and how the generated code names and lays
// out what they hold (namespaces, buffer and context types, host-stage
// arrays, the values a GPU stage sends). Fixed when made; every method is
// const.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_SPECLAYOUT_H
#define IMETA_LOWERING_SPECLAYOUT_H

#include "dialect/IMetaSymbols.h"
#include "lib/Lowering/CodeStream.h"
#include "lib/Lowering/FormulaEmitter.h"
#include "lib/Lowering/RangeProof.h"
#include "lib/Lowering/SpecDecls.h"
#include "lib/Analysis/PathPlan.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace imeta::emit {

/// The symbol name of a field, prefix sum, input or config op.
inline std::string symName(mlir::Operation *op) {
  return mlir::SymbolTable::getSymbolName(op).getValue().str();
}

/// Whether `ops` holds input `in` (by name: a path planned on a copy of
/// the spec, imeta-inline-resolves, reads the copy's declarations).
template <typename Range>
bool holdsInput(const Range &ops, const InputDecl &in) {
  return llvm::any_of(ops, [&](mlir::Operation *op) {
    auto input = llvm::dyn_cast_or_null<InputOp>(op);
    return input && input.getSymName() == in.name;
  });
}

/// The resident (table) inputs among `ops`, in declaration order.
template <typename Range>
std::vector<const InputDecl *> residentInputs(llvm::ArrayRef<InputDecl> inputs,
                                              const Range &ops) {
  std::vector<const InputDecl *> found;
  for (const InputDecl &in : inputs)
    if (in.isResident() && holdsInput(ops, in))
      found.push_back(&in);
  return found;
}

/// The C++ element type of an output buffer.
inline const char *elemType(bool isBool) { return isBool ? "bool" : "int32_t"; }

/// `s` for a C++ string literal: `"` and `\` escaped, control and
/// non-ASCII bytes as octal escapes (a NUL or a newline in a rule's
/// message must not end up raw in the generated code).
std::string escape(llvm::StringRef s);

/// `s` for a `//` comment: control and non-ASCII bytes as '?' (a newline
/// would end the comment and put the rest in the code).
std::string commentText(llvm::StringRef s);

/// " (RULE)" after a message, where a rule is named.
inline std::string ruleSuffix(std::optional<llvm::StringRef> rule) {
  return rule ? " (" + escape(*rule) + ")" : "";
}

/// " (R1)": the rule a declaration names, as the evaluator appends it to
/// a message, escaped for a C++ string literal.
inline std::string ruleLiteral(std::optional<llvm::StringRef> rule) {
  return ruleSuffix(rule);
}

class SpecLayout {
public:
  /// `fileBase`: the generated files' base name ("": the spec's name).
  SpecLayout(SpecOp spec, std::vector<PathPlan> plans,
             std::string fileBase = "");
  SpecLayout(const SpecLayout &) = delete;
  SpecLayout &operator=(const SpecLayout &) = delete;

  SpecOp spec() const { return specOp; }
  mlir::Block &body() const { return spec().getBody().front(); }
  llvm::ArrayRef<PathPlan> plans() const { return pathPlans; }
  const FormulaNaming &naming() const { return names; }
  /// The config parameters and inputs, as every emitter reads them.
  llvm::ArrayRef<ConfigDecl> configs() const { return declared.configs(); }
  llvm::ArrayRef<InputDecl> inputs() const { return declared.inputs(); }
  const SpecDecls &decls() const { return declared; }
  bool hasGpuPath() const;
  /// Whether a 32-bit division or remainder of `field`'s spec divides by
  /// scalar field `field` (its context then holds dividers `dv_h_X`): one
  /// walk per spec, not one per field.
  bool isScalarDivisor(FieldOp field) const;
  /// A comment naming the declaration a loop implements: its header as the
  /// spec states it (`// imeta.field @slot rows(@q) {`).
  void commentFormula(CodeStream &cs, mlir::Operation *op) const;
  /// Whether some list input is `resident` (the header then has ListTable).
  bool hasResidentInput() const { return declared.hasResidentInput(); }

  //===--- Names ----------------------------------------------------------===//

  /// The spec's name and its C++ namespace.
  std::string base() const;
  /// The generated files' base name (`imeta-gen --name`, else base()).
  std::string fileBase() const {
    return fileBaseName.empty() ? base() : fileBaseName;
  }
  std::string ns() const { return "imeta_gen::" + base(); }
  /// `snake_case` as `PascalCase`.
  static std::string pascal(llvm::StringRef s);
  std::string buffersName(const PathPlan &plan) const;
  std::string ctxName(const PathPlan &plan) const;
  /// A row space's fused fill function.
  std::string fillName(const PathPlan &plan, const RowSpace &space) const;
  /// " + \" (RULE)\"" after an overflow's message, where the spec names
  /// the rule.
  std::string overflowSuffix() const;

  //===--- Layout ---------------------------------------------------------===//

  /// The output `def` is written to in `plan`, if any.
  static const PlannedOutput *outputOf(const PathPlan &plan,
                                       mlir::Operation *def);
  /// The number of buckets of a set in generated code.
  std::string numBuckets(mlir::FlatSymbolRefAttr set) const;
  /// A C++ condition: contexts `a` and `b` hold the same configuration
  /// (ratio sets and config values; a config list is not compared).
  std::string sameConfig(llvm::StringRef a, llvm::StringRef b) const;

  /// Whether `op` has a host-stage array (h_X): a prefix sum, or a field
  /// that is not a rows field.
  static bool isHostValue(mlir::Operation *op);
  /// Whether a host-stage value lives in the context itself (a scalar
  /// field of fixed width: at most kMaxRatios times K values) rather than
  /// behind a pointer: it
  /// arrives with the context, one dependent load fewer on the device.
  static bool inContext(mlir::Operation *op);
  /// The C++ type of a host-stage array's entries: int32_t for an i1 or
  /// i32 field and for a prefix sum (each entry checked to fit), int64_t
  /// for an i64 field. Half the bytes of int64 to write, scan and copy.
  static const char *hostElem(mlir::Operation *op);
  /// Points of a host-stage value per bucket (N, N + 1 or 1).
  static std::string hostLength(mlir::Operation *op);
  /// Entries per point of a host-stage value: 1 for a flat one, K for a
  /// field yielding K values, `c.hw_X` (the widest bucket's column
  /// count, set by the field's host step) for a `cols` field; a prefix
  /// sum's is its summand's (one sum per column).
  static std::string hostWidth(mlir::Operation *op);
  /// Entries of a host-stage value per bucket: points times width.
  static std::string hostStride(mlir::Operation *op);
  /// The field whose values a point of `op` holds: `op` itself, or a
  /// sum's summand (one sum per column of it).
  static FieldOp valuesField(mlir::Operation *op);
  /// Whether a host-stage value holds more than one entry per point.
  static bool isWideHostValue(mlir::Operation *op);

  /// The seq field holding a `cols` field's live column count, if it has
  /// one.
  static FieldOp liveField(FieldOp field);
  /// The column count of a `cols` field in bucket `scope.bucket` (a config
  /// parameter, or a scalar field's host-stage value).
  std::string columnCount(FieldOp field, const FormulaScope &scope) const;
  /// The rows an output has in each bucket (host-side expression, in
  /// terms of `b`): its `rows(@len)`, else the field's.
  std::string outputRows(const PlannedOutput &out) const;
  /// The rows the field itself writes in each bucket (the rest, up to the
  /// capacity, get the declared fill).
  std::string liveRows(const PlannedOutput &out) const;

  /// Inputs the fill functions of `plan` read: these travel to the device.
  static llvm::SetVector<mlir::Operation *> deviceInputs(const PathPlan &plan);
  /// Host-stage values a GPU path's kernel reads: those its fills name (in
  /// their formulas, row counts, `live` and `cols`) and the host-stage
  /// outputs it copies. The others stay on the host.
  static llvm::SmallPtrSet<mlir::Operation *, 16>
  deviceHostValues(const PathPlan &plan);

private:
  /// The scalar fields each spec (the spec or a path's copy) divides by.
  mutable llvm::DenseMap<mlir::Operation *, llvm::DenseSet<mlir::StringAttr>>
      scalarDivisors;
  /// The printer state commentFormula prints headers with, made once
  /// over an empty module (an op printed on its own makes one for every
  /// comment: a tenth of imeta-gen's time on a large spec).
  mutable mlir::OwningOpRef<mlir::ModuleOp> commentRoot;
  mutable std::unique_ptr<mlir::AsmState> commentState;
  SpecOp specOp;
  std::string fileBaseName;
  std::vector<PathPlan> pathPlans;
  FormulaNaming names;
  SpecDecls declared;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_SPECLAYOUT_H
