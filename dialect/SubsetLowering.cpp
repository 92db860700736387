//===- SubsetLowering.cpp - fields over a subset of the sequences ---------===//

#include "dialect/SubsetLowering.h"
#include "dialect/IMetaOps.h"
#include "dialect/IMetaSymbols.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace imeta;

namespace {
class SubsetLowering {
public:
  LogicalResult run(Operation *root);

private:
  /// Every read of a subset field outside a field over its subset.
  LogicalResult checkReads(Operation *root);
  LogicalResult lowerSum(PrefixSumOp sum, FieldOp source);
  /// Rewrites a read of subset sum `sum` to read `perSeq` in its place.
  LogicalResult retarget(Operation *read, PrefixSumOp sum, FieldOp source,
                         PrefixSumOp perSeq);
  /// The hidden `cond ? 1 : 0` field (made once a condition).
  FieldOp membersOf(FieldOp cond);
  /// `base`, or `base_K` for the first K >= 2 the spec does not name.
  StringAttr freshName(SpecOp spec, const Twine &base);
  /// An empty seq or rows field `name`, before `anchor` (null: at the
  /// end of `spec`), learnt by the symbol table; the builder is left in
  /// its body.
  FieldOp createField(OpBuilder &b, Location loc, SpecOp spec,
                      Operation *anchor,
                      StringAttr name,
                      Domain domain, FlatSymbolRefAttr count,
                      FlatSymbolRefAttr ratios);

  SymbolTableCollection tables;
  DenseMap<Operation *, FieldOp> members;
  /// Each summed subset field's per-sequence summands.
  DenseMap<Operation *, FieldOp> summandsOf;
  /// Each subset field's condition.
  DenseMap<Operation *, FieldOp> conditions;
};
} // namespace

static bool isSubsetField(FieldOp field) {
  return field.getDomain() == Domain::seq && field.getCountAttr();
}

LogicalResult SubsetLowering::run(Operation *root) {
  SmallVector<FieldOp> subsetFields;
  root->walk([&](FieldOp field) {
    if (isSubsetField(field))
      subsetFields.push_back(field);
  });
  if (subsetFields.empty())
    return success();
  for (FieldOp field : subsetFields) {
    FailureOr<FieldOp> cond = subsetCondition(field);
    if (failed(cond))
      return failure();
    conditions[field] = *cond;
  }
  if (failed(checkReads(root)))
    return failure();
  SmallVector<PrefixSumOp> sums;
  root->walk([&](PrefixSumOp sum) {
    auto source = lookupSymbol(sum, sum.getSourceAttr());
    if (source && conditions.count(source))
      sums.push_back(sum);
  });
  for (PrefixSumOp sum : sums)
    if (failed(lowerSum(sum, cast<FieldOp>(lookupSymbol(
                                 sum, sum.getSourceAttr())))))
      return failure();
  for (FieldOp field : subsetFields) {
    FieldOp count = membersOf(conditions[field]);
    field.setDomain(Domain::rows);
    field.setCountAttr(FlatSymbolRefAttr::get(count.getSymNameAttr()));
  }
  return success();
}

FailureOr<FieldOp> imeta::subsetCondition(FieldOp field) {
  FlatSymbolRefAttr sym = field.getCountAttr();
  auto cond = lookupSpecSymbol<FieldOp>(field, sym);
  auto refuse = [&](const Twine &why) {
    return field.emitOpError("is over the sequences where ")
           << sym << " holds (seq(" << sym << ")), but " << why
           << "; a subset's condition is a 'seq' field of one i1 value a "
              "sequence (`imeta.field @is_prefill seq = \"q > 1\" : i1`)";
  };
  if (!cond)
    return refuse(lookupSymbol(field, sym) ? "it is not a field"
                                           : "the spec does not define it");
  if (isSubsetField(cond))
    return refuse("it is itself over a subset; write both conditions in "
                  "one (`a && b`)");
  if (cond.getDomain() != Domain::seq)
    return refuse(Twine("it is a '") + stringifyDomain(cond.getDomain()) +
                  "' field");
  // (A compact condition not expanded yet is checked once it is.)
  if (!cond.getFormula() &&
      (cond.getWidth() != 1 || cond.getCols() ||
       !cond.getElementType().isInteger(1)))
    return refuse("it is not one i1 value a sequence");
  if (cond.getRatiosAttr())
    return refuse("it is bucketed over a ratio set (one subset for every "
                  "bucket)");
  return cond;
}

LogicalResult SubsetLowering::checkReads(Operation *root) {
  auto subsetOf = [&](FlatSymbolRefAttr sym, Operation *from) -> FieldOp {
    Operation *def = lookupSymbol(from, sym);
    auto it = def ? conditions.find(def) : conditions.end();
    return it == conditions.end() ? FieldOp() : it->second;
  };
  auto hint = [](FlatSymbolRefAttr f, FieldOp cond) {
    return (Twine("; read it in a field over seq(@") + cond.getSymName() +
            "), or reduce it over the members: sum_of(" + f.getValue() +
            "), max_of(" + f.getValue() + "), min_of(" + f.getValue() + ")")
        .str();
  };
  WalkResult walk = root->walk([&](Operation *op) {
    if (auto get = dyn_cast<GetOp>(op)) {
      FieldOp cond = subsetOf(get.getFieldAttr(), op);
      if (!cond)
        return WalkResult::advance();
      FormulaContext ctx = getFormulaContext(op);
      if (ctx.domain == Domain::seq && ctx.count &&
          ctx.count.getValue() == cond.getSymName())
        return WalkResult::advance();
      get.emitOpError("reads ")
          << get.getFieldAttr() << ", which has a value only where @"
          << cond.getSymName() << " holds (seq(@" << cond.getSymName()
          << "))" << hint(get.getFieldAttr(), cond);
      return WalkResult::interrupt();
    }
    auto field = dyn_cast<FieldOp>(op);
    if (!field)
      return WalkResult::advance();
    for (auto [sym, use] : {std::pair(field.getCountAttr(), "rows"),
                            std::pair(field.getLiveAttr(), "live")}) {
      if (!sym || (isSubsetField(field) && StringRef(use) == "rows"))
        continue;
      if (FieldOp cond = subsetOf(sym, op)) {
        field.emitOpError("counts its ")
            << (StringRef(use) == "rows" ? "rows" : "live columns")
            << " with " << sym << ", which has a value only where @"
            << cond.getSymName() << " holds; count with a field over every "
            << "sequence, e.g. `" << cond.getSymName() << " ? q : 0`";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult SubsetLowering::lowerSum(PrefixSumOp sum, FieldOp source) {
  FieldOp cond = conditions[source];
  auto refuse = [&](const Twine &why) {
    return sum.emitOpError("sums ")
           << sum.getSourceAttr() << ", a field over the sequences where @"
           << cond.getSymName() << " holds, which " << why;
  };
  if (source.getWidth() != 1 || source.getCols())
    return refuse("has several values a member; a sum over a subset's "
                  "members sums one value a member");
  if (source.getBody()
          .walk([](RowOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return refuse("reads r (its index among the members); a sum over the "
                  "members sums what each member's own values give");

  auto spec = sum->getParentOfType<SpecOp>();
  MLIRContext *ctx = sum.getContext();
  Location loc = sum.getLoc();
  const bool exclusive = sum.getConvention() == Convention::exclusive;
  StringAttr name = sum.getSymNameAttr();
  OpBuilder b(sum);
  Type i32 = b.getI32Type();
  auto ref = [](Operation *op) {
    return FlatSymbolRefAttr::get(SymbolTable::getSymbolName(op));
  };

  // Each sequence's summand: the member's value, 0 elsewhere (a fold of
  // the source's 0 or 1 rows, expanded as every reduction of rows is),
  // one field a source.
  FieldOp &summands = summandsOf[source];
  if (!summands) {
    summands = createField(b, loc, spec, sum,
                           freshName(spec, source.getSymName() + "_summands"),
                           Domain::seq, nullptr, source.getRatiosAttr());
    Value own = ReduceOp::create(b, loc, i32,
                                 ReductionAttr::get(ctx, Reduction::sum),
                                 ref(source), Value());
    YieldOp::create(b, loc, ValueRange{own});
  }
  b.setInsertionPoint(sum);
  auto perSeq = PrefixSumOp::create(
      b, loc, freshName(spec, name.getValue() + "_over_seqs"),
      ref(summands), sum.getTypeAttr());
  tables.getSymbolTable(spec).insert(perSeq);

  // Reads of the sum read the per-sequence sum at the member's sequence.
  SmallVector<Operation *> reads;
  spec->walk([&](Operation *op) {
    auto at = dyn_cast<PrefixAtOp>(op);
    auto total = dyn_cast<PrefixTotalOp>(op);
    if ((at && at.getPrefixAttr().getAttr() == name) ||
        (total && total.getPrefixAttr().getAttr() == name))
      reads.push_back(op);
  });
  for (Operation *read : reads)
    if (failed(retarget(read, sum, source, perSeq)))
      return failure();

  // The sum's entries: a row a member (and the closing row).
  FlatSymbolRefAttr count = ref(membersOf(cond));
  if (exclusive) {
    b.setInsertionPoint(sum);
    FieldOp rows =
        createField(b, loc, spec, sum, freshName(spec, name.getValue() + "_rows"),
                    Domain::seq, nullptr, nullptr);
    Value member = GetOp::create(b, loc, i32, count);
    Value i = SeqIndexOp::create(b, loc, i32);
    Value n = NumSeqsOp::create(b, loc, i32);
    Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
    Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, i,
                                       arith::SubIOp::create(b, loc, n, one));
    Value closing = arith::SelectOp::create(b, loc, last, one, zero);
    YieldOp::create(b, loc,
                    ValueRange{arith::AddIOp::create(b, loc, member, closing)});
    count = ref(rows);
  }
  b.setInsertionPoint(sum);
  Operation *anchor = sum->getNextNode();
  tables.getSymbolTable(spec).erase(sum);
  FieldOp entries = createField(b, loc, spec, anchor, name, Domain::rows, count,
                                source.getRatiosAttr());
  Value i = SeqIndexOp::create(b, loc, i32);
  Value start = PrefixAtOp::create(b, loc, i32, ref(perSeq), i, Value(),
                                   perSeq.getTypeAttr());
  if (exclusive) {
    // A member's row (row 0 of its sequence) is its start; the closing
    // row, the total.
    Value isMember = GetOp::create(b, loc, b.getI1Type(), ref(cond));
    Value j = RowIndexOp::create(b, loc, i32);
    Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, j, zero);
    Value own = arith::AndIOp::create(b, loc, isMember, first);
    Value total = PrefixTotalOp::create(b, loc, i32, ref(perSeq), Value());
    start = arith::SelectOp::create(b, loc, own, start, total);
    entries->setAttr(kClosingRowAttr, UnitAttr::get(ctx));
  }
  YieldOp::create(b, loc, ValueRange{start});
  return success();
}

LogicalResult SubsetLowering::retarget(Operation *read, PrefixSumOp sum,
                                       FieldOp source, PrefixSumOp perSeq) {
  auto perSeqRef = FlatSymbolRefAttr::get(perSeq.getSymNameAttr());
  if (auto total = dyn_cast<PrefixTotalOp>(read)) {
    total.setPrefixAttr(perSeqRef);
    return success();
  }
  auto at = cast<PrefixAtOp>(read);
  FieldOp cond = conditions[source];
  const bool exclusive = sum.getConvention() == Convention::exclusive;
  FormulaContext ctx = getFormulaContext(read);
  bool sameSubset = ctx.domain == Domain::seq && ctx.count &&
                    ctx.count.getValue() == cond.getSymName();
  // The index: r (the member) or, exclusive, r + 1 (its end).
  Operation *index = at.getIndex().getDefiningOp();
  bool plusOne = false;
  if (auto add = dyn_cast_or_null<arith::AddIOp>(index); add && exclusive) {
    for (auto [x, y] : {std::pair(add.getLhs(), add.getRhs()),
                        std::pair(add.getRhs(), add.getLhs())}) {
      auto c = y.getDefiningOp<arith::ConstantIntOp>();
      if (c && c.value() == 1 && x.getDefiningOp<RowOp>()) {
        index = x.getDefiningOp();
        plusOne = true;
      }
    }
  }
  if (!sameSubset || !isa_and_nonnull<RowOp>(index) || at.getColumn())
    return at.emitOpError("reads ")
           << at.getPrefixAttr() << ", a prefix sum over the sequences where @"
           << cond.getSymName() << " holds, at an index other than the "
           << "current member's; in a field over seq(@" << cond.getSymName()
           << ") read " << sum.getSymName() << "[r] ("
           << (exclusive ? "its start), " + sum.getSymName().str() +
                               "[r + 1] (its end)"
                         : std::string("its end)"))
           << ", or anywhere total(" << sum.getSymName() << ")";
  OpBuilder b(at);
  Type i32 = b.getI32Type();
  Value i = SeqIndexOp::create(b, at.getLoc(), i32);
  if (plusOne)
    i = arith::AddIOp::create(
        b, at.getLoc(), i, arith::ConstantIntOp::create(b, at.getLoc(), i32, 1));
  // The old index's ops, outermost first, erased where read no more (a
  // read of r left behind would stop the sum of a field that holds it).
  SmallVector<Operation *> old = {at.getIndex().getDefiningOp()};
  for (Value operand : old.front()->getOperands())
    old.push_back(operand.getDefiningOp());
  at.getIndexMutable().assign(i);
  at.setPrefixAttr(perSeqRef);
  for (Operation *dead : old)
    if (dead && dead->use_empty())
      dead->erase();
  return success();
}

FieldOp SubsetLowering::membersOf(FieldOp cond) {
  FieldOp &made = members[cond];
  if (made)
    return made;
  auto spec = cond->getParentOfType<SpecOp>();
  OpBuilder b(cond);
  made = createField(b, cond.getLoc(), spec, cond->getNextNode(),
                     freshName(spec, cond.getSymName() + "_members"),
                     Domain::seq, nullptr, nullptr);
  Location loc = cond.getLoc();
  Type i32 = b.getI32Type();
  Value member = GetOp::create(b, loc, b.getI1Type(),
                               FlatSymbolRefAttr::get(cond.getSymNameAttr()));
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  YieldOp::create(b, loc,
                  ValueRange{arith::SelectOp::create(b, loc, member, one, zero)});
  return made;
}

StringAttr SubsetLowering::freshName(SpecOp spec, const Twine &base) {
  std::string first = base.str(), name = first;
  auto taken = [&](StringRef n) {
    return tables.lookupSymbolIn(spec, StringAttr::get(spec.getContext(), n));
  };
  for (unsigned k = 2; taken(name); ++k)
    name = first + "_" + std::to_string(k);
  return StringAttr::get(spec.getContext(), name);
}

FieldOp SubsetLowering::createField(OpBuilder &b, Location loc,
                                    SpecOp spec, Operation *anchor, StringAttr name,
                                    Domain domain, FlatSymbolRefAttr count,
                                    FlatSymbolRefAttr ratios) {
  if (anchor)
    b.setInsertionPoint(anchor);
  else
    b.setInsertionPointToEnd(&spec.getBody().front());
  MLIRContext *ctx = b.getContext();
  auto field = FieldOp::create(b, loc, name,
                               DomainAttr::get(ctx, domain), count, ratios,
                               /*cols=*/nullptr, /*live=*/nullptr,
                               /*formula=*/nullptr, /*formula_type=*/nullptr,
                               /*formula_loc=*/nullptr);
  tables.getSymbolTable(spec).insert(field);
  b.setInsertionPointToStart(&field.getBody().emplaceBlock());
  return field;
}

LogicalResult imeta::lowerSubsets(Operation *root) {
  return SubsetLowering().run(root);
}

int64_t imeta::emptyDomainRows(Operation *def) {
  if (auto sum = dyn_cast_or_null<PrefixSumOp>(def))
    return sum.getConvention() == Convention::exclusive ? 1 : 0;
  return def && def->hasAttr(kClosingRowAttr) ? 1 : 0;
}
