//===- RangeProof.cpp - the per-batch int32 proof of fill formulas --------===//

#include "lib/Lowering/RangeProof.h"
#include "dialect/IMetaSymbols.h"

#include "llvm/ADT/TypeSwitch.h"

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
/// Prints the interval evaluation of one body; mirrors FormulaEmitter.
class RangePrinter {
public:
  RangePrinter(CodeStream &cs, EmitterState &st, const RangeScope &scope)
      : cs(cs), st(st), deps(st.listDependent), s(scope) {}

  LogicalResult block(Block &block, SmallVectorImpl<std::string> &yielded) {
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
      if (failed(emit(&op)))
        return failure();
    }
    return success();
  }

private:
  std::string in(Operation *op, unsigned i) {
    return names.lookup(op->getOperand(i));
  }
  unsigned width(Operation *op) {
    return op->getResult(0).getType().getIntOrFloatBitWidth();
  }
  std::string define(Operation *op, const std::string &expr) {
    std::string name = formatv("t{0}", st.nextTemp++).str();
    cs.line("[[maybe_unused]] const Range {0} = {1};", name, expr);
    names[op->getResult(0)] = name;
    return name;
  }
  /// The fast instantiation drops the check that an i32 (or i1) result
  /// fits: the proof must show it.
  void proveFits(Operation *op, const std::string &name) {
    unsigned w = width(op);
    if (w == 32)
      cs.line("ok = ok && r_fits32({0});", name);
    else if (w == 1)
      cs.line("ok = ok && {0}.lo >= 0 && {0}.hi <= 1;", name);
  }
  std::string typeRange(Operation *op) {
    unsigned w = width(op);
    return w == 1    ? "Range{0, 1}"
           : w == 32 ? "Range{INT32_MIN, INT32_MAX}"
                     : "r_any()";
  }

  LogicalResult emit(Operation *op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<arith::ConstantOp>([&](auto c) {
          APInt bits = cast<IntegerAttr>(c.getValue()).getValue();
          int64_t v = bits.getBitWidth() == 1 ? int64_t(bits.getBoolValue())
                                              : bits.getSExtValue();
          define(op, formatv("r_exact({0})", v == INT64_MIN
                                                 ? "INT64_MIN"
                                                 : formatv("INT64_C({0})", v)
                                                       .str()));
          return success();
        })
        .Case<arith::AddIOp>([&](auto) { return arith(op, "r_add"); })
        .Case<arith::SubIOp>([&](auto) { return arith(op, "r_sub"); })
        .Case<arith::MulIOp>([&](auto) { return arith(op, "r_mul"); })
        .Case<arith::DivSIOp>([&](auto) { return div(op, "r_div"); })
        .Case<arith::FloorDivSIOp>([&](auto) { return div(op, "r_floordiv"); })
        .Case<arith::CeilDivSIOp>([&](auto) { return div(op, "r_ceildiv"); })
        .Case<arith::RemSIOp>([&](auto) {
          // A remainder fits its operands' type; only the divisor matters.
          cs.line("ok = ok && r_nonzero({0});", in(op, 1));
          define(op, formatv("r_rem({0}, {1})", in(op, 0), in(op, 1)));
          return success();
        })
        .Case<arith::MinSIOp>([&](auto) {
          define(op, formatv("r_min({0}, {1})", in(op, 0), in(op, 1)));
          return success();
        })
        .Case<arith::MaxSIOp>([&](auto) {
          define(op, formatv("r_max({0}, {1})", in(op, 0), in(op, 1)));
          return success();
        })
        .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>([&](auto) {
          // Bitwise results stay in their type; booleans stay booleans.
          define(op, typeRange(op));
          return success();
        })
        .Case<arith::CmpIOp>([&](auto) {
          define(op, "Range{0, 1}");
          return success();
        })
        .Case<arith::SelectOp>([&](auto) {
          define(op, formatv("r_join({0}, {1})", in(op, 1), in(op, 2)));
          return success();
        })
        .Case<arith::ExtSIOp>([&](auto ext) {
          bool fromBool = ext.getIn().getType().isInteger(1);
          define(op, fromBool ? formatv("r_neg({0})", in(op, 0)).str()
                              : in(op, 0));
          return success();
        })
        .Case<arith::ExtUIOp>([&](auto ext) {
          unsigned w = ext.getIn().getType().getIntOrFloatBitWidth();
          define(op, w == 32 ? formatv("r_zext32({0})", in(op, 0)).str()
                             : in(op, 0));
          return success();
        })
        .Case<arith::TruncIOp>([&](auto) {
          proveFits(op, define(op, in(op, 0)));
          return success();
        })
        .Case<scf::IfOp>([&](auto ifOp) { return ifElse(ifOp); })
        .Default([&](Operation *other) { return leaf(other); });
  }

  LogicalResult arith(Operation *op, StringRef fn) {
    std::string name =
        define(op, formatv("{0}({1}, {2})", fn, in(op, 0), in(op, 1)));
    proveFits(op, name);
    return success();
  }

  LogicalResult div(Operation *op, StringRef fn) {
    cs.line("ok = ok && r_nonzero({0});", in(op, 1));
    // INT32_MIN / -1 leaves i32: the quotient's range shows it.
    proveFits(op, define(op, formatv("{0}({1}, {2})", fn, in(op, 0),
                                     in(op, 1))));
    return success();
  }

  LogicalResult ifElse(scf::IfOp ifOp) {
    // Both branches are evaluated (the proof does not follow conditions);
    // a result ranges over what either branch yields.
    SmallVector<SmallVector<std::string>> branches;
    for (Region &region : ifOp->getRegions()) {
      if (region.empty())
        continue;
      branches.emplace_back();
      if (failed(block(region.front(), branches.back())))
        return failure();
    }
    for (auto [k, result] : llvm::enumerate(ifOp.getResults())) {
      if (deps.contains(result))
        continue;
      std::string expr = branches[0][k];
      for (size_t b = 1; b < branches.size(); ++b)
        expr = formatv("r_join({0}, {1})", expr, branches[b][k]).str();
      std::string name = formatv("t{0}", st.nextTemp++).str();
      cs.line("[[maybe_unused]] const Range {0} = {1};", name, expr);
      names[result] = name;
    }
    return success();
  }

  LogicalResult leaf(Operation *op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<SeqIndexOp>([&](auto) { return alias(op, s.seq); })
        .Case<RowIndexOp>([&](auto) { return alias(op, s.row); })
        .Case<RowOp>([&](auto) { return alias(op, s.globalRow); })
        .Case<ColIndexOp>([&](auto) { return alias(op, s.col); })
        .Case<RatioOp>([&](auto) { return alias(op, s.ratio); })
        .Case<NumSeqsOp>([&](auto) { return alias(op, "r_exact(N)"); })
        .Case<GetConfigOp>([&](auto g) {
          return alias(op, "r_exact(c.cfg_" + g.getParam().str() + ")");
        })
        .Case<GetInputOp>([&](auto g) {
          if (g.getType().isInteger(1))
            return alias(op, "Range{0, 1}");
          return alias(op, formatv("r_span(c.in_{0}, N)", g.getInput()));
        })
        .Case<LengthOp>([&](auto l) {
          return alias(op, formatv("r_lengths(c.in_{0}_begin, c.in_{0}_end, N)",
                                   l.getInput()));
        })
        .Case<LoadOp>([&](auto l) {
          // A scanned list (its rule's check found the range).
          return alias(op, formatv("Range{{H.lo_{0}, H.hi_{0}}", l.getInput()));
        })
        .Case<GetOp>([&](auto g) {
          auto field = lookupSpecSymbol<FieldOp>(g, g.getFieldAttr());
          if (field.getDomain() == Domain::rows)
            return alias(op, s.rowsField(field));
          return alias(op, s.hostArray(field));
        })
        .Case<PrefixAtOp>([&](auto at) {
          return alias(op, s.hostArray(
                               lookupSpecSymbol<PrefixSumOp>(at, at.getPrefixAttr())));
        })
        .Case<PrefixTotalOp>([&](auto total) {
          auto sum = lookupSpecSymbol<PrefixSumOp>(total, total.getPrefixAttr());
          return alias(op, formatv("r_join({0}, r_exact(0))", s.hostArray(sum)));
        })
        .Case<RatioMinOp>([&](auto m) {
          unsigned id = st.setId(m.getSetAttr());
          return alias(op, formatv("r_exact(c.num_set[{0}] ? c.set[{0}][0] : 0)",
                                   id));
        })
        .Case<RatioCountOp>([&](auto m) {
          return alias(op, formatv("r_exact(c.num_set[{0}])",
                                   st.setId(m.getSetAttr())));
        })
        .Default([&](Operation *other) {
          return other->emitOpError("has no range rule");
        });
  }

  /// Leaves scan the batch (O(sequences)): each distinct one is computed
  /// once per proof.
  LogicalResult alias(Operation *op, const std::string &expr) {
    auto [it, inserted] = st.rangeLeaves.try_emplace(expr, "");
    if (inserted)
      it->second = define(op, expr);
    else
      names[op->getResult(0)] = it->second;
    return success();
  }

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
  if (failed(printer.block(body.front(), yielded)))
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
