//===- RawDriverArgs.cpp - a batch file's values as they are --------------===//

#include "RawDriverArgs.h"

#include "dialect/IMetaSymbols.h"

#include "llvm/ADT/StringSet.h"

using namespace imeta;
using llvm::cast;
using llvm::isa;
using llvm::StringRef;
using mlir::Operation;
using mlir::SymbolTable;

namespace {

/// One JSON value of a declaration of type `type` as a driver's values: a
/// bool (0 or 1), an integer or a list of integers, as the type says;
/// std::nullopt for anything else.
std::optional<std::vector<int64_t>> rawValues(const llvm::json::Value &v,
                                              mlir::Type type) {
  if (type.isInteger(1)) {
    if (std::optional<bool> b = v.getAsBoolean())
      return std::vector<int64_t>{*b};
    return std::nullopt;
  }
  if (!isa<ListType>(type)) {
    if (std::optional<int64_t> i = v.getAsInteger())
      return std::vector<int64_t>{*i};
    return std::nullopt;
  }
  const llvm::json::Array *list = v.getAsArray();
  if (!list)
    return std::nullopt;
  std::vector<int64_t> out;
  for (const llvm::json::Value &e : *list) {
    std::optional<int64_t> i = e.getAsInteger();
    if (!i)
      return std::nullopt;
    out.push_back(*i);
  }
  return out;
}

} // namespace

std::optional<runtime::DriverArgs>
test::rawDriverArgs(SpecOp spec, PathOp path, const llvm::json::Object &root) {
  const llvm::json::Object *config = root.getObject("config");
  const llvm::json::Array *seqs = root.getArray("sequences");
  if (!config || !seqs)
    return std::nullopt;
  runtime::DriverArgs args;
  size_t declared = 0;
  for (Operation &op : spec.getBody().front()) {
    if (!isa<ConfigOp, RatiosOp>(op))
      continue;
    StringRef name = SymbolTable::getSymbolName(&op).getValue();
    mlir::Type type = isa<RatiosOp>(op)
                          ? mlir::Type(ListType::get(op.getContext()))
                          : cast<ConfigOp>(op).getType();
    const llvm::json::Value *v = config->get(name);
    auto cfg = llvm::dyn_cast<ConfigOp>(op);
    if (!v && !(cfg && cfg.getOptional()))
      return std::nullopt;
    if (!v)
      continue; // an optional parameter left out: not passed
    std::optional<std::vector<int64_t>> values = rawValues(*v, type);
    if (!values)
      return std::nullopt;
    args.config(name.str(), *values);
    ++declared;
  }
  if (config->size() != declared)
    return std::nullopt;

  llvm::StringSet<> resolved;
  if (path)
    for (ResolveOp r : getPathResolves(path))
      resolved.insert(r.getInput());
  // The state object: every key a state input's, each a list of slots.
  const llvm::json::Value *stateValue = root.get("state");
  const llvm::json::Object *state =
      stateValue ? stateValue->getAsObject() : nullptr;
  if (stateValue && !state)
    return std::nullopt;
  llvm::StringSet<> stateKeys;
  std::optional<size_t> scalarSlots;
  llvm::SmallVector<size_t> listRows;
  llvm::SmallVector<Operation *> needs;
  if (path)
    needs = getPathNeeds(path);
  llvm::StringSet<> inputs, slotInputs;
  for (auto in : spec.getBody().front().getOps<InputOp>())
    if (in.isState())
      slotInputs.insert(*in.getSlot());
  for (auto in : spec.getBody().front().getOps<InputOp>()) {
    bool list = isa<ListType>(in.getType());
    std::vector<int64_t> data, offsets{0};
    if (in.isState()) {
      stateKeys.insert(in.getBatchKey());
      const llvm::json::Value *v = state ? state->get(in.getBatchKey()) : nullptr;
      if (!v)
        continue; // not in the state: not passed
      const llvm::json::Array *slots = v->getAsArray();
      if (!slots)
        return std::nullopt;
      // The driver counts the slots by the first scalar array and checks
      // the other scalars' lengths against it.
      if (list)
        listRows.push_back(slots->size());
      else if (!scalarSlots)
        scalarSlots = slots->size();
      for (const llvm::json::Value &e : *slots) {
        std::optional<std::vector<int64_t>> values = rawValues(e, in.getType());
        if (!values)
          return std::nullopt;
        data.insert(data.end(), values->begin(), values->end());
        offsets.push_back(data.size());
      }
      args.input(in.getSymName().str(), data,
                 list ? offsets : std::vector<int64_t>{});
      continue;
    }
    if (resolved.contains(in.getSymName()))
      continue; // the path computes it; a file giving it is refused
    inputs.insert(in.getSymName());
    for (const llvm::json::Value &s : *seqs) {
      const llvm::json::Object *obj = s.getAsObject();
      if (!obj)
        return std::nullopt;
      const llvm::json::Value *v = obj->get(in.getSymName());
      if (!v && !in.getOptional())
        return std::nullopt;
      // A needed input left out reaches the ABI as its zero (it has no
      // per-sequence absence), which the driver refuses under the same
      // rule; but a slot's zero is a slot: the file is another batch.
      if (!v && slotInputs.contains(in.getSymName()) &&
          llvm::is_contained(needs, in.getOperation()))
        return std::nullopt;
      std::optional<std::vector<int64_t>> values =
          v ? rawValues(*v, in.getType())
            : std::vector<int64_t>(list ? 0 : 1, 0);
      if (!values)
        return std::nullopt;
      data.insert(data.end(), values->begin(), values->end());
      offsets.push_back(data.size());
    }
    args.input(in.getSymName().str(), data,
               list ? offsets : std::vector<int64_t>{});
  }
  // A list's rows are as many as the scalars' slots: the ABI gives a
  // list's offsets without their count.
  for (size_t rows : listRows)
    if (scalarSlots != rows)
      return std::nullopt;
  if (state)
    for (const auto &kv : *state)
      if (!stateKeys.contains(kv.first.str()))
        return std::nullopt;
  for (const llvm::json::Value &s : *seqs)
    for (const auto &kv : *s.getAsObject())
      if (!inputs.contains(kv.first.str()))
        return std::nullopt;
  return args;
}
