//===- SpecEmitter.h - the state shared by the C++/CUDA emitters -*- C++ -*-=//
//
// Private to lib/Lowering. One SpecEmitter generates every file of a spec;
// its printers live in one file per output: EmitHeader.cpp (public API),
// EmitFill.cpp (contexts and fused fill functions; their `cols` loops in
// EmitColumnLoop.cpp), EmitHost.cpp (host
// stage and CPU entry points), EmitCuda.cpp (staging and kernels),
// EmitDriver.cpp (the tools' C ABI).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_SPECEMITTER_H
#define IMETA_LOWERING_SPECEMITTER_H

#include "dialect/IMetaSymbols.h"
#include "lib/Lowering/CodeStream.h"
#include "lib/Lowering/CppEmitter.h"
#include "lib/Lowering/FormulaEmitter.h"
#include "lib/Lowering/RangeProof.h"
#include "lib/Transforms/PathPlan.h"

#include "mlir/IR/OperationSupport.h"

#include <functional>
#include <optional>

namespace imeta::emit {

using namespace mlir;
using llvm::formatv;

inline std::string symName(Operation *op) {
  return SymbolTable::getSymbolName(op).getValue().str();
}

/// The C++ element type of an output buffer.
inline const char *elemType(bool isBool) { return isBool ? "bool" : "int32_t"; }

/// One comment line per source line of a body: the formula a loop
/// implements, as the spec states it.
inline void commentFormula(CodeStream &cs, Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // The header alone: the spec was verified once, and a local scope keeps
  // the printer from numbering the whole spec for every comment.
  OpPrintingFlags flags;
  flags.skipRegions().assumeVerified().useLocalScope();
  op->print(os, flags);
  StringRef header = StringRef(text).split('\n').first;
  if (header.consume_back("{...}"))
    header = header.rtrim();
  cs.line("// {0} {{", header);
}

/// Generates the files of one spec.
class SpecEmitter {
public:
  explicit SpecEmitter(SpecOp spec) : spec(spec) {}

  FailureOr<GeneratedFiles> run() {
    GeneratedFiles files;
    files.baseName = spec.getSymName().str();
    Block &body = spec.getBody().front();
    for (Operation &op : body)
      if (isa<RatiosOp, RatioUnionOp>(op))
        st.setId(FlatSymbolRefAttr::get(spec.getContext(),
                                        SymbolTable::getSymbolName(&op)));
    analyzeListDependence(spec, st);
    for (auto path : body.getOps<PathOp>()) {
      FailureOr<PathPlan> plan = planPath(path);
      if (failed(plan))
        return failure();
      plans.push_back(std::move(*plan));
    }

    std::string implBody;
    {
      llvm::raw_string_ostream os(implBody);
      CodeStream cs(os);
      for (PathPlan &plan : plans)
        if (failed(emitFills(cs, plan)))
          return failure();
    }
    std::string hostBody;
    {
      llvm::raw_string_ostream os(hostBody);
      CodeStream cs(os);
      for (PathPlan &plan : plans) {
        if (failed(emitEntry(cs, plan)))
          return failure();
        emitPublicEntries(cs, plan);
      }
    }
    {
      llvm::raw_string_ostream os(files.header);
      CodeStream cs(os);
      emitHeader(cs);
    }
    {
      llvm::raw_string_ostream os(files.impl);
      CodeStream cs(os);
      emitImplPrologue(cs);
      os << implBody;
      cs.line("}  // namespace detail");
      cs.line("}  // namespace {0}", ns());
    }
    {
      llvm::raw_string_ostream os(files.source);
      CodeStream cs(os);
      emitSourcePrologue(cs);
      emitCpuFills(cs);
      os << hostBody;
      emitTables(cs);
      cs.line("std::string detail::describe_error(const ErrorRecord &e, "
              "const int32_t (*sets)[kMaxRatios]) { return describe(e, sets); "
              "}");
      cs.line("}  // namespace {0}", ns());
    }
    {
      llvm::raw_string_ostream os(files.driver);
      CodeStream cs(os);
      emitDriver(cs);
    }
    if (llvm::any_of(plans, [](PathPlan &p) {
          return p.path.getTarget() == Target::gpu;
        })) {
      llvm::raw_string_ostream hs(files.cudaHeader), cs_(files.cudaSource);
      CodeStream h(hs), cu(cs_);
      if (failed(emitCuda(h, cu)))
        return failure();
    }
    return files;
  }

private:
  std::string ns() { return "imeta_gen::" + spec.getSymName().str(); }
  std::string base() { return spec.getSymName().str(); }
  Block &specBody() { return spec.getBody().front(); }
  std::string pascal(StringRef s) {
    std::string out;
    bool up = true;
    for (char ch : s) {
      if (ch == '_') {
        up = true;
        continue;
      }
      out += up ? char(toupper(ch)) : ch;
      up = false;
    }
    return out;
  }
  std::string buffersName(PathPlan &plan) {
    return pascal(plan.path.getSymName()) + "Buffers";
  }
  std::string ctxName(PathPlan &plan) {
    return plan.path.getSymName().str() + "_ctx";
  }

  //===--------------------------------------------------------------------===//
  // Public header
  //===--------------------------------------------------------------------===//

  void emitHeader(CodeStream &cs);
  /// Whether some list input is `resident` (the header then has ListTable).
  bool hasResidentInput();
  void emitListTable(CodeStream &cs);

  //===--------------------------------------------------------------------===//
  // Implementation header: contexts and fill functions
  //===--------------------------------------------------------------------===//

  void emitImplPrologue(CodeStream &cs);

  /// Members every context has: config, ratio sets, inputs.
  void emitCommonMembers(CodeStream &cs);

  /// The bucketing of a rows space: its count's ratio set.
  FlatSymbolRefAttr spaceRatios(RowSpace &space) {
    return space.count.getRatiosAttr();
  }

  LogicalResult emitFills(CodeStream &cs, PathPlan &plan);

  /// The output name a field is written to in `plan`, if any.
  const PlannedOutput *outputOf(PathPlan &plan, Operation *def) {
    for (PlannedOutput &out : plan.outputs)
      if (out.def == def)
        return &out;
    return nullptr;
  }

  std::string fillName(PathPlan &plan, RowSpace &space) {
    return formatv("{0}_fill_{1}", plan.path.getSymName(),
                   space.count.getSymName());
  }

  /// One fused function per row space: every rows field of the space, at
  /// rows j0, j0 + step, ... of sequence i. The CPU calls it with (0, 1),
  /// a CUDA block with (threadIdx.x, blockDim.x).
  LogicalResult emitSpaceFill(CodeStream &cs, PathPlan &plan, RowSpace &space);

  /// The loops of a space's fill function: buckets of the count, rows.
  LogicalResult emitSpaceLoops(CodeStream &cs, PathPlan &plan, RowSpace &space);

  /// What the loops of one space's fill function share: the space's ratio
  /// set and the locals holding its rows fields' values at the row.
  struct SpaceLoops {
    FlatSymbolRefAttr spaceSet;
    llvm::DenseMap<Operation *, std::string> locals;
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

  /// Opens the field's bucket loop (or the guard that the space's bucket is
  /// one of the field's) and binds `b` and `n`.
  void openBuckets(CodeStream &cs, SpaceLoops &sp, FieldOp field,
                   std::optional<CodeStream::Scope> &bucketScope,
                   std::optional<CodeStream::Scope> &guard);

  /// How a field's formula names its point in a fill function.
  FormulaScope scopeOf(SpaceLoops &sp, FieldOp field, StringRef b = "b");

  /// One `cols` field's loop over (row, column) pairs (EmitColumnLoop.cpp).
  LogicalResult emitColumnField(CodeStream &cs, PathPlan &plan,
                                SpaceLoops &sp, FieldOp field);

  /// Its live column count: the `live` field's, else the width.
  std::string liveColumns(FieldOp field, const FormulaScope &scope);

  /// The seq field holding a `cols` field's live column count, if it has
  /// one.
  static FieldOp liveField(FieldOp field) {
    if (!field.getLive())
      return FieldOp();
    return lookupSpecSymbol<FieldOp>(field, field.getLiveAttr());
  }

  //===--------------------------------------------------------------------===//
  // Host source
  //===--------------------------------------------------------------------===//

  void emitSourcePrologue(CodeStream &cs);

  /// Helpers shared by all paths: config and input checks, ratio sets.
  void emitSetupHelpers(CodeStream &cs);

  std::string ruleSuffix(std::optional<StringRef> rule) {
    return rule ? " (" + rule->str() + ")" : "";
  }

  /// Points inputs at the caller's arrays and checks presence and bounds.
  void emitSetupInputs(CodeStream &cs, PathPlan &plan);
  /// `staged`: a GPU path's kernel reads the input (its row bounds go
  /// into the staging).
  void emitSetupInput(CodeStream &cs, InputOp in, bool staged);
  void emitInputChecks(CodeStream &cs, InputOp in);
  /// `staged`: the row bounds go into a GPU stage's staging (its kernel
  /// reads them).
  void emitSetupTable(CodeStream &cs, InputOp in, bool staged);
  void emitHostReadsGuard(CodeStream &cs, PathPlan &plan);

  /// The number of buckets of a set in generated code.
  std::string numBuckets(FlatSymbolRefAttr set) {
    return set ? formatv("c.num_set[{0}]", st.setId(set)).str() : "1";
  }

  /// Whether `op` has a host-stage array (h_X): a prefix sum, or a field
  /// that is not a rows field.
  static bool isHostValue(Operation *op) {
    auto field = dyn_cast<FieldOp>(op);
    return !field || field.getDomain() != Domain::rows;
  }

  /// Whether a host-stage value lives in the context itself (a scalar
  /// field: at most kMaxRatios values) rather than behind a pointer: it
  /// arrives with the context, one dependent load fewer on the device.
  static bool inContext(Operation *op) {
    auto field = dyn_cast<FieldOp>(op);
    return field && field.getDomain() == Domain::scalar;
  }

  /// The C++ type of a host-stage array's entries: int32_t for an i1 or i32
  /// field and for a prefix sum (each entry checked to fit), int64_t for an
  /// i64 field. Half the bytes of int64 to write, scan and copy.
  static const char *hostElem(Operation *op) {
    auto field = dyn_cast<FieldOp>(op);
    return field && field.getElementType().getIntOrFloatBitWidth() > 32
               ? "int64_t"
               : "int32_t";
  }

  /// Entries of a host-stage value per bucket.
  std::string hostLength(Operation *op) {
    if (auto sum = dyn_cast<PrefixSumOp>(op))
      return sum.getConvention() == Convention::exclusive ? "(N + 1)" : "N";
    return cast<FieldOp>(op).getDomain() == Domain::seq ? "N" : "1";
  }

  /// The column count of a `cols` field in bucket `scope.bucket` (a config
  /// parameter, or a scalar field's host-stage value).
  std::string columnCount(FieldOp field, const FormulaScope &scope);
  void openHostLoops(CodeStream &cs, FlatSymbolRefAttr set, bool perSeq,
                     std::optional<CodeStream::Scope> &bucketLoop,
                     std::optional<CodeStream::Scope> &seqLoop);
  /// One host step; `fused`: its body inside the one loop over sequences,
  /// a failure returning false.
  LogicalResult emitHostStep(CodeStream &cs, Operation *op,
                             std::vector<std::string> &ruleMessages,
                             bool fused);
  /// A path's host steps: runs of per-sequence steps as one pass each
  /// (with the step-by-step passes behind it for the error), the rest
  /// one by one.
  LogicalResult emitHostSteps(CodeStream &cs, PathPlan &plan);
  unsigned fusedGroups = 0;

  std::string overflowSuffix() {
    auto rule = spec.getOverflowRule();
    return rule ? formatv(" + \" ({0})\"", *rule).str() : "";
  }

  static std::string escape(StringRef s) {
    std::string out;
    for (char ch : s) {
      if (ch == '"' || ch == '\\')
        out += '\\';
      out += ch;
    }
    return out;
  }

  /// The rows an output has in each bucket (host-side expression, in
  /// terms of `b`).
  std::string outputRows(PlannedOutput &out);

  LogicalResult emitEntry(CodeStream &cs, PathPlan &plan);
  // The parts of emitEntry (EmitHost.cpp), in the order they print.
  void emitOutputTable(CodeStream &cs, PathPlan &plan);
  LogicalResult emitPrepare(CodeStream &cs, PathPlan &plan);
  void emitHostArrays(CodeStream &cs, PathPlan &plan);
  void emitRowStarts(CodeStream &cs, PathPlan &plan);
  void emitColumnChecks(CodeStream &cs, PathPlan &plan);
  void emitShapes(CodeStream &cs, PathPlan &plan);
  void emitDryRun(CodeStream &cs, PathPlan &plan);
  void emitCpuRun(CodeStream &cs, PathPlan &plan);
  /// Sets `c.proven` in prepare: the batch's int32 proof (RangeProof.h).
  LogicalResult emitRangeProof(CodeStream &cs, PathPlan &plan);

  void emitPublicEntries(CodeStream &cs, PathPlan &plan);


  //===--------------------------------------------------------------------===//
  // CUDA: one kernel per GPU path, calling the same fill functions
  //===--------------------------------------------------------------------===//

  /// Inputs the fill functions of `plan` read: these travel to the device.
  llvm::SetVector<Operation *> deviceInputs(PathPlan &plan);
  llvm::SmallPtrSet<Operation *, 16> deviceHostValues(PathPlan &plan);

  LogicalResult emitCuda(CodeStream &h, CodeStream &cu);

  /// `gpuPath`: the path's index among the GPU paths (its scratch slot).
  void emitCudaPath(CodeStream &cu, PathPlan &plan, unsigned gpuPath);
  // The parts of emitCudaPath (EmitCuda.cpp), in the order they print.
  void emitKernel(CodeStream &cu, PathPlan &plan);
  void emitResidentThreads(CodeStream &cu, PathPlan &plan);
  void emitStageImpl(CodeStream &cu, PathPlan &plan, unsigned gpuPath);
  void emitStageInputs(CodeStream &cu, PathPlan &plan);
  void emitLaunchShape(CodeStream &cu, PathPlan &plan);
  void emitStageEntries(CodeStream &cu, PathPlan &plan);
  void emitStageTable(CodeStream &cu, InputOp in);

  //===--------------------------------------------------------------------===//
  // Driver: the C ABI of imeta-run's compiled backends
  //===--------------------------------------------------------------------===//

  void emitDriver(CodeStream &cs);

public:
  /// The CPU fill loop of each path: one pass over the sequences, every row
  /// space of each. Declared before the entry points that call it.
  void emitCpuFills(CodeStream &cs);

  void emitTables(CodeStream &cs);

  SpecOp spec;
  EmitterState st;
  std::vector<PathPlan> plans;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_SPECEMITTER_H
