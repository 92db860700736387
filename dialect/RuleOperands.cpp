//===- RuleOperands.cpp - the values a broken rule's message prints -------===//

#include "dialect/RuleOperands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace imeta {

/// The compact-syntax name of a read, or "" where `op` reads no named value.
static std::string labelOf(Operation *op) {
  if (auto as = op->getAttrOfType<StringAttr>("imeta.read_as"))
    return as.str();
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([](GetOp o) { return o.getField().str(); })
      .Case([](GetInputOp o) { return o.getInput().str(); })
      .Case([](GetConfigOp o) { return o.getParam().str(); })
      .Case([](LengthOp o) { return "len(" + o.getInput().str() + ")"; })
      .Case([](ConfigLenOp o) { return "len(" + o.getParam().str() + ")"; })
      .Case([](PrefixTotalOp o) {
        return o.getColumn() ? std::string()
                             : "total(" + o.getPrefix().str() + ")";
      })
      .Case([](RatioMinOp o) { return "ratio_min(" + o.getSet().str() + ")"; })
      .Case([](RatioCountOp o) {
        return "ratio_count(" + o.getSet().str() + ")";
      })
      .Case([](RatioOp) { return std::string("n"); })
      .Case([](NumSeqsOp) { return std::string("N"); })
      .Default([](Operation *) { return std::string(); });
}

SmallVector<RuleOperand, kMaxRuleOperands> ruleOperands(RequireOp rule) {
  SmallVector<RuleOperand, kMaxRuleOperands> out;
  if (rule->hasAttr("imeta.resolved_bounds") || rule.getBody().empty())
    return out;
  for (Operation &op : rule.getBody().front()) {
    if (out.size() == kMaxRuleOperands)
      break;
    if (op.getNumResults() != 1 || op.getNumRegions() != 0)
      continue;
    std::string label = labelOf(&op); // "" where it names nothing
    if (label.empty() || llvm::any_of(out, [&](const RuleOperand &o) {
          return o.label == label;
        }))
      continue;
    out.push_back({&op, std::move(label),
                   op.getResult(0).getType().isInteger(1)});
  }
  return out;
}

std::string ruleOperandText(ArrayRef<RuleOperand> operands,
                            ArrayRef<int64_t> values) {
  if (operands.empty())
    return "";
  std::string s = " (";
  for (auto [k, o] : llvm::enumerate(operands)) {
    s += (k ? ", " : "") + o.label + " = ";
    s += o.isBool ? (values[k] ? "true" : "false") : std::to_string(values[k]);
  }
  return s + ")";
}

std::string ruleOperandCpp(ArrayRef<RuleOperand> operands,
                           ArrayRef<std::string> values) {
  if (operands.empty())
    return "std::string()";
  std::string s;
  for (auto [k, o] : llvm::enumerate(operands)) {
    std::string words = (k ? ", " : " (") + o.label + " = ";
    s += k ? " + \"" + words + "\"" : "std::string(\"" + words + "\")";
    s += o.isBool ? " + std::string(" + values[k] + " ? \"true\" : \"false\")"
                  : " + std::to_string(int64_t(" + values[k] + "))";
  }
  return s + " + \")\"";
}

} // namespace imeta
