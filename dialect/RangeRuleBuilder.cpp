//===- RangeRuleBuilder.cpp - rules every op's range shares -------------===//

#include "dialect/RangeRuleBuilder.h"

#include "lib/Support/Format.h"

using namespace mlir;
using namespace imeta;

void RangeRuleBuilder::proveFits(Operation *op, const std::string &name) {
  unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
  if (w == 32)
    require(fmt("r_fits32({0})", name));
  else if (w == 1)
    require(fmt("{0}.lo >= 0 && {0}.hi <= 1", name));
}

std::string RangeRuleBuilder::typeRange(Operation *op) {
  unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
  return w == 1    ? "Range{0, 1}"
         : w == 32 ? "Range{INT32_MIN, INT32_MAX}"
                   : "r_any()";
}
