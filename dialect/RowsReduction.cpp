//===- RowsReduction.cpp - imeta.reduce of a rows field's rows ------------===//

#include "dialect/RowsReduction.h"
#include "dialect/IMetaOps.h"
#include "dialect/IMetaSymbols.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include <map>

using namespace mlir;
using namespace imeta;

namespace {
class RowsReductionExpander {
public:
  LogicalResult run(Operation *root);

private:
  LogicalResult expand(ReduceOp reduce, FieldOp source);
  /// `reduce_rows KIND count(X) { gather X[r] }` at `b`'s insertion point.
  Value foldRows(OpBuilder &b, Location loc, Reduction kind, Type type,
                 FieldOp source);
  /// The hidden seq field of each sequence's fold (made once per field
  /// and kind).
  FieldOp perSequenceField(ReduceOp reduce, FieldOp source);

  SymbolTableCollection tables;
  std::map<std::pair<Operation *, Reduction>, FieldOp> hidden;
};
} // namespace

LogicalResult RowsReductionExpander::run(Operation *root) {
  // Lookups from `tables`, which learn each field made here.
  SymbolLookupScope scope(tables);
  SmallVector<ReduceOp> work;
  root->walk([&](ReduceOp reduce) {
    auto field = lookupSpecSymbol<FieldOp>(reduce, reduce.getFieldAttr());
    if (field && field.getDomain() == Domain::rows)
      work.push_back(reduce);
  });
  for (ReduceOp reduce : work) {
    // The op is gone once expanded: its checks run here.
    if (failed(reduce.verifySymbolUses(tables)))
      return failure();
    auto source = lookupSpecSymbol<FieldOp>(reduce, reduce.getFieldAttr());
    if (failed(expand(reduce, source)))
      return failure();
  }
  return success();
}

LogicalResult RowsReductionExpander::expand(ReduceOp reduce, FieldOp source) {
  if (source.getFormula())
    return reduce.emitOpError("reduces ")
           << reduce.getFieldAttr() << ", whose formula did not expand";
  if (source.getBody()
          .walk([](RowOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return reduce.emitOpError("reduces the rows of ")
           << reduce.getFieldAttr() << ", which reads its global row "
           << "(imeta.row); write its row from a prefix sum of '"
           << source.getCount()->str() << "' and imeta.row_index instead";

  OpBuilder b(reduce);
  Location loc = reduce.getLoc();
  Type type = reduce.getType();
  Reduction kind = reduce.getKind();
  if (getFormulaContext(reduce).domain == Domain::seq) {
    reduce.replaceAllUsesWith(foldRows(b, loc, kind, type, source));
    reduce.erase();
    return success();
  }

  // A scalar: the per-sequence folds reduced over the batch.
  FieldOp perSeq = perSequenceField(reduce, source);
  Value value =
      ReduceOp::create(b, loc, type, reduce.getKindAttr(),
                       FlatSymbolRefAttr::get(perSeq.getSymNameAttr()),
                       Value());
  if (kind != Reduction::sum) {
    // max and min are 0 where no sequence has a row (as over no values).
    Type i32 = b.getI32Type();
    Value rows = ReduceOp::create(
        b, loc, i32, ReductionAttr::get(b.getContext(), Reduction::max),
        source.getCountAttr(), Value());
    Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
    Value any =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, rows, zero);
    Value none = arith::ConstantIntOp::create(b, loc, type, 0);
    value = arith::SelectOp::create(b, loc, any, value, none);
  }
  reduce.replaceAllUsesWith(value);
  reduce.erase();
  return success();
}

Value RowsReductionExpander::foldRows(OpBuilder &b, Location loc,
                                      Reduction kind, Type type,
                                      FieldOp source) {
  Type i32 = b.getI32Type();
  Value count = GetOp::create(b, loc, i32, source.getCountAttr());
  auto fold = ReduceRowsOp::create(
      b, loc, type, ReductionAttr::get(b.getContext(), kind), count);
  Block &body = fold.getBody().emplaceBlock();
  Value row = body.addArgument(i32, loc);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body);
  Value value = GatherOp::create(
      b, loc, type, FlatSymbolRefAttr::get(source.getSymNameAttr()), row);
  YieldOp::create(b, loc, ValueRange{value});
  return fold.getResult();
}

/// KIND's identity in `type` (i32 or i1): what a sequence without rows
/// contributes to a batch's maximum or minimum.
static int64_t identity(Reduction kind, Type type) {
  bool isBool = type.isInteger(1);
  if (kind == Reduction::max)
    return isBool ? 0 : INT32_MIN;
  return isBool ? 1 : INT32_MAX;
}

FieldOp RowsReductionExpander::perSequenceField(ReduceOp reduce,
                                                FieldOp source) {
  auto [it, inserted] =
      hidden.try_emplace({source.getOperation(), reduce.getKind()});
  if (!inserted)
    return it->second;
  auto spec = source->getParentOfType<SpecOp>();
  std::string base = (source.getSymName() + "_" +
                      stringifyReduction(reduce.getKind()) + "_over_rows")
                         .str();
  std::string name = base;
  auto taken = [&](StringRef n) {
    return tables.lookupSymbolIn(spec, StringAttr::get(spec.getContext(), n));
  };
  for (unsigned k = 2; taken(name); ++k)
    name = base + "_" + std::to_string(k);

  // Before the spec-level op that holds the reduction.
  Operation *anchor = reduce;
  while (anchor->getParentOp() != spec.getOperation())
    anchor = anchor->getParentOp();
  OpBuilder b(anchor);
  Location loc = reduce.getLoc();
  MLIRContext *ctx = b.getContext();
  auto field = FieldOp::create(
      b, loc, b.getStringAttr(name), DomainAttr::get(ctx, Domain::seq),
      /*count=*/nullptr, source.getRatiosAttr(), /*cols=*/nullptr,
      /*live=*/nullptr, /*formula=*/nullptr, /*formula_type=*/nullptr,
      /*formula_loc=*/nullptr);
  b.setInsertionPointToStart(&field.getBody().emplaceBlock());
  Type type = reduce.getType();
  Reduction kind = reduce.getKind();
  Value value = foldRows(b, loc, kind, type, source);
  if (kind != Reduction::sum) {
    // A sequence without rows must not be taken for a row of value 0.
    auto fold = value.getDefiningOp<ReduceRowsOp>();
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                      fold.getCount(), zero);
    Value none =
        arith::ConstantIntOp::create(b, loc, type, identity(kind, type));
    value = arith::SelectOp::create(b, loc, any, value, none);
  }
  YieldOp::create(b, loc, ValueRange{value});
  tables.getSymbolTable(spec).insert(field);
  it->second = field;
  return field;
}

LogicalResult imeta::expandRowsReductions(Operation *root) {
  return RowsReductionExpander().run(root);
}
