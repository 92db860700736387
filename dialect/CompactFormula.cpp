//===- CompactFormula.cpp - a field's formula as one expression -----------===//

#include "dialect/CompactFormula.h"
#include "dialect/CompactSyntax.h"
#include "dialect/GatherExpansion.h"
#include "dialect/IMetaSymbols.h"
#include "dialect/RowsReduction.h"
#include "dialect/SubsetLowering.h"
#include "lib/Support/Format.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace imeta;

namespace {
/// A recursive-descent parser that builds ops as it reads.
class FormulaParser {
public:
  /// `owner`: the field or rule whose formula `text` is (or calls).
  /// `textLoc`: where `text` starts in the source (its opening quote).
  FormulaParser(Operation *owner, StringRef text, LocationAttr textLoc)
      : owner(owner), text(text), textLoc(textLoc), b(owner->getContext()),
        i32(b.getI32Type()), i1(b.getI1Type()), loc(owner->getLoc()) {}

  /// Builds the formula into `body`, yielding a value of type `want`.
  LogicalResult run(Block *body, Type want);

  /// The value of sub-formula `def` at `args`, its ops built where `outer`
  /// builds (a call from `outer`'s formula).
  static FailureOr<Value> inlineCall(FormulaParser &outer, FormulaDefOp def,
                                     ArrayRef<Value> args, Location at);

private:
  // Lexing.
  void skipSpace() {
    while (pos < text.size() && isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool peek(StringRef tok) {
    skipSpace();
    return text.substr(pos).starts_with(tok);
  }
  bool accept(StringRef tok) {
    if (!peek(tok))
      return false;
    pos += tok.size();
    return true;
  }
  LogicalResult expect(StringRef tok) {
    return accept(tok) ? success() : fail(fmt("expected '{0}'", tok));
  }
  StringRef identifier() {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() &&
           (isalnum(static_cast<unsigned char>(text[pos])) || text[pos] == '_'))
      ++pos;
    if (start < text.size() && isdigit(static_cast<unsigned char>(text[start])))
      pos = start;
    return text.slice(start, pos);
  }
  /// Where offset `at` of the text is in the source: its column in the
  /// string (past the escapes before it), called from
  /// where the caller's text calls it; the owner's location where the text
  /// has none (a formula built by a pass).
  Location locAt(size_t at) const {
    Location l = loc;
    // A text with escapes: its start, and each character's offset in the
    // source (formulaTextLoc, IMetaOps.cpp).
    LocationAttr start = textLoc;
    DenseI32ArrayAttr rawAt;
    if (auto fused = dyn_cast_or_null<FusedLoc>(textLoc);
        fused && fused.getLocations().size() == 1) {
      start = fused.getLocations().front();
      rawAt = dyn_cast_or_null<DenseI32ArrayAttr>(fused.getMetadata());
    }
    if (auto file = dyn_cast_or_null<FileLineColLoc>(start)) {
      int64_t offset = int64_t(at);
      if (rawAt && !rawAt.empty())
        offset = rawAt[std::min<int64_t>(offset, rawAt.size() - 1)];
      l = FileLineColLoc::get(file.getFilename(), file.getLine(),
                              file.getColumn() + 1 + unsigned(offset));
    }
    return caller ? CallSiteLoc::get(l, *caller) : l;
  }
  /// Where the next token starts.
  size_t tokenStart() {
    skipSpace();
    return pos;
  }
  /// An error at offset `at` (a function's name: its usage is wrong).
  LogicalResult failAt(size_t at, const Twine &message) {
    pos = at;
    return fail(message);
  }
  LogicalResult fail(const Twine &message) {
    return emitError(locAt(pos))
           << "'" << owner->getName() << "' op formula" << callee
           << ", column " << pos + 1 << ": " << message << " in \""
           << excerpt() << "\"";
  }
  /// The formula, or for a long one the part around the column.
  std::string excerpt() const {
    constexpr size_t kShown = 40; // characters on each side of `pos`
    if (text.size() <= 3 * kShown)
      return text.str();
    size_t from = pos > kShown ? pos - kShown : 0;
    return (from ? "..." : "") + text.substr(from, 2 * kShown).str() +
           (from + 2 * kShown < text.size() ? "..." : "");
  }
  /// Counts one level of nesting (a parenthesis, a call's argument, an index,
  /// a '?:' branch, a unary operator) while alive: the parser recurses per
  /// level, so an input nested deeper than kMaxNesting is refused before the
  /// stack can run out.
  class Nested {
  public:
    explicit Nested(FormulaParser &p) : p(p) { ++p.nesting; }
    ~Nested() { --p.nesting; }
    /// (The formula itself is the first level: kMaxNesting below it.)
    bool tooDeep() const { return p.nesting > kMaxNesting + 1; }

  private:
    FormulaParser &p;
  };
  LogicalResult tooDeep() {
    return fail(fmt("nested deeper than {0} levels (parentheses, calls, "
                    "indices, '?:' and unary operators count); name a "
                    "part with a local binding `x = ...;` or a "
                    "sub-formula",
                    kMaxNesting));
  }

  // Grammar, loosest first.
  FailureOr<Value> ternary();
  FailureOr<Value> logicalOr();
  FailureOr<Value> logicalAnd();
  FailureOr<Value> comparison();
  FailureOr<Value> additive();
  FailureOr<Value> multiplicative();
  FailureOr<Value> unary();
  FailureOr<Value> primary();
  FailureOr<Value> call(StringRef name);
  FailureOr<Value> count(Location at);
  FailureOr<Value> gather(Location at);
  FailureOr<Value> select(Location at);
  FailureOr<Value> toInt(Location at);
  FailureOr<Value> previous(Location at);
  FailureOr<Operation *> symbolArgument(StringRef &id);
  FailureOr<Value> name(StringRef name, bool symbolOnly);
  FailureOr<Value> indexed(StringRef name);
  FailureOr<Value> typed(FailureOr<Value> v, Type type, StringRef what);
  FailureOr<Operation *> symbol(StringRef name);
  /// Fails, in the formula's words, where point name `id` has no meaning
  /// in the owner (`j` in a seq field) or a spec symbol has its name.
  LogicalResult checkPoint(StringRef id, const syntax::BuiltinName &b);
  /// Fails where `fn`, a built-in reading a symbol, cannot read `def`
  /// (at `column`, where one is given).
  LogicalResult checkSymbolFunction(StringRef fn, StringRef id,
                                    Operation *def, Value column);
  /// The owner as a formula's errors name it ("field @a, a seq field").
  std::string ownerText() const;

  Operation *owner;
  StringRef text;
  LocationAttr textLoc;
  /// In a sub-formula: where the caller's text calls it, and the
  /// sub-formulas being expanded, outermost first.
  std::optional<Location> caller;
  SmallVector<StringRef, 4> chain;
  FailureOr<Value> bindingsAndValue();
  static constexpr unsigned kMaxDepth = 16;
  unsigned depth = 0;
  /// How deep a formula may nest, its sub-formulas' levels included
  /// (docs/new-variant.md).
  static constexpr unsigned kMaxNesting = 256;
  unsigned nesting = 0;
  /// " @name" while reading sub-formula @name (for its errors).
  std::string callee;
  size_t pos = 0;
  size_t nameStart = 0; ///< where the last name read in primary() starts
  OpBuilder b;
  Type i32, i1;
  /// The owner's location: where its ops that have no place in the text
  /// (its yield) are.
  Location loc;
  llvm::StringMap<Value> locals;
  /// A field's formula may end in a row (`a, b, c`): the values after the
  /// first.
  bool allowRow = false;
  SmallVector<Value> rowRest;
};
} // namespace

LogicalResult FormulaParser::run(Block *body, Type want) {
  b.setInsertionPointToEnd(body);
  allowRow = isa<FieldOp>(owner);
  FailureOr<Value> value = bindingsAndValue();
  if (failed(value))
    return failure();
  if (value->getType() != want)
    return fail(fmt("the value is {0}; {1}",
                    value->getType() == i1 ? "i1" : "i32",
                    isa<RequireOp>(owner) ? "a rule's is a condition (i1)"
                    : want == i1          ? "the field declares i1"
                                          : "the field declares i32 (add ': "
                                            "i1' for a flag)"));
  SmallVector<Value> row{*value};
  llvm::append_range(row, rowRest);
  for (Value v : rowRest)
    if (v.getType() != value->getType())
      return fail("the values of a row must share one type");
  YieldOp::create(b, loc, row);
  return success();
}

FailureOr<Value> FormulaParser::bindingsAndValue() {
  // Bindings: `name = expr;` (an identifier followed by a lone '=').
  while (true) {
    size_t start = pos;
    StringRef id = identifier();
    if (!id.empty() && accept("=") && !peek("=")) {
      FailureOr<Value> v = ternary();
      if (failed(v) || failed(expect(";")))
        return failure();
      locals[id] = *v;
      continue;
    }
    pos = start;
    break;
  }
  FailureOr<Value> value = ternary();
  if (failed(value))
    return failure();
  // A field's row of K values: `a, b, c` (its run() yields them all).
  while (allowRow && accept(",")) {
    FailureOr<Value> next = ternary();
    if (failed(next))
      return failure();
    rowRest.push_back(*next);
  }
  accept(";");
  skipSpace();
  if (pos != text.size())
    return fail("unexpected text after the formula's value");
  return value;
}

FailureOr<Value> FormulaParser::inlineCall(FormulaParser &outer,
                                           FormulaDefOp def,
                                           ArrayRef<Value> args, Location at) {
  if (llvm::is_contained(outer.chain, def.getSymName())) {
    std::string cycle;
    for (StringRef name : outer.chain)
      cycle += ("@" + name + " -> ").str();
    return outer.fail(fmt("{0}@{1}: a sub-formula cannot call itself", cycle,
                          def.getSymName()));
  }
  if (outer.depth >= kMaxDepth)
    return outer.fail(fmt("@{0} is called {1} deep: sub-formulas may "
                          "nest {1} calls",
                          def.getSymName(), kMaxDepth));
  auto params = def.getParams().getAsValueRange<StringAttr>();
  if (size_t(llvm::size(params)) != args.size())
    return outer.fail(fmt("@{0} takes {1} arguments, not {2}", def.getSymName(),
                          llvm::size(params), args.size()));
  FormulaParser inner(outer.owner, def.getText(), def.getTextLocAttr());
  inner.caller = at;
  inner.chain = outer.chain;
  inner.chain.push_back(def.getSymName());
  inner.b = outer.b;
  inner.depth = outer.depth + 1;
  inner.nesting = outer.nesting;
  inner.callee = (" @" + def.getSymName()).str();
  for (auto [param, arg] : llvm::zip(params, args))
    inner.locals[param] = arg;
  return inner.bindingsAndValue();
}

FailureOr<Value> FormulaParser::typed(FailureOr<Value> v, Type type,
                                      StringRef what) {
  if (succeeded(v) && v->getType() != type)
    return fail(fmt("{0} needs {1}", what,
                    type == i1 ? "a condition (i1)" : "a number (i32)"));
  return v;
}

FailureOr<Value> FormulaParser::ternary() {
  Nested level(*this);
  if (level.tooDeep())
    return tooDeep();
  FailureOr<Value> cond = logicalOr();
  if (failed(cond))
    return cond;
  const size_t qAt = tokenStart();
  if (!accept("?"))
    return cond;
  Location at = locAt(qAt);
  if (failed(typed(cond, i1, "'?'")))
    return failure();
  // Each side into a block of its own, then both into an scf.if: only the
  // side taken runs.
  OpBuilder::InsertPoint outer = b.saveInsertionPoint();
  Block thenBlock, elseBlock;
  b.setInsertionPointToEnd(&thenBlock);
  FailureOr<Value> a = ternary();
  if (failed(a) || failed(expect(":")))
    return failure();
  b.setInsertionPointToEnd(&elseBlock);
  FailureOr<Value> c = ternary();
  if (failed(c))
    return failure();
  b.restoreInsertionPoint(outer);
  if (a->getType() != c->getType())
    return fail("the two sides of '?:' differ in type");
  auto ifOp = scf::IfOp::create(b, at, TypeRange{a->getType()}, *cond,
                                /*withElseRegion=*/true);
  for (auto [from, region, v] :
       {std::tuple(&thenBlock, &ifOp.getThenRegion(), *a),
        std::tuple(&elseBlock, &ifOp.getElseRegion(), *c)}) {
    if (region->empty())
      region->emplaceBlock();
    Block &to = region->front();
    to.getOperations().splice(to.end(), from->getOperations());
    OpBuilder inner = OpBuilder::atBlockEnd(&to);
    scf::YieldOp::create(inner, at, ValueRange{v});
  }
  return ifOp.getResult(0);
}

FailureOr<Value> FormulaParser::logicalOr() {
  FailureOr<Value> lhs = logicalAnd();
  for (size_t at = tokenStart(); succeeded(lhs) && accept("||");
       at = tokenStart()) {
    FailureOr<Value> rhs = typed(logicalAnd(), i1, "'||'");
    if (failed(typed(lhs, i1, "'||'")) || failed(rhs))
      return failure();
    lhs = arith::OrIOp::create(b, locAt(at), *lhs, *rhs).getResult();
  }
  return lhs;
}

FailureOr<Value> FormulaParser::logicalAnd() {
  FailureOr<Value> lhs = comparison();
  for (size_t at = tokenStart(); succeeded(lhs) && accept("&&");
       at = tokenStart()) {
    FailureOr<Value> rhs = typed(comparison(), i1, "'&&'");
    if (failed(typed(lhs, i1, "'&&'")) || failed(rhs))
      return failure();
    lhs = arith::AndIOp::create(b, locAt(at), *lhs, *rhs).getResult();
  }
  return lhs;
}

FailureOr<Value> FormulaParser::comparison() {
  FailureOr<Value> lhs = additive();
  if (failed(lhs))
    return failure();
  using P = arith::CmpIPredicate;
  static const std::pair<StringRef, P> ops[] = {{"<=", P::sle}, {">=", P::sge},
                                                {"==", P::eq},  {"!=", P::ne},
                                                {"<", P::slt},  {">", P::sgt}};
  const size_t opAt = tokenStart();
  for (auto [tok, pred] : ops) {
    if (!accept(tok))
      continue;
    FailureOr<Value> rhs = additive();
    if (failed(rhs))
      return failure();
    // Numbers compare every way; conditions compare equal or not.
    bool equality = pred == P::eq || pred == P::ne;
    if (lhs->getType() != rhs->getType() ||
        (lhs->getType() == i1 && !equality))
      pos = opAt; // the error's column: the operator's
    if (lhs->getType() != rhs->getType())
      return fail(fmt("'{0}' compares two numbers{1}; this compares a "
                      "condition with a number (int(c) is a condition's "
                      "1 or 0)",
                      tok, equality ? " or two conditions" : ""));
    if (lhs->getType() == i1 && !equality)
      return fail(fmt("'{0}' orders numbers; conditions compare with == "
                      "and !=",
                      tok));
    return arith::CmpIOp::create(b, locAt(opAt), pred, *lhs, *rhs)
        .getResult();
  }
  return lhs;
}

FailureOr<Value> FormulaParser::additive() {
  FailureOr<Value> lhs = multiplicative();
  while (succeeded(lhs)) {
    const size_t at = tokenStart();
    bool add = accept("+");
    if (!add && !accept("-"))
      break;
    StringRef what = add ? "'+'" : "'-'";
    FailureOr<Value> rhs = typed(multiplicative(), i32, what);
    if (failed(typed(lhs, i32, what)) || failed(rhs))
      return failure();
    lhs = add ? arith::AddIOp::create(b, locAt(at), *lhs, *rhs).getResult()
              : arith::SubIOp::create(b, locAt(at), *lhs, *rhs).getResult();
  }
  return lhs;
}

FailureOr<Value> FormulaParser::multiplicative() {
  FailureOr<Value> lhs = unary();
  while (succeeded(lhs)) {
    char op = peek("*") ? '*' : peek("/") ? '/' : peek("%") ? '%' : 0;
    if (!op)
      break;
    Location at = locAt(pos);
    ++pos;
    std::string what = fmt("'{0}'", op);
    FailureOr<Value> rhs = typed(unary(), i32, what);
    if (failed(typed(lhs, i32, what)) || failed(rhs))
      return failure();
    if (op == '*')
      lhs = arith::MulIOp::create(b, at, *lhs, *rhs).getResult();
    else if (op == '/')
      lhs = arith::DivSIOp::create(b, at, *lhs, *rhs).getResult();
    else
      lhs = arith::RemSIOp::create(b, at, *lhs, *rhs).getResult();
  }
  return lhs;
}

FailureOr<Value> FormulaParser::unary() {
  if (!peek("!") && !peek("-"))
    return primary();
  Nested level(*this);
  if (level.tooDeep())
    return tooDeep();
  Location at = locAt(tokenStart());
  if (accept("!")) {
    FailureOr<Value> v = typed(unary(), i1, "'!'");
    if (failed(v))
      return failure();
    Value t = arith::ConstantOp::create(b, at, b.getBoolAttr(true));
    return arith::XOrIOp::create(b, at, *v, t).getResult();
  }
  if (accept("-")) {
    FailureOr<Value> v = typed(unary(), i32, "'-'");
    if (failed(v))
      return failure();
    // -literal is a constant (-1, the usual pad, has nothing to check).
    if (auto lit = v->getDefiningOp<arith::ConstantOp>()) {
      int64_t value = cast<IntegerAttr>(lit.getValue()).getInt();
      if (value != INT32_MIN && lit->use_empty()) {
        lit->erase();
        return arith::ConstantOp::create(b, at, b.getI32IntegerAttr(-value))
            .getResult();
      }
    }
    Value zero = arith::ConstantOp::create(b, at, b.getI32IntegerAttr(0));
    return arith::SubIOp::create(b, at, zero, *v).getResult();
  }
  return primary();
}

FailureOr<Value> FormulaParser::primary() {
  skipSpace();
  if (accept("(")) {
    FailureOr<Value> v = ternary();
    if (failed(v) || failed(expect(")")))
      return failure();
    return v;
  }
  if (pos < text.size() && isdigit(static_cast<unsigned char>(text[pos]))) {
    size_t start = pos;
    while (pos < text.size() && isdigit(static_cast<unsigned char>(text[pos])))
      ++pos;
    int64_t v = 0;
    if (text.slice(start, pos).getAsInteger(10, v) || v > INT32_MAX)
      return fail("an integer literal must fit i32");
    return arith::ConstantOp::create(b, locAt(start), b.getI32IntegerAttr(v))
        .getResult();
  }
  nameStart = pos;
  bool symbolOnly = accept("@");
  StringRef id = identifier();
  if (id.empty())
    return fail("expected a number, a name or '('");
  if (!symbolOnly && accept("("))
    return call(id);
  if (accept("["))
    return indexed(id);
  return name(id, symbolOnly);
}

FailureOr<Operation *> FormulaParser::symbol(StringRef id) {
  Operation *def =
      lookupSymbol(owner->getParentOfType<SpecOp>(), b.getStringAttr(id));
  if (!def)
    pos = nameStart; // the error's column: where the name starts
  if (!def)
    return fail(fmt("'{0}' names no local, point or symbol of the spec", id));
  return def;
}

/// What a spec symbol is, in a formula's words.
static std::string kindOf(Operation *def) {
  if (auto cfg = dyn_cast<ConfigOp>(def))
    return isa<ListType>(cfg.getType()) ? "a config list" : "a config parameter";
  if (auto in = dyn_cast<InputOp>(def))
    return isa<ListType>(in.getType()) ? "a list input" : "an input";
  if (auto field = dyn_cast<FieldOp>(def)) {
    if (field.getDomain() == Domain::seq && field.getCountAttr())
      return ("a field over the sequences where @" +
              field.getCountAttr().getValue() + " holds")
          .str();
    return (Twine("a ") + stringifyDomain(field.getDomain()) + " field").str();
  }
  if (isa<PrefixSumOp>(def))
    return "a prefix sum";
  if (isa<AxisOp>(def))
    return "an axis";
  if (isa<RatiosOp, RatioUnionOp>(def))
    return "a ratio set";
  if (isa<FormulaDefOp>(def))
    return "a sub-formula";
  return "a " + def->getName().stripDialect().str();
}

std::string FormulaParser::ownerText() const {
  if (auto field = dyn_cast<FieldOp>(owner))
    return fmt("field @{0} is {1}", field.getSymName(), kindOf(field));
  auto rule = cast<RequireOp>(owner);
  return fmt("rule '{0}' is checked {1}", rule.getRule(),
             rule.getDomain() == Domain::seq ? "per sequence"
                                             : "once for the batch");
}

LogicalResult FormulaParser::checkPoint(StringRef id,
                                        const syntax::BuiltinName &builtin) {
  // An error's column is the name's.
  const size_t after = pos;
  pos = nameStart;
  if (Operation *clash = lookupSymbol(owner->getParentOfType<SpecOp>(),
                                      b.getStringAttr(id)))
    return fail(fmt("'{0}' is {1} here, and the spec also names {2} "
                    "@{0}: write @{0} for the symbol, or rename it",
                    id, builtin.meaning, kindOf(clash)));
  Domain domain = Domain::scalar;
  bool hasCols = false, hasRatios = false, subset = false;
  if (auto field = dyn_cast<FieldOp>(owner)) {
    domain = field.getDomain();
    subset = domain == Domain::seq && field.getCountAttr();
    hasCols = bool(field.getColsAttr());
    hasRatios = bool(field.getRatiosAttr());
  } else if (auto rule = dyn_cast<RequireOp>(owner)) {
    domain = rule.getDomain();
    hasRatios = bool(rule.getRatiosAttr());
  }
  auto refuse = [&](StringRef why) {
    return fail(
        fmt("'{0}' is {1}, {2}; {3}", id, builtin.meaning, why, ownerText()));
  };
  if (id == "i" && domain == Domain::scalar)
    return refuse("and a scalar is computed once for the batch");
  if (id == "j" && subset)
    return refuse("and a field over a subset has one point a member: "
                  "read r, its index among the members");
  if ((id == "j" || id == "r") && domain != Domain::rows && !subset)
    return refuse("and only a rows field (`rows(@count)`) has rows");
  if (id == "col" && !hasCols)
    return refuse("and only a field with `cols(@width)` has columns");
  if (id == "n" && !hasRatios)
    return refuse("and only a field or rule `over` a ratio set or an axis has buckets");
  pos = after;
  return success();
}

LogicalResult FormulaParser::checkSymbolFunction(StringRef fn, StringRef id,
                                                 Operation *def,
                                                 Value column) {
  if (fn == "sum_of" || fn == "max_of" || fn == "min_of") {
    if (auto field = dyn_cast<FieldOp>(def)) {
      // (A compact field not expanded yet has no width to ask: the
      // reduction's verifier checks it once it is.)
      bool several = field.getFormula() || field.getWidth() != 1 ||
                     field.getCols();
      if (!column || (field.getDomain() == Domain::seq && several))
        return success();
      if (field.getDomain() != Domain::seq)
        return fail(fmt("{0}({1}, column) reduces one column over the "
                        "sequences; '{1}' is not a 'seq' field: "
                        "{0}({1})",
                        fn, id));
      return fail(fmt("{0}({1}, column) reduces one column over the "
                      "sequences; '{1}' has one value a sequence: "
                      "{0}({1})",
                      fn, id));
    }
    if (auto in = dyn_cast<InputOp>(def); in && !isa<ListType>(in.getType()))
      return fail(fmt("{0}() reduces a field; '{1}' is an input: define "
                      "`imeta.field @x seq = \"{1}\"` and reduce that, "
                      "{0}(x)",
                      fn, id));
    if (isa<PrefixSumOp>(def))
      return fail(fmt("{0}() reduces a field; '{1}' is a prefix sum: "
                      "reduce its source field, or read total({1})",
                      fn, id));
    return fail(
        fmt("{0}() reduces a field; '{1}' is {2}", fn, id, kindOf(def)));
  }
  if (fn == "total") {
    if (isa<PrefixSumOp>(def))
      return success();
    if (isa<FieldOp>(def))
      return fail(fmt("total() reads a prefix sum; '{0}' is a field: "
                      "sum it with sum_of({0}), or define "
                      "`imeta.prefix_sum @cu = @{0} : "
                      "!imeta.prefix<exclusive>` and read total(cu)",
                      id));
    return fail(
        fmt("total() reads a prefix sum; '{0}' is {1}", id, kindOf(def)));
  }
  if (fn == "len") {
    auto in = dyn_cast<InputOp>(def);
    auto cfg = dyn_cast<ConfigOp>(def);
    if ((in && isa<ListType>(in.getType())) ||
        (cfg && isa<ListType>(cfg.getType())))
      return success();
    return fail(fmt("len() is the length of a list input or config "
                    "list; '{0}' is {1}",
                    id, kindOf(def)));
  }
  // ratio_min, ratio_count
  if (isa<AxisOp>(def) && fn == "ratio_min")
    return fail(fmt("ratio_min() reads a ratio set; '{0}' is an axis, "
                    "whose least index is 0",
                    id));
  if (isBucketSet(def))
    return success();
  return fail(fmt("{0}() reads a ratio set{1}; '{2}' is {3}", fn,
                  fn == "ratio_count" ? " or an axis" : "", id, kindOf(def)));
}

FailureOr<Value> FormulaParser::name(StringRef id, bool symbolOnly) {
  if (!symbolOnly)
    if (Value v = locals.lookup(id))
      return v;
  Location at = locAt(nameStart);
  if (!symbolOnly) {
    if (const syntax::BuiltinName *builtin = syntax::pointName(id))
      if (failed(checkPoint(id, *builtin)))
        return failure();
    if (id == "true" || id == "false")
      return arith::ConstantOp::create(b, at, b.getBoolAttr(id == "true"))
          .getResult();
    if (id == "i")
      return SeqIndexOp::create(b, at, i32).getResult();
    if (id == "j")
      return RowIndexOp::create(b, at, i32).getResult();
    if (id == "r")
      return RowOp::create(b, at, i32).getResult();
    if (id == "col")
      return ColIndexOp::create(b, at, i32).getResult();
    if (id == "n")
      return RatioOp::create(b, at, i32).getResult();
    if (id == "N")
      return NumSeqsOp::create(b, at, i32).getResult();
  }
  FailureOr<Operation *> def = symbol(id);
  if (failed(def))
    return failure();
  auto sym = FlatSymbolRefAttr::get(b.getContext(), id);
  auto checked = [&](Type t) -> FailureOr<Type> {
    if (t != i32 && t != i1)
      return fail(fmt("'{0}' is {1}; compact formulas compute in i32 "
                      "and i1 (write this formula in SSA form)",
                      id, t));
    return t;
  };
  if (auto cfg = dyn_cast<ConfigOp>(*def)) {
    FailureOr<Type> t = checked(cfg.getType());
    if (failed(t))
      return failure();
    return GetConfigOp::create(b, at, *t, sym).getResult();
  }
  if (auto in = dyn_cast<InputOp>(*def)) {
    if (isa<ListType>(in.getType()))
      return fail(fmt("'{0}' is a list: read it as {0}[index] or "
                      "len({0})",
                      id));
    FailureOr<Type> t = checked(in.getType());
    if (failed(t))
      return failure();
    return GetInputOp::create(b, at, *t, sym).getResult();
  }
  if (auto f = dyn_cast<FieldOp>(*def)) {
    FailureOr<Type> t = checked(f.getElementType());
    if (failed(t))
      return failure();
    return GetOp::create(b, at, *t, sym).getResult();
  }
  if (isa<PrefixSumOp>(*def))
    return fail(fmt("'{0}' is a prefix sum: read it as {0}[index] or "
                    "total({0})",
                    id));
  return fail(fmt("'{0}' cannot be read as a value", id));
}

FailureOr<Value> FormulaParser::indexed(StringRef id) {
  Location at = locAt(nameStart);
  FailureOr<Operation *> def = symbol(id);
  if (failed(def))
    return failure();
  FailureOr<Value> index = typed(ternary(), i32, "an index");
  if (failed(index))
    return failure();
  // A sum per column: cu[i, column].
  Value column;
  if (isa<PrefixSumOp>(*def) && accept(",")) {
    FailureOr<Value> c = typed(ternary(), i32, "a column");
    if (failed(c))
      return failure();
    column = *c;
  }
  if (failed(expect("]")))
    return failure();
  auto sym = FlatSymbolRefAttr::get(b.getContext(), id);
  if (auto in = dyn_cast<InputOp>(*def); in && isa<ListType>(in.getType()))
    return LoadOp::create(b, at, i32, sym, *index).getResult();
  if (auto sum = dyn_cast<PrefixSumOp>(*def))
    return PrefixAtOp::create(b, at, i32, sym, *index, column,
                              TypeAttr::get(sum.getType()))
        .getResult();
  if (auto cfg = dyn_cast<ConfigOp>(*def); cfg && isa<ListType>(cfg.getType()))
    return ConfigAtOp::create(b, at, i32, sym, *index).getResult();
  return fail(fmt("'{0}[...]' reads a list input, a config list or a "
                  "prefix sum; '{0}' is none of them",
                  id));
}

/// `count(list, lo, hi, vlo, vhi)`: imeta.count.
/// A function's first argument, a symbol (`name` or `@name`): its
/// definition; `id` gets its name.
FailureOr<Operation *> FormulaParser::symbolArgument(StringRef &id) {
  nameStart = tokenStart(); // the column of an error about the name
  accept("@");
  id = identifier();
  return symbol(id);
}

FailureOr<Value> FormulaParser::count(Location at) {
  const size_t callAt = nameStart;
  StringRef id;
  FailureOr<Operation *> def = symbolArgument(id);
  if (failed(def))
    return failure();
  SmallVector<Value, 4> args;
  for (int k = 0; k < 4; ++k) {
    if (!accept(","))
      return failAt(callAt, "count() takes a list and four values: "
                            "count(list, lo, hi, vlo, vhi)");
    FailureOr<Value> v = typed(ternary(), i32, "count()");
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  if (failed(expect(")")))
    return failure();
  auto sym = FlatSymbolRefAttr::get(b.getContext(), id);
  return CountOp::create(b, at, i32, sym, args[0], args[1], args[2], args[3])
      .getResult();
}

/// gather(X, row): rows field X at a row of the current sequence.
FailureOr<Value> FormulaParser::gather(Location at) {
  const size_t callAt = nameStart;
  StringRef id;
  FailureOr<Operation *> def = symbolArgument(id);
  if (failed(def))
    return failure();
  auto field = dyn_cast<FieldOp>(*def);
  if (!field || !accept(","))
    return failAt(callAt,
                  "gather() takes a rows field and a row: gather(X, row)");
  FailureOr<Value> row = typed(ternary(), i32, "gather()");
  if (failed(row) || failed(expect(")")))
    return failure();
  Type type = field.getFormulaType().value_or(
      field.getBody().empty() ? Type(i32) : field.getElementType());
  auto sym = FlatSymbolRefAttr::get(b.getContext(), id);
  return GatherOp::create(b, at, type, sym, *row).getResult();
}

/// `select(c, a, b)`: arith.select, both sides computed (where they
/// cannot fail, a GPU column loop reads a select better than a branch;
/// `c ? a : b` runs only the side taken).
FailureOr<Value> FormulaParser::select(Location at) {
  FailureOr<Value> c = typed(ternary(), i1, "select()'s first argument");
  if (failed(c) || failed(expect(",")))
    return failure();
  FailureOr<Value> x = ternary();
  if (failed(x) || failed(expect(",")))
    return failure();
  FailureOr<Value> y = typed(ternary(), x->getType(), "select()'s third "
                                                      "argument, as its second,");
  if (failed(y) || failed(expect(")")))
    return failure();
  return arith::SelectOp::create(b, at, *c, *x, *y).getResult();
}

/// `int(c)`: a condition as 1 or 0 (arith.extui), to count what holds.
FailureOr<Value> FormulaParser::toInt(Location at) {
  FailureOr<Value> c = typed(ternary(), i1, "int()");
  if (failed(c) || failed(expect(")")))
    return failure();
  return arith::ExtUIOp::create(b, at, i32, *c).getResult();
}

/// `prev()`, `prev(k)`: the field's own value (its k-th) at the previous
/// sequence, 0 at the first: a fold over the sequences.
FailureOr<Value> FormulaParser::previous(Location at) {
  const size_t callAt = nameStart;
  auto field = dyn_cast<FieldOp>(owner);
  auto refuseOwn = [&] {
    return failAt(callAt, "prev() is the field's value at the previous "
                          "sequence; only a 'seq' field without cols, over "
                          "every sequence, has one (prev(x) reads field x's)");
  };
  if (!field || field.getDomain() == Domain::scalar)
    return failAt(callAt, "prev() reads a value at the previous sequence; "
                          "a scalar is computed once for the batch");
  bool ownFold = field.getDomain() == Domain::seq && !field.getCountAttr() &&
                 !field.getColsAttr();
  int64_t column = 0;
  // prev(x): field x's value, or this field's where x names it.
  size_t before = pos;
  StringRef id = identifier();
  if (!id.empty() && peek(")") && !locals.lookup(id) &&
      !syntax::pointName(id)) {
    Operation *def = lookupSymbol(owner->getParentOfType<SpecOp>(),
                                  b.getStringAttr(id));
    auto other = dyn_cast_or_null<FieldOp>(def);
    if (!other)
      return failAt(callAt, fmt("prev({0}) reads a field at the previous "
                                "sequence; '{0}' is {1}",
                                id, def ? kindOf(def) : "no symbol"));
    if (failed(expect(")")))
      return failure();
    if (other == field && !ownFold)
      return refuseOwn();
    if (other == field)
      return PrevOp::create(b, at, field.getFormulaType().value_or(i32),
                            FlatSymbolRefAttr(), b.getI64IntegerAttr(0))
          .getResult();
    Type type = other.getFormulaType().value_or(
        other.getBody().empty() ? Type(i32) : other.getElementType());
    return PrevOp::create(b, at, type,
                          FlatSymbolRefAttr::get(b.getContext(), id),
                          b.getI64IntegerAttr(0))
        .getResult();
  }
  pos = before;
  if (!ownFold)
    return refuseOwn();
  if (!accept(")")) {
    FailureOr<Value> v = typed(ternary(), i32, "prev()");
    if (failed(v))
      return failure();
    auto c = v->getDefiningOp<arith::ConstantIntOp>();
    if (!c || c.value() < 0)
      return failAt(callAt, "prev(k) takes which of the field's values, a "
                            "number: prev(0), prev(1), ...");
    column = c.value();
    if (v->use_empty())
      c->erase();
    if (failed(expect(")")))
      return failure();
  }
  Type type = field.getFormulaType().value_or(i32);
  return PrevOp::create(b, at, type, FlatSymbolRefAttr(),
                        b.getI64IntegerAttr(column))
      .getResult();
}

FailureOr<Value> FormulaParser::call(StringRef fn) {
  Location at = locAt(nameStart);
  if (fn == "prev")
    return previous(at);
  if (fn == "count")
    return count(at);
  if (fn == "select")
    return select(at);
  if (fn == "int")
    return toInt(at);
  if (fn == "gather")
    return gather(at);
  // Arguments: symbols for the symbol functions, values for the rest.
  static const llvm::StringMap<unsigned> symbolFns = {
      {"len", 0},    {"total", 0},  {"ratio_min", 0}, {"ratio_count", 0},
      {"sum_of", 0}, {"max_of", 0}, {"min_of", 0}};
  if (symbolFns.count(fn)) {
    const size_t callAt = nameStart;
    const size_t argStart = tokenStart();
    accept("@");
    StringRef id = identifier();
    // total(cu, column): a sum per column's; max_of(f, column): one
    // column of a field with several values a sequence.
    Value column;
    bool perColumn = fn == "total" || fn == "sum_of" || fn == "max_of" ||
                     fn == "min_of";
    if (perColumn && !id.empty() && accept(",")) {
      FailureOr<Value> c = typed(ternary(), i32, "a column");
      if (failed(c))
        return failure();
      column = *c;
    }
    if (id.empty() || !accept(")"))
      return failAt(callAt, perColumn
                                ? fmt("{0}() takes one name, or a name and a "
                                      "column",
                                      fn)
                                : fmt("{0}() takes one name", fn));
    nameStart = argStart; // the column of an error about the name
    FailureOr<Operation *> def = symbol(id);
    if (failed(def))
      return failure();
    const size_t after = pos;
    pos = argStart; // an error's column is the argument's
    if (failed(checkSymbolFunction(fn, id, *def, column)))
      return failure();
    pos = after;
    auto sym = FlatSymbolRefAttr::get(b.getContext(), id);
    if (fn == "len" && isa<ConfigOp>(*def))
      return ConfigLenOp::create(b, at, i32, sym).getResult();
    if (fn == "len")
      return LengthOp::create(b, at, i32, sym).getResult();
    if (fn == "total")
      return PrefixTotalOp::create(b, at, i32, sym, column).getResult();
    if (fn == "ratio_min")
      return RatioMinOp::create(b, at, i32, sym).getResult();
    if (fn == "ratio_count")
      return RatioCountOp::create(b, at, i32, sym).getResult();
    Reduction kind = fn == "sum_of"   ? Reduction::sum
                     : fn == "max_of" ? Reduction::max
                                      : Reduction::min;
    // The field's own type: an i1 field's maximum is "any", its minimum
    // "all".
    auto field = dyn_cast<FieldOp>(*def);
    return ReduceOp::create(b, at, field ? field.getElementType() : i32,
                            ReductionAttr::get(b.getContext(), kind), sym,
                            column)
        .getResult();
  }
  SmallVector<Value, 3> args;
  if (!accept(")")) {
    do {
      FailureOr<Value> v = typed(ternary(), i32, fmt("{0}()", fn));
      if (failed(v))
        return failure();
      args.push_back(*v);
    } while (accept(","));
    if (failed(expect(")")))
      return failure();
  }
  auto arity = [&](unsigned n) -> LogicalResult {
    if (args.size() == n)
      return success();
    return fail(fmt("{0}() takes {1} arguments, not {2}", fn, n, args.size()));
  };
  if (fn == "min" || fn == "max" || fn == "floordiv" || fn == "ceildiv") {
    if (failed(arity(2)))
      return failure();
    if (fn == "min")
      return arith::MinSIOp::create(b, at, args[0], args[1]).getResult();
    if (fn == "max")
      return arith::MaxSIOp::create(b, at, args[0], args[1]).getResult();
    if (fn == "floordiv")
      return arith::FloorDivSIOp::create(b, at, args[0], args[1]).getResult();
    return arith::CeilDivSIOp::create(b, at, args[0], args[1]).getResult();
  }
  if (fn == "clamp") {
    if (failed(arity(3)))
      return failure();
    return ClampOp::create(b, at, i32, args[0], args[1], args[2]).getResult();
  }
  if (auto def = dyn_cast_or_null<FormulaDefOp>(
          lookupSymbol(owner->getParentOfType<SpecOp>(), b.getStringAttr(fn))))
    return inlineCall(*this, def, args, at);
  return fail(fmt("unknown function '{0}'", fn));
}

/// Builds `owner`'s `body` from `text`; on failure leaves it empty.
static LogicalResult expand(Operation *owner, Region &body, StringRef text,
                            LocationAttr textLoc, Type want) {
  // Names resolve in the enclosing spec: a formula outside one reads none.
  if (!owner->getParentOfType<SpecOp>())
    return owner->emitOpError(
        "has a compact formula outside an imeta.spec: its names resolve in "
        "the spec");
  Block *block = new Block();
  body.push_back(block);
  FormulaParser parser(owner, text, textLoc);
  if (succeeded(parser.run(block, want)))
    return success();
  body.getBlocks().clear();
  return failure();
}

LogicalResult imeta::expandCompactFormula(FieldOp field) {
  Type want =
      field.getFormulaType().value_or(IntegerType::get(field.getContext(), 32));
  if (failed(expand(field, field.getBody(), *field.getFormula(),
                    field.getFormulaLocAttr(), want)))
    return failure();
  field.removeFormulaAttr();
  field.removeFormulaTypeAttr();
  field.removeFormulaLocAttr();
  return success();
}

LogicalResult imeta::expandCompactFormula(RequireOp rule) {
  if (failed(expand(rule, rule.getBody(), *rule.getFormula(),
                    rule.getFormulaLocAttr(),
                    IntegerType::get(rule.getContext(), 1))))
    return failure();
  rule.removeFormulaAttr();
  rule.removeFormulaLocAttr();
  return success();
}

LogicalResult imeta::expandCompactFormulas(Operation *root) {
  bool ok = true;
  {
    // Expansion adds no symbol: names resolve from cached tables.
    CachedSymbolLookups cached;
    root->walk([&](Operation *op) {
      if (auto field = dyn_cast<FieldOp>(op); field && field.getFormula())
        ok &= succeeded(expandCompactFormula(field));
      if (auto rule = dyn_cast<RequireOp>(op); rule && rule.getFormula())
        ok &= succeeded(expandCompactFormula(rule));
    });
  }
  // Subsets lower to rows fields whose sums reduce their rows; a gather
  // reads its field's formula: after every formula is ops, and after the
  // reductions of rows that gather their rows.
  return success(ok && succeeded(lowerSubsets(root)) &&
                 succeeded(expandRowsReductions(root)) &&
                 succeeded(expandGathers(root)));
}
