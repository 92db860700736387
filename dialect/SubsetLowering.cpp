//===- SubsetLowering.cpp - fields over a subset of the sequences ---------===//

#include "dialect/SubsetLowering.h"
#include "dialect/IMetaOps.h"
#include "dialect/IMetaSymbols.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
  /// A subset sum's per-sequence sum, every read of the sum made a read
  /// of it.
  FailureOr<PrefixSumOp> retargetSum(PrefixSumOp sum, FieldOp source);
  /// The subset sum itself: a rows field of its entries.
  LogicalResult lowerSum(PrefixSumOp sum, FieldOp source, PrefixSumOp perSeq);
  /// A prefix sum of a rows field: one entry a row (and a closing one).
  LogicalResult lowerRowsSum(PrefixSumOp sum, FieldOp source);
  /// The hidden count `count + (i == N - 1 ? 1 : 0)`: an exclusive sum's
  /// rows, its closing one on the last sequence.
  FieldOp closingCount(OpBuilder &b, PrefixSumOp sum, FlatSymbolRefAttr count);
  /// A hidden prefix sum `sum_over_seqs` of `type` over every sequence of
  /// its sum of `source`'s rows (a fold of them, expanded as every
  /// reduction of rows is; one summand field a source).
  PrefixSumOp perSeqSum(OpBuilder &b, PrefixSumOp sum, FieldOp source,
                        TypeAttr type);
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

/// A reference to the symbol `op` defines.
static FlatSymbolRefAttr ref(Operation *op) {
  return FlatSymbolRefAttr::get(SymbolTable::getSymbolName(op));
}

/// Whether `field`'s formula reads its row in the whole field (r), which
/// a fold of one sequence's rows cannot give it.
static bool readsGlobalRow(FieldOp field) {
  return field.getBody()
      .walk([](RowOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

static bool isSubsetField(FieldOp field) {
  return field.getDomain() == Domain::seq && field.getCountAttr();
}

LogicalResult SubsetLowering::run(Operation *root) {
  // Lookups from the cached tables: every symbol this lowering adds or
  // removes goes through them (a scan of the spec per prefix sum was
  // quadratic in the spec's size).
  SymbolLookupScope cached(tables);
  SmallVector<FieldOp> subsetFields;
  root->walk([&](FieldOp field) {
    if (isSubsetField(field))
      subsetFields.push_back(field);
  });
  // Sums of rows fields first: a subset field is one after this pass.
  SmallVector<std::pair<PrefixSumOp, FieldOp>> rowsSums;
  root->walk([&](PrefixSumOp sum) {
    auto source = lookupSpecSymbol<FieldOp>(sum, sum.getSourceAttr());
    if (source && source.getDomain() == Domain::rows)
      rowsSums.push_back({sum, source});
  });
  for (auto [sum, source] : rowsSums)
    if (failed(lowerRowsSum(sum, source)))
      return failure();
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
  // Every read of every such sum first: a source may read another sum at
  // r, which is no read of r once that sum reads its per-sequence one.
  SmallVector<std::pair<FieldOp, PrefixSumOp>> lowered;
  for (PrefixSumOp sum : sums) {
    auto source = cast<FieldOp>(lookupSymbol(sum, sum.getSourceAttr()));
    FailureOr<PrefixSumOp> perSeq = retargetSum(sum, source);
    if (failed(perSeq))
      return failure();
    lowered.push_back({source, *perSeq});
  }
  for (auto [sum, done] : llvm::zip(sums, lowered))
    if (failed(lowerSum(sum, done.first, done.second)))
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
    return refuse("it is bucketed over a ratio set or an axis (one subset for "
                  "every bucket)");
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
    if (auto reduce = dyn_cast<ReduceOp>(op); reduce && reduce.getColumn())
      if (FieldOp cond = subsetOf(reduce.getFieldAttr(), op)) {
        reduce.emitOpError("reduces ")
            << reduce.getFieldAttr() << " per column, a field over the "
            << "sequences where @" << cond.getSymName() << " holds; a "
            << "column is reduced over every sequence: reduce a field over "
            << "every sequence that is 0 (or the identity) past the members";
        return WalkResult::interrupt();
      }
    FlatSymbolRefAttr read;
    if (auto get = dyn_cast<GetOp>(op))
      read = get.getFieldAttr();
    else if (auto gather = dyn_cast<GatherOp>(op))
      read = gather.getFieldAttr();
    if (read) {
      FieldOp cond = subsetOf(read, op);
      if (!cond)
        return WalkResult::advance();
      FormulaContext ctx = getFormulaContext(op);
      if (isa<GetOp>(op) && ctx.domain == Domain::seq && ctx.count &&
          ctx.count.getValue() == cond.getSymName())
        return WalkResult::advance();
      op->emitOpError("reads ")
          << read << ", which has a value only where @" << cond.getSymName()
          << " holds (seq(@" << cond.getSymName() << "))"
          << hint(read, cond);
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
            << "sequence: `sum_of(" << sym.getValue()
            << ")` is its value at a member, 0 elsewhere";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// `sum`'s error about its subset source `source`.
static InFlightDiagnostic refuseSubsetSum(PrefixSumOp sum, FieldOp cond,
                                          const Twine &why) {
  return sum.emitOpError("sums ")
         << sum.getSourceAttr() << ", a field over the sequences where @"
         << cond.getSymName() << " holds, which " << why;
}

FailureOr<PrefixSumOp> SubsetLowering::retargetSum(PrefixSumOp sum,
                                                   FieldOp source) {
  FieldOp cond = conditions[source];
  if (source.getWidth() != 1 || source.getCols())
    return refuseSubsetSum(sum, cond,
                           "has several values a member; a sum over a "
                           "subset's members sums one value a member");
  auto spec = sum->getParentOfType<SpecOp>();
  StringAttr name = sum.getSymNameAttr();
  OpBuilder b(sum);
  // Over every sequence, of the member's value, 0 elsewhere.
  PrefixSumOp perSeq = perSeqSum(b, sum, source, sum.getTypeAttr());

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
  return perSeq;
}

LogicalResult SubsetLowering::lowerSum(PrefixSumOp sum, FieldOp source,
                                       PrefixSumOp perSeq) {
  FieldOp cond = conditions[source];
  if (readsGlobalRow(source))
    return refuseSubsetSum(sum, cond,
                           "reads r (its index among the members); a sum "
                           "over the members sums what each member's own "
                           "values give");
  auto spec = sum->getParentOfType<SpecOp>();
  MLIRContext *ctx = sum.getContext();
  Location loc = sum.getLoc();
  const bool exclusive = sum.getConvention() == Convention::exclusive;
  StringAttr name = sum.getSymNameAttr();
  OpBuilder b(sum);
  Type i32 = b.getI32Type();

  // The sum's entries: a row a member (and the closing row).
  FlatSymbolRefAttr count = ref(membersOf(cond));
  if (exclusive)
    count = ref(closingCount(b, sum, count));
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

PrefixSumOp SubsetLowering::perSeqSum(OpBuilder &b, PrefixSumOp sum,
                                      FieldOp source, TypeAttr type) {
  auto spec = sum->getParentOfType<SpecOp>();
  Location loc = sum.getLoc();
  FieldOp &summands = summandsOf[source];
  if (!summands) {
    summands = createField(b, loc, spec, sum,
                           freshName(spec, source.getSymName() + "_summands"),
                           Domain::seq, nullptr, source.getRatiosAttr());
    Value own = ReduceOp::create(
        b, loc, b.getI32Type(),
        ReductionAttr::get(b.getContext(), Reduction::sum),
        FlatSymbolRefAttr::get(source.getSymNameAttr()), Value());
    YieldOp::create(b, loc, ValueRange{own});
  }
  b.setInsertionPoint(sum);
  auto perSeq = PrefixSumOp::create(
      b, loc, freshName(spec, sum.getSymName() + "_over_seqs"),
      ref(summands), type);
  // Its failures (an overflow) are the user's sum's.
  perSeq->setAttr(kReportedAsAttr, sum.getSymNameAttr());
  if (!summands->hasAttr(kReportedAsAttr))
    summands->setAttr(kReportedAsAttr, sum.getSymNameAttr());
  tables.getSymbolTable(spec).insert(perSeq);
  return perSeq;
}

FieldOp SubsetLowering::closingCount(OpBuilder &b, PrefixSumOp sum,
                                     FlatSymbolRefAttr count) {
  auto spec = sum->getParentOfType<SpecOp>();
  Location loc = sum.getLoc();
  // Bucketed as the count it extends.
  auto counted = lookupSpecSymbol<FieldOp>(sum, count);
  FieldOp rows = createField(
      b, loc, spec, sum, freshName(spec, sum.getSymName() + "_rows"),
      Domain::seq, nullptr, counted ? counted.getRatiosAttr() : nullptr);
  Type i32 = b.getI32Type();
  Value own = GetOp::create(b, loc, i32, count);
  Value i = SeqIndexOp::create(b, loc, i32);
  Value n = NumSeqsOp::create(b, loc, i32);
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, i,
                                     arith::SubIOp::create(b, loc, n, one));
  Value closing = arith::SelectOp::create(b, loc, last, one, zero);
  YieldOp::create(b, loc,
                  ValueRange{arith::AddIOp::create(b, loc, own, closing)});
  b.setInsertionPoint(sum);
  return rows;
}

LogicalResult SubsetLowering::lowerRowsSum(PrefixSumOp sum, FieldOp source) {
  auto refuse = [&](const Twine &why) {
    return sum.emitOpError("sums the rows field ")
           << sum.getSourceAttr() << ", which " << why;
  };
  if (source.getWidth() != 1 || source.getCols() ||
      !source.getElementType().isInteger(32))
    return refuse("is not one i32 value a row; a sum over rows sums one "
                  "value a row");
  if (readsGlobalRow(source))
    return refuse("reads r (its row in the whole field); write its row from "
                  "a prefix sum of its count and j instead");
  auto spec = sum->getParentOfType<SpecOp>();
  MLIRContext *ctx = sum.getContext();
  Location loc = sum.getLoc();
  const bool exclusive = sum.getConvention() == Convention::exclusive;
  StringAttr name = sum.getSymNameAttr();
  OpBuilder b(sum);
  Type i32 = b.getI32Type();
  auto startType = PrefixType::get(ctx, Convention::exclusive);
  PrefixSumOp perSeq = perSeqSum(b, sum, source, TypeAttr::get(startType));

  // Reads: its total alone (an entry's index is a row of another space).
  SmallVector<Operation *> reads;
  WalkResult walk = spec->walk([&](Operation *op) {
    auto at = dyn_cast<PrefixAtOp>(op);
    auto total = dyn_cast<PrefixTotalOp>(op);
    if (at && at.getPrefixAttr().getAttr() == name) {
      at.emitOpError("reads ")
          << at.getPrefixAttr() << ", a prefix sum of the rows of "
          << sum.getSourceAttr() << ", at an index: read total("
          << name.getValue() << "), or output it";
      return WalkResult::interrupt();
    }
    if (total && total.getPrefixAttr().getAttr() == name)
      reads.push_back(op);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (Operation *read : reads)
    cast<PrefixTotalOp>(read).setPrefixAttr(ref(perSeq));

  FlatSymbolRefAttr count = source.getCountAttr();
  if (exclusive)
    count = ref(closingCount(b, sum, count));
  b.setInsertionPoint(sum);
  Operation *anchor = sum->getNextNode();
  tables.getSymbolTable(spec).erase(sum);
  FieldOp entries = createField(b, loc, spec, anchor, name, Domain::rows,
                                count, source.getRatiosAttr());
  // Row j of sequence i: the rows before its sequence, and its sequence's
  // rows before j (through j, inclusive), each a gather of the source.
  Value i = SeqIndexOp::create(b, loc, i32);
  Value start = PrefixAtOp::create(b, loc, i32, ref(perSeq), i, Value(),
                                   TypeAttr::get(startType));
  Value j = RowIndexOp::create(b, loc, i32);
  Value upTo = j;
  if (!exclusive)
    upTo = arith::AddIOp::create(b, loc, j,
                                 arith::ConstantIntOp::create(b, loc, i32, 1));
  Value ownRows = GetOp::create(b, loc, i32, source.getCountAttr());
  Value inRows =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, j, ownRows);
  auto before = scf::IfOp::create(b, loc, TypeRange{i32}, inRows,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&before.getThenRegion().front());
    auto fold = ReduceRowsOp::create(
        b, loc, i32, ReductionAttr::get(ctx, Reduction::sum), upTo);
    Block &body = fold.getBody().emplaceBlock();
    Value row = body.addArgument(i32, loc);
    OpBuilder inner = OpBuilder::atBlockEnd(&body);
    Value v = GatherOp::create(inner, loc, i32, ref(source), row);
    YieldOp::create(inner, loc, ValueRange{v});
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::AddIOp::create(b, loc, start, fold)});
    b.setInsertionPointToStart(&before.getElseRegion().front());
    // The closing row: every row's sum.
    Value total = PrefixTotalOp::create(b, loc, i32, ref(perSeq), Value());
    scf::YieldOp::create(b, loc, ValueRange{total});
  }
  YieldOp::create(b, loc, ValueRange{before.getResult(0)});
  if (exclusive)
    entries->setAttr(kClosingRowAttr, UnitAttr::get(ctx));
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
