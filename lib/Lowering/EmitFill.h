//===- EmitFill.h - contexts and fused fill functions ------------*- C++ -*-=//
//
// Private to lib/Lowering. <base>_impl.h, shared by the host source and
// the CUDA source: each path's context and one fused fill function per
// row space (EmitFill.cpp), a `cols` field's loop in it
// (EmitColumnLoop.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_EMITFILL_H
#define IMETA_LOWERING_EMITFILL_H

#include "lib/Analysis/RowParts.h"
#include "lib/Lowering/SpecLayout.h"

#include <functional>

namespace imeta::emit {

class FillEmitter {
public:
  FillEmitter(const SpecLayout &layout, EmitterState &st) : L(layout), st(st) {}

  /// The header's includes and the fixed runtime text.
  void emitPrologue(CodeStream &cs);
  /// A path's context and fill functions.
  mlir::LogicalResult emitFills(CodeStream &cs, const PathPlan &plan);

private:
  /// Members every context has: config, ratio sets, inputs.
  void emitCommonMembers(CodeStream &cs);
  void emitContext(CodeStream &cs, const PathPlan &plan);
  void emitHostState(CodeStream &cs, const PathPlan &plan);

  /// One fused function per row space: every rows field of the space, at
  /// rows j0, j0 + step, ... of sequence i. The CPU calls it with (0, 1),
  /// a CUDA block with (threadIdx.x, blockDim.x).
  mlir::LogicalResult emitSpaceFill(CodeStream &cs, const PathPlan &plan,
                                    const RowSpace &space);

  /// What the loops of one space's fill function share: the space's ratio
  /// set and the locals holding its rows fields' values at the row.
  struct SpaceLoops {
    mlir::FlatSymbolRefAttr spaceSet;
    llvm::DenseMap<mlir::Operation *, std::string> locals;
    /// The local holding rows field `f`'s value at bucket index `idx`
    /// (FormulaScope::rowsLocal).
    std::function<std::string(FieldOp, const std::string &)> rowsLocal =
        [this](FieldOp f, const std::string &idx) -> std::string {
      const std::string &name = locals[f];
      if (!f.getRatiosAttr() || spaceSet)
        return name;
      return name + "[" + idx + "]";
    };
    SpaceLoops() = default;
    SpaceLoops(const SpaceLoops &) = delete;
    SpaceLoops &operator=(const SpaceLoops &) = delete;
  };

  /// The loops of a space's fill function: buckets of the count, rows.
  mlir::LogicalResult emitSpaceLoops(CodeStream &cs, const PathPlan &plan,
                                     const RowSpace &space);

  /// One rows field at the current row (EmitFill.cpp); its output
  /// stored only where `store`.
  mlir::LogicalResult emitRowField(CodeStream &cs, const PathPlan &plan,
                                   SpaceLoops &sp, FieldOp field, bool keep,
                                   std::vector<std::string> &deferred,
                                   bool store = true);
  /// The loop over a sequence's rows for the rows fields of `space`
  /// (`parts`: RowParts.h), each part's fields in its own block.
  mlir::LogicalResult emitRowLoop(CodeStream &cs, const PathPlan &plan,
                                  SpaceLoops &sp, const RowSpace &space,
                                  const std::vector<RowPart> &parts);

  /// Opens the field's bucket loop (or the guard that the space's bucket is
  /// one of the field's) and binds `b` and `n`.
  void openBuckets(CodeStream &cs, SpaceLoops &sp, FieldOp field,
                   std::optional<CodeStream::Scope> &bucketScope,
                   std::optional<CodeStream::Scope> &guard);

  /// How a field's formula names its point in a fill function.
  FormulaScope scopeOf(SpaceLoops &sp, FieldOp field, llvm::StringRef b = "b");

  /// The rows fields a column loop's formula reads, computed once per row:
  /// the local holding each at a bucket ("field@bucket").
  struct RowValues {
    llvm::StringMap<std::string> locals;
    unsigned nextBucketVar = 0;
    std::function<std::string(FieldOp, const std::string &)> lookup =
        [this](FieldOp f, const std::string &idx) {
          return locals.lookup((f.getSymName() + "@" + idx).str());
        };
    RowValues() = default;
    RowValues(const RowValues &) = delete;
    RowValues &operator=(const RowValues &) = delete;
  };
  /// Declares on `cs` and computes on `rowCs` (once per row) the values of
  /// the rows fields `reader` reads at `bucket`, their own reads first.
  mlir::LogicalResult emitRowValues(CodeStream &cs, CodeStream &rowCs,
                                    SpaceLoops &sp, FieldOp reader,
                                    const std::string &bucket, RowValues &rv);

  /// One `cols` field's loop over (row, column) pairs (EmitColumnLoop.cpp).
  mlir::LogicalResult emitColumnField(CodeStream &cs, const PathPlan &plan,
                                      SpaceLoops &sp, FieldOp field);

  /// Its live column count: the `live` field's, else the width.
  std::string liveColumns(FieldOp field, const FormulaScope &scope);

  const SpecLayout &L;
  EmitterState &st;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_EMITFILL_H
