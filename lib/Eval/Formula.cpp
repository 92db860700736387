//===- Formula.cpp - the interpreter of field and rule bodies -------------===//
//
// One small handler per op family. Values are int64_t; i1 is 0 or 1.
//
//===----------------------------------------------------------------------===//

#include "lib/Eval/Formula.h"
#include "dialect/IMetaSymbols.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imeta;
using llvm::formatv;

namespace {

std::string locationOf(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << " at " << loc.getFilename().getValue() << ":" << loc.getLine()
       << ":" << loc.getColumn();
  return text;
}

/// Interprets one body at one point. Handlers return failure() after
/// recording the reason in `error`.
class Interpreter {
public:
  Interpreter(Evaluator &ev, const Point &p) : ev(ev), p(p) {}

  /// Why the last failure() happened.
  std::string error;

  /// Runs `block`, returning the operands of its terminator.
  LogicalResult runBlock(Block &block, SmallVectorImpl<int64_t> &yielded) {
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        for (Value v : op.getOperands())
          yielded.push_back(values.lookup(v));
        return success();
      }
      if (failed(runOp(&op)))
        return failure();
    }
    return fail("formula block has no terminator");
  }

private:
  LogicalResult fail(const llvm::Twine &msg) {
    error = msg.str();
    return failure();
  }

  /// Fails unless `v` is representable in integer type `type`.
  LogicalResult checkFits(Operation *op, int64_t v, Type type) {
    unsigned width = type.getIntOrFloatBitWidth();
    if (width >= 64)
      return success();
    int64_t lo = width == 1 ? 0 : -(int64_t(1) << (width - 1));
    int64_t hi = width == 1 ? 1 : (int64_t(1) << (width - 1)) - 1;
    if (v < lo || v > hi)
      return fail(formatv("i{2} overflow: {0} gives {1}{3}{4}",
                          op->getName().getStringRef(), v, width,
                          locationOf(op), ev.overflowSuffix()));
    return success();
  }

  int64_t in(Operation *op, unsigned i) {
    return values.lookup(op->getOperand(i));
  }

  /// Records `v` as the single result of `op`, checking it fits.
  LogicalResult set(Operation *op, int64_t v) {
    if (failed(checkFits(op, v, op->getResult(0).getType())))
      return failure();
    values[op->getResult(0)] = v;
    return success();
  }

  LogicalResult runOp(Operation *op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<arith::ConstantOp>([&](auto c) {
          APInt bits = cast<IntegerAttr>(c.getValue()).getValue();
          return set(op, bits.getBitWidth() == 1 ? int64_t(bits.getBoolValue())
                                                 : bits.getSExtValue());
        })
        .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp>(
            [&](auto) { return overflowing(op); })
        .Case<arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
              arith::RemSIOp>([&](auto) { return dividing(op); })
        .Case<arith::MinSIOp>(
            [&](auto) { return set(op, std::min(in(op, 0), in(op, 1))); })
        .Case<arith::MaxSIOp>(
            [&](auto) { return set(op, std::max(in(op, 0), in(op, 1))); })
        .Case<arith::AndIOp>(
            [&](auto) { return set(op, in(op, 0) & in(op, 1)); })
        .Case<arith::OrIOp>(
            [&](auto) { return set(op, in(op, 0) | in(op, 1)); })
        .Case<arith::XOrIOp>(
            [&](auto) { return set(op, in(op, 0) ^ in(op, 1)); })
        .Case<arith::CmpIOp>([&](auto cmp) { return compare(cmp); })
        .Case<arith::SelectOp>([&](auto) {
          return set(op, in(op, 0) ? in(op, 1) : in(op, 2));
        })
        .Case<arith::ExtSIOp>([&](auto ext) {
          int64_t v = in(op, 0);
          // An i1 true sign-extends to -1.
          bool isBool = ext.getIn().getType().isInteger(1);
          return set(op, isBool && v ? -1 : v);
        })
        .Case<arith::ExtUIOp>([&](auto ext) {
          unsigned w = ext.getIn().getType().getIntOrFloatBitWidth();
          int64_t v = in(op, 0);
          return set(op, w >= 64 ? v : int64_t(uint64_t(v) & ((1ull << w) - 1)));
        })
        .Case<arith::TruncIOp>([&](auto) {
          // Truncation must not drop bits: a wrapped value is a wrong index.
          return set(op, in(op, 0));
        })
        .Case<scf::IfOp>([&](auto ifOp) { return runIf(ifOp); })
        .Default([&](Operation *other) { return runIMeta(other); });
  }

  LogicalResult overflowing(Operation *op) {
    int64_t a = in(op, 0), b = in(op, 1), r;
    bool over = isa<arith::AddIOp>(op)   ? __builtin_add_overflow(a, b, &r)
                : isa<arith::SubIOp>(op) ? __builtin_sub_overflow(a, b, &r)
                                         : __builtin_mul_overflow(a, b, &r);
    if (over)
      return fail(formatv("i64 overflow: {0}{1}{2}",
                          op->getName().getStringRef(), locationOf(op),
                          ev.overflowSuffix()));
    return set(op, r);
  }

  LogicalResult dividing(Operation *op) {
    int64_t a = in(op, 0), b = in(op, 1);
    if (b == 0)
      return fail(formatv("division by zero: {0}{1}",
                          op->getName().getStringRef(), locationOf(op)));
    if (a == INT64_MIN && b == -1)
      return fail(formatv("i64 overflow: {0}{1}{2}",
                          op->getName().getStringRef(), locationOf(op),
                          ev.overflowSuffix()));
    int64_t q = a / b, r = a % b;
    if (isa<arith::RemSIOp>(op))
      return set(op, r);
    if (isa<arith::FloorDivSIOp>(op) && r != 0 && ((r < 0) != (b < 0)))
      --q;
    if (isa<arith::CeilDivSIOp>(op) && r != 0 && ((r < 0) == (b < 0)))
      ++q;
    return set(op, q);
  }

  LogicalResult compare(arith::CmpIOp cmp) {
    int64_t a = in(cmp, 0), b = in(cmp, 1);
    unsigned w = cmp.getLhs().getType().getIntOrFloatBitWidth();
    uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
    uint64_t ua = uint64_t(a) & mask, ub = uint64_t(b) & mask;
    bool r = false;
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq: r = a == b; break;
    case arith::CmpIPredicate::ne: r = a != b; break;
    case arith::CmpIPredicate::slt: r = a < b; break;
    case arith::CmpIPredicate::sle: r = a <= b; break;
    case arith::CmpIPredicate::sgt: r = a > b; break;
    case arith::CmpIPredicate::sge: r = a >= b; break;
    case arith::CmpIPredicate::ult: r = ua < ub; break;
    case arith::CmpIPredicate::ule: r = ua <= ub; break;
    case arith::CmpIPredicate::ugt: r = ua > ub; break;
    case arith::CmpIPredicate::uge: r = ua >= ub; break;
    }
    return set(cmp, r);
  }

  LogicalResult runIf(scf::IfOp ifOp) {
    Region &region = in(ifOp, 0) ? ifOp.getThenRegion() : ifOp.getElseRegion();
    SmallVector<int64_t, 4> yielded;
    if (!region.empty() && failed(runBlock(region.front(), yielded)))
      return failure();
    for (auto [res, v] : llvm::zip(ifOp.getResults(), yielded))
      values[res] = v;
    return success();
  }

  /// The bucket in which to read `def`: ours if it is bucketed, else none.
  int64_t bucketOf(Operation *def) { return getRatios(def) ? p.ratio : 0; }

  const std::vector<int64_t> &list(FlatSymbolRefAttr sym) {
    return ev.getBatch().sequences[p.seq].lists.find(sym.getValue())->second;
  }

  LogicalResult runIMeta(Operation *op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<SeqIndexOp>([&](auto) { return set(op, p.seq); })
        .Case<RowIndexOp>([&](auto) { return set(op, p.row); })
        .Case<RowOp>([&](auto) { return set(op, p.globalRow); })
        .Case<ColIndexOp>([&](auto) { return set(op, p.col); })
        .Case<RatioOp>([&](auto) { return set(op, p.ratio); })
        .Case<NumSeqsOp>([&](auto) { return set(op, ev.numSeqs()); })
        .Case<GetConfigOp>([&](auto g) {
          return set(op, ev.config(g.getParamAttr().getAttr()));
        })
        .Case<GetInputOp>([&](auto g) {
          return set(op,
                     ev.getBatch().sequences[p.seq].scalars.lookup(g.getInput()));
        })
        .Case<LengthOp>([&](auto l) {
          return set(op, int64_t(list(l.getInputAttr()).size()));
        })
        .Case<LoadOp>([&](auto l) -> LogicalResult {
          const std::vector<int64_t> &xs = list(l.getInputAttr());
          int64_t idx = in(op, 0);
          if (idx < 0 || idx >= int64_t(xs.size()))
            return fail(formatv("index {0} out of range of '{1}' (length "
                                "{2}){3}",
                                idx, l.getInput(), xs.size(), locationOf(op)));
          return set(op, xs[idx]);
        })
        .Case<GetOp>([&](auto g) -> LogicalResult {
          Operation *def = ev.lookup(g.getFieldAttr());
          auto value = ev.evaluate(def, bucketOf(def));
          if (!value)
            return fail(llvm::toString(value.takeError()));
          int64_t at = 0;
          if ((*value)->domain == Domain::seq)
            at = p.seq;
          else if ((*value)->domain == Domain::rows)
            at = p.globalRow;
          return set(op, (*value)->data[at]);
        })
        .Case<PrefixAtOp, PrefixTotalOp>([&](auto) -> LogicalResult {
          Operation *def =
              ev.lookup(op->getAttrOfType<FlatSymbolRefAttr>("prefix"));
          auto value = ev.evaluate(def, bucketOf(def));
          if (!value)
            return fail(llvm::toString(value.takeError()));
          const std::vector<int64_t> &sums = (*value)->data;
          int64_t idx = isa<PrefixAtOp>(op) ? in(op, 0)
                                            : int64_t(sums.size()) - 1;
          if (sums.empty() && isa<PrefixTotalOp>(op))
            return set(op, 0); // an inclusive sum over no sequences
          if (idx < 0 || idx >= int64_t(sums.size()))
            return fail(formatv("index {0} out of range of prefix sum '{1}' "
                                "(length {2}){3}",
                                idx, SymbolTable::getSymbolName(def).getValue(),
                                sums.size(), locationOf(op)));
          return set(op, sums[idx]);
        })
        .Case<RatioMinOp>([&](auto r) -> LogicalResult {
          llvm::ArrayRef<int64_t> set_ = ev.ratios(r.getSetAttr());
          if (set_.empty())
            return fail(formatv("ratio set '{0}' is empty{1}", r.getSet(),
                                locationOf(op)));
          return set(op, set_.front());
        })
        .Case<RatioCountOp>([&](auto r) {
          return set(op, int64_t(ev.ratios(r.getSetAttr()).size()));
        })
        .Default([&](Operation *other) {
          return fail(formatv("op '{0}' is not supported in formulas{1}",
                              other->getName().getStringRef(),
                              locationOf(other)));
        });
  }

  Evaluator &ev;
  const Point &p;
  DenseMap<Value, int64_t> values;
};
} // namespace

llvm::Error imeta::runFormula(Evaluator &ev, Region &body, const Point &point,
                              SmallVectorImpl<int64_t> &out) {
  Interpreter interp(ev, point);
  if (succeeded(interp.runBlock(body.front(), out)))
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), interp.error);
}
