//===- Evaluator.cpp - the reference evaluator of a spec ------------------===//

#include "lib/Eval/Evaluator.h"
#include "dialect/FailureText.h"
#include "dialect/IMetaSymbols.h"
#include "dialect/RuleOperands.h"
#include "dialect/SubsetLowering.h"
#include "lib/Eval/Formula.h"
#include "lib/Support/PostOrder.h"

#include <algorithm>
#include <array>
#include <optional>

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imeta;
using llvm::formatv;

static llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

char ReadFailure::ID = 0;

/// Prefixes an error with where it happened; a read field's failure, which
/// names its field already, passes as it is.
static llvm::Error within(llvm::Error err, const llvm::Twine &where) {
  if (!err || err.isA<ReadFailure>())
    return err;
  return fail(where + ": " + llvm::toString(std::move(err)));
}

/// Prefixes any error with what was being done (an output, a rule).
static llvm::Error during(llvm::Error err, const llvm::Twine &what) {
  if (!err)
    return err;
  return fail(what + ": " + llvm::toString(std::move(err)));
}

Evaluator::Evaluator(SpecOp spec, const Batch &batch)
    : spec(spec), batch(&batch), symbols(spec) {}

llvm::ArrayRef<int64_t> Evaluator::ratios(FlatSymbolRefAttr set) {
  auto it = ratioCache.find(set);
  if (it != ratioCache.end())
    return it->second;
  std::vector<int64_t> values;
  Operation *def = lookup(set);
  if (auto u = dyn_cast_or_null<RatioUnionOp>(def)) {
    for (Attribute m : u.getMembers())
      llvm::append_range(values, ratios(cast<FlatSymbolRefAttr>(m)));
    llvm::sort(values);
    values.erase(std::unique(values.begin(), values.end()), values.end());
  } else if (auto axis = dyn_cast_or_null<AxisOp>(def)) {
    // Batch reading checked the count (0 .. kMaxBuckets) where the path
    // needs it; elsewhere one out of range makes no index, as in the
    // generated code.
    int64_t count = batch->config.lookup(axis.getCount());
    for (int64_t k = 0; count <= kMaxBuckets && k < count; ++k)
      values.push_back(k);
  } else {
    values = batch->lists.lookup(set.getValue());
    llvm::sort(values);
  }
  return ratioCache[set] = std::move(values);
}

/// Describes the bucket of `def` for messages: "" or " (bucket 4 of
/// 'ca_ratios')".
static std::string bucketText(Operation *def, int64_t ratio) {
  FlatSymbolRefAttr set = getRatios(def);
  if (!set)
    return "";
  return " (" + text::imeta_bucket_text(set.getValue().str(), ratio) + ")";
}

llvm::Expected<const FieldValue *> Evaluator::evaluate(Operation *def,
                                                       int64_t ratio) {
  SymbolLookupScope scope(tables);
  auto key = std::make_pair(def, ratio);
  if (const FieldValue *v = done.lookup(key))
    return v;
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second.get();
  if (auto failed = failures.find(key); failed != failures.end())
    return llvm::make_error<ReadFailure>(failed->second);
  // What `def` reads first, bottom-up (an explicit stack: a chain of
  // fields as long as the spec costs no call stack): each read below then
  // finds its value, or its error, computed.
  for (auto [dep, depRatio] : unevaluatedDependencies(def, ratio))
    if (llvm::Expected<const FieldValue *> v = evaluateOne(dep, depRatio); !v)
      llvm::consumeError(v.takeError()); // kept in `failures`
  return evaluateOne(def, ratio);
}

SmallVector<std::pair<Operation *, int64_t>>
Evaluator::unevaluatedDependencies(Operation *root, int64_t ratio) {
  using Key = std::pair<Operation *, int64_t>;
  auto depsOf = [&](Key k) {
    SmallVector<Key> deps;
    for (FlatSymbolRefAttr sym : symbolDependencies(k.first)) {
      Operation *dep = lookup(sym);
      if (isa_and_nonnull<FieldOp, PrefixSumOp>(dep))
        deps.push_back({dep, getRatios(dep) ? k.second : 0});
    }
    return deps;
  };
  auto known = [&](Key k) {
    return done.count(k) || cache.count(k) || failures.count(k);
  };
  SmallVector<Key> order;
  walkPostOrder(Key{root, ratio}, depsOf, known,
                [&](Key k) { order.push_back(k); });
  if (!order.empty())
    order.pop_back(); // the root: the caller evaluates it
  return order;
}

llvm::Expected<const FieldValue *> Evaluator::evaluateOne(Operation *def,
                                                          int64_t ratio) {
  auto key = std::make_pair(def, ratio);
  if (const FieldValue *v = done.lookup(key))
    return v;
  if (auto failed = failures.find(key); failed != failures.end())
    return llvm::make_error<ReadFailure>(failed->second);
  auto value = std::make_unique<FieldValue>();
  llvm::Error err = llvm::Error::success();
  if (auto field = dyn_cast<FieldOp>(def))
    err = evaluateField(field, ratio, *value);
  else if (auto sum = dyn_cast<PrefixSumOp>(def))
    err = evaluatePrefix(sum, ratio, *value);
  else
    err = fail("not a field");
  if (!err)
    err = checkHeld(int64_t(value->data.size()));
  if (err) {
    // Kept: a later read gets the same words without computing again.
    std::string text =
        llvm::toString(within(std::move(err),
                              "field '" + reportedName(def) + "'" +
                                  bucketText(def, ratio)));
    failures[key] = text;
    return llvm::make_error<ReadFailure>(std::move(text));
  }
  heldValues += int64_t(value->data.size());
  const FieldValue *result = (cache[key] = std::move(value)).get();
  done[key] = result;
  return result;
}

llvm::Error Evaluator::checkHeld(int64_t more) const {
  if (heldValues + more <= kMaxHeldValues)
    return llvm::Error::success();
  return fail(formatv("more than {0} values in all the batch's fields "
                      "together; the reference evaluator stops here",
                      kMaxHeldValues));
}

llvm::Error Evaluator::evaluatePrefix(PrefixSumOp sum, int64_t ratio,
                                      FieldValue &out) {
  auto src = evaluate(lookup(sum.getSourceAttr()), ratio);
  if (!src)
    return src.takeError();
  out.domain = Domain::seq;
  out.isPrefix = true;
  // One sum per column: entry i of column c at data[i * width + c].
  const unsigned width = (*src)->width;
  out.width = width;
  out.hasCols = (*src)->hasCols;
  bool exclusive = sum.getConvention() == Convention::exclusive;
  std::vector<int64_t> acc(width, 0);
  if (exclusive)
    out.data.assign(width, 0);
  const std::vector<int64_t> &values = (*src)->data;
  for (size_t i = 0; i < (*src)->numPoints(); ++i)
    for (unsigned c = 0; c < width; ++c) {
      acc[c] += values[i * width + c];
      if (acc[c] > INT32_MAX || acc[c] < INT32_MIN)
        return fail(formatv("sequence {0}{1}: i32 overflow: the sum reaches "
                            "{2}{3}",
                            i, out.hasCols || width > 1
                                   ? formatv(", column {0}", c).str()
                                   : std::string(),
                            acc[c], overflowSuffix()));
      out.data.push_back(acc[c]);
    }
  out.points = (*src)->numPoints() + (exclusive ? 1 : 0);
  return llvm::Error::success();
}

/// A `cols` field's column count in bucket `ratio` (a config parameter or
/// a scalar field), recorded as `out`'s width, and its `live` field's
/// values (null where it has none).
llvm::Error Evaluator::columnsOf(FieldOp field, int64_t ratio, FieldValue &out,
                                 int64_t &numCols, const FieldValue *&live) {
  FlatSymbolRefAttr cols = field.getColsAttr();
  numCols = batch->config.lookup(cols.getValue());
  if (auto width = dyn_cast<FieldOp>(lookup(cols))) {
    auto v = evaluate(width, width.getRatiosAttr() ? ratio : 0);
    if (!v)
      return v.takeError();
    numCols = (*v)->data.front();
  }
  if (numCols < 0)
    return fail(formatv("'{0}' = {1} columns is negative", cols.getValue(),
                        numCols));
  if (numCols > kMaxFieldValues)
    return fail(formatv("'{0}' = {1} columns is more than the reference "
                        "evaluator holds",
                        cols.getValue(), numCols));
  out.width = numCols;
  out.hasCols = true;
  if (auto liveSym = field.getLiveAttr()) {
    auto v = evaluate(lookup(liveSym), getRatios(lookup(liveSym)) ? ratio : 0);
    if (!v)
      return v.takeError();
    live = *v;
  }
  return llvm::Error::success();
}

llvm::Error Evaluator::evaluateField(FieldOp field, int64_t ratio,
                                     FieldValue &out) {
  out.domain = field.getDomain();
  out.isBool = field.getElementType().isInteger(1);
  out.width = field.getWidth();
  FormulaRunner body(*this, field.getBody());

  // Columns: `width` of them, those at or past live(i) left at -1.
  int64_t numCols = 0;
  const FieldValue *live = nullptr;
  if (field.getColsAttr())
    if (llvm::Error err = columnsOf(field, ratio, out, numCols, live))
      return err;
  SmallVector<int64_t, 4> values;
  auto runAt = [&](Point p) -> llvm::Error {
    ++out.points;
    if (!field.getCols()) {
      values.clear();
      if (llvm::Error err = body.run(p, values))
        return err;
      out.data.insert(out.data.end(), values.begin(), values.end());
      return checkHeld(int64_t(out.data.size()));
    }
    if (int64_t(out.data.size()) + numCols > kMaxFieldValues)
      return fail(formatv("more than {0} values ({1} columns per row); the "
                          "reference evaluator stops here",
                          kMaxFieldValues, numCols));
    if (llvm::Error err = checkHeld(int64_t(out.data.size()) + numCols))
      return err;
    int64_t liveCols = live ? live->data[p.seq] : numCols;
    if (liveCols > numCols)
      return fail(formatv("live columns ({0}) exceed the {1} columns of '{2}'",
                          liveCols, numCols, field.getCols()));
    for (int64_t c = 0; c < numCols; ++c) {
      if (c >= liveCols) {
        out.data.push_back(-1); // unspecified; printed as -1
        continue;
      }
      p.col = c;
      values.clear();
      if (llvm::Error err = body.run(p, values))
        return err;
      out.data.push_back(values.front());
    }
    return llvm::Error::success();
  };

  // A field of `points` rows of numCols columns: its size checked against
  // what the evaluator holds before anything is computed.
  auto reserveCols = [&](int64_t points) -> llvm::Error {
    if (!field.getCols())
      return llvm::Error::success();
    if (points > 0 && numCols > kMaxHeldValues / points)
      return checkHeld(kMaxHeldValues + 1);
    if (llvm::Error err = checkHeld(points * numCols))
      return err;
    out.data.reserve(size_t(points * numCols));
    return llvm::Error::success();
  };
  switch (field.getDomain()) {
  case Domain::scalar:
    return runAt(Point{-1, -1, -1, -1, ratio});
  case Domain::seq:
    if (llvm::Error err = reserveCols(numSeqs()))
      return err;
    body.setOwnValues(&out.data, field.getWidth());
    for (int64_t i = 0; i < numSeqs(); ++i)
      if (llvm::Error err = runAt(Point{i, -1, -1, -1, ratio}))
        return within(std::move(err), formatv("sequence {0}", i));
    return llvm::Error::success();
  case Domain::rows: {
    Operation *countDef = lookup(field.getCountAttr());
    auto counts = evaluate(countDef, getRatios(countDef) ? ratio : 0);
    if (!counts)
      return counts.takeError();
    int64_t allRows = 0;
    for (int64_t i = 0; i < numSeqs(); ++i)
      allRows += std::clamp<int64_t>((*counts)->data[i], 0, kMaxFieldValues);
    if (llvm::Error err = reserveCols(std::min(allRows, kMaxFieldValues)))
      return err;
    // The live columns of every sequence first, as the host stage checks
    // them before any row is filled.
    if (llvm::Error err = checkLiveColumns(field, live, numCols))
      return err;
    int64_t r = 0;
    for (int64_t i = 0; i < numSeqs(); ++i) {
      int64_t n = (*counts)->data[i];
      if (n < 0)
        return fail(formatv("sequence {0}: row count '{1}' is negative ({2})",
                            i, field.getCount(), n));
      if (r + n > kMaxFieldValues)
        return fail(formatv("more than {0} rows; the reference evaluator "
                            "stops here",
                            kMaxFieldValues));
      for (int64_t j = 0; j < n; ++j, ++r)
        if (llvm::Error err = runAt(Point{i, j, r, -1, ratio})) {
          int64_t col = field.getCols() ? int64_t(out.data.size()) -
                                              int64_t(r) * numCols
                                        : -1;
          rowFailures[{field, ratio}] = RowPoint{i, j, col};
          return within(std::move(err), formatv("sequence {0}, row {1}", i, r));
        }
    }
    return llvm::Error::success();
  }
  }
  llvm_unreachable("unknown domain");
}

llvm::Error Evaluator::checkRule(RequireOp rule) {
  SmallVector<int64_t, 8> buckets;
  if (auto set = rule.getRatiosAttr())
    llvm::append_range(buckets, ratios(set));
  else
    buckets.push_back(0);
  int64_t numPoints = rule.getDomain() == Domain::seq ? numSeqs() : 1;
  FormulaRunner body(*this, rule.getBody());
  SmallVector<int64_t, 1> ok;
  for (int64_t ratio : buckets)
    for (int64_t i = 0; i < numPoints; ++i) {
      Point p{rule.getDomain() == Domain::seq ? i : -1, -1, -1, -1, ratio};
      ok.clear();
      llvm::Error err = body.run(p, ok);
      if (!err && ok.front())
        continue;
      // Where and which rule, spelled only for a broken one.
      std::string where;
      if (p.seq >= 0)
        where += formatv("sequence {0}: ", i).str();
      if (rule.getRatiosAttr())
        where += text::imeta_bucket_text(rule.getRatiosAttr().getValue().str(),
                                         ratio) +
                 ": ";
      where += (rule.getRule() + ": " + rule.getMessage()).str();
      if (err)
        return during(std::move(err), where + ": cannot be checked");
      // The values the rule read, as written (RuleOperands.h).
      SmallVector<RuleOperand, kMaxRuleOperands> operands = ruleOperands(rule);
      SmallVector<int64_t, kMaxRuleOperands> values;
      for (const RuleOperand &o : operands)
        values.push_back(body.lastValue(o.op));
      return fail(where + ruleOperandText(operands, values));
    }
  return llvm::Error::success();
}

llvm::Expected<const PathPlan *> Evaluator::planOf(PathOp path) {
  auto kept = plans.find(path);
  if (kept != plans.end())
    return &kept->second;
  FailureOr<PathPlan> plan = planPath(path);
  if (failed(plan))
    return fail(formatv("path '{0}': its recorded schedule is invalid",
                        path.getSymName()));
  return &plans.emplace(path, std::move(*plan)).first->second;
}

llvm::Error Evaluator::checkLiveColumns(FieldOp field, const FieldValue *live,
                                        int64_t numCols) {
  for (int64_t i = 0; live && i < numSeqs(); ++i)
    if (live->data[i] > numCols)
      return fail(formatv("sequence {0}: live columns ({1}) exceed the {2} "
                          "columns of '{3}'",
                          i, live->data[i], numCols, field.getCols()));
  return llvm::Error::success();
}

SmallVector<int64_t, 8> Evaluator::bucketsOf(FlatSymbolRefAttr set) {
  if (!set)
    return {0};
  return SmallVector<int64_t, 8>(ratios(set));
}

llvm::Error Evaluator::checkPath(PathOp path) {
  if (llvm::Error err = checkHostStage(path))
    return err;
  return checkFills(path);
}

llvm::Error Evaluator::checkFills(PathOp path) {
  SymbolLookupScope scope(tables);
  llvm::Expected<const PathPlan *> plan = planOf(path);
  if (!plan)
    return plan.takeError();
  return checkRowsFields((*plan)->rowSpaces);
}

llvm::Expected<int64_t> Evaluator::outputRows(OutputOp out, int64_t ratio) {
  SymbolLookupScope scope(tables);
  if (FlatSymbolRefAttr len = out.getRowsAttr()) {
    auto v = evaluate(lookup(len), 0);
    if (!v)
      return v.takeError();
    return (*v)->data.front();
  }
  Operation *def = lookup(out.getSourceAttr());
  if (auto sum = dyn_cast<PrefixSumOp>(def))
    return numSeqs() + (sum.getConvention() == Convention::exclusive ? 1 : 0);
  auto field = cast<FieldOp>(def);
  switch (field.getDomain()) {
  case Domain::scalar:
    return -1;
  case Domain::seq:
    return numSeqs();
  case Domain::rows: {
    Operation *count = lookup(field.getCountAttr());
    auto v = evaluate(count, getRatios(count) ? ratio : 0);
    if (!v)
      return v.takeError();
    int64_t rows = 0;
    for (int64_t n : (*v)->data)
      rows += std::max<int64_t>(n, 0);
    return rows;
  }
  }
  llvm_unreachable("unknown domain");
}

llvm::Error Evaluator::checkHostStage(PathOp path) {
  SymbolLookupScope scope(tables);
  llvm::Expected<const PathPlan *> plan = planOf(path);
  if (!plan)
    return plan.takeError();
  bool resolves = !getPathResolves(path).empty();
  if (resolves) {
    // SPEC-async.md §4: the state's rules, then the resolved batch's.
    for (RequireOp rule : allRules(path))
      if (readsState(rule))
        if (llvm::Error err = checkRule(rule))
          return err;
    if (llvm::Error err = resolveInputs(path))
      return err;
  }
  // The host stage: rules and the fields that are not rows fields, in
  // the plan's order.
  for (const HostStep &step : (*plan)->host) {
    if (auto rule = dyn_cast<RequireOp>(step.op)) {
      if (!resolves || !readsState(rule))
        if (llvm::Error err = checkRule(rule))
          return err;
      continue;
    }
    SmallVector<int64_t, 8> buckets = bucketsOf(getRatios(step.op));
    for (int64_t ratio : buckets)
      if (auto v = evaluate(step.op, ratio); !v)
        return v.takeError();
  }
  return checkRowStarts((*plan)->rowSpaces);
}

llvm::Error Evaluator::checkRowStarts(ArrayRef<RowSpace> spaces) {
  // Each row space's counts, bucket by bucket, sequence by sequence.
  for (const RowSpace &space : spaces) {
    FieldOp count = space.count;
    SmallVector<int64_t, 8> buckets = bucketsOf(count.getRatiosAttr());
    for (int64_t ratio : buckets) {
      auto v = evaluate(count, ratio);
      if (!v)
        return v.takeError();
      for (int64_t i = 0; i < numSeqs(); ++i)
        if ((*v)->data[i] < 0)
          return fail(formatv("sequence {0}: row count '{1}' is negative "
                              "({2})",
                              i, count.getSymName(), (*v)->data[i]));
    }
  }
  // The columns of each `cols` field: a width that is not negative, each
  // sequence's live columns within it.
  for (const RowSpace &space : spaces)
    for (FieldOp field : space.fields) {
      if (!field.getColsAttr())
        continue;
      SmallVector<int64_t, 8> buckets = bucketsOf(field.getRatiosAttr());
      for (int64_t ratio : buckets) {
        FieldValue shape;
        int64_t numCols = 0;
        const FieldValue *live = nullptr;
        llvm::Error err = columnsOf(field, ratio, shape, numCols, live);
        if (!err)
          err = checkLiveColumns(field, live, numCols);
        if (err)
          return within(std::move(err),
                        "field '" + field.getSymName() + "'" +
                            bucketText(field, ratio));
      }
    }
  return llvm::Error::success();
}

llvm::Error Evaluator::checkRowsFields(ArrayRef<RowSpace> spaces) {
  // Each (field, bucket) fails at its lowest point, so the lowest key of
  // their failures is the first in the fill's order (EmitFill.cpp): the
  // sequence; within it the row space and its count's bucket; then the
  // fields without columns row by row (each row: field by field, bucket by
  // bucket), then each `cols` field in its own loop (bucket, row, column).
  // A failure at no point precedes them all.
  using Key = std::array<int64_t, 7>;
  std::optional<Key> first;
  std::string words;
  for (auto [s, space] : llvm::enumerate(spaces)) {
    const bool countBucketed = bool(FieldOp(space.count).getRatiosAttr());
    int64_t columnLoops = 0;
    for (auto [f, constField] : llvm::enumerate(space.fields)) {
      FieldOp field = constField;
      const int64_t phase = field.getColsAttr() ? ++columnLoops : 0;
      SmallVector<int64_t, 8> buckets = bucketsOf(field.getRatiosAttr());
      for (auto [b, ratio] : llvm::enumerate(buckets)) {
        auto v = evaluate(field, ratio);
        if (v)
          continue;
        Key key{-1, 0, 0, 0, 0, 0, 0};
        if (auto at = rowFailures.find({field, ratio});
            at != rowFailures.end()) {
          const RowPoint &pt = at->second;
          const int64_t bc = countBucketed ? int64_t(b) : 0;
          key = phase ? Key{pt.seq, int64_t(s), bc, phase, int64_t(b), pt.row,
                            pt.col}
                      : Key{pt.seq, int64_t(s), bc, 0, pt.row, int64_t(f),
                            int64_t(b)};
        }
        if (!first || key < *first) {
          first = key;
          words = llvm::toString(v.takeError());
        } else {
          llvm::consumeError(v.takeError());
        }
      }
    }
  }
  return first ? fail(words) : llvm::Error::success();
}

llvm::Expected<const FieldValue *>
Evaluator::padToRows(OutputOp out, const FieldValue &value) {
  auto len = evaluate(lookup(out.getRowsAttr()), 0);
  if (!len)
    return len.takeError();
  int64_t rows = (*len)->data.front();
  if (rows < int64_t(value.numPoints()))
    return fail(formatv("rows(@{0}) = {1}, fewer than the {2} rows of '{3}'",
                        out.getRows(), rows, value.numPoints(),
                        out.getSource()));
  if (!holdsRows(rows, value.width))
    return fail(formatv("rows(@{0}) = {1} rows of {2} values: more than the "
                        "reference evaluator holds",
                        out.getRows(), rows, value.width));
  if (llvm::Error err = checkHeld(rows * std::max<int64_t>(value.width, 1)))
    return err;
  heldValues += rows * std::max<int64_t>(value.width, 1);
  auto &copy = padded.emplace_back(std::make_unique<FieldValue>(value));
  padPoints(*copy, rows, *out.getFill());
  return copy.get();
}

void imeta::padPoints(FieldValue &value, int64_t rows, int64_t fill) {
  value.data.resize(size_t(rows) * value.width, fill);
  value.points = size_t(rows);
}

llvm::Expected<std::vector<OutputValue>>
Evaluator::evaluatePath(PathOp path, llvm::ArrayRef<std::string> only) {
  SymbolLookupScope scope(tables);
  std::vector<OutputValue> outputs;
  llvm::StringSet<> matched;
  for (OutputOp out : getPathOutputs(path)) {
    Operation *def = lookup(out.getSourceAttr());
    FlatSymbolRefAttr set = getRatios(def);
    SmallVector<int64_t, 8> buckets;
    if (set)
      llvm::append_range(buckets, ratios(set));
    else
      buckets.push_back(0);
    // A base name is known even when its ratio set is empty in this batch.
    if (llvm::is_contained(only, out.getName().str()))
      matched.insert(out.getName());
    for (int64_t ratio : buckets) {
      std::string name = out.getName().str();
      if (set)
        name += formatv(".{0}", ratio).str();
      if (!only.empty()) {
        bool wanted = false;
        for (const std::string &w : only)
          if (w == name || w == out.getName()) {
            wanted = true;
            matched.insert(name);
          }
        if (!wanted)
          continue;
      }
      auto value = evaluate(def, ratio);
      if (!value)
        return during(value.takeError(), "output '" + name + "'");
      const FieldValue *result = *value;
      // An optional output over an empty domain is absent (its key left
      // out), as the generated driver leaves it out.
      if (out.getOptional() &&
          (result->isPrefix ? numSeqs() == 0
                            : int64_t(result->points) <= emptyDomainRows(def)))
        continue;
      if (out.getRowsAttr()) {
        auto padded = padToRows(out, *result);
        if (!padded)
          return during(padded.takeError(), "output '" + name + "'");
        result = *padded;
      }
      outputs.push_back({name, result});
    }
  }
  for (const std::string &w : only)
    if (!matched.contains(w))
      return fail(formatv("path '{0}' has no field '{1}' for this batch",
                          path.getSymName(), w));
  return outputs;
}
