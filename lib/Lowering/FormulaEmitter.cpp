//===- FormulaEmitter.cpp - a field or rule body as C++ -------------------===//

#include "lib/Lowering/FormulaEmitter.h"
#include "dialect/IMetaSymbols.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace imeta;
using llvm::formatv;

unsigned EmitterState::site(Operation *op) {
  auto [it, inserted] = siteOf.try_emplace(op, sites.size());
  if (!inserted)
    return it->second;
  Site site{op->getName().getStringRef().str(), "", ""};
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    site.at = formatv(" at {0}:{1}:{2}", loc.getFilename().getValue(),
                      loc.getLine(), loc.getColumn());
  if (auto load = dyn_cast<LoadOp>(op))
    site.what = ("'" + load.getInput() + "'").str();
  else if (auto at = dyn_cast<PrefixAtOp>(op))
    site.what = ("prefix sum '" + at.getPrefix() + "'").str();
  else if (auto min = dyn_cast<RatioMinOp>(op))
    site.what = ("'" + min.getSet() + "'").str();
  sites.push_back(std::move(site));
  return sites.size() - 1;
}

std::string imeta::failRatioArgs(EmitterState &st, const FormulaScope &scope) {
  if (!scope.ratios)
    return "-1, 0";
  return formatv("{0}, {1}", st.setId(scope.ratios), scope.bucket).str();
}

unsigned EmitterState::owner(StringRef name) {
  owners.push_back(name.str());
  return owners.size() - 1;
}

unsigned EmitterState::setId(FlatSymbolRefAttr set) {
  auto it = llvm::find(ratioSets, set);
  if (it != ratioSets.end())
    return it - ratioSets.begin();
  ratioSets.push_back(set);
  return ratioSets.size() - 1;
}

std::string imeta::bucketIndex(EmitterState &st, const FormulaScope &scope,
                               FlatSymbolRefAttr of) {
  if (!of)
    return "0";
  if (of == scope.ratios)
    return scope.bucket;
  return formatv("c.map[{0}][{1}][{2}]", st.setId(scope.ratios), st.setId(of),
                 scope.bucket)
      .str();
}

bool imeta::proofCovers(const EmitterState &st, const FormulaScope &scope,
                        Value v) {
  return scope.fast && !st.listDependent.contains(v) &&
         v.getType().getIntOrFloatBitWidth() <= 32;
}

std::string imeta::valueType(const EmitterState &st, const FormulaScope &scope,
                             Value v) {
  return proofCovers(st, scope, v) ? "I" : "int64_t";
}

namespace {
/// Prints one body; one method per op family.
class Printer {
public:
  Printer(CodeStream &cs, EmitterState &st, const FormulaScope &scope)
      : cs(cs), st(st), s(scope) {}

  LogicalResult block(Block &block, SmallVectorImpl<std::string> &yielded) {
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        for (Value v : op.getOperands())
          yielded.push_back(names.lookup(v));
        return success();
      }
      if (failed(emit(&op)))
        return failure();
    }
    return success();
  }

  /// Emits the loop-invariant read `op`; returns its name.
  std::string hoist(Operation *op) {
    (void)emit(op);
    return names.lookup(op->getResult(0));
  }

  /// Emits one op of a slice (its operands emitted before it).
  LogicalResult sliceOp(Operation *op) { return emit(op); }
  std::string name(Value v) { return names.lookup(v); }

private:
  std::string fresh() { return formatv("t{0}", st.nextTemp++).str(); }
  /// Where some branches are known (FormulaScope::known), a value can
  /// lose its only reader: no warning for it (engine builds use -Werror).
  const char *maybeUnused() const {
    return s.known.empty() ? "" : "[[maybe_unused]] ";
  }
  std::string in(Operation *op, unsigned i) {
    return names.lookup(op->getOperand(i));
  }
  /// Records failure `kind` of `op` (an index that misses: `length`).
  std::string fail(StringRef kind, Operation *op, StringRef value,
                   StringRef length = "0") {
    std::string record =
        formatv("imeta_fail(c.err, {0}, {1}, {2}, {3}, {4}, {5}, {6}, {7})",
                kind, st.site(op), s.ownerId, s.seq, s.globalRow, value,
                failRatioArgs(st, s), length)
            .str();
    if (!s.deferFailures.empty())
      return formatv("{ {0}; {1} = true; }", record, s.deferFailures).str();
    return "return " + record + ";";
  }
  /// Declares the result of `op` as `expr`.
  std::string define(Operation *op, const std::string &expr) {
    std::string name = fresh();
    cs.line("{0}const {1} {2} = {3};", maybeUnused(),
            valueType(st, s, op->getResult(0)), name, expr);
    names[op->getResult(0)] = name;
    return name;
  }
  /// The condition prefix of a check the range proof covers: the fast
  /// instantiation drops it.
  std::string proven(Operation *op) {
    return proofCovers(st, s, op->getResult(0)) ? "kChk && " : "";
  }
  /// Guards that `name` fits the result type of `op`.
  void checkFits(Operation *op, const std::string &name) {
    unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
    if (w == 32)
      cs.line("if ({0}!imeta_fits32({1})) {2}", proven(op), name,
              fail("kOverflow", op, name));
    else if (w == 1)
      cs.line("if ({0}{1} != 0 && {1} != 1) {2}", proven(op), name,
              fail("kOverflow", op, name));
  }

  LogicalResult emit(Operation *op) {
    if (op->getNumResults() == 1)
      if (auto it = s.hoisted.find(op->getResult(0)); it != s.hoisted.end()) {
        names[op->getResult(0)] = it->second;
        return success();
      }
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<arith::ConstantOp>([&](auto c) {
          APInt bits = cast<IntegerAttr>(c.getValue()).getValue();
          int64_t v = bits.getBitWidth() == 1 ? int64_t(bits.getBoolValue())
                                              : bits.getSExtValue();
          define(op, v == INT64_MIN ? "INT64_MIN"
                                    : formatv("INT64_C({0})", v).str());
          return success();
        })
        .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp>(
            [&](auto) { return arithmetic(op); })
        .Case<arith::DivSIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
              arith::RemSIOp>([&](auto) { return division(op); })
        .Case<arith::MinSIOp>([&](auto) {
          define(op, formatv("({0} < {1} ? {0} : {1})", in(op, 0), in(op, 1)));
          return success();
        })
        .Case<arith::MaxSIOp>([&](auto) {
          define(op, formatv("({0} > {1} ? {0} : {1})", in(op, 0), in(op, 1)));
          return success();
        })
        .Case<arith::AndIOp>([&](auto) {
          define(op, formatv("({0} & {1})", in(op, 0), in(op, 1)));
          return success();
        })
        .Case<arith::OrIOp>([&](auto) {
          define(op, formatv("({0} | {1})", in(op, 0), in(op, 1)));
          return success();
        })
        .Case<arith::XOrIOp>([&](auto) {
          define(op, formatv("({0} ^ {1})", in(op, 0), in(op, 1)));
          return success();
        })
        .Case<arith::CmpIOp>([&](auto cmp) { return compare(cmp); })
        .Case<arith::SelectOp>([&](auto select) {
          if (auto it = s.known.find(select.getCondition()); it != s.known.end())
            return alias(op, in(op, it->second ? 1 : 2));
          define(op, formatv("({0} ? {1} : {2})", in(op, 0), in(op, 1),
                             in(op, 2)));
          return success();
        })
        .Case<arith::ExtSIOp>([&](auto ext) {
          bool fromBool = ext.getIn().getType().isInteger(1);
          define(op, fromBool ? "-" + in(op, 0) : in(op, 0));
          return success();
        })
        .Case<arith::ExtUIOp>([&](auto ext) {
          unsigned w = ext.getIn().getType().getIntOrFloatBitWidth();
          define(op, w == 32 ? formatv("int64_t(uint32_t({0}))", in(op, 0)).str()
                             : in(op, 0));
          return success();
        })
        .Case<arith::TruncIOp>([&](auto) {
          checkFits(op, define(op, in(op, 0)));
          return success();
        })
        .Case<scf::IfOp>([&](auto ifOp) { return ifElse(ifOp); })
        .Default([&](Operation *other) { return imetaOp(other); });
  }

  LogicalResult arithmetic(Operation *op) {
    const char *sym = isa<arith::AddIOp>(op)   ? "+"
                      : isa<arith::SubIOp>(op) ? "-"
                                               : "*";
    unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
    if (w < 64) {
      // Operands fit 32 bits, so the 64-bit result is exact.
      std::string name =
          define(op, formatv("{0} {1} {2}", in(op, 0), sym, in(op, 1)));
      checkFits(op, name);
      return success();
    }
    std::string name = fresh();
    const char *builtin = isa<arith::AddIOp>(op)   ? "__builtin_add_overflow"
                          : isa<arith::SubIOp>(op) ? "__builtin_sub_overflow"
                                                   : "__builtin_mul_overflow";
    cs.line("int64_t {0};", name);
    cs.line("if ({0}({1}, {2}, &{3})) {4}", builtin, in(op, 0), in(op, 1),
            name, fail("kOverflow64", op, "0"));
    names[op->getResult(0)] = name;
    return success();
  }

  LogicalResult division(Operation *op) {
    std::string a = in(op, 0), b = in(op, 1);
    cs.line("if ({0}{1} == 0) {2}", proven(op), b, fail("kDivZero", op, a));
    unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
    if (w == 32) {
      // i32 operands: 32-bit division (far cheaper than 64-bit on a GPU).
      // Only INT32_MIN / -1 leaves i32; its remainder is 0.
      bool rem = isa<arith::RemSIOp>(op);
      if (!rem)
        cs.line("if ({0}{1} == INT32_MIN && {2} == -1) {3}", proven(op), a, b,
                fail("kOverflow", op, "-int64_t(INT32_MIN)"));
      std::string x = formatv("int32_t({0})", a), y = formatv("int32_t({0})", b);
      // A divisor with a divider (the batch's, or one the loop prepared):
      // multiply and shift.
      std::string dv = dividerOf(st, s, op->getOperand(1));
      bool prepared = !dv.empty();
      auto shared = s.stepQuotients.find(op);
      std::string quotient =
          !prepared ? formatv("{0} / {1}", x, y).str()
          : shared != s.stepQuotients.end() ? shared->second
          : s.exactDivisions.contains(op)
              ? formatv("imeta_udiv32({0}, {1})", x, dv).str()
              : formatv("imeta_div32({0}, {1}, {2})", x, y, dv).str();
      std::string expr =
          isa<arith::DivSIOp>(op) ? quotient
          : rem && prepared
              ? formatv("IMETA_REM32({0}, {1}, {2})", x, y, quotient).str()
          // a - a / b * b: the quotient is shared with a division of the
          // same operands (the compiler merges them: one division, not two).
          : rem ? formatv("({0} == -1 ? 0 : {1} - {2} * {3})", b, x, quotient,
                          y).str()
          : isa<arith::FloorDivSIOp>(op) ? formatv("imeta_floordiv({0}, {1})",
                                                   x, y).str()
                                         : formatv("imeta_ceildiv({0}, {1})",
                                                   x, y).str();
      define(op, expr);
      return success();
    }
    cs.line("if ({0} == INT64_MIN && {1} == -1) {2}", a, b,
            fail("kOverflow64", op, "0"));
    std::string expr;
    if (isa<arith::DivSIOp>(op))
      expr = formatv("{0} / {1}", a, b);
    else if (isa<arith::RemSIOp>(op))
      expr = formatv("{0} % {1}", a, b);
    else if (isa<arith::FloorDivSIOp>(op))
      expr = formatv("imeta_floordiv({0}, {1})", a, b);
    else
      expr = formatv("imeta_ceildiv({0}, {1})", a, b);
    checkFits(op, define(op, expr));
    return success();
  }

  LogicalResult compare(arith::CmpIOp cmp) {
    std::string a = in(cmp, 0), b = in(cmp, 1);
    unsigned w = cmp.getLhs().getType().getIntOrFloatBitWidth();
    auto u = [&](const std::string &x) {
      return w >= 64 ? formatv("uint64_t({0})", x).str()
                     : formatv("(uint64_t({0}) & UINT64_C({1}))", x,
                               (uint64_t(1) << w) - 1)
                           .str();
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
    define(cmp, "(" + expr + ")");
    return success();
  }

  LogicalResult ifElse(scf::IfOp ifOp) {
    SmallVector<std::string> results;
    for (Value r : ifOp.getResults()) {
      results.push_back(fresh());
      names[r] = results.back();
      cs.line("{0}{1} {2} = 0;", maybeUnused(), valueType(st, s, r),
              results.back());
    }
    auto branch = [&](Region &region) -> LogicalResult {
      if (region.empty())
        return success();
      SmallVector<std::string> yielded;
      if (failed(block(region.front(), yielded)))
        return failure();
      for (auto [dst, src] : llvm::zip(results, yielded))
        cs.line("{0} = {1};", dst, src);
      return success();
    };
    if (auto it = s.known.find(ifOp.getCondition()); it != s.known.end()) {
      CodeStream::Scope taken(cs, "");
      return branch(it->second ? ifOp.getThenRegion() : ifOp.getElseRegion());
    }
    {
      CodeStream::Scope then(cs, formatv("if ({0})", in(ifOp, 0)).str());
      if (failed(branch(ifOp.getThenRegion())))
        return failure();
    }
    if (!ifOp.getElseRegion().empty()) {
      CodeStream::Scope otherwise(cs, "else");
      if (failed(branch(ifOp.getElseRegion())))
        return failure();
    }
    return success();
  }

  /// Reads a host-stage array of `def` (seq field, scalar field or sum).
  std::string hostValue(Operation *def, const std::string &index) {
    return formatv("c.h_{0}[{1}]", SymbolTable::getSymbolName(def).getValue(),
                   index)
        .str();
  }

  LogicalResult imetaOp(Operation *op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case<SeqIndexOp>([&](auto) { return alias(op, s.seq); })
        .Case<RowIndexOp>([&](auto) { return alias(op, s.row); })
        .Case<RowOp>([&](auto) { return alias(op, s.globalRow); })
        .Case<ColIndexOp>([&](auto) { return alias(op, s.col); })
        .Case<RatioOp>([&](auto) { return alias(op, s.ratio); })
        .Case<NumSeqsOp>([&](auto) { return alias(op, "c.num_seqs"); })
        .Case<GetConfigOp>([&](auto g) {
          return alias(op, "c.cfg_" + g.getParam().str());
        })
        .Case<GetInputOp>([&](auto g) {
          if (s.fast) {
            define(op, "si_" + g.getInput().str());
            return success();
          }
          define(op, formatv("int64_t(c.in_{0}[{1}])", g.getInput(), s.seq));
          return success();
        })
        .Case<LengthOp>([&](auto l) {
          define(op, formatv("c.in_{0}_end[{1}] - c.in_{0}_begin[{1}]",
                             l.getInput(), s.seq));
          return success();
        })
        .Case<LoadOp>([&](auto l) {
          std::string idx = in(op, 0);
          if (s.fast) {
            if (s.rangeCheckedLoads.contains(op)) {
              define(op, formatv("imeta_ldg(lb_{0}, {1})", l.getInput(), idx));
              return success();
            }
            std::string in = fresh();
            cs.line("const bool {0} = imeta_in_list({1}, ll_{2});", in, idx,
                    l.getInput());
            cs.line("if (!{0}) {1}", in,
                    fail("kOutOfRange", op, idx, "ll_" + l.getInput().str()));
            // A deferred failure goes on past this point: read nothing.
            define(op, s.deferFailures.empty()
                           ? formatv("imeta_ldg(lb_{0}, {1})", l.getInput(),
                                     idx).str()
                           : formatv("{0} ? imeta_ldg(lb_{1}, {2}) : 0", in,
                                     l.getInput(), idx).str());
            return success();
          }
          std::string length =
              formatv("c.in_{0}_end[{1}] - c.in_{0}_begin[{1}]",
                      l.getInput(), s.seq);
          cs.line("if ({0} < 0 || {0} >= {1}) {2}", idx, length,
                  fail("kOutOfRange", op, idx, length));
          define(op, formatv("int64_t(c.in_{0}[c.in_{0}_begin[{1}] + {2}])",
                             l.getInput(), s.seq, idx));
          return success();
        })
        .Case<GetOp>([&](auto g) {
          auto field = lookupSpecSymbol<FieldOp>(g, g.getFieldAttr());
          std::string idx = bucketIndex(st, s, field.getRatiosAttr());
          switch (field.getDomain()) {
          case Domain::scalar:
            return alias(op, hostValue(field, idx));
          case Domain::seq:
            if (s.fast && !field.getRatiosAttr())
              return alias(op, "hs_" + field.getSymName().str());
            return alias(op, hostValue(field, idx + " * c.num_seqs + " + s.seq));
          case Domain::rows:
            return alias(op, s.rowsLocal(field, idx));
          }
          return failure();
        })
        .Case<PrefixAtOp>([&](auto at) {
          auto sum = lookupSpecSymbol<PrefixSumOp>(at, at.getPrefixAttr());
          std::string len = length(sum);
          std::string idx = in(op, 0);
          cs.line("if ({0} < 0 || {0} >= {1}) {2}", idx, len,
                  fail("kOutOfRange", op, idx, len));
          std::string b = bucketIndex(st, s, getRatios(sum));
          define(op, hostValue(sum, b + " * " + len + " + " + idx));
          return success();
        })
        .Case<PrefixTotalOp>([&](auto total) {
          auto sum = lookupSpecSymbol<PrefixSumOp>(total, total.getPrefixAttr());
          std::string len = length(sum);
          std::string b = bucketIndex(st, s, getRatios(sum));
          define(op, formatv("({0} > 0 ? {1} : 0)", len,
                             hostValue(sum, formatv("{0} * {1} + {1} - 1", b,
                                                    len))));
          return success();
        })
        .Case<RatioMinOp>([&](auto m) {
          unsigned id = st.setId(m.getSetAttr());
          cs.line("if (c.num_set[{0}] == 0) {1}", id,
                  fail("kEmptySet", op, "0"));
          define(op, formatv("int64_t(c.set[{0}][0])", id));
          return success();
        })
        .Case<RatioCountOp>([&](auto m) {
          define(op,
                 formatv("int64_t(c.num_set[{0}])", st.setId(m.getSetAttr())));
          return success();
        })
        .Default([&](Operation *other) {
          return other->emitOpError("cannot be emitted as C++");
        });
  }

  std::string length(PrefixSumOp sum) {
    return sum.getConvention() == Convention::exclusive ? "(c.num_seqs + 1)"
                                                        : "c.num_seqs";
  }

  LogicalResult alias(Operation *op, const std::string &expr) {
    define(op, expr);
    return success();
  }

  CodeStream &cs;
  EmitterState &st;
  const FormulaScope &s;
  DenseMap<Value, std::string> names;
};
} // namespace

bool imeta::isLoopInvariantRead(Operation *op) {
  if (auto get = dyn_cast<GetOp>(op))
    return lookupSpecSymbol<FieldOp>(get, get.getFieldAttr()).getDomain() !=
           Domain::rows;
  return isa<GetConfigOp, GetInputOp, RatioOp>(op);
}

std::string imeta::contextDivider(EmitterState &st, const FormulaScope &scope,
                                  Value divisor) {
  Operation *def = divisor.getDefiningOp();
  if (auto cfg = dyn_cast_or_null<GetConfigOp>(def))
    return "c.dv_cfg_" + cfg.getParam().str();
  if (isa_and_nonnull<RatioOp>(def) && scope.ratios)
    return formatv("c.dv_set[{0}][{1}]", st.setId(scope.ratios), scope.bucket)
        .str();
  if (auto get = dyn_cast_or_null<GetOp>(def)) {
    auto field = lookupSpecSymbol<FieldOp>(get, get.getFieldAttr());
    if (field.getDomain() == Domain::scalar)
      return formatv("c.dv_h_{0}[{1}]", field.getSymName(),
                     bucketIndex(st, scope, field.getRatiosAttr()))
          .str();
  }
  return "";
}

std::string imeta::dividerOf(EmitterState &st, const FormulaScope &scope,
                            Value divisor) {
  if (auto it = scope.dividers.find(divisor); it != scope.dividers.end())
    return it->second;
  return contextDivider(st, scope, divisor);
}

bool imeta::isScalarDivisor(FieldOp field) {
  if (field.getDomain() != Domain::scalar)
    return false;
  WalkResult found = field->getParentOp()->walk([&](Operation *op) {
    if (!isa<arith::DivSIOp, arith::RemSIOp>(op) ||
        op->getResult(0).getType().getIntOrFloatBitWidth() != 32)
      return WalkResult::advance();
    auto get = op->getOperand(1).getDefiningOp<GetOp>();
    return get && get.getField() == field.getSymName()
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return found.wasInterrupted();
}

std::string imeta::emitHoisted(CodeStream &cs, EmitterState &st,
                               Operation *op, const FormulaScope &scope) {
  Printer printer(cs, st, scope);
  return printer.hoist(op);
}

LogicalResult imeta::emitSlice(CodeStream &cs, EmitterState &st, Region &body,
                               ArrayRef<Value> targets,
                               const FormulaScope &scope,
                               SmallVectorImpl<std::string> &names) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(targets.begin(), targets.end());
  while (!work.empty()) {
    Operation *op = work.pop_back_val().getDefiningOp();
    if (!op || !body.isAncestor(op->getParentRegion()) || !slice.insert(op))
      continue;
    if (op->getNumRegions() != 0)
      return op->emitOpError("cannot be evaluated apart from its formula");
    work.append(op->operand_begin(), op->operand_end());
  }
  Printer printer(cs, st, scope);
  WalkResult emitted = body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (slice.contains(op) && failed(printer.sliceOp(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (emitted.wasInterrupted())
    return failure();
  for (Value v : targets)
    names.push_back(printer.name(v));
  return success();
}

LogicalResult imeta::emitFormula(CodeStream &cs, EmitterState &st,
                                 Region &body, const FormulaScope &scope,
                                 SmallVectorImpl<std::string> &results) {
  Printer printer(cs, st, scope);
  return printer.block(body.front(), results);
}
