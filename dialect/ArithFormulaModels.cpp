//===- ArithFormulaModels.cpp - the arith and scf ops in formulas ---------===//
//
// FormulaOpInterface attached to the arith and scf ops a formula may hold,
// as external models: one function per op (or family), every integer in
// 64 bits, an overflow or a division by zero an error.
//
//===----------------------------------------------------------------------===//

#include "dialect/FailureText.h"
#include "dialect/IMetaOps.h"
#include "lib/Support/Format.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace imeta;

namespace {

/// An integer constant's value (an i1 is 0 or 1).
int64_t constantValue(arith::ConstantOp op) {
  APInt bits = cast<IntegerAttr>(op.getValue()).getValue();
  return bits.getBitWidth() == 1 ? int64_t(bits.getBoolValue())
                                 : bits.getSExtValue();
}

/// Its C++ literal, an int64_t.
std::string constantLiteral(arith::ConstantOp op) {
  int64_t v = constantValue(op);
  return v == INT64_MIN ? "INT64_MIN" : fmt("INT64_C({0})", v);
}

LogicalResult eval(arith::ConstantOp op, FormulaInterpreter &in) {
  return in.set(op, constantValue(op));
}

/// add, sub, mul: in 64 bits, an i64 overflow an error (set() checks the
/// narrower types).
LogicalResult overflowing(Operation *op, FormulaInterpreter &in) {
  int64_t a = in.operand(op, 0), b = in.operand(op, 1), r;
  bool over = isa<arith::AddIOp>(op)   ? __builtin_add_overflow(a, b, &r)
              : isa<arith::SubIOp>(op) ? __builtin_sub_overflow(a, b, &r)
                                       : __builtin_mul_overflow(a, b, &r);
  if (over)
    return in.failWith(text::kOverflow64, op);
  return in.set(op, r);
}
LogicalResult eval(arith::AddIOp op, FormulaInterpreter &in) {
  return overflowing(op, in);
}
LogicalResult eval(arith::SubIOp op, FormulaInterpreter &in) {
  return overflowing(op, in);
}
LogicalResult eval(arith::MulIOp op, FormulaInterpreter &in) {
  return overflowing(op, in);
}

/// The divisions: truncated, floor, ceiling, remainder.
LogicalResult dividing(Operation *op, FormulaInterpreter &in) {
  int64_t a = in.operand(op, 0), b = in.operand(op, 1);
  if (b == 0)
    return in.failWith(text::kDivZero, op);
  if (a == INT64_MIN && b == -1)
    return in.failWith(text::kOverflow64, op);
  int64_t q = a / b, r = a % b;
  if (isa<arith::RemSIOp>(op))
    return in.set(op, r);
  if (isa<arith::FloorDivSIOp>(op) && r != 0 && ((r < 0) != (b < 0)))
    --q;
  if (isa<arith::CeilDivSIOp>(op) && r != 0 && ((r < 0) == (b < 0)))
    ++q;
  return in.set(op, q);
}
LogicalResult eval(arith::DivSIOp op, FormulaInterpreter &in) {
  return dividing(op, in);
}
LogicalResult eval(arith::FloorDivSIOp op, FormulaInterpreter &in) {
  return dividing(op, in);
}
LogicalResult eval(arith::CeilDivSIOp op, FormulaInterpreter &in) {
  return dividing(op, in);
}
LogicalResult eval(arith::RemSIOp op, FormulaInterpreter &in) {
  return dividing(op, in);
}

LogicalResult eval(arith::MinSIOp op, FormulaInterpreter &in) {
  return in.set(op, std::min(in.operand(op, 0), in.operand(op, 1)));
}
LogicalResult eval(arith::MaxSIOp op, FormulaInterpreter &in) {
  return in.set(op, std::max(in.operand(op, 0), in.operand(op, 1)));
}
LogicalResult eval(arith::AndIOp op, FormulaInterpreter &in) {
  return in.set(op, in.operand(op, 0) & in.operand(op, 1));
}
LogicalResult eval(arith::OrIOp op, FormulaInterpreter &in) {
  return in.set(op, in.operand(op, 0) | in.operand(op, 1));
}
LogicalResult eval(arith::XOrIOp op, FormulaInterpreter &in) {
  return in.set(op, in.operand(op, 0) ^ in.operand(op, 1));
}

LogicalResult eval(arith::CmpIOp cmp, FormulaInterpreter &in) {
  int64_t a = in.operand(cmp, 0), b = in.operand(cmp, 1);
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
  return in.set(cmp, r);
}

LogicalResult eval(arith::SelectOp op, FormulaInterpreter &in) {
  return in.set(op, in.operand(op, 0) ? in.operand(op, 1) : in.operand(op, 2));
}
LogicalResult eval(arith::ExtSIOp ext, FormulaInterpreter &in) {
  int64_t v = in.operand(ext, 0);
  // An i1 true sign-extends to -1.
  bool isBool = ext.getIn().getType().isInteger(1);
  return in.set(ext, isBool && v ? -1 : v);
}
LogicalResult eval(arith::ExtUIOp ext, FormulaInterpreter &in) {
  unsigned w = ext.getIn().getType().getIntOrFloatBitWidth();
  int64_t v = in.operand(ext, 0);
  return in.set(ext, w >= 64 ? v : int64_t(uint64_t(v) & ((1ull << w) - 1)));
}
LogicalResult eval(arith::TruncIOp op, FormulaInterpreter &in) {
  // Truncation must not drop bits: a wrapped value is a wrong index.
  return in.set(op, in.operand(op, 0));
}

LogicalResult eval(scf::IfOp ifOp, FormulaInterpreter &in) {
  Region &region =
      in.operand(ifOp, 0) ? ifOp.getThenRegion() : ifOp.getElseRegion();
  SmallVector<int64_t, 4> yielded;
  if (!region.empty() && failed(in.runBlock(region.front(), yielded)))
    return failure();
  for (auto [res, v] : llvm::zip(ifOp.getResults(), yielded))
    in.bind(res, v);
  return success();
}

//===----------------------------------------------------------------------===//
// inferRange
//===----------------------------------------------------------------------===//

LogicalResult range(arith::ConstantOp op, RangeRuleBuilder &r) {
  r.define(op, fmt("r_exact({0})", constantLiteral(op)));
  return success();
}

/// add, sub, mul: the fast instantiation computes them in i32.
LogicalResult arithmetic(Operation *op, RangeRuleBuilder &r, StringRef fn) {
  r.proveFits(op, r.define(op, fmt("{0}({1}, {2})", fn, r.operand(op, 0),
                                   r.operand(op, 1))));
  return success();
}
LogicalResult range(arith::AddIOp op, RangeRuleBuilder &r) {
  return arithmetic(op, r, "r_add");
}
LogicalResult range(arith::SubIOp op, RangeRuleBuilder &r) {
  return arithmetic(op, r, "r_sub");
}
LogicalResult range(arith::MulIOp op, RangeRuleBuilder &r) {
  return arithmetic(op, r, "r_mul");
}

/// A quotient: its divisor never zero; INT32_MIN / -1 leaves i32, which
/// the quotient's range shows.
LogicalResult quotient(Operation *op, RangeRuleBuilder &r, StringRef fn) {
  r.require(fmt("r_nonzero({0})", r.operand(op, 1)));
  return arithmetic(op, r, fn);
}
LogicalResult range(arith::DivSIOp op, RangeRuleBuilder &r) {
  return quotient(op, r, "r_div");
}
LogicalResult range(arith::FloorDivSIOp op, RangeRuleBuilder &r) {
  return quotient(op, r, "r_floordiv");
}
LogicalResult range(arith::CeilDivSIOp op, RangeRuleBuilder &r) {
  return quotient(op, r, "r_ceildiv");
}
LogicalResult range(arith::RemSIOp op, RangeRuleBuilder &r) {
  // A remainder fits its operands' type; only the divisor matters.
  r.require(fmt("r_nonzero({0})", r.operand(op, 1)));
  r.define(op, fmt("r_rem({0}, {1})", r.operand(op, 0), r.operand(op, 1)));
  return success();
}

LogicalResult range(arith::MinSIOp op, RangeRuleBuilder &r) {
  r.define(op, fmt("r_min({0}, {1})", r.operand(op, 0), r.operand(op, 1)));
  return success();
}
LogicalResult range(arith::MaxSIOp op, RangeRuleBuilder &r) {
  r.define(op, fmt("r_max({0}, {1})", r.operand(op, 0), r.operand(op, 1)));
  return success();
}
/// Bitwise results stay in their type; booleans stay booleans.
LogicalResult bitwise(Operation *op, RangeRuleBuilder &r) {
  r.define(op, RangeRuleBuilder::typeRange(op));
  return success();
}
LogicalResult range(arith::AndIOp op, RangeRuleBuilder &r) {
  return bitwise(op, r);
}
LogicalResult range(arith::OrIOp op, RangeRuleBuilder &r) {
  return bitwise(op, r);
}
LogicalResult range(arith::XOrIOp op, RangeRuleBuilder &r) {
  return bitwise(op, r);
}
LogicalResult range(arith::CmpIOp op, RangeRuleBuilder &r) {
  r.define(op, "Range{0, 1}");
  return success();
}
LogicalResult range(arith::SelectOp op, RangeRuleBuilder &r) {
  r.define(op, fmt("r_join({0}, {1})", r.operand(op, 1), r.operand(op, 2)));
  return success();
}
LogicalResult range(arith::ExtSIOp ext, RangeRuleBuilder &r) {
  bool fromBool = ext.getIn().getType().isInteger(1);
  r.define(ext,
           fromBool ? fmt("r_neg({0})", r.operand(ext, 0)) : r.operand(ext, 0));
  return success();
}
LogicalResult range(arith::ExtUIOp ext, RangeRuleBuilder &r) {
  unsigned w = ext.getIn().getType().getIntOrFloatBitWidth();
  r.define(ext, w == 32 ? fmt("r_zext32({0})", r.operand(ext, 0))
                        : r.operand(ext, 0));
  return success();
}
LogicalResult range(arith::TruncIOp op, RangeRuleBuilder &r) {
  r.proveFits(op, r.define(op, r.operand(op, 0)));
  return success();
}

/// Both branches are evaluated (the proof does not follow conditions); a
/// result ranges over what either branch yields.
LogicalResult range(scf::IfOp ifOp, RangeRuleBuilder &r) {
  SmallVector<SmallVector<std::string>> branches;
  for (Region &region : ifOp->getRegions()) {
    if (region.empty())
      continue;
    branches.emplace_back();
    if (failed(r.runBlock(region.front(), branches.back())))
      return failure();
  }
  for (auto [k, result] : llvm::enumerate(ifOp.getResults())) {
    if (r.unproven(result))
      continue;
    std::string expr = branches[0][k];
    for (size_t b = 1; b < branches.size(); ++b)
      expr = fmt("r_join({0}, {1})", expr, branches[b][k]);
    r.defineValue(result, expr);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// emitCpp: an i32 result is computed in 64 bits and checked to fit (in a
// fill's fast instantiation, where the proof covers it, neither).
//===----------------------------------------------------------------------===//

LogicalResult cpp(arith::ConstantOp op, CppFormulaPrinter &p) {
  return p.alias(op, constantLiteral(op));
}

/// add, sub, mul.
LogicalResult arithmetic(Operation *op, CppFormulaPrinter &p, StringRef sym) {
  unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
  if (w < 64) {
    // Operands fit 32 bits, so the 64-bit result is exact.
    p.checkFits(op, p.define(op, fmt("{0} {1} {2}", p.operand(op, 0), sym,
                                     p.operand(op, 1))));
    return success();
  }
  std::string name = p.fresh();
  const char *builtin = isa<arith::AddIOp>(op)   ? "imeta_add_overflow"
                        : isa<arith::SubIOp>(op) ? "imeta_sub_overflow"
                                                 : "imeta_mul_overflow";
  p.line(fmt("int64_t {0};", name));
  p.line(fmt("if ({0}({1}, {2}, &{3})) {4}", builtin, p.operand(op, 0),
             p.operand(op, 1), name, p.fail("kOverflow64", op, "0")));
  p.bind(op->getResult(0), name);
  return success();
}
LogicalResult cpp(arith::AddIOp op, CppFormulaPrinter &p) {
  return arithmetic(op, p, "+");
}
LogicalResult cpp(arith::SubIOp op, CppFormulaPrinter &p) {
  return arithmetic(op, p, "-");
}
LogicalResult cpp(arith::MulIOp op, CppFormulaPrinter &p) {
  return arithmetic(op, p, "*");
}

/// The quotient of a 32-bit division: by the divider `dv` where the
/// enclosing code has one (multiply and shift), else the division.
std::string quotient32(Operation *op, CppFormulaPrinter &p,
                       const std::string &x, const std::string &y,
                       const std::string &dv) {
  if (dv.empty())
    return fmt("{0} / {1}", x, y);
  if (std::string shared = p.stepQuotient(op); !shared.empty())
    return shared;
  if (p.exactDivision(op))
    return fmt("imeta_udiv32({0}, {1})", x, dv);
  return fmt("imeta_div32({0}, {1}, {2})", x, y, dv);
}

/// The divisions: truncated, floor, ceiling, remainder.
LogicalResult dividing(Operation *op, CppFormulaPrinter &p) {
  std::string a = p.operand(op, 0), b = p.operand(op, 1);
  p.line(
      fmt("if ({0}{1} == 0) {2}", p.proven(op), b, p.fail("kDivZero", op, a)));
  unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
  if (w == 32) {
    // i32 operands: 32-bit division (far cheaper than 64-bit on a GPU).
    // Only INT32_MIN / -1 leaves i32; its remainder is 0.
    bool rem = isa<arith::RemSIOp>(op);
    if (!rem)
      p.line(fmt("if ({0}{1} == INT32_MIN && {2} == -1) {3}", p.proven(op), a,
                 b, p.fail("kOverflow", op, "-int64_t(INT32_MIN)")));
    std::string x = fmt("int32_t({0})", a), y = fmt("int32_t({0})", b);
    std::string dv = p.divider(op->getOperand(1));
    bool prepared = !dv.empty();
    std::string q = quotient32(op, p, x, y, dv);
    std::string expr =
        isa<arith::DivSIOp>(op) ? q
        : rem && prepared       ? fmt("IMETA_REM32({0}, {1}, {2})", x, y, q)
        // a - a / b * b: the quotient is shared with a division of the
        // same operands (the compiler merges them: one division, not two).
        : rem ? fmt("({0} == -1 ? 0 : {1} - {2} * {3})", b, x, q, y)
        : isa<arith::FloorDivSIOp>(op) ? fmt("imeta_floordiv({0}, {1})", x, y)
                                       : fmt("imeta_ceildiv({0}, {1})", x, y);
    return p.alias(op, expr);
  }
  p.line(fmt("if ({0} == INT64_MIN && {1} == -1) {2}", a, b,
             p.fail("kOverflow64", op, "0")));
  std::string expr = isa<arith::DivSIOp>(op)   ? fmt("{0} / {1}", a, b)
                     : isa<arith::RemSIOp>(op) ? fmt("{0} % {1}", a, b)
                     : isa<arith::FloorDivSIOp>(op)
                         ? fmt("imeta_floordiv({0}, {1})", a, b)
                         : fmt("imeta_ceildiv({0}, {1})", a, b);
  p.checkFits(op, p.define(op, expr));
  return success();
}
LogicalResult cpp(arith::DivSIOp op, CppFormulaPrinter &p) {
  return dividing(op, p);
}
LogicalResult cpp(arith::FloorDivSIOp op, CppFormulaPrinter &p) {
  return dividing(op, p);
}
LogicalResult cpp(arith::CeilDivSIOp op, CppFormulaPrinter &p) {
  return dividing(op, p);
}
LogicalResult cpp(arith::RemSIOp op, CppFormulaPrinter &p) {
  return dividing(op, p);
}

/// A binary op printed as an expression of its operands.
LogicalResult binary(Operation *op, CppFormulaPrinter &p, const char *format) {
  return p.alias(op, fmt(format, p.operand(op, 0), p.operand(op, 1)));
}
LogicalResult cpp(arith::MinSIOp op, CppFormulaPrinter &p) {
  return binary(op, p, "({0} < {1} ? {0} : {1})");
}
LogicalResult cpp(arith::MaxSIOp op, CppFormulaPrinter &p) {
  return binary(op, p, "({0} > {1} ? {0} : {1})");
}
LogicalResult cpp(arith::AndIOp op, CppFormulaPrinter &p) {
  return binary(op, p, "({0} & {1})");
}
LogicalResult cpp(arith::OrIOp op, CppFormulaPrinter &p) {
  return binary(op, p, "({0} | {1})");
}
LogicalResult cpp(arith::XOrIOp op, CppFormulaPrinter &p) {
  return binary(op, p, "({0} ^ {1})");
}

LogicalResult cpp(arith::CmpIOp cmp, CppFormulaPrinter &p) {
  std::string a = p.operand(cmp, 0), b = p.operand(cmp, 1);
  unsigned w = cmp.getLhs().getType().getIntOrFloatBitWidth();
  auto u = [&](const std::string &x) {
    return w >= 64 ? fmt("uint64_t({0})", x)
                   : fmt("(uint64_t({0}) & UINT64_C({1}))", x,
                         (uint64_t(1) << w) - 1);
  };
  std::string expr;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::eq: expr = a + " == " + b; break;
  case arith::CmpIPredicate::ne: expr = a + " != " + b; break;
  case arith::CmpIPredicate::slt: expr = a + " < " + b; break;
  case arith::CmpIPredicate::sle: expr = a + " <= " + b; break;
  case arith::CmpIPredicate::sgt: expr = a + " > " + b; break;
  case arith::CmpIPredicate::sge: expr = a + " >= " + b; break;
  case arith::CmpIPredicate::ult: expr = u(a) + " < " + u(b); break;
  case arith::CmpIPredicate::ule: expr = u(a) + " <= " + u(b); break;
  case arith::CmpIPredicate::ugt: expr = u(a) + " > " + u(b); break;
  case arith::CmpIPredicate::uge: expr = u(a) + " >= " + u(b); break;
  }
  return p.alias(cmp, "(" + expr + ")");
}

LogicalResult cpp(arith::SelectOp op, CppFormulaPrinter &p) {
  // A condition the enclosing code established: the operand taken.
  if (std::optional<bool> known = p.known(op.getCondition()))
    return p.alias(op, p.operand(op, *known ? 1 : 2));
  return p.alias(op, fmt("({0} ? {1} : {2})", p.operand(op, 0),
                         p.operand(op, 1), p.operand(op, 2)));
}
LogicalResult cpp(arith::ExtSIOp ext, CppFormulaPrinter &p) {
  bool fromBool = ext.getIn().getType().isInteger(1);
  return p.alias(ext, fromBool ? "-" + p.operand(ext, 0) : p.operand(ext, 0));
}
LogicalResult cpp(arith::ExtUIOp ext, CppFormulaPrinter &p) {
  unsigned w = ext.getIn().getType().getIntOrFloatBitWidth();
  return p.alias(ext, w == 32 ? fmt("int64_t(uint32_t({0}))", p.operand(ext, 0))
                              : p.operand(ext, 0));
}
LogicalResult cpp(arith::TruncIOp op, CppFormulaPrinter &p) {
  p.checkFits(op, p.define(op, p.operand(op, 0)));
  return success();
}

/// Results declared first, then each branch assigns what it yields (only
/// the branch taken where the enclosing code knows the condition).
LogicalResult cpp(scf::IfOp ifOp, CppFormulaPrinter &p) {
  SmallVector<std::string> results;
  for (Value r : ifOp.getResults()) {
    results.push_back(p.fresh());
    p.bind(r, results.back());
    p.line(fmt("{0}{1} {2} = 0;", p.maybeUnused(), p.valueType(r),
               results.back()));
  }
  auto branch = [&](const std::string &header, Region &region) {
    p.open(header);
    LogicalResult done = success();
    SmallVector<std::string> yielded;
    if (!region.empty())
      done = p.runBlock(region.front(), yielded);
    if (succeeded(done))
      for (auto [dst, src] : llvm::zip(results, yielded))
        p.line(fmt("{0} = {1};", dst, src));
    p.close();
    return done;
  };
  if (std::optional<bool> known = p.known(ifOp.getCondition()))
    return branch("", *known ? ifOp.getThenRegion() : ifOp.getElseRegion());
  if (failed(branch(fmt("if ({0})", p.operand(ifOp, 0)), ifOp.getThenRegion())))
    return failure();
  if (!ifOp.getElseRegion().empty())
    return branch("else", ifOp.getElseRegion());
  return success();
}

//===----------------------------------------------------------------------===//
// Column trends: sums follow their terms; a product or a quotient with an
// invariant side is monotone (its direction depends on the sign).
//===----------------------------------------------------------------------===//

Trend negate(Trend t) {
  return t == Trend::up ? Trend::down : t == Trend::down ? Trend::up : t;
}
/// The trend of a sum of terms of trends `a` and `b`.
Trend sum(Trend a, Trend b) {
  if (a == Trend::invariant)
    return b;
  if (b == Trend::invariant)
    return a;
  return a == b && (a == Trend::up || a == Trend::down) ? a : Trend::none;
}

/// The ops that say how they vary: the others take the default.
Trend trend(Operation *, ArrayRef<Trend> in) { return defaultColumnTrend(in); }
Trend trend(arith::AddIOp, ArrayRef<Trend> in) { return sum(in[0], in[1]); }
Trend trend(arith::SubIOp, ArrayRef<Trend> in) {
  return sum(in[0], negate(in[1]));
}
Trend trend(arith::ExtSIOp, ArrayRef<Trend> in) { return in[0]; }
Trend trend(arith::MulIOp, ArrayRef<Trend> in) {
  Trend a = in[0], b = in[1];
  if (a == Trend::invariant && b == Trend::invariant)
    return Trend::invariant;
  if (a != Trend::invariant && b != Trend::invariant)
    return Trend::none;
  return a == Trend::none || b == Trend::none ? Trend::none : Trend::monotone;
}
Trend quotientTrend(ArrayRef<Trend> in) {
  if (in[1] != Trend::invariant || in[0] == Trend::none)
    return Trend::none;
  return in[0] == Trend::invariant ? Trend::invariant : Trend::monotone;
}
Trend trend(arith::DivSIOp, ArrayRef<Trend> in) { return quotientTrend(in); }
Trend trend(arith::FloorDivSIOp, ArrayRef<Trend> in) {
  return quotientTrend(in);
}
Trend trend(arith::CeilDivSIOp, ArrayRef<Trend> in) {
  return quotientTrend(in);
}

/// One more a column: the column plus or minus invariant values.
bool byOne(Operation *, function_ref<bool(unsigned)>, ArrayRef<Trend>) {
  return false;
}
bool byOne(arith::AddIOp, function_ref<bool(unsigned)> moves,
           ArrayRef<Trend> in) {
  return (in[1] == Trend::invariant && moves(0)) ||
         (in[0] == Trend::invariant && moves(1));
}
bool byOne(arith::SubIOp, function_ref<bool(unsigned)> moves,
           ArrayRef<Trend> in) {
  return in[1] == Trend::invariant && moves(0);
}
bool byOne(arith::ExtSIOp, function_ref<bool(unsigned)> moves,
           ArrayRef<Trend>) {
  return moves(0);
}

template <typename Op>
struct Model : FormulaOpInterface::ExternalModel<Model<Op>, Op> {
  Trend columnTrend(Operation *op, ArrayRef<Trend> in) const {
    return trend(cast<Op>(op), in);
  }
  bool movesByOneColumn(Operation *op, function_ref<bool(unsigned)> moves,
                        ArrayRef<Trend> in) const {
    return byOne(cast<Op>(op), moves, in);
  }
  LogicalResult evaluate(Operation *op, FormulaInterpreter &in) const {
    return eval(cast<Op>(op), in);
  }
  LogicalResult inferRange(Operation *op, RangeRuleBuilder &r) const {
    return range(cast<Op>(op), r);
  }
  LogicalResult emitCpp(Operation *op, CppFormulaPrinter &p) const {
    return cpp(cast<Op>(op), p);
  }
  Value getDivisor(Operation *op) const {
    return isa<arith::DivSIOp, arith::RemSIOp>(op) ? op->getOperand(1)
                                                   : Value();
  }
};

template <typename... Ops> void attach(MLIRContext *ctx) {
  (Ops::template attachInterface<Model<Ops>>(*ctx), ...);
}

} // namespace

void imeta::registerFormulaModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    attach<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
           arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
           arith::RemSIOp, arith::MinSIOp, arith::MaxSIOp, arith::AndIOp,
           arith::OrIOp, arith::XOrIOp, arith::CmpIOp, arith::SelectOp,
           arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, scf::SCFDialect *) {
    attach<scf::IfOp>(ctx);
  });
}
