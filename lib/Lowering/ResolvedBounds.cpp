//===- ResolvedBounds.cpp - the bounds rule of an inlined resolution ------===//

#include "lib/Lowering/ResolvedBounds.h"
#include "lib/Lowering/SpecLayout.h"

#include "lib/Support/Format.h"

using namespace mlir;
using namespace imeta;
using namespace imeta::emit;

std::vector<ResolvedBound> imeta::emit::resolvedBounds(RequireOp rule) {
  std::vector<ResolvedBound> bounds;
  auto list = rule->getAttrOfType<ArrayAttr>(kResolvedBoundsAttr);
  if (!list)
    return bounds;
  for (auto check : list.getAsRange<DictionaryAttr>()) {
    ResolvedBound b;
    auto input = check.getAs<FlatSymbolRefAttr>("input");
    b.input = input.getValue().str();
    b.min = check.getAs<IntegerAttr>("min").getInt();
    b.ruleSuffix = ruleLiteral(lookupSpecSymbol<InputOp>(rule, input).getRule());
    b.value = check.getAs<FlatSymbolRefAttr>("value").getValue().str();
    if (auto first = check.getAs<FlatSymbolRefAttr>("first")) {
      b.first = first.getValue().str();
      b.count = check.getAs<FlatSymbolRefAttr>("count").getValue().str();
    }
    bounds.push_back(std::move(b));
  }
  return bounds;
}

std::string imeta::emit::boundFails(const ResolvedBound &b, StringRef arrays) {
  if (b.first.empty())
    return fmt("{0}{1}[i] < {2}", arrays, b.value, b.min);
  return fmt("{0}{1}[i] > 0", arrays, b.first);
}

std::string imeta::emit::boundMessage(const ResolvedBound &b, StringRef row,
                                      StringRef value) {
  std::string at =
      b.first.empty() ? "" : fmt("\"[\" + std::to_string({0}) + \"]\" + ", row);
  return fmt("\"sequence \" + std::to_string(i) + \": {0}\" + {1}\" = \" "
             "+ std::to_string({2}) + \" breaks {0} >= {3}{4}\"",
             b.input, at, value, b.min, b.ruleSuffix);
}
