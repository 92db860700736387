//===- CppFormulaPrinter.cpp - what every op's C++ shares ---------------===//

#include "dialect/CppFormulaPrinter.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imeta;
using llvm::formatv;

void CppFormulaPrinter::checkFits(Operation *op, const std::string &name) {
  unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
  if (w == 32)
    line(formatv("if ({0}!imeta_fits32({1})) {2}", proven(op), name,
                 fail("kOverflow", op, name)));
  else if (w == 1)
    line(formatv("if ({0}{1} != 0 && {1} != 1) {2}", proven(op), name,
                 fail("kOverflow", op, name)));
}

std::string CppFormulaPrinter::hostValue(Operation *def,
                                         const std::string &index) {
  return formatv("c.h_{0}[{1}]", SymbolTable::getSymbolName(def).getValue(),
                 index)
      .str();
}
