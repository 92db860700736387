//===- RangeRuleBuilder.cpp - rules every op's range shares -------------===//

#include "dialect/RangeRuleBuilder.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imeta;

void RangeRuleBuilder::proveFits(Operation *op, const std::string &name) {
  unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
  if (w == 32)
    require(llvm::formatv("r_fits32({0})", name).str());
  else if (w == 1)
    require(llvm::formatv("{0}.lo >= 0 && {0}.hi <= 1", name).str());
}

std::string RangeRuleBuilder::typeRange(Operation *op) {
  unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
  return w == 1    ? "Range{0, 1}"
         : w == 32 ? "Range{INT32_MIN, INT32_MAX}"
                   : "r_any()";
}
