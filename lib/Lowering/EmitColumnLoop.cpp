//===- EmitColumnLoop.cpp - a `cols` field's loop in a fill function -----===//
//
// A `cols` field is filled by its own loop over (row, column) pairs of the
// sequence: on the GPU a warp takes tiles of consecutive columns of one
// row, each lane 4 consecutive columns a step (one 16-byte store); on the
// CPU a thread takes whole rows. The row values the formula reads are
// computed once per row; list reads monotone in the column are checked
// once per row (MonotoneLoads.h); a branch on `col < X` is taken once per
// step (ColumnSplit.h).
//
//===----------------------------------------------------------------------===//

#include "lib/Analysis/ColumnInvariants.h"
#include "lib/Analysis/ColumnSplit.h"
#include "lib/Analysis/ColumnTrend.h"
#include "lib/Analysis/MonotoneLoads.h"
#include "lib/Lowering/EmitFill.h"
#include "lib/Support/Format.h"

using namespace mlir;
using imeta::fmt;

namespace imeta::emit {

/// The load of a `cols` field whose value is the list element at its
/// column (the row is a slice of the list), if that is all it computes.
static LoadOp columnCopy(FieldOp field) {
  Block &body = field.getBody().front();
  if (body.getOperations().size() != 3)
    return LoadOp();
  auto load = dyn_cast<LoadOp>(*std::next(body.begin()));
  if (!load || !load.getIndex().getDefiningOp<ColIndexOp>() ||
      body.getTerminator()->getNumOperands() != 1 ||
      body.getTerminator()->getOperand(0) != load.getResult())
    return LoadOp();
  return load;
}

/// Before a `cols` field's column loop: its bucket-invariant reads and
/// the dividers it prepares (ColumnInvariants.h), recorded in `scope`.
static void hoistColumnInvariants(CodeStream &cs, EmitterState &st,
                                  FieldOp field, FormulaScope &scope) {
  ColumnInvariants invariants = columnInvariants(field);
  for (Operation *op : invariants.reads)
    if (!scope.hoisted.count(op->getResult(0)))
      scope.hoisted[op->getResult(0)] = emitHoisted(cs, st, op, scope);
  unsigned nextDivider = 0;
  for (Value divisor : invariants.loopDividers) {
    if (scope.dividers.count(divisor))
      continue;
    // A scalar field's divider is copied out of the context once (read
    // through the ratio map, it would be reloaded at every use); made here
    // per warp, it slowed the expansions (bench/HISTORY.md).
    std::string fromContext = contextDivider(st, scope, divisor);
    std::string name = fmt("dv{0}", nextDivider++);
    // Unused where a remainder takes its quotient from a division by an
    // equal divisor read twice.
    cs.line("const imeta_divider {0} = {1};  (void){0};", name,
            fromContext.empty()
                ? fmt("imeta_make_divider({0})", scope.hoisted.lookup(divisor))
                : fromContext);
    scope.dividers[divisor] = name;
  }
}

/// In a column loop's row block (`rowCs`): the row's last column below
/// every value of `bounds` and its width, as `last` (-1 where there is
/// none), then `flag = false` and, where there is such a column, `targets`
/// evaluated at the row's first column (0) and at `last`, for `test` to
/// print the check on their names. The two ends of a value monotone in
/// the column bound it over the columns between (MonotoneLoads.h,
/// ColumnSplit.h).
static LogicalResult emitAtRowEnds(
    CodeStream &rowCs, EmitterState &st, FieldOp field,
    const FormulaScope &scope, ArrayRef<Value> bounds, StringRef last,
    StringRef flag, ArrayRef<Value> targets,
    llvm::function_ref<void(ArrayRef<std::string>, ArrayRef<std::string>)>
        test) {
  Region &body = field.getBody();
  FormulaScope atFirst = scope;
  atFirst.col = "I(0)";
  SmallVector<std::string> names;
  if (failed(emitSlice(rowCs, st, body, bounds, atFirst, names)))
    return failure();
  std::string end = "I(cols)";
  for (const std::string &bound : names)
    end = fmt("({0} < {1} ? {0} : {1})", bound, end);
  rowCs.line("const I {0} = {1} - 1;", last, end);
  rowCs.line("{0} = false;", flag);
  CodeStream::Scope some(rowCs, fmt("if ({0} >= 0)", last));
  FormulaScope atLast = scope;
  atLast.col = last.str();
  SmallVector<std::string> lo, hi;
  if (failed(emitSlice(rowCs, st, body, targets, atFirst, lo)) ||
      failed(emitSlice(rowCs, st, body, targets, atLast, hi)))
    return failure();
  test(lo, hi);
  return success();
}

/// In a GPU column loop, once per row (`rowCs`, device code only): each
/// read of `field` whose index is monotone in the column
/// (MonotoneLoads.h), checked at the first and last column of the row that
/// read it; a failure is recorded and sets `oobK` (declared on `cs`, before
/// the loop), for the row's tiles to skip their steps. Adds the reads to
/// `step`'s checked loads; returns the names of the flags.
static FailureOr<SmallVector<std::string>>
checkMonotoneLoads(CodeStream &cs, CodeStream &rowCs, EmitterState &st,
                   FieldOp field, const FormulaScope &scope,
                   FormulaScope &step) {
  SmallVector<std::string> flags;
  for (MonotoneLoad ml : monotoneLoads(field)) {
    if (step.rangeCheckedLoads.contains(ml.load))
      continue;
    std::string flag = fmt("oob{0}", flags.size());
    cs.line("bool {0} = false;  (void){0};", flag);
    rowCs.line("#ifdef __CUDA_ARCH__");
    {
      // A warp's walk (the serial one meets each read as the CPU does).
      CodeStream::Scope tiled(rowCs, "if (tiled)");
      rowCs.line("// The read of {0}: its index is monotone in the column; "
                 "the row's first and last column that read it bound it.",
                 ml.load.getInput());
      std::string list = ("ll_" + ml.load.getInput()).str();
      auto check = [&](ArrayRef<std::string> lo, ArrayRef<std::string> hi) {
        rowCs.line(
            "if (!imeta_in_list({0}, {1}) || !imeta_in_list({2}, {1})) "
            "{{ imeta_fail(c.err, kOutOfRange, {3}, {4}, {5}, {6}, "
            "imeta_in_list({0}, {1}) ? {2} : {0}, {8}, {1}); {7} = true; }",
            lo[0], list, hi[0], st.site(ml.load), scope.ownerId, scope.seq,
            scope.globalRow, flag, failRatioArgs(st, scope));
      };
      if (failed(emitAtRowEnds(rowCs, st, field, scope, ml.bounds,
                               "last_" + flag, flag, {ml.load.getIndex()},
                               check)))
        return failure();
    }
    rowCs.line("#endif");
    step.rangeCheckedLoads.insert(ml.load);
    flags.push_back(flag);
  }
  return flags;
}

/// In a GPU column loop, once per row (`rowCs`, device code only): for the
/// divisions `split` finds below its bound (ColumnSplit.h) that divide by
/// a divider, whether the row's first and last column below the bound
/// have their dividends in the divider's range; then, the dividends being
/// monotone, every column below has. Sets the flag it returns (declared
/// on `cs`, before the loop; "" where no division qualifies) and adds the
/// divisions to `exact`.
static FailureOr<std::string>
rangeSplitDivisions(CodeStream &cs, CodeStream &rowCs, EmitterState &st,
                    FieldOp field, const ColumnSplit &split,
                    const FormulaScope &scope,
                    llvm::SmallPtrSetImpl<Operation *> &exact) {
  SmallVector<Operation *> divisions;
  for (Operation *op : split.divisions)
    if (!dividerOf(st, scope, op->getOperand(1)).empty())
      divisions.push_back(op);
  if (divisions.empty())
    return std::string();
  std::string flag = "in_range";
  cs.line("bool {0} = false;  (void){0};", flag);
  rowCs.line("#ifdef __CUDA_ARCH__");
  {
    CodeStream::Scope tiled(rowCs, "if (tiled)");
    rowCs.line("// The divisions below the split: their dividends are monotone "
               "in the column; the row's first and last column below it bound "
               "them.");
    SmallVector<Value> dividends;
    for (Operation *op : divisions)
      dividends.push_back(op->getOperand(0));
    auto inRange = [&](ArrayRef<std::string> lo, ArrayRef<std::string> hi) {
      // (A quotient and a remainder of the same operands test once.)
      SmallVector<std::string> tests;
      for (auto [k, op] : llvm::enumerate(divisions)) {
        std::string dv = dividerOf(st, scope, op->getOperand(1));
        std::string test = fmt("uint32_t({0}) <= {2}.limit && uint32_t("
                               "{1}) <= {2}.limit",
                               lo[k], hi[k], dv);
        if (!llvm::is_contained(tests, test))
          tests.push_back(test);
        exact.insert(op);
      }
      rowCs.line("{0} = {1};", flag, llvm::join(tests, " && "));
    };
    if (failed(emitAtRowEnds(rowCs, st, field, scope, {split.bound},
                             "last_below", flag, dividends, inRange)))
      return failure();
  }
  rowCs.line("#endif");
  return flag;
}

/// Quotients a GPU column step computed once for its values, by division.
using StepQuotients = llvm::DenseMap<Operation *, std::string>;

/// Whether `division`'s result is, through ops without regions, the index
/// of a list read.
static bool indexesRead(Operation *division) {
  SmallVector<Value> work{division->getResult(0)};
  llvm::DenseSet<Value> seen(work.begin(), work.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto load = dyn_cast<LoadOp>(user)) {
        if (load.getIndex() == v)
          return true;
        continue;
      }
      if (user->getNumRegions() == 0)
        for (Value result : user->getResults())
          if (seen.insert(result).second)
            work.push_back(result);
    }
  }
  return false;
}

/// In a GPU column step whose columns are all below `split`'s bound: the
/// step's values by `values`, given the quotients the step shares. A
/// ranged division (`exact`) whose quotient indexes a list read, its
/// dividend the same at every column or monotone in the column with the
/// same quotient at the step's first and last column, has that quotient
/// at every column of the step: one division and one read serve the
/// step's kVec values (bench/HISTORY.md). Where a quotient
/// turns inside the step, each value divides. (Divisions that index no
/// read are left to the compiler: sharing kv_swa_index's ring divisions
/// saved a multiply a value and measured no faster.)
static LogicalResult emitBelowSplit(
    CodeStream &cs, EmitterState &st, FieldOp field, const ColumnSplit &split,
    const llvm::SmallPtrSetImpl<Operation *> &exact, const FormulaScope &step,
    llvm::function_ref<LogicalResult(const StepQuotients &)> values) {
  // The distinct operands of the ranged divisions whose quotient indexes a
  // read, in program order (a quotient and a remainder of the same
  // operands share one).
  SmallVector<std::pair<Value, Value>> operands;
  auto operandsOf = [](Operation *op) {
    return std::pair<Value, Value>{op->getOperand(0), op->getOperand(1)};
  };
  for (Operation *op : split.divisions)
    if (exact.contains(op) && indexesRead(op) &&
        !llvm::is_contained(operands, operandsOf(op)))
      operands.push_back(operandsOf(op));
  if (operands.empty())
    return values(StepQuotients());
  ColumnTrends trends;
  SmallVector<Value> dividends, sliced;
  SmallVector<bool> byOne;
  for (auto [dividend, divisor] : operands) {
    dividends.push_back(dividend);
    byOne.push_back(trends.movesByOne(dividend));
    if (trends.of(dividend) != Trend::invariant && !byOne.back())
      sliced.push_back(dividend);
  }
  // The dividends at the step's first column and, those that move, at its
  // last: the first's plus kVec - 1 where the dividend moves by one a
  // column (what the compiler keeps in fewest registers: kv_ca_index's
  // kernel 64, where a slice at `c0 + kVec - 1` took 80), else a slice
  // (its own divisions exact too).
  FormulaScope atFirst = step, atLast = step;
  atFirst.exactDivisions.insert(exact.begin(), exact.end());
  atLast.exactDivisions = atFirst.exactDivisions;
  atFirst.col = "c0";
  atLast.col = "(c0 + kVec - 1)";
  SmallVector<std::string> lo, hi;
  if (failed(emitSlice(cs, st, field.getBody(), dividends, atFirst, lo)) ||
      failed(emitSlice(cs, st, field.getBody(), sliced, atLast, hi)))
    return failure();
  StepQuotients quotients;
  SmallVector<std::string> same;
  for (auto [k, pair] : llvm::enumerate(operands)) {
    std::string dv = dividerOf(st, step, pair.second);
    std::string name = fmt("sq{0}", k);
    cs.line("const I {0} = imeta_udiv32(int32_t({1}), {2});", name, lo[k], dv);
    std::string last;
    if (auto *it = llvm::find(sliced, pair.first); it != sliced.end())
      last = hi[it - sliced.begin()];
    else if (byOne[k])
      last = lo[k] + " + kVec - 1";
    if (!last.empty())
      same.push_back(
          fmt("{0} == imeta_udiv32(int32_t({1}), {2})", name, last, dv));
    for (Operation *op : split.divisions)
      if (exact.contains(op) && operandsOf(op) == pair)
        quotients[op] = name;
  }
  if (same.empty())
    return values(quotients);
  {
    CodeStream::Scope shared(cs, "if (" + llvm::join(same, " && ") + ")");
    if (failed(values(quotients)))
      return failure();
  }
  CodeStream::Scope own(cs, "else");
  return values(StepQuotients());
}

std::string FillEmitter::liveColumns(FieldOp field, const FormulaScope &scope) {
  FieldOp live = L.liveField(field);
  if (!live)
    return L.columnCount(field, scope);
  if (!live.getRatiosAttr())
    return "hs_" + live.getSymName().str();
  return fmt("c.h_{0}[{1} * c.num_seqs + i]", *field.getLive(),
             bucketIndex(st, scope, live.getRatiosAttr()));
}

/// The shape of a `cols` field's walk: on the GPU (`tiled`) a warp takes
/// a tile of consecutive columns of one row, each lane kVec consecutive
/// columns per step (one 16-byte store where the row allows): up to 4
/// steps of lanes * kVec columns, fewer when the sequence's values would
/// leave warps idle (a narrow row). The CPU takes whole rows, a lane
/// each; so does the GPU's checked fill on fewer lanes than whole warps
/// (one lane: the device step's re-run of a failing sequence, which must
/// meet its failures in the CPU's order and words). Tile arithmetic is in
/// I: 32 bits in the fast instantiation.
static void emitTileShape(CodeStream &cs) {
  cs.line("#ifdef __CUDA_ARCH__");
  cs.line("const bool tiled = !kChk || step % IMETA_LANES == 0;");
  cs.line("#else");
  cs.line("constexpr bool tiled = false;");
  cs.line("#endif");
  cs.line("constexpr int kVec = IMETA_LANES > 1 ? 4 : 1;");
  cs.line("const int lanes = tiled ? IMETA_LANES : 1;");
  // A warp's share of the values, in steps, compared rather than
  // divided; tiles by a shift (a warp's once-only divisions dominated a
  // small expansion's instructions, bench/HISTORY.md).
  cs.line("const int64_t work = rows * cols, warp_step = (step + lanes - "
          "1) / lanes * lanes * kVec;");
  cs.line("const int tile_shift = tiled ? IMETA_TILE_SHIFT + (work >= "
          "3 * warp_step ? 2 : work >= 2 * warp_step ? 1 : 0) : 0;");
  cs.line("const I tile_cols = tiled ? I(1) << tile_shift : I(cols);");
  cs.line("const I tiles = cols <= 0 ? 0 : tiled ? (I(cols) + "
          "tile_cols - 1) >> tile_shift : 1;");
  cs.line("const I lane = I(j0 % lanes);  (void)lane;");
}

/// The warp's k-th tile is tile e = e0 + k * stride of the row-major
/// (row, tile) space: tile t of row j. Both advance by (dj, dt) with at
/// most one carry (dt < tiles), so no division in the loop. Opens the loop
/// in `loop` and binds the tile's columns [first, end) and its row r.
static void openTileLoop(CodeStream &cs,
                         std::optional<CodeStream::Scope> &loop) {
  cs.line("const I e0 = I(j0 / lanes), stride = I(step / lanes);");
  cs.line("I dj = 0, dt = 0, j = I(rows), t = 0;");
  cs.line("if (tiles > 0) imeta_divmod_small(stride, tiles, dj, dt), "
          "imeta_divmod_small(e0, tiles, j, t);");
  cs.line("I row_done = -1;  (void)row_done;");
  loop.emplace(cs, "for (; j < I(rows); t += dt, j += dj + (t >= tiles), "
                   "t -= t >= tiles ? tiles : 0)");
  cs.line("const I first = t * tile_cols;");
  cs.line("const I end = first + tile_cols < I(cols) ? first + tile_cols : "
          "I(cols);");
  cs.line("const int64_t r = start + j;  (void)r;");
}

LogicalResult FillEmitter::emitRowValues(CodeStream &cs, CodeStream &rowCs,
                                         SpaceLoops &sp, FieldOp reader,
                                         const std::string &bucket,
                                         RowValues &rv) {
  SmallVector<GetOp> reads;
  reader.walk([&](GetOp g) { reads.push_back(g); });
  for (GetOp g : reads) {
    auto dep = lookupSpecSymbol<FieldOp>(g, g.getFieldAttr());
    if (dep.getDomain() != Domain::rows)
      continue;
    FormulaScope at;
    at.ratios = reader.getRatiosAttr();
    at.bucket = bucket;
    std::string idx = bucketIndex(st, at, dep.getRatiosAttr());
    std::string key = (dep.getSymName() + "@" + idx).str();
    if (rv.locals.count(key))
      continue;
    std::string bv = fmt("bd{0}", rv.nextBucketVar++);
    FlatSymbolRefAttr set = dep.getRatiosAttr();
    if (set)
      cs.line("const int32_t {0} = {1};", bv, idx);
    if (failed(emitRowValues(cs, rowCs, sp, dep, bv, rv)))
      return failure();
    std::string local = fmt("v_{0}_{1}", dep.getSymName(), bv);
    FormulaScope depScope = scopeOf(sp, dep, bv);
    depScope.rowsLocal = rv.lookup;
    Value yielded = dep.getBody().front().getTerminator()->getOperand(0);
    cs.line("{0} {1} = {{};", valueType(st, depScope, yielded), local);
    L.commentFormula(rowCs, dep);
    // A bucket the reader's ratio has no counterpart in (-1) is never
    // read.
    CodeStream::Scope guard(rowCs,
                            set ? fmt("if ({0} >= 0)", bv) : std::string(""));
    if (set) {
      // Its own name: the enclosing loop's bucket has its `n`.
      depScope.ratio = "n_" + bv;
      rowCs.line("const int64_t {2} = c.set[{0}][{1}];  (void){2};",
                 st.setId(set), bv, depScope.ratio);
    }
    SmallVector<std::string> results;
    if (failed(emitFormula(rowCs, st, dep.getBody(), depScope, results)))
      return failure();
    rowCs.line("{0} = {1};", local, results[0]);
    rv.locals[key] = local;
  }
  return success();
}

namespace {
/// What a GPU column loop's steps know (emitDeviceSteps).
struct DeviceSteps {
  FieldOp field;
  const FormulaScope &scope; ///< the row's point
  const FormulaScope &step;  ///< a step's point: failures deferred
  std::optional<ColumnSplit> split;
  llvm::SmallPtrSet<Operation *, 2> exact;
  SmallVector<std::string> outOfRange; ///< flags of reads checked per row
  std::string inRange;                 ///< the split's divisions in range
  std::string elem;                    ///< the output's element type
};
} // namespace

/// A step's kVec values into `v`, where `known` decides the split's
/// compares.
static LogicalResult emitStepValues(CodeStream &cs, EmitterState &st,
                                    const DeviceSteps &d, bool clamp,
                                    std::optional<bool> known,
                                    const StepQuotients &quotients) {
  FormulaScope at = d.step;
  if (known)
    for (Value cond : d.split->conditions)
      at.known[cond] = *known;
  if (known == std::optional<bool>(true))
    at.exactDivisions.insert(d.exact.begin(), d.exact.end());
  at.stepQuotients = quotients;
  cs.line("#pragma unroll");
  CodeStream::Scope unroll(cs, "for (int u = 0; u < kVec; ++u)");
  // Past the row's end (its last step; `clamp`), the row's last
  // column again: computed by its own lane too, so no new failure;
  // not stored. No branch a value.
  cs.line(clamp ? "const I col = c0 + u < end ? c0 + u : end - 1;"
                : "const I col = c0 + u;");
  SmallVector<std::string> results;
  if (failed(emitFormula(cs, st, FieldOp(d.field).getBody(), at, results)))
    return failure();
  cs.line("v[u] = {0}({1});", d.elem, results[0]);
  return success();
}

/// A step's values on the three sides of the split (all below it, none,
/// straddling), else per value.
static LogicalResult emitSplitSteps(CodeStream &cs, EmitterState &st,
                                    const DeviceSteps &d,
                                    const std::string &bound) {
  if (!d.split)
    return emitStepValues(cs, st, d, /*clamp=*/true, std::nullopt,
                          StepQuotients());
  {
    CodeStream::Scope allBelow(cs, "if (c0 + kVec <= below)");
    if (failed(emitBelowSplit(cs, st, d.field, *d.split, d.exact, d.step,
                              [&](const auto &quotients) {
                                return emitStepValues(cs, st, d, false, true,
                                                      quotients);
                              })))
      return failure();
  }
  {
    CodeStream::Scope noneBelow(cs, fmt("else if (c0 >= {0})", bound));
    if (failed(
            emitStepValues(cs, st, d, /*clamp=*/true, false, StepQuotients())))
      return failure();
  }
  CodeStream::Scope straddles(cs, "else");
  return emitStepValues(cs, st, d, /*clamp=*/true, std::nullopt,
                        StepQuotients());
}

/// The GPU side of a tile: its steps, each kVec values stored at once.
static LogicalResult emitDeviceSteps(CodeStream &cs, EmitterState &st,
                                     const DeviceSteps &d) {
  cs.line("const bool vec = (reinterpret_cast<uintptr_t>(row_out + first) "
          "% 16 == 0) && sizeof({0}) == 4;",
          d.elem);
  cs.line("bool failed = {0};",
          d.outOfRange.empty() ? "false" : llvm::join(d.outOfRange, " || "));
  // The tile's columns below X end at `below`; where the row's divisions
  // below X were not found in range, none are taken as below (each
  // value's own test then decides).
  std::string bound;
  if (d.split) {
    FormulaScope at = d.scope;
    at.col = "I(0)";
    SmallVector<std::string> names;
    if (failed(emitSlice(cs, st, FieldOp(d.field).getBody(), {d.split->bound},
                         at, names)))
      return failure();
    bound = names[0];
    std::string below = fmt("{0} < end ? {0} : end", bound);
    if (!d.inRange.empty())
      below = fmt("{0} ? ({1}) : first", d.inRange, below);
    cs.line("const {0} below = {1};", valueType(st, d.scope, d.split->bound),
            below);
  }
  {
    CodeStream::Scope steps(
        cs, std::string(d.outOfRange.empty() ? "" : "if (!failed) ") +
                "for (I c0 = first + lane * kVec; c0 < end; c0 += "
                "lanes * kVec)");
    cs.line("{0} v[kVec] = {{};", d.elem);
    if (failed(emitSplitSteps(cs, st, d, bound)))
      return failure();
    cs.line("if (!kStore) continue;");
    // Streaming (evict-first) stores: an expansion's rows are written
    // once and outsize the L2; they should not evict what is reused.
    cs.line("if (vec && c0 + kVec <= end) __stcs(reinterpret_cast<int4 *>("
            "row_out + c0), *reinterpret_cast<const int4 *>(v));");
    cs.line("else for (int u = 0; u < kVec && c0 + u < end; ++u) "
            "row_out[c0 + u] = v[u];");
  }
  cs.line("if (failed) return false;");
  return success();
}

/// The CPU side of a tile (a whole row): a copy where the row is a slice
/// of a list (`mayCopy`: on the host), else each value.
static LogicalResult emitHostColumns(CodeStream &cs, EmitterState &st,
                                     FieldOp field, const FormulaScope &scope,
                                     const PlannedOutput *out,
                                     const std::string &elem, bool mayCopy) {
  if (LoadOp copied = columnCopy(field);
      mayCopy && copied && out && !out->isBool) {
    // The row is a slice of the list (bounds checked above): the C
    // library's copy, vectorized for the host it runs on.
    cs.line("if (kStore && end > first) std::memcpy(row_out + first, "
            "lb_{0} + first, size_t(end - first) * sizeof(int32_t));",
            copied.getInput());
    return success();
  }
  // An I-typed induction variable: in the fast instantiation int32_t
  // (cannot wrap: the loop vectorizes).
  CodeStream::Scope steps(cs, "for (I col = I(first); col < I(end); "
                              "++col)");
  SmallVector<std::string> results;
  if (failed(emitFormula(cs, st, field.getBody(), scope, results)))
    return failure();
  cs.line("if (kStore) row_out[col] = {0}({1});", elem, results[0]);
  return success();
}

LogicalResult FillEmitter::emitColumnField(CodeStream &cs, const PathPlan &plan,
                                           SpaceLoops &sp, FieldOp field) {
  L.commentFormula(cs, field);
  std::optional<CodeStream::Scope> bucketScope, guard;
  openBuckets(cs, sp, field, bucketScope, guard);
  FormulaScope scope = scopeOf(sp, field);
  cs.line("const int64_t cols = {0};", liveColumns(field, scope));
  const PlannedOutput *out = L.outputOf(plan, field);
  if (out)
    cs.line("const int64_t width = c.o_{0}_width;", out->name);
  // Loads indexed by the column itself, on every column: one bounds
  // check per row (or tile) instead of one per value.
  for (Operation &op : field.getBody().front())
    if (auto load = dyn_cast<LoadOp>(op))
      if (load.getIndex().getDefiningOp<ColIndexOp>())
        scope.rangeCheckedLoads.insert(load);
  emitTileShape(cs);
  // A warp that the walk gives no tile skips the rest: a narrow field
  // (a block table, a window) leaves most warps of a wide launch without
  // one, and starting it cost them a visible share of an expansion's
  // instructions (bench/HISTORY.md).
  CodeStream::Scope busy(cs, "if (j0 / lanes < rows * int64_t(tiles))");
  hoistColumnInvariants(cs, st, field, scope);
  // The values of the row that the field reads, each at the one bucket it
  // is read at (a scalar: no per-bucket array in local memory), its own
  // dependencies first: declared before the loop, computed when a tile
  // starts a row the previous one did not (a warp's tiles go row by row:
  // once per row it takes).
  std::string rowText;
  llvm::raw_string_ostream rowOs(rowText);
  CodeStream rowCs(rowOs, cs.level() + 2);
  RowValues rv;
  if (failed(emitRowValues(cs, rowCs, sp, field, "b", rv)))
    return failure();
  scope.rowsLocal = rv.lookup;
  FormulaScope step = scope;
  step.deferFailures = "failed";
  FailureOr<SmallVector<std::string>> outOfRange =
      checkMonotoneLoads(cs, rowCs, st, field, scope, step);
  if (failed(outOfRange))
    return failure();
  // A formula branching on `col < X`: the step's columns against X
  // once (ColumnSplit.h), and the divisions below X ranged once a row.
  DeviceSteps d{field, scope,       step, columnSplit(field),
                {},    *outOfRange, "",   ""};
  if (d.split) {
    FailureOr<std::string> inRange =
        rangeSplitDivisions(cs, rowCs, st, field, *d.split, scope, d.exact);
    if (failed(inRange))
      return failure();
    d.inRange = *inRange;
  }
  std::optional<CodeStream::Scope> loop;
  openTileLoop(cs, loop);
  if (!rowText.empty()) {
    CodeStream::Scope once(cs, "if (j != row_done)");
    cs.line("row_done = j;");
    cs.raw(rowText);
  }
  for (Operation *op : scope.rangeCheckedLoads) {
    auto load = cast<LoadOp>(op);
    cs.line("if (end > ll_{0}) return imeta_fail(c.err, kOutOfRange, {1}, "
            "{2}, i, r, first > ll_{0} ? first : ll_{0}, {3}, ll_{0});",
            load.getInput(), st.site(load), scope.ownerId,
            failRatioArgs(st, scope));
  }
  std::string target = out ? fmt("c.o_{0} + {1} * c.o_{0}_stride + r * width",
                                 out->name, field.getRatiosAttr() ? "b" : "0")
                           : "nullptr";
  d.elem = out ? elemType(out->isBool) : "int32_t";
  cs.line("{0} *const row_out = {1};  (void)row_out;", d.elem, target);
  cs.line("#ifdef __CUDA_ARCH__");
  {
    CodeStream::Scope warp(cs, "if (tiled)");
    if (failed(emitDeviceSteps(cs, st, d)))
      return failure();
  }
  {
    CodeStream::Scope serial(cs, "else");
    if (failed(emitHostColumns(cs, st, field, scope, out, d.elem, false)))
      return failure();
  }
  cs.line("#else");
  if (failed(emitHostColumns(cs, st, field, scope, out, d.elem, true)))
    return failure();
  cs.line("#endif");
  return success();
}

} // namespace imeta::emit
