//===- SpecDecls.cpp - a spec's config and input declarations -------------===//

#include "lib/Lowering/SpecDecls.h"
#include "dialect/IMetaSymbols.h"

using namespace mlir;
using namespace imeta;
using namespace imeta::emit;

static InputKind kindOf(InputOp in) {
  bool list = isa<ListType>(in.getType());
  if (in.isState())
    return list ? InputKind::kStateList : InputKind::kStateValue;
  if (!list)
    return InputKind::kValue;
  return in.getResident() ? InputKind::kResidentList : InputKind::kList;
}

SpecDecls::SpecDecls(SpecOp spec) {
  Block &body = spec.getBody().front();
  for (auto cfg : body.getOps<ConfigOp>())
    configList.push_back({cfg, cfg.getSymName(), isa<ListType>(cfg.getType()),
                          cfg.getType().isInteger(1)});
  for (auto in : body.getOps<InputOp>())
    inputList.push_back({in, in.getSymName(), kindOf(in),
                         in.getType().isInteger(1), isSlotInput(in),
                         bool(in.getOptional())});
}

const ConfigDecl *SpecDecls::config(Operation *op) const {
  // By name: a path planned on a copy of the spec (imeta-inline-resolves)
  // reads the copy's declarations.
  if (!isa_and_nonnull<ConfigOp>(op))
    return nullptr;
  for (const ConfigDecl &d : configList)
    if (d.name == cast<ConfigOp>(op).getSymName())
      return &d;
  return nullptr;
}

const InputDecl *SpecDecls::input(Operation *op) const {
  if (!isa_and_nonnull<InputOp>(op))
    return nullptr;
  for (const InputDecl &d : inputList)
    if (d.name == cast<InputOp>(op).getSymName())
      return &d;
  return nullptr;
}

bool SpecDecls::hasResidentInput() const {
  return llvm::any_of(inputList,
                      [](const InputDecl &d) { return d.isResident(); });
}
