//===- PathPlan.h - the schedule of a path's generated code -----*- C++ -*-===//
//
// What the emitters print, decided once: which fields a path needs, the
// host stage (rules, scalar and per-sequence fields, prefix sums, in
// dependency order: the light first pass that sizes every data-dependent
// field) and the fill stage (one fused loop nest per row space: for each
// sequence, for each row, every rows field of that space in dependency
// order, so a field read by others - pos, s, a block-table slot - is
// computed once per point).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_ANALYSIS_PATHPLAN_H
#define IMETA_ANALYSIS_PATHPLAN_H

#include "dialect/IMetaOps.h"

#include "llvm/ADT/SetVector.h"

#include <optional>
#include <string>
#include <vector>

namespace imeta {

/// A host-stage step: compute a field/prefix sum, or check a rule.
struct HostStep {
  mlir::Operation *op; ///< FieldOp (scalar/seq), PrefixSumOp or RequireOp
};

/// The rows fields sharing one row count, filled in one loop nest.
struct RowSpace {
  FieldOp count;                       ///< the per-sequence row count
  std::vector<FieldOp> fields;         ///< in dependency order
};

/// One output of a path with everything an emitter needs to lay it out.
struct PlannedOutput {
  std::string name;              ///< its C++ name (outputIdentifier)
  std::string label;             ///< output name as written, without `.n`
  mlir::Operation *def;          ///< FieldOp or PrefixSumOp
  mlir::FlatSymbolRefAttr ratios; ///< bucketing (null if none)
  unsigned width = 1;            ///< values per row (columns for `cols`)
  bool isBool = false;
  /// The value of the buffer's rows past the live ones (`fill(v)`).
  std::optional<int64_t> fill;
  /// Absent where its domain is empty (`optional`): rows == emptyRows.
  bool optional = false;
  int64_t emptyRows = 0; ///< 1 for an exclusive prefix sum (its [0])
  /// The scalar field giving the output's row count (`rows(@len)`): rows
  /// past the field's up to it are `fill`; null where the field's own.
  mlir::Operation *rowsLen = nullptr;
  /// The stacked buffer it is written to: "[BUCKETS][ROWS][WIDTH] TYPE",
  /// e.g. "[ca_ratios][rows(q)][1] i32" (bucket b of a ratio set is the
  /// row view NAME.n, n the set's b-th ratio).
  std::string layout;
};

/// The generated code's schedule for one path.
struct PathPlan {
  PathOp path;
  std::vector<HostStep> host;        ///< rules and host fields, in order
  std::vector<RowSpace> rowSpaces;   ///< fill stage, in dependency order
  std::vector<PlannedOutput> outputs;
  /// Every field and prefix sum the path reads, in dependency order.
  llvm::SetVector<mlir::Operation *> needed;
};

/// Builds the plan of a verified path. A schedule recorded on the path by
/// imeta-order-host (`imeta.host`) or imeta-fuse-rows (`imeta.fill`) is
/// used instead of the default one, after checking that it computes every
/// value after what it reads; a bad one is a located error.
mlir::FailureOr<PathPlan> planPath(PathOp path);

/// The default plan, ignoring any recorded schedule.
PathPlan defaultPlan(PathOp path);

/// The attributes imeta-split-resolves sets: on a resolving path, its
/// first stage (`imeta.resolved_by = @P_resolve`); on that stage, the path
/// it resolves for (`imeta.resolve_stage = @P`).
inline constexpr llvm::StringLiteral kResolvedByAttr = "imeta.resolved_by";
inline constexpr llvm::StringLiteral kResolveStageAttr = "imeta.resolve_stage";

/// The attributes imeta-inline-resolves sets: on the path, the inputs it
/// resolved (`imeta.inlined_resolves = [@seqlen_q, ...]`: the batch does
/// not give them); on its bounds rule, the resolved inputs' `min` checks in
/// declaration order (`imeta.resolved_bounds`: dictionaries of `input`,
/// `min`, `value` and, for a list, `first` and `count`) and the fields
/// computed before it (`imeta.schedule_after`).
inline constexpr llvm::StringLiteral kInlinedResolvesAttr =
    "imeta.inlined_resolves";
inline constexpr llvm::StringLiteral kResolvedBoundsAttr =
    "imeta.resolved_bounds";
inline constexpr llvm::StringLiteral kScheduleAfterAttr =
    "imeta.schedule_after";

/// The rules a path checks, in order: the spec's, then the path's own.
llvm::SmallVector<RequireOp> allRules(PathOp path);

/// The stacked-buffer layout of an output's source field or prefix sum.
std::string bufferLayout(mlir::Operation *def);

/// Attribute names of a recorded schedule and layout.
inline constexpr llvm::StringLiteral kLayoutAttr = "imeta.layout";
inline constexpr llvm::StringLiteral kHostScheduleAttr = "imeta.host";
inline constexpr llvm::StringLiteral kFillScheduleAttr = "imeta.fill";

/// The symbols a field, prefix sum or rule reads (fields and sums only).
llvm::SmallVector<mlir::Operation *> fieldDependencies(mlir::Operation *op);

/// Whether a path's fast fill (its range proof holding) can still fail:
/// it reads a list's elements (an index past the list, a value computed
/// from elements that leaves i32) or a resolved list's rows
/// (check_index). Such a path runs the fast fill's checks before it
/// writes (a dry run without stores), so that a refusal writes nothing.
bool fastFillCanFail(const PathPlan &plan);

} // namespace imeta

#endif // IMETA_ANALYSIS_PATHPLAN_H
