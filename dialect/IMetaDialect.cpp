//===- IMetaDialect.cpp - the imeta dialect -------------------------------===//

#include "dialect/IMetaDialect.h"
#include "dialect/IMetaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace imeta;

#include "dialect/IMetaDialect.cpp.inc"
#include "dialect/IMetaEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialect/IMetaTypes.cpp.inc"

/// `<exclusive>` or `<inclusive>`; anything else is one error that names
/// both.
Type PrefixType::parse(AsmParser &parser) {
  StringRef word;
  if (failed(parser.parseLess()))
    return {};
  SMLoc loc = parser.getCurrentLocation();
  std::optional<Convention> convention;
  if (succeeded(parser.parseOptionalKeyword(&word)))
    convention = symbolizeConvention(word);
  if (!convention) {
    parser.emitError(loc, "expected the prefix sum's convention, "
                          "'exclusive' (entry i: the sum before sequence i) "
                          "or 'inclusive' (through it)");
    return {};
  }
  if (failed(parser.parseGreater()))
    return {};
  return PrefixType::get(parser.getContext(), *convention);
}

void PrefixType::print(AsmPrinter &printer) const {
  printer << "<" << stringifyConvention(getConvention()) << ">";
}

void IMetaDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialect/IMetaOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/IMetaTypes.cpp.inc"
      >();
}

void imeta::registerSpecDialects(DialectRegistry &registry) {
  registry.insert<IMetaDialect, arith::ArithDialect, scf::SCFDialect>();
  registerFormulaModels(registry);
}
