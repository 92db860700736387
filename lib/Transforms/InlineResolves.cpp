//===- InlineResolves.cpp - a resolving path as a path of the given batch -===//
//
// imeta.resolve says that in a path every read of the input is a read of
// the field. On a copy of the spec made for one such path, this makes it
// so (and drops the other paths, whose fields it rewrites), leaving a
// path that reads the batch as given (its state at each
// slot) and nothing resolved: every backend, the device step included,
// then runs it as any path that reads request state in place.
//
//   get_input @X (scalar)   ->  get @F (a seq field)
//   length @X (list)        ->  get @C (F's row count)
//   load @X[%u] (list)      ->  F's formula at row check_index(%u, C) (the
//                               load's own words when %u is outside it)
//
// The evaluator's order is kept (SPEC-async.md §4): the rules that read
// state first, then the resolved batch's bounds (one rule, sequence by
// sequence in declaration order, after every resolving field, worded as
// a batch file's: `imeta.resolved_bounds`), then the other rules. A list's
// elements are checked through two hidden seq fields per list: the first
// row below its `min` (counted from the end, 0 for none) and its value.
//
//===----------------------------------------------------------------------===//

#include "dialect/CompactFormula.h"
#include "dialect/IMetaSymbols.h"
#include "lib/Transforms/Passes.h"
#include "lib/Analysis/PathPlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

namespace imeta {
#define GEN_PASS_DEF_INLINERESOLVES
#include "lib/Transforms/Passes.h.inc"
} // namespace imeta

using namespace mlir;
using namespace imeta;
using llvm::formatv;

namespace {
/// One input the path resolves: the field that stands for it and, for a
/// list, that field's row count.
struct Resolution {
  InputOp input;
  FieldOp field;
  FieldOp count; // a list's; null for a scalar
};
} // namespace

static DenseMap<StringRef, Resolution> resolutions(PathOp path) {
  DenseMap<StringRef, Resolution> map;
  for (ResolveOp r : getPathResolves(path)) {
    Resolution res;
    res.input = lookupSpecSymbol<InputOp>(r, r.getInputAttr());
    res.field = lookupSpecSymbol<FieldOp>(r, r.getFieldAttr());
    if (res.field.getDomain() == Domain::rows)
      res.count = lookupSpecSymbol<FieldOp>(r, res.field.getCountAttr());
    map[res.input.getSymName()] = res;
  }
  return map;
}

/// A rule's words or a field's name, for a diagnostic.
static std::string symbolOrRule(Operation *op) {
  if (auto rule = dyn_cast<RequireOp>(op))
    return ("rule " + rule.getRule() + ": " + rule.getMessage()).str();
  return ("field '" + SymbolTable::getSymbolName(op).getValue() + "'").str();
}

/// The fields, sums and rules whose formulas the path reads.
static SmallVector<Operation *> pathBodies(PathOp path) {
  PathPlan plan = defaultPlan(path);
  SmallVector<Operation *> ops(plan.needed.begin(), plan.needed.end());
  for (RequireOp rule : allRules(path))
    ops.push_back(rule);
  return ops;
}

std::string imeta::whyResolvesStay(PathOp path) {
  DenseMap<StringRef, Resolution> res = resolutions(path);
  if (res.empty())
    return "";
  std::string why;
  for (auto &[name, r] : res)
    if (r.count)
      r.field->walk([&](RowOp) {
        why = ("'" + r.field.getSymName() +
               "' reads its global row (imeta.row): it has no value at a "
               "row of its own sequence alone")
                  .str();
      });
  for (Operation *op : pathBodies(path)) {
    op->walk([&](CountOp count) {
      if (why.empty() && res.count(count.getInput()))
        why = ("'" + count.getInput() + "' is read by count() in " +
               symbolOrRule(op))
                  .str();
    });
  }
  return why;
}

/// Rows field `field`'s formula at `row` of the current sequence, built at
/// `b`: its body with its row index `row`, each rows field it reads
/// gathered there (imeta.gather, expanded with the others).
static Value rowValue(OpBuilder &b, FieldOp field, Value row) {
  IRMapping map;
  SmallVector<Operation *> cloned;
  Block &body = field.getBody().front();
  for (Operation &op : body.without_terminator())
    cloned.push_back(b.clone(op, map));
  // The value the field yields, followed through the replacements below
  // (it may be the row index itself, or a rows field read).
  Value result = map.lookupOrDefault(field.getYield().getValues().front());
  SmallVector<Operation *> erase;
  for (Operation *top : cloned)
    top->walk([&](Operation *op) {
      Value by;
      if (isa<RowIndexOp>(op)) {
        by = row;
      } else if (auto get = dyn_cast<GetOp>(op)) {
        auto read = lookupSpecSymbol<FieldOp>(field, get.getFieldAttr());
        if (!read || read.getDomain() != Domain::rows)
          return;
        OpBuilder at(get);
        by = GatherOp::create(at, get.getLoc(), get.getType(),
                              get.getFieldAttr(), row)
                 .getResult();
      } else {
        return;
      }
      if (result == op->getResult(0))
        result = by;
      op->getResult(0).replaceAllUsesWith(by);
      erase.push_back(op);
    });
  for (Operation *op : erase)
    op->erase();
  return result;
}

/// Rewrites every read of a resolved input in `root`'s formulas.
static void rewriteReads(Operation *root,
                         const DenseMap<StringRef, Resolution> &res) {
  SmallVector<Operation *> reads;
  root->walk([&](Operation *op) {
    if (InputOp in = readInput(op); in && res.count(in.getSymName()))
      reads.push_back(op);
  });
  for (Operation *op : reads) {
    Resolution r = res.find(readInput(op).getSymName())->second;
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto sym = [&](FieldOp f) { return FlatSymbolRefAttr::get(f.getSymNameAttr()); };
    Value value;
    // The read keeps the input's name for the messages that print it
    // (a broken rule's operands, RuleOperands.h).
    if (auto get = dyn_cast<GetInputOp>(op)) {
      value = GetOp::create(b, loc, get.getType(), sym(r.field));
      value.getDefiningOp()->setAttr("imeta.read_as", get.getInputAttr().getAttr());
    } else if (auto len = dyn_cast<LengthOp>(op)) {
      value = GetOp::create(b, loc, len.getType(), sym(r.count));
      value.getDefiningOp()->setAttr(
          "imeta.read_as",
          b.getStringAttr("len(" + len.getInput().str() + ")"));
    } else {
      auto load = cast<LoadOp>(op);
      Value count = GetOp::create(b, loc, b.getI32Type(), sym(r.count));
      Value row = CheckIndexOp::create(b, loc, b.getI32Type(), load.getIndex(),
                                       count,
                                       b.getStringAttr(load.getFailureSubject()));
      value = rowValue(b, r.field, row);
      // An element read names no value of the formula as written: the
      // count and the resolving formula's reads print nothing.
      for (Operation *made = count.getDefiningOp(); made != op;
           made = made->getNextNode())
        if (isa<FormulaOpInterface>(made) && made->getNumOperands() == 0 &&
            !made->hasAttr("imeta.read_as"))
          made->setAttr("imeta.read_as", b.getStringAttr(""));
    }
    op->getResult(0).replaceAllUsesWith(value);
    op->erase();
  }
}

/// Adds, after the resolving fields, the fields and the rule that check
/// the resolved inputs' `min`; returns the rule (null where none has one).
static FailureOr<RequireOp>
addBoundsRule(SpecOp spec, PathOp path,
              const DenseMap<StringRef, Resolution> &res) {
  MLIRContext *ctx = spec.getContext();
  OpBuilder b(ctx);
  b.setInsertionPoint(path);
  SmallVector<Attribute> checks;
  SmallVector<std::string> holds;
  for (InputOp in : spec.getBody().front().getOps<InputOp>()) {
    auto it = res.find(in.getSymName());
    std::optional<uint64_t> min = in.getMin();
    if (it == res.end() || !min || in.getType().isInteger(1))
      continue;
    Resolution r = it->second;
    NamedAttrList check;
    check.set("input", FlatSymbolRefAttr::get(in.getSymNameAttr()));
    check.set("min", b.getI64IntegerAttr(int64_t(*min)));
    if (!r.count) {
      check.set("value", FlatSymbolRefAttr::get(r.field.getSymNameAttr()));
      holds.push_back(formatv("@{0} >= {1}", r.field.getSymName(),
                              int64_t(*min)));
      checks.push_back(check.getDictionary(ctx));
      continue;
    }
    // A list: the first row below the minimum, counted back from the
    // row count (0: none), then the value there.
    StringRef f = r.field.getSymName(), n = r.count.getSymName();
    auto addField = [&](StringRef suffix, Domain domain, FlatSymbolRefAttr count,
                        const std::string &formula) {
      std::string name = freshSymbolName(spec, (in.getSymName() + suffix).str());
      FieldOp::create(b, in.getLoc(), b.getStringAttr(name),
                      DomainAttr::get(ctx, domain), count, nullptr, nullptr,
                      nullptr, b.getStringAttr(formula), nullptr, nullptr);
      return name;
    };
    std::string low = addField(
        "_below_min", Domain::rows,
        FlatSymbolRefAttr::get(r.count.getSymNameAttr()),
        formatv("@{0} < {1} ? @{2} - j : 0", f, int64_t(*min), n).str());
    std::string first = addField("_first_low", Domain::seq, nullptr,
                                 formatv("max_of(@{0})", low).str());
    std::string value = addField(
        "_low_value", Domain::seq, nullptr,
        formatv("@{0} > 0 ? gather(@{1}, @{2} - @{0}) : 0", first, f, n).str());
    check.set("first", FlatSymbolRefAttr::get(ctx, first));
    check.set("count", FlatSymbolRefAttr::get(r.count.getSymNameAttr()));
    check.set("value", FlatSymbolRefAttr::get(ctx, value));
    // Symbols as `@name`: a field named like a built-in (`n`) is not it.
    holds.push_back("@" + first + " == 0");
    checks.push_back(check.getDictionary(ctx));
  }
  if (checks.empty())
    return RequireOp();
  OpBuilder in = OpBuilder::atBlockEnd(&path.getBody().front());
  auto rule = RequireOp::create(
      in, path.getLoc(), in.getStringAttr("bounds"),
      in.getStringAttr("the resolved inputs' minimums"),
      DomainAttr::get(ctx, Domain::seq), nullptr,
      in.getStringAttr(llvm::join(holds, " && ")), /*formula_loc=*/nullptr);
  rule->setAttr(kResolvedBoundsAttr, in.getArrayAttr(checks));
  return rule;
}

LogicalResult imeta::inlineResolves(SpecOp spec, PathOp path) {
  UncachedSymbolLookups uncached; // symbols are added and removed
  if (failed(expandCompactFormulas(spec)))
    return failure();
  DenseMap<StringRef, Resolution> res = resolutions(path);
  if (res.empty())
    return success();
  if (std::string why = whyResolvesStay(path); !why.empty())
    return path.emitOpError("resolves inputs that cannot be read in place: ")
           << why;
  MLIRContext *ctx = spec.getContext();

  // What the path is, before it changes: its rules in order (those that
  // read state first, as the evaluator checks them on the batch as given),
  // outputs, needs, and the resolving fields in resolve order.
  SmallVector<RequireOp> stateRules, otherRules;
  for (RequireOp rule : allRules(path))
    (readsState(rule) ? stateRules : otherRules).push_back(rule);
  SmallVector<OutputOp> outputs = getPathOutputs(path);
  SmallVector<Attribute> needs, resolved, after;
  for (Operation *op : getPathNeeds(path))
    if (!isa<InputOp>(op) ||
        !res.count(cast<InputOp>(op).getSymName()))
      needs.push_back(
          FlatSymbolRefAttr::get(ctx, SymbolTable::getSymbolName(op)));
  for (ResolveOp r : getPathResolves(path)) {
    Resolution one = res.find(r.getInput())->second;
    resolved.push_back(r.getInputAttr());
    FieldOp seqField = one.count ? one.count : one.field;
    after.push_back(FlatSymbolRefAttr::get(seqField.getSymNameAttr()));
  }

  for (Operation *op : pathBodies(path))
    rewriteReads(op, res);

  // The path on its own: no base, its rules in the evaluator's order,
  // every output it produces, no resolution.
  auto clone = [&](Operation *op, OpBuilder &in) { return in.clone(*op); };
  Block &body = path.getBody().front();
  OpBuilder in = OpBuilder::atBlockEnd(&body);
  SmallVector<Operation *> old = llvm::to_vector(
      llvm::map_range(body.getOperations(), [](Operation &op) { return &op; }));
  for (RequireOp rule : stateRules)
    clone(rule, in);
  FailureOr<RequireOp> bounds = addBoundsRule(spec, path, res);
  if (failed(bounds))
    return failure();
  if (*bounds) {
    // Its failure's words read a list's element place and value.
    for (auto check : (*bounds)->getAttrOfType<ArrayAttr>(kResolvedBoundsAttr)
                          .getAsRange<DictionaryAttr>())
      if (check.get("first"))
        after.push_back(check.get("value"));
    (*bounds)->setAttr(kScheduleAfterAttr, in.getArrayAttr(after));
  }
  in.setInsertionPointToEnd(&body);
  // Without a bounds rule, the resolving fields still come before the
  // resolved batch's rules (or, with none, before the outputs' fields).
  for (auto [k, rule] : llvm::enumerate(otherRules)) {
    Operation *copy = clone(rule, in);
    if (k == 0 && !*bounds)
      copy->setAttr(kScheduleAfterAttr, in.getArrayAttr(after));
  }
  if (otherRules.empty() && !*bounds)
    path->setAttr(kScheduleAfterAttr, in.getArrayAttr(after));
  for (OutputOp out : outputs)
    clone(out, in);
  for (Operation *op : old)
    op->erase();
  for (RequireOp rule :
       llvm::to_vector(spec.getBody().front().getOps<RequireOp>()))
    rule->erase();
  // The other paths read what was rewritten for this one: the copy is
  // this path's alone.
  for (PathOp other : llvm::to_vector(spec.getBody().front().getOps<PathOp>()))
    if (other != path)
      other->erase();
  path.removeBasesAttr();
  if (needs.empty())
    path.removeNeedsAttr();
  else
    path.setNeedsAttr(ArrayAttr::get(ctx, needs));
  path->setAttr(kInlinedResolvesAttr, ArrayAttr::get(ctx, resolved));
  for (StringRef attr : {kHostScheduleAttr, kFillScheduleAttr})
    path->removeAttr(attr);
  // The gathers and the bound fields' formulas, as ops.
  return expandCompactFormulas(spec);
}

namespace {
struct InlineResolvesPass
    : imeta::impl::InlineResolvesBase<InlineResolvesPass> {
  using InlineResolvesBase::InlineResolvesBase;
  void runOnOperation() override {
    SpecOp spec = getOperation();
    auto path = dyn_cast_or_null<PathOp>(
        SymbolTable::lookupSymbolIn(spec, pathName));
    if (!path) {
      spec.emitError("imeta-inline-resolves: no path @") << pathName;
      return signalPassFailure();
    }
    if (failed(inlineResolves(spec, path)))
      signalPassFailure();
  }
};
} // namespace
