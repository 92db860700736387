//===- Formula.cpp - the interpreter of field and rule bodies -------------===//
//
// Each op's meaning is its FormulaOpInterface::evaluate (dialect/
// FormulaOps.cpp, dialect/ArithFormulaModels.cpp); this runs a body and
// gives those the point, the batch and the values. Values are int64_t; i1
// is 0 or 1.
//
// A body is decoded once per field (or rule): its blocks become lists of
// steps (the op's interface, the slot of its result and of its operands,
// the range its result type holds), so that running it at one of the
// millions of points a batch may have touches no hash map of the IR.
//
//===----------------------------------------------------------------------===//

#include "lib/Eval/Formula.h"
#include "dialect/FailureText.h"
#include "dialect/IMetaSymbols.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imeta;
using llvm::formatv;

namespace {

/// One op of a decoded block.
struct Step {
  Operation *op = nullptr;
  mutable FormulaOpInterface formula; ///< null: not a formula op
  unsigned result = 0;        ///< slot of its single result (if any)
  unsigned width = 64;        ///< the result's bit width
  int64_t lo = INT64_MIN, hi = INT64_MAX; ///< what the result type holds
  SmallVector<unsigned, 4> operands;      ///< slots of its operands
};

/// A decoded block: its steps in order, then the slots it yields.
struct BlockPlan {
  SmallVector<Step> steps;
  SmallVector<unsigned, 2> yields;
};

/// The range of an integer of `width` bits (i1: 0 or 1).
void rangeOf(unsigned width, int64_t &lo, int64_t &hi) {
  if (width >= 64)
    return;
  lo = width == 1 ? 0 : -(int64_t(1) << (width - 1));
  hi = width == 1 ? 1 : (int64_t(1) << (width - 1)) - 1;
}

} // namespace

/// Interprets one body: each op's FormulaOpInterface::evaluate against
/// this. A failure records its reason in `error`.
class FormulaRunner::Interpreter final : public FormulaInterpreter {
public:
  Interpreter(Evaluator &ev, Region &body) : ev(ev) {
    // Slot 0 holds 0: the value of anything the body does not define.
    decode(body.front());
    entry = &blocks.front(); // decode() puts the body's block first
    slots.assign(numSlots, 0);
    hoistConstants(); // also records each step's address in stepOf
  }

  /// Why the last failure() happened.
  std::string error;
  /// `op`'s value in the last run that reached it.
  int64_t lastValue(Operation *op) const {
    const Step *s = stepOf.lookup(op);
    return s ? slots[s->result] : 0;
  }
  /// Whether `error` is a read field's (ReadFailure): it names its field.
  bool readFailure = false;
  /// The field's values so far, `ownWidth` a sequence (imeta.prev).
  const std::vector<int64_t> *own = nullptr;
  int64_t ownWidth = 1;

  LogicalResult previous(int64_t column, int64_t &out) override {
    out = 0;
    if (p->seq <= 0)
      return success();
    size_t at = size_t((p->seq - 1) * ownWidth + column);
    if (!own || at >= own->size())
      return fail("imeta.prev: the previous sequence's value is not kept");
    out = (*own)[at];
    return success();
  }
  const Point *p = nullptr;
  const BlockPlan *entry = nullptr;

  LogicalResult runPlan(const BlockPlan &plan,
                        SmallVectorImpl<int64_t> &yielded) {
    for (const Step &s : plan.steps) {
      if (!s.formula)
        return fail(formatv("op '{0}' is not supported in formulas{1}",
                            s.op->getName().getStringRef(), locationOf(s.op)));
      const Step *outer = current;
      current = &s;
      LogicalResult ran = s.formula.evaluate(*this);
      current = outer;
      if (failed(ran))
        return failure();
    }
    for (unsigned y : plan.yields)
      yielded.push_back(slots[y]);
    return success();
  }

  LogicalResult runBlock(Block &block,
                         SmallVectorImpl<int64_t> &yielded) override {
    return runPlan(blocks[blockIndex.lookup(&block)], yielded);
  }

  int64_t value(Value v) override { return slots[slotOf.lookup(v)]; }
  int64_t operand(Operation *op, unsigned i) override {
    if (current && current->op == op)
      return slots[current->operands[i]];
    return value(op->getOperand(i));
  }

  /// Records `v` as the single result of `op`, checking it fits.
  LogicalResult set(Operation *op, int64_t v) override {
    const Step *s = current && current->op == op ? current : stepOf.lookup(op);
    if (v < s->lo || v > s->hi)
      return failWith(text::kOverflow, op, v, 0, int(s->width));
    slots[s->result] = v;
    return success();
  }
  void bind(Value result, int64_t v) override {
    auto r = dyn_cast<OpResult>(result);
    if (current && r && r.getOwner() == current->op)
      slots[current->result + r.getResultNumber()] = v; // numbered in order
    else
      slots[slotOf.lookup(result)] = v;
  }
  LogicalResult fail(const llvm::Twine &msg) override {
    error = msg.str();
    readFailure = false;
    return failure();
  }
  LogicalResult readFailed(llvm::Error err) {
    bool read = err.isA<ReadFailure>();
    (void)fail(llvm::toString(std::move(err)));
    readFailure = read;
    return failure();
  }

  int64_t seq() override { return p->seq; }
  int64_t row() override { return p->row; }
  int64_t globalRow() override { return p->globalRow; }
  int64_t col() override { return p->col; }
  int64_t ratio() override { return p->ratio; }

  int64_t numSeqs() override { return ev.numSeqs(); }
  int64_t config(FlatSymbolRefAttr param) override {
    return ev.config(param.getAttr());
  }
  // A state input at slot -1 (no state) reads 0 or the empty list.
  int64_t scalarInput(StringRef input) override {
    const Batch &b = ev.getBatch();
    auto it = b.sequences[p->seq].scalars.find(input);
    if (it != b.sequences[p->seq].scalars.end())
      return it->second;
    return b.stateScalar(size_t(p->seq), input).value_or(0);
  }
  const std::vector<int64_t> &list(StringRef input) override {
    const Batch &b = ev.getBatch();
    auto it = b.sequences[p->seq].lists.find(input);
    if (it != b.sequences[p->seq].lists.end())
      return it->second;
    static const std::vector<int64_t> none;
    const std::vector<int64_t> *row = b.stateRow(size_t(p->seq), input);
    return row ? *row : none;
  }

  ArrayRef<int64_t> configList(StringRef param) override {
    auto it = ev.getBatch().lists.find(param);
    return it == ev.getBatch().lists.end() ? ArrayRef<int64_t>()
                                           : ArrayRef<int64_t>(it->second);
  }
  ArrayRef<int64_t> ratios(FlatSymbolRefAttr set) override {
    return ev.ratios(set);
  }

  LogicalResult fieldAt(FlatSymbolRefAttr field, int64_t &out) override {
    const FieldValue *value = read(field);
    if (!value)
      return failure();
    int64_t at = 0;
    if (value->domain == Domain::seq)
      at = p->seq;
    else if (value->domain == Domain::rows)
      at = p->globalRow;
    out = value->data[at];
    return success();
  }
  LogicalResult entries(FlatSymbolRefAttr sym,
                        ArrayRef<int64_t> &out) override {
    const FieldValue *value = read(sym);
    if (!value)
      return failure();
    out = value->data;
    return success();
  }

  std::string overflowSuffix() override { return ev.overflowSuffix(); }

private:
  /// Numbers the values `block` and the blocks nested in it define and
  /// decodes each block into a BlockPlan.
  void decode(Block &block) {
    unsigned index = blocks.size();
    blockIndex[&block] = index;
    blocks.emplace_back();
    for (BlockArgument arg : block.getArguments())
      slotOf[arg] = numSlots++;
    SmallVector<Step> steps;
    for (Operation &op : block.without_terminator()) {
      Step s;
      s.op = &op;
      s.formula = dyn_cast<FormulaOpInterface>(&op);
      for (Value v : op.getOperands())
        s.operands.push_back(slotOf.lookup(v));
      for (Value r : op.getResults())
        slotOf[r] = numSlots++;
      if (op.getNumResults()) {
        s.result = slotOf.lookup(op.getResult(0));
        if (auto type = dyn_cast<IntegerType>(op.getResult(0).getType()))
          s.width = type.getWidth();
        rangeOf(s.width, s.lo, s.hi);
      }
      steps.push_back(std::move(s));
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          decode(nested);
    }
    // `blocks` grew while nested blocks were decoded: index, not reference.
    blocks[index].steps = std::move(steps);
    for (Value v : block.getTerminator()->getOperands())
      blocks[index].yields.push_back(slotOf.lookup(v));
  }

  /// Evaluates each constant once, here, and drops its step: its slot is
  /// written by nothing else. One that fails stays, to fail where it runs.
  void hoistConstants() {
    for (BlockPlan &plan : blocks)
      llvm::erase_if(plan.steps, [&](Step &s) {
        if (!s.formula || !s.op->hasTrait<OpTrait::ConstantLike>() ||
            s.op->getNumOperands())
          return false;
        current = &s;
        bool hoisted = succeeded(s.formula.evaluate(*this));
        current = nullptr;
        return hoisted;
      });
    // Erasing moved steps: point to where they are now.
    stepOf.clear();
    for (BlockPlan &plan : blocks)
      for (Step &s : plan.steps)
        stepOf[s.op] = &s;
  }

  /// The values of field or sum `sym` in this point's bucket (where `sym`
  /// is bucketed), kept for the runner's life: null after a failure.
  const FieldValue *read(FlatSymbolRefAttr sym) {
    auto key = std::make_pair(Attribute(sym), p->ratio);
    if (const FieldValue *known = reads.lookup(key))
      return known;
    Operation *def = ev.lookup(sym);
    auto value = ev.evaluate(def, getRatios(def) ? p->ratio : 0);
    if (!value) {
      (void)readFailed(value.takeError());
      return nullptr;
    }
    return reads[key] = *value;
  }

  Evaluator &ev;
  /// Slot 0 is the zero of values not defined in the body.
  llvm::DenseMap<Value, unsigned> slotOf;
  unsigned numSlots = 1;
  std::vector<int64_t> slots;
  /// Decoded blocks; the body's entry block is the first.
  std::vector<BlockPlan> blocks;
  llvm::DenseMap<Block *, unsigned> blockIndex;
  llvm::DenseMap<Operation *, const Step *> stepOf;
  /// The step whose evaluate() runs now (answers operand() and set()).
  const Step *current = nullptr;
  /// The fields read so far, by (symbol, the point's ratio).
  llvm::DenseMap<std::pair<Attribute, int64_t>, const FieldValue *> reads;
};

FormulaRunner::FormulaRunner(Evaluator &ev, Region &body)
    : impl(std::make_unique<Interpreter>(ev, body)) {}

FormulaRunner::~FormulaRunner() = default;

void FormulaRunner::setOwnValues(const std::vector<int64_t> *values,
                                 int64_t width) {
  impl->own = values;
  impl->ownWidth = width;
}

int64_t FormulaRunner::lastValue(Operation *op) const {
  return impl->lastValue(op);
}

llvm::Error FormulaRunner::run(const Point &point,
                               SmallVectorImpl<int64_t> &out) {
  impl->p = &point;
  if (succeeded(impl->runPlan(*impl->entry, out)))
    return llvm::Error::success();
  if (impl->readFailure)
    return llvm::make_error<ReadFailure>(std::move(impl->error));
  return llvm::createStringError(llvm::inconvertibleErrorCode(), impl->error);
}
