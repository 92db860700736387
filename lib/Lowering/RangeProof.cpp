//===- RangeProof.cpp - the per-batch int32 proof of fill formulas --------===//

#include "lib/Lowering/RangeProof.h"
#include "dialect/IMetaSymbols.h"


using namespace mlir;
using namespace imeta;
using llvm::formatv;

/// A load from a list whose elements have no declared bound: the host
/// does not scan it, so the proof knows nothing of its values.
static bool isUnboundedLoad(Operation *op) {
  auto load = dyn_cast<LoadOp>(op);
  if (!load)
    return false;
  auto input = lookupSpecSymbol<InputOp>(load, load.getInputAttr());
  return !input || !input.getMin();
}

void imeta::analyzeListDependence(SpecOp spec, EmitterState &st) {
  auto &values = st.listDependent;
  auto &fields = st.listDependentFields;
  auto mark = [&](Value v) { return values.insert(v).second; };
  // Rows fields may read each other in any spec order: iterate to a fixed
  // point (each round only adds).
  for (bool changed = true; changed;) {
    changed = false;
    for (auto field : spec.getBody().front().getOps<FieldOp>()) {
      if (field.getDomain() != Domain::rows)
        continue;
      // Post-order: an scf.if is visited after the ops of its regions.
      field.getBody().walk([&](Operation *op) {
        bool dep = isUnboundedLoad(op) ||
                   llvm::any_of(op->getOperands(), [&](Value v) {
                     return values.contains(v);
                   });
        if (auto get = dyn_cast<GetOp>(op))
          dep |= fields.contains(
              lookupSpecSymbol<FieldOp>(get, get.getFieldAttr()));
        for (auto [k, result] : llvm::enumerate(op->getResults())) {
          bool resultDep = dep;
          if (auto ifOp = dyn_cast<scf::IfOp>(op))
            for (Region &region : ifOp->getRegions())
              if (!region.empty())
                resultDep |= values.contains(
                    region.front().getTerminator()->getOperand(k));
          if (resultDep)
            changed |= mark(result);
        }
      });
      Operation *yield = field.getBody().front().getTerminator();
      if (llvm::any_of(yield->getOperands(),
                       [&](Value v) { return values.contains(v); }))
        changed |= fields.insert(field).second;
    }
  }
}

namespace {
/// Prints the interval evaluation of one body: each op's
/// FormulaOpInterface::inferRange against this.
class RangePrinter final : public RangeRuleBuilder {
public:
  RangePrinter(CodeStream &cs, EmitterState &st, const RangeScope &scope)
      : cs(cs), st(st), deps(st.listDependent), s(scope) {}

  LogicalResult runBlock(Block &block,
                         SmallVectorImpl<std::string> &yielded) override {
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        for (Value v : op.getOperands())
          yielded.push_back(names.lookup(v));
        return success();
      }
      if (op.getNumResults() > 0 &&
          llvm::all_of(op.getResults(),
                       [&](Value v) { return deps.contains(v); }) &&
          !isa<scf::IfOp>(op))
        continue;  // checked at run time in both instantiations
      auto formula = dyn_cast<FormulaOpInterface>(&op);
      if (!formula)
        return op.emitOpError("has no range rule");
      if (failed(formula.inferRange(*this)))
        return failure();
    }
    return success();
  }

  std::string operand(Operation *op, unsigned i) override {
    return names.lookup(op->getOperand(i));
  }
  std::string defineValue(Value v, const std::string &expr) override {
    std::string name = formatv("t{0}", st.nextTemp++).str();
    cs.line("[[maybe_unused]] const Range {0} = {1};", name, expr);
    names[v] = name;
    return name;
  }
  /// Leaves scan the batch (O(sequences)): each distinct one is computed
  /// once per proof.
  LogicalResult leaf(Operation *op, const std::string &expr) override {
    auto [it, inserted] = st.rangeLeaves.try_emplace(expr, "");
    if (inserted)
      it->second = define(op, expr);
    else
      names[op->getResult(0)] = it->second;
    return success();
  }
  void require(const std::string &condition) override {
    cs.line("ok = ok && {0};", condition);
  }
  bool unproven(Value v) override { return deps.contains(v); }

  std::string seq() override { return s.seq; }
  std::string row() override { return s.row; }
  std::string globalRow() override { return s.globalRow; }
  std::string col() override { return s.col; }
  std::string ratio() override { return s.ratio; }
  std::string hostArray(Operation *def) override { return s.hostArray(def); }
  std::string rowsField(Operation *field) override {
    return s.rowsField(cast<FieldOp>(field));
  }
  unsigned setId(FlatSymbolRefAttr set) override { return st.setId(set); }

private:
  CodeStream &cs;
  EmitterState &st;
  const llvm::DenseSet<Value> &deps;
  const RangeScope &s;
  DenseMap<Value, std::string> names;
};
} // namespace

LogicalResult imeta::emitRangeFormula(CodeStream &cs, EmitterState &st,
                                      Region &body, const RangeScope &scope,
                                      std::string &result) {
  RangePrinter printer(cs, st, scope);
  SmallVector<std::string> yielded;
  if (failed(printer.runBlock(body.front(), yielded)))
    return failure();
  result = yielded.empty() ? "" : yielded[0];
  return success();
}

const char *const imeta::kRangeHelpers = R"(/// The per-batch int32 proof (see RangeProof.h in imeta): closed integer
/// ranges, saturating at +-2^62 so that no range operation overflows.
struct Range { int64_t lo, hi; };
constexpr int64_t kRangeCap = INT64_C(1) << 62;
inline int64_t r_sat(__int128 v) {
  return v < -kRangeCap ? -kRangeCap : v > kRangeCap ? kRangeCap : int64_t(v);
}
inline Range r_any() { return {-kRangeCap, kRangeCap}; }
inline Range r_exact(int64_t v) { return {r_sat(v), r_sat(v)}; }
inline Range r_corners(__int128 a, __int128 b, __int128 c, __int128 d) {
  return {r_sat(std::min(std::min(a, b), std::min(c, d))),
          r_sat(std::max(std::max(a, b), std::max(c, d)))};
}
inline Range r_join(Range a, Range b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }
inline Range r_add(Range a, Range b) { return {r_sat(__int128(a.lo) + b.lo), r_sat(__int128(a.hi) + b.hi)}; }
inline Range r_sub(Range a, Range b) { return {r_sat(__int128(a.lo) - b.hi), r_sat(__int128(a.hi) - b.lo)}; }
inline Range r_mul(Range a, Range b) {
  return r_corners(__int128(a.lo) * b.lo, __int128(a.lo) * b.hi,
                   __int128(a.hi) * b.lo, __int128(a.hi) * b.hi);
}
inline Range r_min(Range a, Range b) { return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)}; }
inline Range r_max(Range a, Range b) { return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)}; }
inline Range r_neg(Range a) { return {-a.hi, -a.lo}; }
inline Range r_zext32(Range a) { return a.lo >= 0 ? a : Range{0, INT64_C(0xffffffff)}; }
inline bool r_fits32(Range a) { return a.lo >= INT32_MIN && a.hi <= INT32_MAX; }
inline bool r_nonzero(Range a) { return a.lo > 0 || a.hi < 0; }
/// Quotients are monotone in each operand over a divisor range of one
/// sign: the corners bound them.
template <typename F> Range r_divide(Range a, Range b, F f) {
  if (!r_nonzero(b)) return r_any();
  return r_corners(f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi));
}
inline Range r_div(Range a, Range b) {
  return r_divide(a, b, [](int64_t x, int64_t y) { return __int128(x / y); });
}
inline Range r_floordiv(Range a, Range b) {
  return r_divide(a, b, [](int64_t x, int64_t y) { return __int128(imeta_floordiv(x, y)); });
}
inline Range r_ceildiv(Range a, Range b) {
  return r_divide(a, b, [](int64_t x, int64_t y) { return __int128(imeta_ceildiv(x, y)); });
}
/// |a % b| < max |b|, with the sign of a.
inline Range r_rem(Range a, Range b) {
  const int64_t m = std::max(std::abs(b.lo), std::abs(b.hi)) - 1;
  return {a.lo >= 0 ? 0 : std::max(a.lo, -m), a.hi <= 0 ? 0 : std::min(a.hi, m)};
}
/// The range of n values (n <= 0: an empty array, never read: {0, 0}).
template <typename T> Range r_span(const T *p, int64_t n) {
  if (n <= 0) return {0, 0};
  // Four independent minima and maxima: no chain of compares through
  // one pair (a step a value), and in T the compiler may vectorize.
  T lo[4] = {p[0], p[0], p[0], p[0]}, hi[4] = {p[0], p[0], p[0], p[0]};
  int64_t k = 0;
  for (; k + 4 <= n; k += 4)
    for (int u = 0; u < 4; ++u) { lo[u] = p[k + u] < lo[u] ? p[k + u] : lo[u]; hi[u] = p[k + u] > hi[u] ? p[k + u] : hi[u]; }
  for (; k < n; ++k) { lo[0] = p[k] < lo[0] ? p[k] : lo[0]; hi[0] = p[k] > hi[0] ? p[k] : hi[0]; }
  for (int u = 1; u < 4; ++u) { lo[0] = lo[u] < lo[0] ? lo[u] : lo[0]; hi[0] = hi[u] > hi[0] ? hi[u] : hi[0]; }
  return {int64_t(lo[0]), int64_t(hi[0])};
}
inline Range r_lengths(const int64_t *begin, const int64_t *end, int64_t n) {
  if (n <= 0) return {0, 0};
  int64_t lo = end[0] - begin[0], hi = lo;
  for (int64_t k = 1; k < n; ++k) { lo = std::min(lo, end[k] - begin[k]); hi = std::max(hi, end[k] - begin[k]); }
  return {lo, hi};
}
/// [0, n - 1], or {0, 0} when nothing is indexed.
inline Range r_index(int64_t n) { return {0, n > 0 ? n - 1 : 0}; }

)";
