//===- CppFormulaPrinter.cpp - what every op's C++ shares ---------------===//

#include "dialect/CppFormulaPrinter.h"
#include "lib/Support/Format.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace imeta;

void CppFormulaPrinter::checkFits(Operation *op, const std::string &name) {
  unsigned w = op->getResult(0).getType().getIntOrFloatBitWidth();
  if (w == 32)
    line("if (" + proven(op) + "!imeta_fits32(" + name + ")) " +
         fail("kOverflow", op, name)); // per op: joined, not formatted
  else if (w == 1)
    line("if (" + proven(op) + name + " != 0 && " + name + " != 1) " +
         fail("kOverflow", op, name));
}

std::string CppFormulaPrinter::hostValue(Operation *def,
                                         const std::string &index) {
  return fmt("c.h_{0}[{1}]", SymbolTable::getSymbolName(def).getValue(), index);
}
