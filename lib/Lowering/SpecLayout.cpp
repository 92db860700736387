//===- SpecLayout.cpp - what every generated file names, read-only --------===//

#include "lib/Lowering/SpecLayout.h"
#include "dialect/IMetaSymbols.h"
#include "lib/Analysis/ColumnInvariants.h"
#include "lib/Support/Format.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;
using namespace imeta;
using namespace imeta::emit;

std::string emit::escape(StringRef s) {
  std::string out;
  for (char ch : s) {
    auto byte = static_cast<unsigned char>(ch);
    if (byte < 0x20 || byte > 0x7e) { // control and non-ASCII bytes: octal
      out += '\\';
      out += char('0' + (byte >> 6));
      out += char('0' + ((byte >> 3) & 7));
      out += char('0' + (byte & 7));
      continue;
    }
    if (ch == '"' || ch == '\\')
      out += '\\';
    out += ch;
  }
  return out;
}

std::string emit::commentText(StringRef s) {
  std::string out;
  for (char ch : s) {
    auto byte = static_cast<unsigned char>(ch);
    out += byte < 0x20 || byte > 0x7e ? '?' : ch;
  }
  // A comment ending in a backslash would continue onto the next line.
  if (!out.empty() && out.back() == '\\')
    out += ' ';
  return out;
}

void SpecLayout::commentFormula(CodeStream &cs, Operation *op) const {
  // The header alone (no region, so no value to name): printed against a
  // printer state made once over an empty module, not one made for each
  // comment (which numbers the op's regions) nor one over the whole spec.
  if (!commentState) {
    commentRoot = ModuleOp::create(UnknownLoc::get(op->getContext()));
    OpPrintingFlags flags;
    flags.skipRegions().assumeVerified();
    commentState = std::make_unique<AsmState>(commentRoot.get(), flags);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, *commentState);
  StringRef header = StringRef(text).split('\n').first.ltrim();
  if (header.consume_back("{...}"))
    header = header.rtrim();
  cs.line("// {0} {{", header);
}

SpecLayout::SpecLayout(SpecOp spec, std::vector<PathPlan> plans,
                       std::string fileBase)
    : specOp(spec), fileBaseName(std::move(fileBase)),
      pathPlans(std::move(plans)), names(spec), declared(spec) {
  for (const PathPlan &plan : pathPlans)
    if (auto copy = plan.path->getParentOfType<SpecOp>(); copy != spec)
      names.addCopy(copy);
}

bool SpecLayout::isScalarDivisor(FieldOp field) const {
  if (field.getDomain() != Domain::scalar)
    return false;
  Operation *spec = field->getParentOp();
  auto [it, fresh] = scalarDivisors.try_emplace(spec);
  if (fresh)
    spec->walk([&](Operation *op) {
      if (isDivision32(op))
        if (auto get = op->getOperand(1).getDefiningOp<GetOp>())
          it->second.insert(get.getFieldAttr().getAttr());
    });
  return it->second.contains(field.getSymNameAttr());
}

bool SpecLayout::hasGpuPath() const {
  return llvm::any_of(pathPlans, [](const PathPlan &p) {
    return PathOp(p.path).getTarget() == Target::gpu;
  });
}

std::string SpecLayout::base() const {
  return SpecOp(specOp).getSymName().str();
}

std::string SpecLayout::pascal(StringRef s) {
  std::string out;
  bool up = true;
  for (char ch : s) {
    if (ch == '_') {
      up = true;
      continue;
    }
    out += up ? char(toupper(ch)) : ch;
    up = false;
  }
  return out;
}

std::string SpecLayout::buffersName(const PathPlan &plan) const {
  return pascal(PathOp(plan.path).getSymName()) + "Buffers";
}

std::string SpecLayout::ctxName(const PathPlan &plan) const {
  return PathOp(plan.path).getSymName().str() + "_ctx";
}

std::string SpecLayout::fillName(const PathPlan &plan,
                                 const RowSpace &space) const {
  return fmt("{0}_fill_{1}", PathOp(plan.path).getSymName(),
             FieldOp(space.count).getSymName());
}

std::string SpecLayout::overflowSuffix() const {
  auto rule = SpecOp(specOp).getOverflowRule();
  return rule ? fmt(" + \" ({0})\"", *rule) : "";
}

const PlannedOutput *SpecLayout::outputOf(const PathPlan &plan,
                                          Operation *def) {
  for (const PlannedOutput &out : plan.outputs)
    if (out.def == def)
      return &out;
  return nullptr;
}

std::string SpecLayout::numBuckets(FlatSymbolRefAttr set) const {
  return set ? fmt("c.num_set[{0}]", names.setId(set)) : "1";
}

std::string SpecLayout::sameConfig(StringRef a, StringRef b) const {
  std::string same =
      fmt("std::memcmp({0}.set, {1}.set, sizeof({0}.set)) == 0 && "
          "std::memcmp({0}.num_set, {1}.num_set, sizeof({0}.num_set)) == 0",
          a, b);
  for (const ConfigDecl &cfg : configs())
    if (!cfg.isList)
      same += fmt(" && {0}.cfg_{2} == {1}.cfg_{2}", a, b, cfg.name);
  return same;
}

bool SpecLayout::isHostValue(Operation *op) {
  auto field = dyn_cast<FieldOp>(op);
  return !field || field.getDomain() != Domain::rows;
}

bool SpecLayout::inContext(Operation *op) {
  auto field = dyn_cast<FieldOp>(op);
  return field && field.getDomain() == Domain::scalar && !field.getCols();
}

const char *SpecLayout::hostElem(Operation *op) {
  auto field = dyn_cast<FieldOp>(op);
  return field && field.getElementType().getIntOrFloatBitWidth() > 32
             ? "int64_t"
             : "int32_t";
}

std::string SpecLayout::hostLength(Operation *op) {
  if (auto sum = dyn_cast<PrefixSumOp>(op))
    return sum.getConvention() == Convention::exclusive ? "(N + 1)" : "N";
  return cast<FieldOp>(op).getDomain() == Domain::seq ? "N" : "1";
}

FieldOp SpecLayout::valuesField(Operation *op) {
  if (auto sum = dyn_cast<PrefixSumOp>(op))
    return lookupSpecSymbol<FieldOp>(sum, sum.getSourceAttr());
  return dyn_cast<FieldOp>(op);
}

bool SpecLayout::isWideHostValue(Operation *op) {
  FieldOp field = valuesField(op);
  return field && isHostValue(op) &&
         (field.getWidth() != 1 || field.getCols());
}

std::string SpecLayout::hostWidth(Operation *op) {
  if (!isWideHostValue(op))
    return "1";
  FieldOp field = valuesField(op);
  if (field.getCols())
    return "c.hw_" + field.getSymName().str();
  return std::to_string(field.getWidth());
}

std::string SpecLayout::hostStride(Operation *op) {
  if (!isWideHostValue(op))
    return hostLength(op);
  return "(" + hostLength(op) + " * " + hostWidth(op) + ")";
}

FieldOp SpecLayout::liveField(FieldOp field) {
  if (!field.getLive())
    return FieldOp();
  return lookupSpecSymbol<FieldOp>(field, field.getLiveAttr());
}

std::string SpecLayout::columnCount(FieldOp field,
                                    const FormulaScope &scope) const {
  auto width = lookupSpecSymbol<FieldOp>(field, field.getColsAttr());
  if (!width)
    return "c.cfg_" + field.getCols()->str();
  return fmt("c.h_{0}[{1}]", width.getSymName(),
             bucketIndex(names, scope, width.getRatiosAttr()));
}

std::string SpecLayout::outputRows(const PlannedOutput &out) const {
  if (out.rowsLen)
    return fmt("int64_t(H.h_{0}[0])", symName(out.rowsLen));
  return liveRows(out);
}

std::string SpecLayout::liveRows(const PlannedOutput &out) const {
  if (auto sum = dyn_cast<PrefixSumOp>(out.def))
    return hostLength(sum);
  auto field = cast<FieldOp>(out.def);
  switch (field.getDomain()) {
  case Domain::scalar:
    return "1";
  case Domain::seq:
    return "N";
  case Domain::rows: {
    auto count = lookupSpecSymbol<FieldOp>(field, field.getCountAttr());
    FormulaScope scope;
    scope.ratios = field.getRatiosAttr();
    std::string cb = bucketIndex(names, scope, count.getRatiosAttr());
    return fmt("H.rowstart_{0}[({1}) * (N + 1) + N]", count.getSymName(), cb);
  }
  }
  return "0";
}

llvm::SetVector<Operation *> SpecLayout::deviceInputs(const PathPlan &plan) {
  llvm::SetVector<Operation *> inputs;
  for (const RowSpace &space : plan.rowSpaces)
    for (FieldOp field : space.fields)
      field.walk([&](Operation *op) {
        if (InputOp in = readInput(op))
          inputs.insert(in);
      });
  return inputs;
}

llvm::SmallPtrSet<Operation *, 16>
SpecLayout::deviceHostValues(const PathPlan &plan) {
  llvm::SmallPtrSet<Operation *, 16> read;
  for (const RowSpace &space : plan.rowSpaces) {
    read.insert(space.count);
    for (FieldOp field : space.fields)
      for (Operation *dep : fieldDependencies(field))
        if (isHostValue(dep))
          read.insert(dep);
  }
  for (const PlannedOutput &po : plan.outputs)
    if (isHostValue(po.def))
      read.insert(po.def);
  return read;
}
