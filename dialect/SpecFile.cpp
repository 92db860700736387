//===- SpecFile.cpp - reading a spec file for the tools -------------------===//

#include "dialect/SpecFile.h"
#include "dialect/CompactFormula.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace imeta;

/// Parsing leaves verification to finish(): a compact field's formula is
/// expanded first.
static ParserConfig parserConfig(MLIRContext &context) {
  return ParserConfig(&context, /*verifyAfterParse=*/false);
}

/// The one imeta.spec of a parsed module, its compact formulas expanded,
/// verified.
static FailureOr<SpecFile> finish(OwningOpRef<ModuleOp> module) {
  SpecFile file;
  file.module = std::move(module);
  if (!file.module || failed(expandCompactFormulas(*file.module)) ||
      failed(verify(*file.module)))
    return failure(); // The parser, expansion or verifier has said why.
  auto specs = llvm::to_vector(file.module->getOps<SpecOp>());
  if (specs.size() != 1)
    return emitError(file.module->getLoc(), "expected exactly one imeta.spec");
  file.spec = specs.front();
  return file;
}

void imeta::freeInnermostFirst(Operation *root) {
  SmallVector<Operation *> nests; // ops with regions, innermost first
  root->walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (op->getNumRegions() && op != root)
      nests.push_back(op);
  });
  for (Operation *op : nests)
    for (Region &region : op->getRegions()) {
      region.dropAllReferences();
      region.getBlocks().clear();
    }
}

SpecFile::~SpecFile() {
  if (module)
    freeInnermostFirst(module->getOperation());
}

std::optional<size_t> imeta::findTooDeepNesting(StringRef text) {
  unsigned depth = 0;
  for (size_t k = 0; k < text.size(); ++k) {
    char c = text[k];
    if (c == '"') { // a string: to its closing quote, escapes skipped
      for (++k; k < text.size() && text[k] != '"'; ++k)
        if (text[k] == '\\')
          ++k;
      continue;
    }
    if (c == '/' && text.substr(k).starts_with("//")) { // a comment
      k = text.find('\n', k);
      if (k == StringRef::npos)
        break;
      continue;
    }
    if (c == '{' || c == '(' || c == '[' || c == '<') {
      if (++depth > kMaxSpecNesting)
        return k;
    } else if ((c == '}' || c == ')' || c == ']' ||
                (c == '>' && (k == 0 || text[k - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::string imeta::tooDeepNestingMessage() {
  return "the spec nests brackets deeper than " +
         std::to_string(kMaxSpecNesting) +
         " levels; a formula this deep is refused (a compact formula nests "
         "at most 256 deep)";
}

LogicalResult imeta::checkSpecNesting(MLIRContext &context,
                                      llvm::SourceMgr &sourceMgr) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::optional<size_t> at = findTooDeepNesting(buffer->getBuffer());
  if (!at)
    return success();
  auto [line, column] = sourceMgr.getLineAndColumn(
      llvm::SMLoc::getFromPointer(buffer->getBufferStart() + *at));
  return emitError(FileLineColLoc::get(&context,
                                       buffer->getBufferIdentifier(), line,
                                       column),
                   tooDeepNestingMessage());
}

FailureOr<SpecFile> imeta::loadSpecFile(StringRef path, MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file)
    return emitError(UnknownLoc::get(&context), error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return loadSpecBuffer(context, sourceMgr);
}

FailureOr<SpecFile> imeta::loadSpecBuffer(MLIRContext &context,
                                          llvm::SourceMgr &sourceMgr) {
  if (failed(checkSpecNesting(context, sourceMgr)))
    return failure();
  return finish(parseSourceFile<ModuleOp>(sourceMgr, parserConfig(context)));
}
