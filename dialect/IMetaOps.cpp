//===- IMetaOps.cpp - verifiers of the imeta ops --------------------------===//
//
// Every invariant a spec author can break is checked here, with an error
// located at the op that breaks it.
//
//===----------------------------------------------------------------------===//

#include "dialect/CompactSyntax.h"
#include "dialect/IMetaOps.h"
#include "dialect/IMetaSymbols.h"
#include "dialect/SubsetLowering.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace imeta;

/// `extends @a, @b`: the paths a path extends, in order.
static ParseResult parsePathBases(OpAsmParser &parser, ArrayAttr &bases) {
  SmallVector<Attribute> refs;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        FlatSymbolRefAttr ref;
        if (parser.parseAttribute(ref))
          return failure();
        refs.push_back(ref);
        return success();
      }))
    return failure();
  bases = parser.getBuilder().getArrayAttr(refs);
  return success();
}

static void printPathBases(OpAsmPrinter &p, Operation *, ArrayAttr bases) {
  llvm::interleaveComma(bases, p);
}

/// Where a formula's text starts in the source, `start` its opening quote
/// (already parsed as a string): a file location, or where the string has
/// escapes, that location fused with each decoded character's offset in
/// the source (then one past the last), so that an error's column is the
/// character's (CompactFormula.cpp, locAt).
static LocationAttr formulaTextLoc(OpAsmParser &parser, SMLoc start) {
  Location file = parser.getEncodedSourceLoc(start);
  const char *raw = start.getPointer();
  if (!raw || *raw != '"')
    return file;
  SmallVector<int32_t> rawAt;
  bool escaped = false;
  size_t k = 1;
  while (raw[k] && raw[k] != '"' && raw[k] != '\n') {
    rawAt.push_back(int32_t(k - 1));
    if (raw[k] != '\\') {
      ++k;
      continue;
    }
    // \\, \", \n, \t, or two hex digits: MLIR's string escapes.
    escaped = true;
    k += llvm::isHexDigit(raw[k + 1]) && llvm::isHexDigit(raw[k + 2]) ? 3 : 2;
  }
  if (!escaped)
    return file;
  rawAt.push_back(int32_t(k - 1));
  MLIRContext *ctx = parser.getContext();
  return FusedLoc::get(ctx, {file}, DenseI32ArrayAttr::get(ctx, rawAt));
}

/// `= "FORMULA"` of a compact field or rule: the string, and where it
/// starts in the source (its errors and expanded ops point into it).
static ParseResult parseFormula(OpAsmParser &parser, StringAttr &formula,
                                LocationAttr &loc) {
  SMLoc start = parser.getCurrentLocation();
  std::string text;
  if (parser.parseString(&text))
    return failure();
  loc = formulaTextLoc(parser, start);
  formula = parser.getBuilder().getStringAttr(text);
  return success();
}

static void printFormula(OpAsmPrinter &p, Operation *, StringAttr formula,
                         LocationAttr) {
  p.printAttributeWithoutType(formula);
}

#define GET_OP_CLASSES
#include "dialect/IMetaOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isScalarValueType(Type type) {
  return type.isInteger(1) || type.isInteger(32);
}

/// Config parameters and inputs hold i32, i1 or a list; `min` bounds
/// integers only.
template <typename OpT>
static LogicalResult verifyValueDecl(OpT op) {
  Type type = op.getType();
  if (!isScalarValueType(type) && !isa<ListType>(type))
    return op.emitOpError("type must be i32, i1 or !imeta.list, got ")
           << type;
  if (op.getMin() && type.isInteger(1))
    return op.emitOpError("'min' bounds an integer, but ")
           << "@" << op.getSymName() << " is a bool";
  return success();
}

/// What a symbol is, and how a formula reads it: the hint after "is not
/// a field" and the like, so that the message says what to write instead.
static std::string howToRead(Operation *def, FlatSymbolRefAttr sym) {
  std::string name = sym.getValue().str();
  if (isa<PrefixSumOp>(def))
    return "; it is a prefix sum: read an entry with imeta.prefix_at @" +
           name + "[%i] or its total with imeta.prefix_total @" + name;
  if (auto in = dyn_cast<InputOp>(def))
    return isa<ListType>(in.getType())
               ? "; it is a list input: read it with imeta.load @" + name +
                     "[%k] or imeta.length @" + name
               : "; it is an input: read it with imeta.get_input @" + name;
  if (isa<ConfigOp>(def))
    return "; it is a config parameter: read it with imeta.get_config @" +
           name;
  if (isa<FieldOp>(def))
    return "; it is a field: read it with imeta.get @" + name;
  if (isa<AxisOp>(def))
    return "; it is an axis: read it with imeta.ratio_count, or bucket a "
           "field `over` it";
  if (isa<RatiosOp, RatioUnionOp>(def))
    return "; it is a ratio set: read it with imeta.ratio_min, "
           "imeta.ratio_count, or bucket a field `over` it";
  return "";
}

/// Finds `sym` as an op of type OpT or reports what it is instead.
template <typename OpT>
static FailureOr<OpT> resolve(Operation *user, SymbolTableCollection &tables,
                              FlatSymbolRefAttr sym, StringRef what) {
  Operation *def = tables.lookupNearestSymbolFrom(user, sym);
  if (!def)
    return user->emitOpError("unknown ") << what << " " << sym;
  auto op = dyn_cast<OpT>(def);
  bool vowel = StringRef("aeiou").contains(what.front());
  if (!op)
    return user->emitOpError()
           << sym << " is not " << (vowel ? "an " : "a ") << what
           << howToRead(def, sym);
  return op;
}

/// Finds `sym` as a bucket set: a ratio set or union, or (unless
/// `ratiosOnly`: a union's members) an axis.
static LogicalResult resolveRatioSet(Operation *user,
                                     SymbolTableCollection &tables,
                                     FlatSymbolRefAttr sym,
                                     bool ratiosOnly = false) {
  Operation *def = tables.lookupNearestSymbolFrom(user, sym);
  if (!def)
    return user->emitOpError(ratiosOnly ? "unknown ratio set "
                                        : "unknown ratio set or axis ")
           << sym;
  if (ratiosOnly && isa<AxisOp>(def))
    return user->emitOpError()
           << sym << " is an axis (indices 0 .. K-1), which joins no union "
                     "of ratio sets";
  if (!isBucketSet(def))
    return user->emitOpError()
           << sym << " is not a ratio set or an axis" << howToRead(def, sym);
  return success();
}

static LogicalResult checkResultType(Operation *op, Type expected,
                                     FlatSymbolRefAttr sym) {
  Type got = op->getResult(0).getType();
  if (got != expected)
    return op->emitOpError("result type ")
           << got << " does not match the type " << expected << " of " << sym;
  return success();
}

/// Whether `field` has several values a point (K yielded, or columns).
static bool hasColumns(FieldOp field) {
  return field.getWidth() != 1 || field.getCols();
}

/// A field that other fields may read with imeta.get, count rows by, or sum:
/// flat (width 1) and without columns.
static LogicalResult checkFlatField(Operation *user, FieldOp field,
                                    StringRef use) {
  if (hasColumns(field))
    return user->emitOpError() << use << " @" << field.getSymName()
                               << " must be a flat field (one value per point)";
  return success();
}

static LogicalResult checkSeqCountField(Operation *user, FieldOp field,
                                        StringRef use) {
  if (field.getDomain() != Domain::seq)
    return user->emitOpError() << use << " @" << field.getSymName()
                               << " must be a 'seq' field";
  if (failed(checkFlatField(user, field, use)))
    return failure();
  if (!field.getElementType().isInteger(32))
    return user->emitOpError() << use << " @" << field.getSymName()
                               << " must be i32";
  return success();
}

/// Formula ops that read the current sequence need a sequence.
static LogicalResult requireSequence(Operation *op) {
  FormulaContext ctx = getFormulaContext(op);
  if (ctx.domain == Domain::scalar)
    return op->emitOpError("reads the current sequence, but the enclosing ")
           << (isa_and_nonnull<RequireOp>(ctx.owner) ? "rule" : "field")
           << " has domain 'scalar'";
  return success();
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

LogicalResult ConfigOp::verify() { return verifyValueDecl(*this); }
LogicalResult InputOp::verify() {
  if (failed(verifyValueDecl(*this)))
    return failure();
  if (!getResident())
    return success();
  if (!isa<ListType>(getType()))
    return emitOpError("only a list can be 'resident' (a table of rows), but @")
           << getSymName() << " is " << getType();
  if (getOptional())
    return emitOpError("a 'resident' list cannot be 'optional': its table "
                       "rows are what every sequence reads");
  if (!getMin())
    return emitOpError("a 'resident' list needs 'min': values are checked "
                       "against [min, bound) where they are written, never "
                       "per step");
  return success();
}

LogicalResult InputOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  if (!isState()) {
    if (getKey() || getWidthAttr())
      return emitOpError("'key' and 'width' belong to a state input (one "
                         "with 'slot')");
    return success();
  }
  auto slot = resolve<InputOp>(*this, tables, getSlotAttr(), "input");
  if (failed(slot))
    return failure();
  if (slot->isState() || !slot->getType().isInteger(32))
    return emitOpError("'slot' ")
           << getSlotAttr() << " must be a per-sequence i32 input";
  if (getResident())
    return emitOpError("a state input is a table of slots already; drop "
                       "'resident'");
  if (!slot->getOptional() || !getOptional())
    return emitOpError("a state input and its slot input are 'optional': a "
                       "path that reads them lists them in 'needs'");
  if (getWidthAttr()) {
    if (!isa<ListType>(getType()))
      return emitOpError("'width' gives a state list's row length, but @")
             << getSymName() << " is " << getType();
    auto width = resolve<ConfigOp>(*this, tables, getWidthAttr(),
                                   "config parameter");
    if (failed(width))
      return failure();
    if (!width->getType().isInteger(32))
      return emitOpError("'width' ") << getWidthAttr() << " must be an i32 "
                                     << "config parameter";
  }
  return success();
}

LogicalResult ResolveOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  auto input = resolve<InputOp>(*this, tables, getInputAttr(), "input");
  if (failed(input))
    return failure();
  if (input->isState())
    return emitOpError() << getInputAttr() << " is state; resolve a "
                         << "per-sequence input";
  PathOp path = cast<PathOp>((*this)->getParentOp());
  for (auto other : path.getBody().front().getOps<ResolveOp>()) {
    if (other == *this)
      break;
    if (other.getInput() == getInput())
      return emitOpError() << getInputAttr() << " is resolved twice";
  }

  auto field = resolve<FieldOp>(*this, tables, getFieldAttr(), "field");
  if (failed(field) || failed(checkFlatField(*this, *field, "field")))
    return failure();
  // (A compact formula's value count is known once expanded.)
  bool wide = !field->getBody().empty() &&
              field->getYield().getNumOperands() != 1;
  if (field->getRatiosAttr() || wide)
    return emitOpError("field ")
           << getFieldAttr() << " must give one value a point, unbucketed";
  Type elem = field->getElementType();
  if (isa<ListType>(input->getType())) {
    if (field->getDomain() != Domain::rows || !elem.isInteger(32))
      return emitOpError("list input ")
             << getInputAttr() << " is resolved from a 'rows' i32 field "
             << "(sequence i's list is its rows), but " << getFieldAttr()
             << " is not one";
    return verifyStateRules(*input);
  }
  if (field->getDomain() != Domain::seq || elem != input->getType())
    return emitOpError("input ")
           << getInputAttr() << " (" << input->getType()
           << ") is resolved from a 'seq' field of its type, but "
           << getFieldAttr() << " is not one";
  return verifyStateRules(*input);
}

/// A rule that reads request state is checked on the batch as given,
/// before the resolution (SPEC-async.md): one that also reads the resolved
/// input (in its formula or through the fields it reads) would see the
/// input before it exists. (Compact formulas are read once expanded: the
/// tools verify the spec again then.)
LogicalResult ResolveOp::verifyStateRules(InputOp input) {
  PathOp path = cast<PathOp>((*this)->getParentOp());
  auto spec = path->getParentOfType<SpecOp>();
  SmallVector<RequireOp> rules =
      llvm::to_vector(spec.getBody().front().getOps<RequireOp>());
  llvm::append_range(rules, getPathRules(path));
  for (RequireOp rule : rules) {
    llvm::SetVector<Operation *> inputs;
    collectInputsRead({rule.getOperation()}, inputs);
    if (!inputs.contains(input.getOperation()) || !readsState(rule))
      continue;
    InFlightDiagnostic diag =
        emitOpError("resolves ")
        << getInputAttr() << ", which rule '" << rule.getRule() << "' ('"
        << rule.getMessage()
        << "') reads with request state: a rule that reads state is "
           "checked on the batch as given, before the resolution; split it "
           "into a rule on the state and one on "
        << getInputAttr();
    diag.attachNote(rule.getLoc()) << "the rule is here";
    return diag;
  }
  return success();
}

LogicalResult
RatioUnionOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  if (getMembers().empty())
    return emitOpError("needs at least one member");
  for (Attribute m : getMembers())
    if (failed(resolveRatioSet(*this, tables, cast<FlatSymbolRefAttr>(m),
                               /*ratiosOnly=*/true)))
      return failure();
  return success();
}

LogicalResult AxisOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  FailureOr<ConfigOp> count =
      resolve<ConfigOp>(*this, tables, getCountAttr(), "config parameter");
  if (failed(count))
    return failure();
  if (!count->getType().isInteger(32))
    return emitOpError("counts its indices with ")
           << getCountAttr() << ", which must be an i32 config parameter";
  return success();
}

YieldOp FieldOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

/// Whether a field's body is complete (ends in its yield): not while its
/// compact formula is unexpanded, nor while it is being expanded (a
/// formula naming its own field reads it then; the cycle check refuses it).
static bool hasYield(Region &body) {
  return !body.empty() && !body.front().empty() &&
         isa<YieldOp>(body.front().back());
}

unsigned FieldOp::getWidth() {
  // A compact formula (not yet expanded) is one value.
  return hasYield(getBody()) ? getYield().getValues().size() : 1;
}

Type FieldOp::getElementType() {
  if (!hasYield(getBody()))
    return getFormulaType().value_or(IntegerType::get(getContext(), 32));
  return getYield().getValues().front().getType();
}

/// Field and rule bodies: one block ending in imeta.yield.
static LogicalResult verifyBody(Operation *op, Region &body) {
  if (body.empty() || body.front().empty() ||
      !isa<YieldOp>(body.front().back()))
    return op->emitOpError("body must end with 'imeta.yield'");
  if (body.front().getNumArguments() != 0)
    return op->emitOpError("body takes no arguments; read the point with "
                           "imeta.seq_index, imeta.row_index, ...");
  WalkResult walk = body.walk([&](Operation *inner) {
    // A formula holds the ops that implement FormulaOpInterface.
    if (!isFormulaOp(inner)) {
      inner->emitOpError("is not supported in a formula; use arith integer "
                         "ops, scf.if and imeta formula ops");
      return WalkResult::interrupt();
    }
    for (Type t : inner->getResultTypes())
      if (!t.isInteger(1) && !t.isInteger(32) && !t.isInteger(64)) {
        inner->emitOpError("computes a ")
            << t << "; formulas compute in i1, i32 and i64";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult FieldOp::verify() {
  if (getFormula() && !getBody().empty())
    return emitOpError("has both a formula string and a body; keep one");
  if (!getFormula() && getFormulaType())
    return emitOpError("a result type ': T' follows a formula string");
  if (getFormula())
    return success(); // Checked as ops once expanded (imeta-expand-formulas).
  if (failed(verifyBody(*this, getBody())))
    return failure();
  if (getDomain() == Domain::scalar && getCount())
    return emitOpError("a scalar has no sequences to choose: seq(@cond) "
                       "makes a field over the sequences where cond holds");
  if (getDomain() == Domain::rows && !getCount())
    return emitOpError("a 'rows' field names its row count field: "
                       "rows(@count)");
  if (getLive() && getDomain() == Domain::scalar)
    return emitOpError("'live' bounds a sequence's columns; a scalar's "
                       "columns are all live");
  if (getLive() && !getCols())
    return emitOpError("'live' bounds the columns of a 'cols' field");
  OperandRange values = getYield().getValues();
  if (values.empty())
    return emitOpError("must yield at least one value");
  if (!llvm::all_equal(values.getTypes()))
    return emitOpError("must yield values of one type");
  if (getCols() && values.size() != 1)
    return emitOpError("a 'cols' field yields one value per column");
  return success();
}

LogicalResult FieldOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  if (auto ratios = getRatiosAttr())
    if (failed(resolveRatioSet(*this, tables, ratios)))
      return failure();
  if (getDomain() == Domain::seq && getCountAttr() &&
      failed(subsetCondition(*this)))
    return failure();
  if (auto count = getCountAttr(); count && getDomain() == Domain::rows) {
    auto field = resolve<FieldOp>(*this, tables, count, "field");
    if (failed(field) || failed(checkSeqCountField(*this, *field, "row count")))
      return failure();
    if (failed(verifyRatioUse(*this, getRatiosAttr(), field->getRatiosAttr(),
                              count)))
      return failure();
  }
  if (auto cols = getColsAttr()) {
    // The width: an i32 config parameter, or a flat i32 scalar field (one
    // width per ratio bucket when bucketed).
    Operation *def = tables.lookupNearestSymbolFrom(*this, cols);
    auto param = dyn_cast_or_null<ConfigOp>(def);
    auto width = dyn_cast_or_null<FieldOp>(def);
    bool ok = (param && param.getType().isInteger(32)) ||
              (width && width.getDomain() == Domain::scalar &&
               width.getWidth() == 1 && !width.getCols() &&
               width.getElementType().isInteger(32));
    if (!ok)
      return emitOpError("column count ")
             << cols << " must be an i32 config or a flat i32 scalar field";
    if (width && failed(verifyRatioUse(*this, getRatiosAttr(),
                                       width.getRatiosAttr(), cols)))
      return failure();
  }
  if (auto live = getLiveAttr()) {
    auto field = resolve<FieldOp>(*this, tables, live, "field");
    if (failed(field) ||
        failed(checkSeqCountField(*this, *field, "live column count")))
      return failure();
    if (failed(verifyRatioUse(*this, getRatiosAttr(), field->getRatiosAttr(),
                              live)))
      return failure();
  }
  return success();
}

LogicalResult PrefixSumOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  auto field = resolve<FieldOp>(*this, tables, getSourceAttr(), "field");
  if (failed(field))
    return failure();
  // (A rows field's sum has an entry a row: imeta-expand-formulas lowers
  // it, dialect/SubsetLowering.h.)
  if (field->getDomain() == Domain::rows && !hasColumns(*field))
    return success();
  if (!hasColumns(*field))
    return checkSeqCountField(*this, *field, "summand");
  // One sum per column.
  if (field->getDomain() != Domain::seq || !field->getElementType().isInteger(32))
    return emitOpError("summand ") << getSourceAttr()
                                   << " must be an i32 'seq' field";
  if (field->getLive())
    return emitOpError("summand ")
           << getSourceAttr() << " has 'live' columns; a sum per column "
           << "needs every column's value";
  return success();
}

LogicalResult RequireOp::verify() {
  if (getFormula() && !getBody().empty())
    return emitOpError("has both a formula string and a body; keep one");
  if (getFormula())
    return success(); // Checked as ops once expanded (imeta-expand-formulas).
  if (failed(verifyBody(*this, getBody())))
    return failure();
  if (getDomain() == Domain::rows)
    return emitOpError("a rule holds for the batch ('scalar') or for every "
                       "sequence ('seq'), not per row");
  OperandRange values = cast<YieldOp>(getBody().front().back()).getValues();
  if (values.size() != 1 || !values.front().getType().isInteger(1))
    return emitOpError("must yield exactly one i1");
  return success();
}

LogicalResult RequireOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  if (auto ratios = getRatiosAttr())
    return resolveRatioSet(*this, tables, ratios);
  return success();
}

LogicalResult PathOp::verifyRegions() {
  llvm::StringMap<Operation *> names;
  for (Operation &op : getBody().front()) {
    if (auto out = dyn_cast<OutputOp>(op)) {
      auto [it, inserted] = names.try_emplace(out.getName(), out);
      if (!inserted)
        return out.emitOpError("output name '")
               << out.getName() << "' is produced twice by path @"
               << getSymName();
      continue;
    }
    if (auto drop = dyn_cast<DropOp>(op)) {
      if (!getBasesAttr())
        return drop.emitOpError("drops '")
               << drop.getName() << "', but path @" << getSymName()
               << " extends no path; list only the outputs it produces";
      auto [it, inserted] = names.try_emplace(drop.getName(), drop);
      if (!inserted)
        return drop.emitOpError("drops '")
               << drop.getName() << "', which path @" << getSymName()
               << " also outputs or drops";
      continue;
    }
    if (!isa<RequireOp, ResolveOp>(op))
      return op.emitOpError("cannot appear in a path; a path holds "
                            "imeta.output, imeta.drop, imeta.require and "
                            "imeta.resolve ops");
  }
  return success();
}

/// The paths `path` extends, in order (those that resolve).
static SmallVector<PathOp> basesOf(PathOp path) {
  SmallVector<PathOp> bases;
  if (ArrayAttr refs = path.getBasesAttr())
    for (Attribute a : refs)
      if (auto base =
              lookupSpecSymbol<PathOp>(path, cast<FlatSymbolRefAttr>(a)))
        bases.push_back(base);
  return bases;
}

/// "@a" or "@a, @b": what `extends` lists, for messages.
static std::string basesText(PathOp path) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(path.getBasesAttr(), os);
  return text;
}

/// Appends `path`'s bases' chains (each path once), then `path`; fails
/// on a cycle.
static LogicalResult appendChain(PathOp path, SmallVectorImpl<PathOp> &chain,
                                 SmallVectorImpl<PathOp> &open) {
  if (llvm::is_contained(open, path))
    return failure();
  if (llvm::is_contained(chain, path))
    return success();
  open.push_back(path);
  for (PathOp base : basesOf(path))
    if (failed(appendChain(base, chain, open)))
      return failure();
  open.pop_back();
  chain.push_back(path);
  return success();
}

/// The paths `path` is made of, bases first (each once, in the order
/// its `extends` lists them), `path` last; fails on a cycle.
static FailureOr<SmallVector<PathOp>> pathChain(PathOp path) {
  SmallVector<PathOp> chain, open;
  if (failed(appendChain(path, chain, open)))
    return failure();
  return chain;
}

/// What `needs` lists must be optional (a required one is needed by every
/// path already).
static LogicalResult verifyNeeds(PathOp path, SymbolTableCollection &tables) {
  ArrayAttr needs = path.getNeedsAttr();
  if (!needs)
    return success();
  for (Attribute a : needs) {
    auto sym = cast<FlatSymbolRefAttr>(a);
    Operation *def = tables.lookupNearestSymbolFrom(path, sym);
    bool optional = false;
    if (auto cfg = dyn_cast_or_null<ConfigOp>(def))
      optional = cfg.getOptional();
    else if (auto in = dyn_cast_or_null<InputOp>(def))
      optional = in.getOptional();
    else
      return path.emitOpError("needs ")
             << sym << ", which is not a config parameter or an input";
    if (!optional)
      return path.emitOpError("needs ")
             << sym
             << ", which every batch gives already; list only optional "
                "config parameters and inputs (declare it {optional})";
  }
  return success();
}

/// Request state a path reads is in its `needs` (a batch of another path
/// gives none); a field that resolves an input reads the batch as given,
/// so no input the path resolves.
static LogicalResult verifyStateReads(PathOp path) {
  SmallVector<ResolveOp> resolves = getPathResolves(path);
  for (ResolveOp r : resolves) {
    auto field = lookupSpecSymbol<FieldOp>(r, r.getFieldAttr());
    if (!field)
      continue;
    llvm::SetVector<Operation *> read;
    collectInputsRead(field.getOperation(), read);
    for (ResolveOp other : resolves)
      if (llvm::any_of(read, [&](Operation *in) {
            return SymbolTable::getSymbolName(in) == other.getInputAttr()
                                                           .getAttr();
          }))
        return r.emitOpError("field ")
               << r.getFieldAttr() << " reads " << other.getInputAttr()
               << ", which this path resolves too; a resolving field reads "
               << "the batch as given";
  }
  auto spec = path->getParentOfType<SpecOp>();
  SmallVector<Operation *> roots;
  for (OutputOp out : getPathOutputs(path))
    if (Operation *def = lookupSymbol(spec, out.getSourceAttr()))
      roots.push_back(def);
  for (RequireOp rule : spec.getBody().front().getOps<RequireOp>())
    roots.push_back(rule);
  for (RequireOp rule : getPathRules(path))
    roots.push_back(rule);
  for (ResolveOp r : resolves)
    if (Operation *def = lookupSymbol(spec, r.getFieldAttr()))
      roots.push_back(def);
  llvm::SetVector<Operation *> read;
  collectInputsRead(roots, read);
  llvm::DenseSet<StringAttr> slots; // inputs some state input is read at
  for (InputOp s : spec.getBody().front().getOps<InputOp>())
    if (s.getSlotAttr())
      slots.insert(s.getSlotAttr().getAttr());
  SmallVector<Operation *> needs = getPathNeeds(path);
  for (Operation *op : read) {
    auto in = cast<InputOp>(op);
    if ((in.isState() || slots.contains(in.getSymNameAttr())) &&
        !llvm::is_contained(needs, op))
      return path.emitOpError("reads request state @")
             << in.getSymName() << "; list it in 'needs' (a batch of "
             << "another path gives no state)";
  }
  return success();
}

/// Each output's C++ name (outputIdentifier) is its own: `a.b` and `a_b`
/// in one path would be one buffer.
static LogicalResult verifyOutputIdentifiers(PathOp path) {
  llvm::StringMap<OutputOp> seen;
  for (OutputOp out : getPathOutputs(path)) {
    auto [it, inserted] =
        seen.try_emplace(outputIdentifier(out.getName()), out);
    if (!inserted && it->second.getName() != out.getName())
      return path.emitOpError("outputs '")
             << it->second.getName() << "' and '" << out.getName()
             << "', which the generated C++ both names '" << it->first()
             << "'; rename one";
  }
  return success();
}

LogicalResult PathOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  if (failed(verifyNeeds(*this, tables)) || failed(verifyStateReads(*this)))
    return failure();
  if (!getBasesAttr()) {
    if (getPathOutputs(*this).empty())
      return emitOpError("produces no output; list at least one with "
                         "imeta.output \"name\" = @field");
    return verifyOutputIdentifiers(*this);
  }
  for (Attribute a : getBasesAttr())
    if (failed(resolve<PathOp>(*this, tables, cast<FlatSymbolRefAttr>(a),
                               "path")))
      return failure();
  auto chain = pathChain(*this);
  if (failed(chain))
    return emitOpError("cycle between paths through 'extends' ")
           << basesText(*this);
  SmallVector<OutputOp> inherited;
  for (PathOp base : basesOf(*this))
    llvm::append_range(inherited, getPathOutputs(base));
  std::string named =
      getBasesAttr().size() == 1 ? "base path " : "its base paths ";
  for (auto drop : getBody().front().getOps<DropOp>())
    if (llvm::none_of(inherited, [&](OutputOp o) {
          return o.getName() == drop.getName();
        }))
      return drop.emitOpError("drops '")
             << drop.getName() << "', which " << named << basesText(*this)
             << " does not output";
  if (getPathOutputs(*this).empty())
    return emitOpError("drops every output of ")
           << basesText(*this) << "; a path produces at least one";
  return verifyOutputIdentifiers(*this);
}

SmallVector<OutputOp> imeta::getPathOutputs(PathOp path) {
  SmallVector<OutputOp> outputs;
  auto chain = pathChain(path);
  if (failed(chain))
    return outputs;
  // Where each name sits in `outputs` (linear in the outputs: a spec may
  // have thousands).
  llvm::StringMap<size_t> at;
  bool dropped = false;
  for (PathOp p : *chain) {
    for (auto out : p.getBody().front().getOps<OutputOp>()) {
      auto [it, fresh] = at.try_emplace(out.getName(), outputs.size());
      if (fresh)
        outputs.push_back(out);
      else if (it->second != SIZE_MAX)
        outputs[it->second] = out;
      else {
        it->second = outputs.size();
        outputs.push_back(out);
      }
    }
    for (auto drop : p.getBody().front().getOps<DropOp>()) {
      auto it = at.find(drop.getName());
      if (it == at.end() || it->second == SIZE_MAX)
        continue;
      outputs[it->second] = nullptr;
      it->second = SIZE_MAX;
      dropped = true;
    }
  }
  if (dropped)
    llvm::erase_if(outputs, [](OutputOp o) { return !o; });
  return outputs;
}

SmallVector<Operation *> imeta::getPathNeeds(PathOp path) {
  SmallVector<Operation *> needs;
  auto chain = pathChain(path);
  if (failed(chain))
    return needs;
  for (PathOp p : *chain) {
    ArrayAttr listed = p.getNeedsAttr();
    for (Attribute a : listed ? listed.getValue() : ArrayRef<Attribute>())
      if (Operation *def = lookupSymbol(p, cast<FlatSymbolRefAttr>(a)))
        if (!llvm::is_contained(needs, def))
          needs.push_back(def);
  }
  return needs;
}

SmallVector<ResolveOp> imeta::getPathResolves(PathOp path) {
  SmallVector<ResolveOp> resolves;
  auto chain = pathChain(path);
  if (failed(chain))
    return resolves;
  for (PathOp p : *chain)
    for (auto r : p.getBody().front().getOps<ResolveOp>()) {
      llvm::erase_if(resolves, [&](ResolveOp o) {
        return o.getInput() == r.getInput();
      });
      resolves.push_back(r);
    }
  return resolves;
}

SmallVector<RequireOp> imeta::getPathRules(PathOp path) {
  SmallVector<RequireOp> rules;
  auto chain = pathChain(path);
  if (succeeded(chain))
    for (PathOp p : *chain)
      llvm::append_range(rules, p.getBody().front().getOps<RequireOp>());
  return rules;
}

LogicalResult OutputOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  Operation *def = tables.lookupNearestSymbolFrom(*this, getSourceAttr());
  if (!def)
    return emitOpError("path lists ")
           << getSourceAttr() << ", but no field of that name is defined";
  if (!isa<FieldOp, PrefixSumOp>(def))
    return emitOpError() << getSourceAttr()
                         << " is not a field or prefix sum; a path outputs "
                            "only those (define a field that reads it)";
  // Dotted names nest results (`nums.prefill`); a part of digits alone
  // would read as a bucket (NAME.n).
  SmallVector<StringRef> parts;
  getName().split(parts, '.');
  for (StringRef part : parts)
    if (part.empty() || llvm::all_of(part, llvm::isDigit))
      return emitOpError("output name '")
             << getName() << "' must be non-empty, its '.'-separated parts "
             << "too, and no part digits alone (the buckets of a ratio set "
             << "or axis are named NAME.n automatically)";
  auto field = dyn_cast<FieldOp>(def);
  if (getOptional() && field && field.getDomain() == Domain::scalar)
    return emitOpError("output '")
           << getName() << "' is a scalar: it has one value whatever the "
           << "batch, so it is never absent; drop 'optional'";
  if (getOptional() && getRowsAttr())
    return emitOpError("output '")
           << getName() << "': rows(" << getRowsAttr() << ") gives it rows "
           << "in every step, so it is never absent; drop 'optional' or "
           << "rows";
  if (std::optional<int64_t> fill = getFill()) {
    if (field && field.getDomain() == Domain::scalar)
      return emitOpError("output '")
             << getName() << "' is a scalar: it has no rows past the batch "
             << "to fill";
    bool isBool = field && field.getElementType().isInteger(1);
    if (isBool && *fill != 0 && *fill != 1)
      return emitOpError("output '")
             << getName() << "' is bool: fill(0) or fill(1), not fill("
             << *fill << ")";
    if (*fill < INT32_MIN || *fill > INT32_MAX)
      return emitOpError("output '")
             << getName() << "': fill(" << *fill << ") does not fit i32";
  }
  if (FlatSymbolRefAttr rows = getRowsAttr()) {
    if (!getFill())
      return emitOpError("output '")
             << getName() << "': rows(" << rows << ") needs fill(v), the "
             << "value of the rows past the field's";
    if (!field || field.getDomain() == Domain::scalar || getRatios(field))
      return emitOpError("output '")
             << getName() << "': rows(" << rows << ") is for an unbucketed "
             << "'rows' or 'seq' field";
    auto len = dyn_cast_or_null<FieldOp>(
        tables.lookupNearestSymbolFrom(*this, rows));
    if (!len || len.getDomain() != Domain::scalar || hasColumns(len) ||
        getRatios(len) || !len.getElementType().isInteger(32))
      return emitOpError("output '")
             << getName() << "': rows(" << rows << ") must name an "
             << "unbucketed i32 scalar field";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The spec: allowed contents and the dependency graph between fields.
//===----------------------------------------------------------------------===//

/// Depth-first search for a cycle; reports it on the op that closes it.
static LogicalResult findCycle(Operation *op, mlir::SymbolTable &table,
                               DenseMap<Operation *, int> &state,
                               SmallVectorImpl<Operation *> &stack) {
  state[op] = 1;
  stack.push_back(op);
  for (FlatSymbolRefAttr dep : symbolDependencies(op)) {
    Operation *next = table.lookup(dep.getValue());
    if (!next || !isa<FieldOp, PrefixSumOp, RatioUnionOp>(next))
      continue; // Unknown symbols are reported by the symbol-use verifier.
    if (state[next] == 1) {
      std::string path;
      auto start = llvm::find(stack, next);
      for (Operation *o : llvm::make_range(start, stack.end()))
        path += "@" + SymbolTable::getSymbolName(o).str() + " -> ";
      path += "@" + dep.getValue().str();
      return op->emitOpError("cycle between fields: ") << path;
    }
    if (state[next] == 0 && failed(findCycle(next, table, state, stack)))
      return failure();
  }
  stack.pop_back();
  state[op] = 2;
  return success();
}

/// Names the generated C++ spells as they are (struct members, functions,
/// namespaces): identifiers, and not C++ keywords.
static LogicalResult checkCppName(Operation *op, StringRef name,
                                  StringRef what) {
  static const llvm::StringSet<> keywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand",
      "bitor", "bool", "break", "case", "catch", "char", "char8_t",
      "char16_t", "char32_t", "class", "compl", "concept", "const",
      "consteval", "constexpr", "constinit", "const_cast", "continue",
      "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export",
      "extern", "false", "float", "for", "friend", "goto", "if", "inline",
      "int", "long", "mutable", "namespace", "new", "noexcept", "not",
      "not_eq", "nullptr", "operator", "or", "or_eq", "private",
      "protected", "public", "register", "reinterpret_cast", "requires",
      "return", "short", "signed", "sizeof", "static", "static_assert",
      "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while",
      "xor", "xor_eq"};
  bool identifier =
      !name.empty() && (isalpha(static_cast<unsigned char>(name[0])) ||
                        name[0] == '_') &&
      llvm::all_of(name, [](char c) {
        return isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
  if (!identifier)
    return op->emitOpError()
           << what << " '" << name
           << "' must be an identifier (letters, digits, '_'): the generated "
              "C++ spells it";
  if (keywords.contains(name))
    return op->emitOpError()
           << what << " '" << name
           << "' is a C++ keyword, which the generated code cannot name; "
              "choose another";
  // The implementation's names, and those the generated code and the
  // headers it includes mean something by (scripts/reserved-names.sh).
  if (name.starts_with("_") || name.contains("__"))
    return op->emitOpError()
           << what << " '" << name
           << "' starts with '_' or holds '__', which C++ reserves for the "
              "implementation; choose another";
  static const llvm::StringSet<> reserved = {
#include "dialect/ReservedNames.inc"
  };
  if (reserved.contains(name))
    return op->emitOpError()
           << what << " '" << name
           << "' is a name the generated code or a header it includes "
              "(<cstdint>, <cstdio>, <climits>, CUDA's) already uses; "
              "choose another";
  return success();
}

LogicalResult SpecOp::verifyRegions() {
  if (failed(checkCppName(*this, getSymName(), "spec name")))
    return failure();
  for (Operation &op : getBody().front()) {
    if (!isa<ConfigOp, RatiosOp, RatioUnionOp, AxisOp, InputOp, FieldOp,
             PrefixSumOp, RequireOp, PathOp, FormulaDefOp>(op))
      return op.emitOpError("cannot appear at the top of an imeta.spec");
    if (auto sym = op.getAttrOfType<StringAttr>(
            mlir::SymbolTable::getSymbolAttrName()))
      if (failed(checkCppName(&op, sym.getValue(), "name")))
        return failure();
    if (auto path = dyn_cast<PathOp>(op))
      for (auto out : path.getBody().front().getOps<OutputOp>()) {
        // (An empty part: OutputOp's own message.) The generated C++
        // spells a dotted name with '_'.
        std::string id = outputIdentifier(out.getName());
        if (!out.getName().empty() && !out.getName().contains("..") &&
            !out.getName().starts_with(".") && !out.getName().ends_with(".") &&
            failed(checkCppName(out, id,
                                id == out.getName()
                                    ? "output name"
                                    : "output name '" + out.getName().str() +
                                          "', in C++")))
          return failure();
      }
  }
  mlir::SymbolTable table(*this);
  DenseMap<Operation *, int> state;
  SmallVector<Operation *> stack;
  for (Operation &op : getBody().front())
    if (isa<FieldOp, PrefixSumOp, RatioUnionOp>(op) && state[&op] == 0)
      if (failed(findCycle(&op, table, state, stack)))
        return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Formula ops
//===----------------------------------------------------------------------===//

#define IMETA_CONTEXT_VERIFIER(OP, COND, WHAT)                                 \
  LogicalResult OP::verify() {                                                 \
    FormulaContext ctx = getFormulaContext(*this);                             \
    if (!ctx.owner)                                                            \
      return emitOpError("must be nested in an imeta.field or imeta.require"); \
    if (!(COND))                                                               \
      return emitOpError("is only valid in ") << WHAT;                         \
    return success();                                                          \
  }

IMETA_CONTEXT_VERIFIER(SeqIndexOp, ctx.domain != Domain::scalar,
                       "a 'seq' or 'rows' domain")
IMETA_CONTEXT_VERIFIER(RowIndexOp, ctx.domain == Domain::rows,
                       "a 'rows' domain")
IMETA_CONTEXT_VERIFIER(RowOp, ctx.domain == Domain::rows || bool(ctx.count),
                       "a 'rows' domain or a field over a subset")
IMETA_CONTEXT_VERIFIER(ColIndexOp, bool(ctx.cols), "a field with 'cols'")
IMETA_CONTEXT_VERIFIER(RatioOp, bool(ctx.ratios),
                       "a field or rule bucketed 'over' a ratio set or an axis")
#undef IMETA_CONTEXT_VERIFIER

LogicalResult PrevOp::verify() {
  FormulaContext ctx = getFormulaContext(*this);
  auto field = dyn_cast_or_null<FieldOp>(ctx.owner);
  if (getFieldAttr()) {
    if (!field || ctx.domain == Domain::scalar)
      return emitOpError("reads a field at the previous sequence: only a "
                         "'seq' or 'rows' field has a sequence");
    return success(); // the field read: verifySymbolUses
  }
  if (!field || ctx.domain != Domain::seq || ctx.count || ctx.cols)
    return emitOpError("reads the field's value at the previous sequence: "
                       "only a 'seq' field of the whole batch without "
                       "'cols' has one");
  if (field.getFormula() || field.getBody().empty())
    return success(); // checked once expanded
  unsigned width = field.getWidth();
  if (getColumn() >= uint64_t(width))
    return emitOpError("reads value ")
           << getColumn() << " of the previous sequence's, but field @"
           << field.getSymName() << " has " << width << " value"
           << (width == 1 ? "" : "s") << " a sequence";
  if (getType() != field.getElementType())
    return emitOpError("is ") << getType() << " but field @"
                              << field.getSymName() << " holds "
                              << field.getElementType();
  return success();
}

LogicalResult GetConfigOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  auto param = resolve<ConfigOp>(*this, tables, getParamAttr(),
                                 "config parameter");
  if (failed(param))
    return failure();
  if (isa<ListType>(param->getType()))
    return emitOpError() << getParamAttr() << " is a list; read it as a "
                         << "ratio set";
  return checkResultType(*this, param->getType(), getParamAttr());
}

LogicalResult GetInputOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  auto input = resolve<InputOp>(*this, tables, getInputAttr(), "input");
  if (failed(input) || failed(requireSequence(*this)))
    return failure();
  if (isa<ListType>(input->getType()))
    return emitOpError() << getInputAttr()
                         << " is a list; read it with imeta.load";
  return checkResultType(*this, input->getType(), getInputAttr());
}

template <typename OpT>
static LogicalResult verifyListUse(OpT op, SymbolTableCollection &tables) {
  auto input = resolve<InputOp>(op, tables, op.getInputAttr(), "input");
  if (failed(input) || failed(requireSequence(op)))
    return failure();
  if (!isa<ListType>(input->getType()))
    return op.emitOpError() << op.getInputAttr()
                            << " is not a list; read it with imeta.get_input "
                            << op.getInputAttr();
  return success();
}

LogicalResult LoadOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  return verifyListUse(*this, tables);
}

LogicalResult LengthOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  return verifyListUse(*this, tables);
}

LogicalResult CountOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  return verifyListUse(*this, tables);
}

/// A config list parameter (not a scalar, not a ratio set).
template <typename OpT>
static LogicalResult verifyConfigList(OpT op, SymbolTableCollection &tables) {
  auto param =
      resolve<ConfigOp>(op, tables, op.getParamAttr(), "config parameter");
  if (failed(param))
    return failure();
  if (!isa<ListType>(param->getType()))
    return op.emitOpError() << op.getParamAttr()
                            << " is not a list; read it with imeta.get_config "
                            << op.getParamAttr();
  return success();
}

LogicalResult ConfigAtOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  return verifyConfigList(*this, tables);
}

LogicalResult ConfigLenOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  return verifyConfigList(*this, tables);
}

LogicalResult PrevOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  if (!getFieldAttr())
    return success();
  auto field = resolve<FieldOp>(*this, tables, getFieldAttr(), "field");
  if (failed(field))
    return failure();
  if (field->getDomain() != Domain::seq || field->getCountAttr() ||
      field->getCols() || field->getWidth() != 1 || getColumn() != 0)
    return emitOpError("reads ")
           << getFieldAttr() << " at the previous sequence: a 'seq' field "
           << "of one value over every sequence has one";
  if (failed(verifyRatioUse(*this, getFormulaContext(*this).ratios,
                            field->getRatiosAttr(), getFieldAttr())))
    return failure();
  return checkResultType(*this, field->getElementType(), getFieldAttr());
}

LogicalResult GetOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  auto field = resolve<FieldOp>(*this, tables, getFieldAttr(), "field");
  if (failed(field) || failed(checkFlatField(*this, *field, "field")))
    return failure();
  FormulaContext ctx = getFormulaContext(*this);
  switch (field->getDomain()) {
  case Domain::scalar:
    break;
  case Domain::seq:
    if (failed(requireSequence(*this)))
      return failure();
    break;
  case Domain::rows:
    if (ctx.domain != Domain::rows || ctx.count != field->getCountAttr())
      return emitOpError("reads the rows field ")
             << getFieldAttr() << " outside its row space; only a 'rows("
             << field->getCountAttr() << ")' field may read it";
    break;
  }
  if (failed(verifyRatioUse(*this, ctx.ratios, field->getRatiosAttr(),
                            getFieldAttr())))
    return failure();
  return checkResultType(*this, field->getElementType(), getFieldAttr());
}

LogicalResult GatherOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  auto field = resolve<FieldOp>(*this, tables, getFieldAttr(), "field");
  if (failed(field))
    return failure();
  if (field->getDomain() != Domain::rows)
    return emitOpError("gathers ")
           << getFieldAttr() << ", which is not a 'rows' field; read a "
           << "'seq' field with imeta.get";
  if (field->getWidth() != 1)
    return emitOpError("gathers ")
           << getFieldAttr() << ", a field of " << field->getWidth()
           << " values a row; gather a field of one value";
  if (failed(requireSequence(*this)))
    return failure();
  FormulaContext ctx = getFormulaContext(*this);
  if (field->getCols() &&
      (ctx.cols != field->getColsAttr() ||
       ctx.domain == Domain::scalar))
    return emitOpError("gathers the 'cols(")
           << field->getColsAttr() << ")' field " << getFieldAttr()
           << " column by column: only a field of the same 'cols("
           << field->getColsAttr() << ")' may";
  if (failed(verifyRatioUse(*this, ctx.ratios, field->getRatiosAttr(),
                            getFieldAttr())))
    return failure();
  return checkResultType(*this, field->getElementType(), getFieldAttr());
}

/// A reduction of a rows field's rows: one value a row, in a sequence's
/// field (its rows) or a scalar (every row).
static LogicalResult verifyRowsReduction(ReduceOp op, FieldOp field) {
  if (field.getCols())
    return op.emitOpError("reduces ")
           << op.getFieldAttr() << ", a 'rows' field with columns; reduce "
           << "a rows field of one value a row";
  if (field.getWidth() != 1)
    return op.emitOpError("reduces ")
           << op.getFieldAttr() << ", a 'rows' field of " << field.getWidth()
           << " values a row; reduce a rows field of one value a row";
  FormulaContext ctx = getFormulaContext(op);
  if (ctx.domain == Domain::rows)
    return op.emitOpError("reduces the rows of ")
           << op.getFieldAttr() << " in a 'rows' field; define a 'seq' "
           << "field with it (the sequence's rows) and read that with "
           << "imeta.get";
  if (failed(verifyRatioUse(op, ctx.ratios, field.getRatiosAttr(),
                            op.getFieldAttr())))
    return failure();
  return checkResultType(op, field.getElementType(), op.getFieldAttr());
}

LogicalResult ReduceRowsOp::verify() {
  FormulaContext ctx = getFormulaContext(*this);
  if (ctx.domain == Domain::scalar)
    return emitOpError("is only valid in a 'seq' or 'rows' field (it "
                       "reduces the current sequence's rows)");
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 ||
      !body.getArgument(0).getType().isInteger(32))
    return emitOpError("body takes one i32 argument, the row");
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield || yield.getValues().size() != 1 ||
      yield.getValues().front().getType() != getType())
    return emitOpError("body must yield one ") << getType();
  return success();
}

LogicalResult ReduceOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  auto field = resolve<FieldOp>(*this, tables, getFieldAttr(), "field");
  if (failed(field))
    return failure();
  if (getColumn() && (field->getDomain() != Domain::seq ||
                      !hasColumns(*field)))
    return emitOpError("reduces ")
           << getFieldAttr() << " per column, but it is "
           << (field->getDomain() != Domain::seq
                   ? "not a 'seq' field (a column reduces over sequences)"
                   : "a field of one value a sequence (drop the column)");
  if (field->getDomain() == Domain::rows)
    return verifyRowsReduction(*this, *field);
  if (field->getDomain() == Domain::scalar && !hasColumns(*field))
    return emitOpError("reduces ")
           << getFieldAttr() << ", a scalar of one value; read it with "
           << "imeta.get";
  if (field->getLive())
    return emitOpError("reduces ")
           << getFieldAttr() << ", whose columns past 'live' are "
           << "unspecified; reduce a field without 'live'";
  FormulaContext ctx = getFormulaContext(*this);
  if (ctx.domain != Domain::scalar)
    return emitOpError("is only valid in a 'scalar' field or rule (one value "
                       "per batch); define a scalar field with it and read "
                       "that with imeta.get");
  if (failed(verifyRatioUse(*this, ctx.ratios, field->getRatiosAttr(),
                            getFieldAttr())))
    return failure();
  return checkResultType(*this, field->getElementType(), getFieldAttr());
}

template <typename OpT>
static FailureOr<PrefixSumOp> verifyPrefixUse(OpT op,
                                              SymbolTableCollection &tables) {
  auto sum = resolve<PrefixSumOp>(op, tables, op.getPrefixAttr(), "prefix sum");
  if (failed(sum))
    return failure();
  FormulaContext ctx = getFormulaContext(op);
  if (failed(verifyRatioUse(op, ctx.ratios, getRatios(*sum),
                            op.getPrefixAttr())))
    return failure();
  auto src = lookupSpecSymbol<FieldOp>(*sum, sum->getSourceAttr());
  if (src && failed(checkResultType(op, src.getElementType(),
                                    op.getPrefixAttr())))
    return failure();
  bool perColumn = src && hasColumns(src);
  if (perColumn && !op.getColumn())
    return op.emitOpError("reads ")
           << op.getPrefixAttr() << ", a sum per column of "
           << sum->getSourceAttr() << ": name the column, "
           << (isa<PrefixAtOp>(op.getOperation()) ? "[i, column]"
                                                  : "[column]");
  if (!perColumn && op.getColumn())
    return op.emitOpError("reads a column of ")
           << op.getPrefixAttr() << ", but " << sum->getSourceAttr()
           << " has one value a sequence";
  return sum;
}

LogicalResult PrefixAtOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  auto sum = verifyPrefixUse(*this, tables);
  if (failed(sum))
    return failure();
  auto stated = cast<PrefixType>(getType()).getConvention();
  if (stated != sum->getConvention())
    return emitOpError("reads ")
           << getPrefixAttr() << " as " << stringifyConvention(stated)
           << ", but it is declared "
           << stringifyConvention(sum->getConvention());
  return success();
}

LogicalResult PrefixTotalOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  return verifyPrefixUse(*this, tables);
}

LogicalResult RatioMinOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  if (lookupSpecSymbol<AxisOp>(*this, getSetAttr()))
    return emitOpError() << getSetAttr()
                         << " is an axis, whose least index is 0; "
                            "ratio_min reads a ratio set";
  return resolveRatioSet(*this, tables, getSetAttr());
}

LogicalResult RatioCountOp::verifySymbolUses(SymbolTableCollection &tables) {
  SymbolLookupScope scope(tables);
  return resolveRatioSet(*this, tables, getSetAttr());
}

//===----------------------------------------------------------------------===//
// imeta.formula: a named sub-formula of compact formulas
//===----------------------------------------------------------------------===//

ParseResult FormulaDefOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  SmallVector<Attribute> params;
  std::string text;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes) ||
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren,
          [&]() -> ParseResult {
            StringRef param;
            if (parser.parseKeyword(&param))
              return failure();
            params.push_back(parser.getBuilder().getStringAttr(param));
            return success();
          }) ||
      parser.parseEqual())
    return failure();
  // Where the text starts: its errors and ops point into it.
  SMLoc start = parser.getCurrentLocation();
  if (parser.parseString(&text) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addAttribute(getTextLocAttrName(result.name),
                      formulaTextLoc(parser, start));
  result.addAttribute(getParamsAttrName(result.name),
                      parser.getBuilder().getArrayAttr(params));
  result.addAttribute(getTextAttrName(result.name),
                      parser.getBuilder().getStringAttr(text));
  return success();
}

void FormulaDefOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printSymbolName(getSymName());
  p << "(";
  llvm::interleaveComma(getParams().getAsValueRange<StringAttr>(), p);
  p << ") = ";
  p.printString(getText());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getSymNameAttrName(), getParamsAttrName(),
                           getTextAttrName(), getTextLocAttrName()});
}

LogicalResult FormulaDefOp::verify() {
  if (syntax::isFunctionName(getSymName()))
    return emitOpError("sub-formula '")
           << getSymName()
           << "' has the name of a built-in function of compact formulas ("
           << getSymName() << "(...)); choose another";
  llvm::StringSet<> seen;
  for (StringRef param : getParams().getAsValueRange<StringAttr>())
    if (!seen.insert(param).second)
      return emitOpError("names parameter '") << param << "' twice";
  return success();
}
