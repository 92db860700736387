//===- EmitFill.cpp - contexts and fused fill functions ------------------===//
//
// The implementation header: per path, the context the fill functions read
// and one fused fill function per row space, shared by C++ and CUDA.
//
//===----------------------------------------------------------------------===//

#include "lib/Lowering/ColumnSplit.h"
#include "lib/Lowering/MonotoneLoads.h"
#include "lib/Lowering/SpecEmitter.h"

#include <functional>

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

/// Before a `cols` field's column loop: the reads its formula makes that
/// are the same at every column and row of the bucket, once (stores to the
/// row would otherwise force their reloads), and a divider for each 32-bit
/// division by one of them that is not a config value or a ratio (those
/// are the context's, made once per step by the stage). Records both in
/// `scope`.
static void hoistColumnInvariants(CodeStream &cs, EmitterState &st,
                                  FieldOp field, FormulaScope &scope) {
  field.walk([&](Operation *op) {
    if (isLoopInvariantRead(op) && !scope.hoisted.count(op->getResult(0)))
      scope.hoisted[op->getResult(0)] = emitHoisted(cs, st, op, scope);
  });
  unsigned nextDivider = 0;
  field.walk([&](Operation *op) {
    if (!isa<arith::DivSIOp, arith::RemSIOp>(op) ||
        op->getResult(0).getType().getIntOrFloatBitWidth() != 32)
      return;
    Value divisor = op->getOperand(1);
    // A config value's or ratio's divider is read from the context in
    // place. A scalar field's is copied out of the context once (read
    // through the ratio map, it would be reloaded at every use); made here
    // per warp, it cost an expansion 4% of copy bandwidth at 32 MiB
    // (bench/RESULTS.md).
    std::string fromContext = contextDivider(st, scope, divisor);
    if (!fromContext.empty() && !divisor.getDefiningOp<GetOp>())
      return;
    auto it = scope.hoisted.find(divisor);
    if (it == scope.hoisted.end() || scope.dividers.count(divisor))
      return;
    std::string name = formatv("dv{0}", nextDivider++).str();
    cs.line("const imeta_divider {0} = {1};", name,
            fromContext.empty()
                ? formatv("imeta_make_divider({0})", it->second).str()
                : fromContext);
    scope.dividers[divisor] = name;
  });
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
    std::string flag = formatv("oob{0}", flags.size()).str();
    cs.line("bool {0} = false;  (void){0};", flag);
    rowCs.line("#ifdef __CUDA_ARCH__");
    rowCs.line("// The read of {0}: its index is monotone in the column; "
               "the row's first and last column that read it bound it.",
               ml.load.getInput());
    Region &body = field.getBody();
    FormulaScope at = scope;
    at.col = "I(0)";
    SmallVector<std::string> bounds;
    if (failed(emitSlice(rowCs, st, body, ml.bounds, at, bounds)))
      return failure();
    std::string last = "I(cols)";
    for (const std::string &bound : bounds)
      last = formatv("({0} < {1} ? {0} : {1})", bound, last).str();
    std::string hi = "last_" + flag;
    rowCs.line("const I {0} = {1} - 1;", hi, last);
    rowCs.line("{0} = false;", flag);
    {
      CodeStream::Scope executed(rowCs, formatv("if ({0} >= 0)", hi).str());
      FormulaScope atHi = scope;
      atHi.col = hi;
      SmallVector<std::string> lo, up;
      if (failed(emitSlice(rowCs, st, body, {ml.load.getIndex()}, at, lo)) ||
          failed(emitSlice(rowCs, st, body, {ml.load.getIndex()}, atHi, up)))
        return failure();
      std::string list = ("ll_" + ml.load.getInput()).str();
      rowCs.line("if (!imeta_in_list({0}, {1}) || !imeta_in_list({2}, {1})) "
                 "{{ imeta_fail(c.err, kOutOfRange, {3}, {4}, {5}, {6}, "
                 "imeta_in_list({0}, {1}) ? {2} : {0}); {7} = true; }",
                 lo[0], list, up[0], st.site(ml.load), scope.ownerId,
                 scope.seq, scope.globalRow, flag);
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
  rowCs.line("// The divisions below the split: their dividends are monotone "
             "in the column; the row's first and last column below it bound "
             "them.");
  Region &body = field.getBody();
  FormulaScope at = scope;
  at.col = "I(0)";
  SmallVector<std::string> bound;
  if (failed(emitSlice(rowCs, st, body, {split.bound}, at, bound)))
    return failure();
  rowCs.line("const I last_below = ({0} < I(cols) ? {0} : I(cols)) - 1;",
             bound[0]);
  rowCs.line("{0} = false;", flag);
  {
    CodeStream::Scope some(rowCs, "if (last_below >= 0)");
    FormulaScope atLast = scope;
    atLast.col = "last_below";
    SmallVector<Value> dividends;
    for (Operation *op : divisions)
      dividends.push_back(op->getOperand(0));
    SmallVector<std::string> lo, hi;
    if (failed(emitSlice(rowCs, st, body, dividends, at, lo)) ||
        failed(emitSlice(rowCs, st, body, dividends, atLast, hi)))
      return failure();
    // (A quotient and a remainder of the same operands test once.)
    SmallVector<std::string> tests;
    for (auto [k, op] : llvm::enumerate(divisions)) {
      std::string dv = dividerOf(st, scope, op->getOperand(1));
      std::string test = formatv("uint32_t({0}) <= {2}.limit && uint32_t("
                                 "{1}) <= {2}.limit",
                                 lo[k], hi[k], dv)
                             .str();
      if (!llvm::is_contained(tests, test))
        tests.push_back(test);
      exact.insert(op);
    }
    rowCs.line("{0} = {1};", flag, llvm::join(tests, " && "));
  }
  rowCs.line("#endif");
  return flag;
}

/// The seq field holding a `cols` field's live column count, if it has one.
static FieldOp liveField(FieldOp field) {
  if (!field.getLive())
    return FieldOp();
  return lookupSpecSymbol<FieldOp>(field, field.getLiveAttr());
}

void SpecEmitter::emitImplPrologue(CodeStream &cs) {
  cs.line("// Generated by imeta-gen from spec @{0}. Do not edit.", base());
  cs.line("//");
  cs.line("// Shared by the host source and the CUDA source: per path, the "
          "context the");
  cs.line("// fill functions read, and one fused fill function per row "
          "space.");
  cs.line("#pragma once");
  cs.blank();
  cs.line("#include \"{0}.h\"", base());
  cs.blank();
  cs.line("#include <cstddef>");
  cs.line("#include <cstdint>");
  cs.line("#include <cstring>");
  cs.line("#include <memory>");
  cs.line("#include <string>");
  cs.line("#include <type_traits>");
  cs.line("#include <vector>");
  cs.blank();
  cs.line("#ifdef __CUDACC__");
  cs.line("#define IMETA_HD __host__ __device__");
  cs.line("#else");
  cs.line("#define IMETA_HD");
  cs.line("#endif");
  cs.line("/// A fill function: inlined where it is called (a kernel, the host's "
          "loop over");
  cs.line("/// sequences), so that the context's values stay in registers "
          "across its");
  cs.line("/// row loops (a call of its own reloaded them every row).");
  cs.line("#define IMETA_FILL IMETA_HD __attribute__((always_inline)) inline");
  cs.line("/// Threads that share a tile of a `cols` field: a warp on the "
          "GPU, one on the CPU.");
  cs.line("/// IMETA_TILE_SHIFT: log2 of the columns a warp's step takes "
          "(IMETA_LANES lanes");
  cs.line("/// of 4): tiles are 1, 2 or 4 steps, so a tile's columns are a "
          "power of two.");
  cs.line("#ifdef __CUDA_ARCH__");
  cs.line("#define IMETA_LANES 32");
  cs.line("#define IMETA_TILE_SHIFT 7");
  cs.line("#else");
  cs.line("#define IMETA_LANES 1");
  cs.line("#define IMETA_TILE_SHIFT 0");
  cs.line("#endif");
  cs.line("static_assert(IMETA_LANES == 1 || IMETA_LANES * 4 == 1 << "
          "IMETA_TILE_SHIFT, \"IMETA_TILE_SHIFT is log2(IMETA_LANES * "
          "4)\");");
  cs.blank();
  cs.line("namespace {0} {{", ns());
  cs.line("namespace detail {");
  cs.blank();
  cs.line("enum ErrorKind : int32_t { kNone = 0, kOverflow, kDivZero, "
          "kOutOfRange, kEmptySet };");
  cs.line("/// The first failure of a formula: what, where (site, field), "
          "at which point.");
  cs.line("struct ErrorRecord { int32_t kind; int32_t site; int32_t owner; "
          "int64_t seq; int64_t row; int64_t value; };");
  cs.blank();
  cs.raw(R"(IMETA_HD inline bool imeta_fits32(int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX;
}
/// Floor and ceiling division, in the operands' width (int32_t for i32
/// formulas, which divide in 32 bits, int64_t for i64 ones).
template <typename T> IMETA_HD inline T imeta_floordiv(T a, T b) {
  T q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <typename T> IMETA_HD inline T imeta_ceildiv(T a, T b) {
  T q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}
/// Whether k indexes a list of n elements. A 32-bit index compares in 32
/// bits (a negative one wraps past every list length, capped at 2^31).
template <typename T> IMETA_HD inline bool imeta_in_list(T k, int64_t n) {
  if (sizeof(T) == 4)
    return uint32_t(k) < uint32_t(n < (INT64_C(1) << 31) ? n : (INT64_C(1) << 31));
  return uint64_t(k) < uint64_t(n);
}
/// Element k of an input list at p, k checked (0 <= k < its length; a
/// 32-bit k widens for free). Inputs are read-only for a whole launch: the
/// device reads them through the read-only data cache.
template <typename T> IMETA_HD inline int32_t imeta_ldg(const int32_t *p, T k) {
  const int32_t *q = sizeof(T) == 4 ? p + uint32_t(k) : p + k;
#ifdef __CUDA_ARCH__
  return __ldg(q);
#else
  return *q;
#endif
}
/// Division by a divisor that is the same for a whole loop: a multiply
/// and a shift (Granlund and Montgomery) in place of a 32-bit division.
/// For 1 <= d <= INT32_MAX, l = ceil(log2 d) and m = ceil(2^(31+l) / d)
/// < 2^32 (as d > 2^(l-1)); then floor(a * m / 2^(31+l)) = floor(a / d) for
/// every 0 <= a < 2^31 (the error a * (m * d - 2^(31+l)) / (d * 2^(31+l))
/// is below 1 / d). `limit` is the largest dividend the multiply takes:
/// INT32_MAX, or 0 for a divisor outside that range (0 / d = 0 for every
/// d != 0). m comes from a double reciprocal, made exact by integer steps
/// (no 64-bit division: each thread of a kernel makes its own).
struct imeta_divider { uint32_t m; uint32_t shift; uint32_t limit; };
IMETA_HD inline imeta_divider imeta_make_divider(int64_t d) {
  if (d < 1 || d > INT32_MAX)
    return imeta_divider{0, 0, 0};
#ifdef __CUDA_ARCH__
  const uint32_t l = d == 1 ? 0 : 32 - __clz(uint32_t(d - 1));
#else
  const uint32_t l = d == 1 ? 0 : 32 - __builtin_clz(uint32_t(d - 1));
#endif
  const uint64_t p = uint64_t(1) << (31 + l), ud = uint64_t(d);
  uint64_t m = uint64_t(double(p) / double(d));
  while (m * ud < p)
    ++m;
  while ((m - 1) * ud >= p)
    --m;
  return imeta_divider{uint32_t(m), l, uint32_t(INT32_MAX)};
}
/// a / d for 0 <= a <= dv.limit: no test, no branch (2a fits 32 bits;
/// floor(2a * m / 2^32) >> l = floor(a * m / 2^(31+l))).
IMETA_HD inline int32_t imeta_udiv32(int32_t a, imeta_divider dv) {
#ifdef __CUDA_ARCH__
  return int32_t(__umulhi(uint32_t(a) << 1, dv.m) >> dv.shift);
#else
  return int32_t(uint32_t((uint64_t(uint32_t(a)) * dv.m) >> 31) >> dv.shift);
#endif
}
/// a / b (b != 0) where `dv` was made from b. On the device: the multiply
/// for a dividend it takes (one unsigned compare: a >= 0 and b >= 1), else
/// the division (a GPU has no integer divider: a division is some twenty
/// instructions); INT32_MIN / -1 wraps instead of trapping (a remainder's
/// quotient). On the host: the division (a CPU's divider is pipelined; the
/// multiply, its loads and tests measured slower, see bench/RESULTS.md),
/// never called with INT32_MIN / -1 (a quotient's check rules it out; a
/// remainder does not divide there, IMETA_REM32).
IMETA_HD inline int32_t imeta_div32(int32_t a, int32_t b, imeta_divider dv) {
#ifdef __CUDA_ARCH__
  if (uint32_t(a) <= dv.limit)
    return imeta_udiv32(a, dv);
  return b == -1 ? int32_t(0u - uint32_t(a)) : a / b;
#else
  (void)dv;
  return a / b;
#endif
}
/// a % b from q = imeta_div32(a, b, dv), in wrapping arithmetic
/// (INT32_MIN % -1 = 0). The caller passes the quotient's call so that a
/// division of the same operands shares it (one multiply, one branch).
IMETA_HD inline int32_t imeta_rem32(int32_t a, int32_t b, int32_t q) {
  return int32_t(uint32_t(a) - uint32_t(q) * uint32_t(b));
}
/// q = a / b and r = a % b for 0 <= a < 2^20 and b >= 1: a tile walk's
/// start and stride, at most a launch's warps per sequence (a kernel's
/// blocks per sequence <= 64 times threads <= 256, over 32 lanes: 512).
/// On the device through a float reciprocal: the product is within 1/4
/// of a / b, so its truncation is off by at most one, corrected once
/// either way (a division is some twenty instructions, and a warp's walk
/// took two per column field; a fallback division for larger a cost the
/// expansion kernel 16 registers). A wide row's walk (a < b) and a
/// one-tile row's (b = 1) need none: the same for a warp's lanes, so a
/// branch without divergence. The host divides.
template <typename I>
IMETA_HD inline void imeta_divmod_small(I a, I b, I &q, I &r) {
#ifdef __CUDA_ARCH__
  if (a < b) {
    q = 0, r = a;
    return;
  }
  if (b == 1) {
    q = a, r = 0;
    return;
  }
  q = I(__float2int_rz(__fmul_rz(float(a), __frcp_rz(float(b)))));
  r = a - q * b;
  if (r < 0) --q, r += b;
  else if (r >= b) ++q, r -= b;
#else
  q = a / b;
  r = a - q * b;
#endif
}
/// The remainder a formula emits: on the device from the quotient q (not
/// evaluated on the host), on the host the division's own remainder (the
/// compiler merges it with a quotient of the same operands).
#ifdef __CUDA_ARCH__
#define IMETA_REM32(a, b, q) imeta_rem32(a, b, q)
#else
#define IMETA_REM32(a, b, q) ((b) == -1 ? 0 : (a) % (b))
#endif
/// Records the first failure and returns false (to be returned by the
/// caller). On the device, the first thread to fail wins.
IMETA_HD inline bool imeta_fail(ErrorRecord *e, int32_t kind, int32_t site,
                                int32_t owner, int64_t seq, int64_t row,
                                int64_t value) {
#ifdef __CUDA_ARCH__
  if (atomicCAS(reinterpret_cast<int *>(&e->kind), 0, kind) != 0)
    return false;
#else
  if (e->kind != kNone)
    return false;
  e->kind = kind;
#endif
  e->site = site;
  e->owner = owner;
  e->seq = seq;
  e->row = row;
  e->value = value;
  return false;
}

)");
  cs.line("/// Ratio sets by id: {0}.", llvm::join(llvm::map_range(
                                             st.ratioSets,
                                             [](Attribute a) {
                                               return cast<FlatSymbolRefAttr>(a)
                                                   .getValue()
                                                   .str();
                                             }),
                                             ", "));
  cs.line("constexpr int kNumSets = {0};", std::max<size_t>(1, st.ratioSets.size()));
  cs.line("/// The one-line message of a recorded failure (host source).");
  cs.line("std::string describe_error(const ErrorRecord &e);");
  cs.blank();
}

/// Members every context has: config, ratio sets, inputs.
void SpecEmitter::emitCommonMembers(CodeStream &cs) {
  cs.line("int64_t num_seqs;");
  cs.line("ErrorRecord *err;");
  for (auto cfg : specBody().getOps<ConfigOp>())
    if (!isa<ListType>(cfg.getType()))
      cs.line("int64_t cfg_{0};", cfg.getSymName());
  cs.line("int32_t set[kNumSets][kMaxRatios];");
  cs.line("int32_t num_set[kNumSets];");
  cs.line("/// map[y][x][b]: index in set x of ratio b of set y, or -1.");
  cs.line("int32_t map[kNumSets][kNumSets][kMaxRatios];");
  cs.line("/// Dividers of the ratios and the config values, made once per "
          "step by a GPU");
  cs.line("/// path's stage: kernels divide by them with a multiply "
          "(imeta_div32; the");
  cs.line("/// host divides, and a CPU path leaves them unset).");
  cs.line("imeta_divider dv_set[kNumSets][kMaxRatios];");
  for (auto cfg : specBody().getOps<ConfigOp>())
    if (!isa<ListType>(cfg.getType()))
      cs.line("imeta_divider dv_cfg_{0};", cfg.getSymName());
  for (auto in : specBody().getOps<InputOp>()) {
    if (isa<ListType>(in.getType())) {
      cs.line("const int32_t *in_{0};", in.getSymName());
      cs.line("const int64_t *in_{0}_off;", in.getSymName());
    } else {
      cs.line("const {0} *in_{1};",
              in.getType().isInteger(1) ? "bool" : "int32_t",
              in.getSymName());
    }
  }
}

LogicalResult SpecEmitter::emitFills(CodeStream &cs, PathPlan &plan) {
  {
    cs.line("/// Everything the fill functions of path `{0}` read.",
            plan.path.getSymName());
    CodeStream::Scope s(cs, "struct " + ctxName(plan), ";");
    emitCommonMembers(cs);
    cs.line("// Host-stage values: per bucket, per sequence (or one).");
    for (Operation *op : plan.needed) {
      if (!isHostValue(op))
        continue;
      if (inContext(op)) {
        cs.line("int64_t h_{0}[{1}];", symName(op),
                getRatios(op) ? "kMaxRatios" : "1");
        if (isScalarDivisor(cast<FieldOp>(op)))
          cs.line("imeta_divider dv_h_{0}[{1}];  // made like dv_set",
                  symName(op), getRatios(op) ? "kMaxRatios" : "1");
      } else
        cs.line("const int64_t *h_{0};", symName(op));
    }
    for (RowSpace &space : plan.rowSpaces)
      cs.line("const int64_t *rowstart_{0};  // [buckets][N + 1]",
              space.count.getSymName());
    cs.line("/// The batch's range proof held (else prepare ran the checked "
            "dry run).");
    cs.line("bool proven;");
    cs.line("// Output buffers.");
    for (PlannedOutput &out : plan.outputs) {
      cs.line("{0} *o_{1};", elemType(out.isBool), out.name);
      cs.line("int64_t o_{0}_stride;  // elements between buckets",
              out.name);
      cs.line("int64_t o_{0}_width;", out.name);
    }
  }
  cs.blank();
  {
    cs.line("/// Host-side state of path `{0}`: the context and the arrays "
            "it points to.",
            plan.path.getSymName());
    CodeStream::Scope s(cs, formatv("struct {0}_host", plan.path.getSymName())
                                .str(),
                        ";");
    cs.line("{0} c{{};", ctxName(plan));
    cs.line("ErrorRecord err{};");
    for (Operation *op : plan.needed)
      if (isHostValue(op))
        cs.line("std::vector<int64_t> h_{0};", symName(op));
    for (RowSpace &space : plan.rowSpaces)
      cs.line("std::vector<int64_t> rowstart_{0};", space.count.getSymName());
    for (auto in : specBody().getOps<InputOp>())
      if (isa<ListType>(in.getType()) && in.getMin())
        cs.line("int64_t lo_{0} = 0, hi_{0} = 0;  // the range of its "
                "elements",
                in.getSymName());
    for (auto in : specBody().getOps<InputOp>()) {
      if (!in.getOptional())
        continue;
      if (isa<ListType>(in.getType()))
        cs.line("std::vector<int64_t> zero_{0};", in.getSymName());
      else
        cs.line("std::unique_ptr<{0}[]> zero_{1};",
                in.getType().isInteger(1) ? "bool" : "int32_t",
                in.getSymName());
    }
  }
  cs.line("/// Checks, host stage and shapes of `{0}` (defined in the host "
          "source).",
          plan.path.getSymName());
  cs.line("Status {0}_prepare(const Config &config, const Sequences &seqs, "
          "{1} &out, bool fill, {0}_host &H, FillMode mode = "
          "FillMode::kAuto);",
          plan.path.getSymName(), buffersName(plan));
  cs.blank();
  for (RowSpace &space : plan.rowSpaces)
    if (failed(emitSpaceFill(cs, plan, space)))
      return failure();
  return success();
}

/// One fused function per row space: every rows field of the space, at
/// rows j0, j0 + step, ... of sequence i. The CPU calls it with (0, 1),
/// a CUDA block with (threadIdx.x, blockDim.x).
LogicalResult SpecEmitter::emitSpaceFill(CodeStream &cs, PathPlan &plan, RowSpace &space) {
  cs.line("/// Rows of `{0}`: {1}.", space.count.getSymName(),
          llvm::join(llvm::map_range(space.fields,
                                     [](FieldOp f) {
                                       return f.getSymName().str();
                                     }),
                     ", "));
  cs.line("/// kChk: checked (every i32 result in 64 bits, checked) or fast "
          "(i32, the");
  cs.line("/// checks the batch's range proof covers left out). !kStore: a "
          "dry run.");
  cs.line("template <bool kChk, bool kStore = true>");
  {
    CodeStream::Scope fn(
        cs, formatv("IMETA_FILL bool {0}(const {1} &__restrict__ c, "
                    "int64_t i, int64_t j0, int64_t step)",
                    fillName(plan, space), ctxName(plan))
                .str());
    cs.line("using I = typename std::conditional<kChk, int64_t, "
            "int32_t>::type;");
    cs.line("static_assert(sizeof(I) >= 4);");
    // Per-sequence values, read before any store: stores through the
    // output pointers (bool ones alias everything) would force reloads.
    cs.line("// The sequence's inputs, list elements and host-stage values.");
    llvm::SetVector<StringRef> inputs, lists, seqFields;
    for (FieldOp field : space.fields) {
      field.walk([&](GetInputOp g) { inputs.insert(g.getInput()); });
      field.walk([&](LoadOp l) { lists.insert(l.getInput()); });
      field.walk([&](GetOp g) {
        auto f = lookupSpecSymbol<FieldOp>(g, g.getFieldAttr());
        if (f.getDomain() == Domain::seq && !f.getRatiosAttr())
          seqFields.insert(f.getSymName());
      });
      // A column loop's live count too: read here, it does not wait for
      // the row fields' stores.
      if (FieldOp live = liveField(field); live && !live.getRatiosAttr())
        seqFields.insert(live.getSymName());
    }
    for (StringRef in : inputs)
      cs.line("const int64_t si_{0} = int64_t(c.in_{0}[i]);", in);
    for (StringRef f : seqFields)
      cs.line("const int64_t hs_{0} = c.h_{0}[i];", f);
    for (StringRef list : lists) {
      cs.line("const int32_t *const lb_{0} = c.in_{0} + c.in_{0}_off[i];",
              list);
      cs.line("const int64_t ll_{0} = c.in_{0}_off[i + 1] - c.in_{0}_off[i];",
              list);
    }
    if (failed(emitSpaceLoops(cs, plan, space)))
      return failure();
    cs.line("return true;");
  }
  return success();
}

std::string SpecEmitter::columnCount(FieldOp field,
                                     const FormulaScope &scope) {
  auto width = lookupSpecSymbol<FieldOp>(field, field.getColsAttr());
  if (!width)
    return "c.cfg_" + field.getCols()->str();
  return formatv("c.h_{0}[{1}]", width.getSymName(),
                 bucketIndex(st, scope, width.getRatiosAttr()))
      .str();
}

/// The loops of a space's fill function: buckets of the count, rows.
LogicalResult SpecEmitter::emitSpaceLoops(CodeStream &cs, PathPlan &plan, RowSpace &space) {
  FlatSymbolRefAttr spaceSet = spaceRatios(space);
  std::string countName = space.count.getSymName().str();
  std::string buckets =
      spaceSet ? formatv("c.num_set[{0}]", st.setId(spaceSet)).str() : "1";
  CodeStream::Scope bloop(
      cs, formatv("for (int32_t bc = 0; bc < {0}; ++bc)", buckets).str());
  cs.line("const int64_t rows = c.h_{0}[bc * c.num_seqs + i];", countName);
  cs.line("const int64_t start = c.rowstart_{0}[bc * (c.num_seqs + 1) + i];",
          countName);
  // Values of the fields of this space at this row that later fields
  // read.
  llvm::DenseMap<Operation *, std::string> locals;
  llvm::DenseSet<Operation *> read;
  for (FieldOp field : space.fields)
    field.walk([&](GetOp get) {
      read.insert(lookupSpecSymbol<FieldOp>(get, get.getFieldAttr()));
    });
  // Every `cols` field gets its own loop over (row, column) pairs, so that
  // consecutive threads write consecutive columns; the rows fields it
  // reads are recomputed there (a few integer ops per value, against a
  // row-long serial loop per thread). The other fields are filled row by
  // row.
  SmallVector<FieldOp> perRow, perColumn;
  for (FieldOp field : space.fields)
    (field.getCols() ? perColumn : perRow).push_back(field);
  auto rowsLocal = [&](FieldOp f, const std::string &idx) -> std::string {
    const std::string &name = locals[f];
    if (!f.getRatiosAttr() || spaceSet)
      return name;
    return name + "[" + idx + "]";
  };
  // Opens the field's bucket loop (or the guard that the space's bucket is
  // one of the field's) and binds `b` and `n`.
  auto openBuckets = [&](FieldOp field,
                         std::optional<CodeStream::Scope> &bucketScope,
                         std::optional<CodeStream::Scope> &guard) {
    const char *b = "b";
    FlatSymbolRefAttr set = field.getRatiosAttr();
    if (set && !spaceSet) {
      bucketScope.emplace(cs, formatv("for (int32_t {0} = 0; {0} < "
                                      "c.num_set[{1}]; ++{0})",
                                      b, st.setId(set))
                                  .str());
    } else if (set) {
      bucketScope.emplace(cs, "");
      if (set == spaceSet)
        cs.line("const int32_t {0} = bc;", b);
      else
        cs.line("const int32_t {0} = c.map[{1}][{2}][bc];", b,
                st.setId(spaceSet), st.setId(set));
      cs.line("// Only where the ratio is in @{0}.", set.getValue());
      guard.emplace(cs, formatv("if ({0} >= 0)", b).str());
    } else {
      bucketScope.emplace(cs, "");
    }
    if (set)
      cs.line("const int64_t n = c.set[{0}][{1}];  (void)n;", st.setId(set),
              b);
  };
  auto scopeOf = [&](FieldOp field, StringRef b = "b") {
    FormulaScope scope;
    scope.ownerId = st.owner(field.getSymName());
    scope.seq = "i";
    scope.row = "j";
    scope.globalRow = "r";
    scope.col = "col";
    scope.ratios = field.getRatiosAttr();
    scope.bucket = b.str();
    scope.rowsLocal = rowsLocal;
    scope.fast = true;
    return scope;
  };
  auto liveColumns = [&](FieldOp field, const FormulaScope &scope) {
    FieldOp live = liveField(field);
    if (!live)
      return columnCount(field, scope);
    if (!live.getRatiosAttr())
      return "hs_" + live.getSymName().str();
    return formatv("c.h_{0}[{1} * c.num_seqs + i]", *field.getLive(),
                   bucketIndex(st, scope, live.getRatiosAttr()))
        .str();
  };

  // One rows field at the current row: its local (if read), its stores
  // (if an output). An unbucketed field's stores wait in `deferred` for
  // the end of the row: a store stalls the thread until its value is
  // there, and a load after it (of a later field) would queue behind it.
  std::vector<std::string> deferred;
  auto emitRowField = [&](FieldOp field) -> LogicalResult {
    FlatSymbolRefAttr set = field.getRatiosAttr();
    std::string local = "v_" + field.getSymName().str();
    bool perBucketArray = set && !spaceSet;
    bool keep = read.contains(field);
    FormulaScope scope = scopeOf(field);
    const PlannedOutput *out = outputOf(plan, field);
    bool defer = out && !set;
    auto yields = field.getBody().front().getTerminator()->getOperands();
    if (defer)
      for (auto [k, v] : llvm::enumerate(yields)) {
        cs.line("{0} s_{1}_{2} = {{};", valueType(st, scope, v), out->name, k);
        deferred.push_back(
            formatv("if (kStore) c.o_{0}[0 * c.o_{0}_stride + r * {1} + {2}] "
                    "= {3}(s_{0}_{2});",
                    out->name, yields.size(), k, elemType(out->isBool))
                .str());
      }
    if (keep)
      // Arrays are not zeroed (kMaxRatios stores per row): a bucket is
      // read only after its own iteration wrote it.
      cs.line("{0} {1}{2};", valueType(st, scope, yields[0]), local,
              perBucketArray ? "[kMaxRatios]" : " = {}");
    locals[field] = local;
    commentFormula(cs, field);
    std::optional<CodeStream::Scope> bucketScope, guard;
    openBuckets(field, bucketScope, guard);
    SmallVector<std::string> results;
    if (failed(emitFormula(cs, st, field.getBody(), scope, results)))
      return failure();
    if (keep)
      cs.line("{0}{1} = {2};", local,
              perBucketArray ? "[b]" : "", results[0]);
    if (out)
      for (auto [k, v] : llvm::enumerate(results)) {
        if (defer)
          cs.line("s_{0}_{1} = {2};", out->name, k, v);
        else
          cs.line("if (kStore) c.o_{0}[{1} * c.o_{0}_stride + r * {2} + "
                  "{3}] = {4}({5});",
                  out->name, set ? "b" : "0", results.size(), k,
                  elemType(out->isBool), v);
      }
    return success();
  };

  {
    CodeStream::Scope jloop(cs, "for (int64_t j = j0; j < rows; j += step)");
    cs.line("const int64_t r = start + j;  (void)r;");
    for (FieldOp field : perRow)
      if (failed(emitRowField(field)))
        return failure();
    if (!deferred.empty())
      cs.line("// The row's unbucketed outputs.");
    for (const std::string &store : deferred)
      cs.line("{0}", store);
  }
  for (FieldOp field : perColumn) {
    commentFormula(cs, field);
    std::optional<CodeStream::Scope> bucketScope, guard;
    openBuckets(field, bucketScope, guard);
    FormulaScope scope = scopeOf(field);
    cs.line("const int64_t cols = {0};", liveColumns(field, scope));
    const PlannedOutput *out = outputOf(plan, field);
    if (out)
      cs.line("const int64_t width = c.o_{0}_width;", out->name);
    // Loads indexed by the column itself, on every column: one bounds
    // check per row (or tile) instead of one per value.
    for (Operation &op : field.getBody().front())
      if (auto load = dyn_cast<LoadOp>(op))
        if (load.getIndex().getDefiningOp<ColIndexOp>())
          scope.rangeCheckedLoads.insert(load);
    // On the GPU a warp takes a tile of consecutive columns of one row,
    // each lane kVec consecutive columns per step (one 16-byte store where
    // the row allows): up to 4 steps of kLanes * kVec columns, fewer when
    // the sequence's values would leave warps idle (a narrow row). The CPU
    // takes whole rows. The row's values are computed once per row (below). Tile
    // arithmetic is in I: 32 bits in the fast instantiation.
    cs.line("constexpr int kLanes = IMETA_LANES, kVec = kLanes > 1 ? 4 "
            ": 1;");
    // A warp's share of the values, in steps, compared rather than
    // divided; tiles by a shift (a warp's once-only divisions were 44% of
    // the instructions of an expansion at N = 64, bench/RESULTS.md).
    cs.line("const int64_t work = rows * cols, warp_step = (step + kLanes - "
            "1) / kLanes * kLanes * kVec;");
    cs.line("const int tile_shift = kLanes > 1 ? IMETA_TILE_SHIFT + (work >= "
            "3 * warp_step ? 2 : work >= 2 * warp_step ? 1 : 0) : 0;");
    cs.line("const I tile_cols = kLanes > 1 ? I(1) << tile_shift : I(cols);");
    cs.line("const I tiles = cols <= 0 ? 0 : kLanes > 1 ? (I(cols) + "
            "tile_cols - 1) >> tile_shift : 1;");
    cs.line("const I lane = I(j0 % kLanes);  (void)lane;");
    // A warp that the walk gives no tile skips the rest: a narrow field
    // (a block table, a window) leaves most warps of a wide launch without
    // one, and its start cost them 15% of an expansion's instructions at
    // 32 MiB (bench/RESULTS.md).
    CodeStream::Scope busy(cs, "if (j0 / kLanes < rows * int64_t(tiles))");
    hoistColumnInvariants(cs, st, field, scope);
    // The values of the row that the field reads, each at the one bucket it
    // is read at (a scalar: no per-bucket array in local memory), its own
    // dependencies first: declared before the loop, computed when a tile
    // starts a row the previous one did not (a warp's tiles go row by row:
    // once per row it takes).
    std::string rowText;
    llvm::raw_string_ostream rowOs(rowText);
    CodeStream rowCs(rowOs, cs.level() + 2);
    llvm::StringMap<std::string> depLocal;  // "field@bucket" -> local
    auto columnLocal = [&](FieldOp f, const std::string &idx) {
      return depLocal.lookup((f.getSymName() + "@" + idx).str());
    };
    unsigned nextBucketVar = 0;
    std::function<LogicalResult(FieldOp, const std::string &)> demand =
        [&](FieldOp reader, const std::string &bucket) -> LogicalResult {
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
        if (depLocal.count(key))
          continue;
        std::string bv = formatv("bd{0}", nextBucketVar++).str();
        FlatSymbolRefAttr set = dep.getRatiosAttr();
        if (set)
          cs.line("const int32_t {0} = {1};", bv, idx);
        if (failed(demand(dep, bv)))
          return failure();
        std::string local = formatv("v_{0}_{1}", dep.getSymName(), bv).str();
        FormulaScope depScope = scopeOf(dep, bv);
        depScope.rowsLocal = columnLocal;
        Value yielded = dep.getBody().front().getTerminator()->getOperand(0);
        cs.line("{0} {1} = {{};", valueType(st, depScope, yielded), local);
        commentFormula(rowCs, dep);
        // A bucket the reader's ratio has no counterpart in (-1) is never
        // read.
        CodeStream::Scope guard(rowCs, set ? formatv("if ({0} >= 0)", bv).str()
                                           : std::string(""));
        if (set)
          rowCs.line("const int64_t n = c.set[{0}][{1}];  (void)n;",
                     st.setId(set), bv);
        SmallVector<std::string> results;
        if (failed(emitFormula(rowCs, st, dep.getBody(), depScope, results)))
          return failure();
        rowCs.line("{0} = {1};", local, results[0]);
        depLocal[key] = local;
      }
      return success();
    };
    if (failed(demand(field, "b")))
      return failure();
    scope.rowsLocal = columnLocal;
    FormulaScope step = scope;
    step.deferFailures = "failed";
    FailureOr<SmallVector<std::string>> outOfRange =
        checkMonotoneLoads(cs, rowCs, st, field, scope, step);
    if (failed(outOfRange))
      return failure();
    // A formula branching on `col < X`: the step's columns against X
    // once (ColumnSplit.h), and the divisions below X ranged once a row.
    std::optional<ColumnSplit> split = columnSplit(field);
    llvm::SmallPtrSet<Operation *, 2> exact;
    FailureOr<std::string> inRange = std::string();
    if (split)
      inRange = rangeSplitDivisions(cs, rowCs, st, field, *split, scope, exact);
    if (failed(inRange))
      return failure();
    // The warp's k-th tile is tile e = e0 + k * stride of the row-major
    // (row, tile) space: tile t of row j. Both advance by (dj, dt) with at
    // most one carry (dt < tiles), so no division in the loop.
    cs.line("const I e0 = I(j0 / kLanes), stride = I(step / kLanes);");
    cs.line("I dj = 0, dt = 0, j = I(rows), t = 0;");
    cs.line("if (tiles > 0) imeta_divmod_small(stride, tiles, dj, dt), "
            "imeta_divmod_small(e0, tiles, j, t);");
    cs.line("I row_done = -1;  (void)row_done;");
    CodeStream::Scope loop(
        cs, "for (; j < I(rows); t += dt, j += dj + (t >= tiles), t -= t >= "
            "tiles ? tiles : 0)");
    cs.line("const I first = t * tile_cols;");
    cs.line("const I end = first + tile_cols < I(cols) ? first + tile_cols : "
            "I(cols);");
    cs.line("const int64_t r = start + j;  (void)r;");
    if (!rowText.empty()) {
      CodeStream::Scope once(cs, "if (j != row_done)");
      cs.line("row_done = j;");
      cs.raw(rowText);
    }
    for (Operation *op : scope.rangeCheckedLoads) {
      auto load = cast<LoadOp>(op);
      cs.line("if (end > ll_{0}) return imeta_fail(c.err, kOutOfRange, {1}, "
              "{2}, i, r, first > ll_{0} ? first : ll_{0});",
              load.getInput(), st.site(load), scope.ownerId);
    }
    std::string target =
        out ? formatv("c.o_{0} + {1} * c.o_{0}_stride + r * width", out->name,
                      field.getRatiosAttr() ? "b" : "0")
                  .str()
            : "nullptr";
    std::string elem = out ? elemType(out->isBool) : "int32_t";
    cs.line("{0} *const row_out = {1};  (void)row_out;", elem, target);
    cs.line("#ifdef __CUDA_ARCH__");
    {
      cs.line("const bool vec = (reinterpret_cast<uintptr_t>(row_out + first) "
              "% 16 == 0) && sizeof({0}) == 4;",
              elem);
      cs.line("bool failed = {0};",
              outOfRange->empty() ? "false" : llvm::join(*outOfRange, " || "));
      // The tile's columns below X end at `below`; where the row's
      // divisions below X were not found in range, none are taken as below
      // (each value's own test then decides).
      std::string bound;
      if (split) {
        FormulaScope at = scope;
        at.col = "I(0)";
        SmallVector<std::string> names;
        if (failed(emitSlice(cs, st, field.getBody(), {split->bound}, at,
                             names)))
          return failure();
        bound = names[0];
        std::string below = formatv("{0} < end ? {0} : end", bound).str();
        if (!inRange->empty())
          below = formatv("{0} ? ({1}) : first", *inRange, below).str();
        cs.line("const {0} below = {1};", valueType(st, scope, split->bound),
                below);
      }
      // The step's kVec values, where `known` decides the split's compares.
      auto values = [&](bool clamp,
                        std::optional<bool> known) -> LogicalResult {
        FormulaScope at = step;
        if (known)
          for (Value cond : split->conditions)
            at.known[cond] = *known;
        if (known == std::optional<bool>(true))
          at.exactDivisions.insert(exact.begin(), exact.end());
        cs.line("#pragma unroll");
        CodeStream::Scope unroll(cs, "for (int u = 0; u < kVec; ++u)");
        // Past the row's end (its last step; `clamp`), the row's last
        // column again: computed by its own lane too, so no new failure;
        // not stored. No branch a value.
        cs.line(clamp ? "const I col = c0 + u < end ? c0 + u : end - 1;"
                      : "const I col = c0 + u;");
        SmallVector<std::string> results;
        if (failed(emitFormula(cs, st, field.getBody(), at, results)))
          return failure();
        cs.line("v[u] = {0}({1});", elem, results[0]);
        return success();
      };
      {
        CodeStream::Scope steps(
            cs, std::string(outOfRange->empty() ? "" : "if (!failed) ") +
                    "for (I c0 = first + lane * kVec; c0 < end; c0 += "
                    "kLanes * kVec)");
        cs.line("{0} v[kVec] = {{};", elem);
        if (split) {
          {
            CodeStream::Scope allBelow(cs, "if (c0 + kVec <= below)");
            if (failed(values(/*clamp=*/false, true)))
              return failure();
          }
          {
            CodeStream::Scope noneBelow(
                cs, formatv("else if (c0 >= {0})", bound).str());
            if (failed(values(/*clamp=*/true, false)))
              return failure();
          }
          CodeStream::Scope straddles(cs, "else");
          if (failed(values(/*clamp=*/true, std::nullopt)))
            return failure();
        } else if (failed(values(/*clamp=*/true, std::nullopt))) {
          return failure();
        }
        cs.line("if (!kStore) continue;");
        // Streaming (evict-first) stores: an expansion's rows are written
        // once and outsize the L2; they should not evict what is reused.
        cs.line("if (vec && c0 + kVec <= end) __stcs(reinterpret_cast<int4 *>("
                "row_out + c0), *reinterpret_cast<const int4 *>(v));");
        cs.line("else for (int u = 0; u < kVec && c0 + u < end; ++u) "
                "row_out[c0 + u] = v[u];");
      }
      cs.line("if (failed) return false;");
    }
    cs.line("#else");
    if (LoadOp copied = columnCopy(field); copied && out && !out->isBool) {
      // The row is a slice of the list (bounds checked above): the C
      // library's copy, vectorized for the host it runs on.
      cs.line("if (kStore && end > first) std::memcpy(row_out + first, "
              "lb_{0} + first, size_t(end - first) * sizeof(int32_t));",
              copied.getInput());
    } else {
      // An I-typed induction variable: in the fast instantiation int32_t
      // (cannot wrap: the loop vectorizes).
      CodeStream::Scope steps(cs, "for (I col = I(first); col < I(end); "
                                  "++col)");
      SmallVector<std::string> results;
      if (failed(emitFormula(cs, st, field.getBody(), scope, results)))
        return failure();
      cs.line("if (kStore) row_out[col] = {0}({1});", elem, results[0]);
    }
    cs.line("#endif");
  }
  return success();
}

} // namespace imeta::emit
