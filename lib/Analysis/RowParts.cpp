//===- RowParts.cpp - a row's fields split among lanes ---------------------===//

#include "lib/Analysis/RowParts.h"

#include "dialect/IMetaSymbols.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>

using namespace mlir;

namespace imeta {

std::vector<RowPart> rowParts(llvm::ArrayRef<FieldOp> fields,
                              llvm::function_ref<bool(FieldOp)> isOutput,
                              unsigned maxParts) {
  llvm::DenseMap<Operation *, unsigned> place;
  for (auto [k, f] : llvm::enumerate(fields))
    place[f] = unsigned(k);
  // Each field's own size and the fields of the row it reads (earlier in
  // the order: a space is planned so).
  std::vector<unsigned> size(fields.size(), 0);
  std::vector<llvm::SmallVector<unsigned>> reads(fields.size());
  for (auto [k, constField] : llvm::enumerate(fields))
    FieldOp(constField).getBody().walk([&, k = k](Operation *op) {
      ++size[k];
      if (auto get = dyn_cast<GetOp>(op))
        if (auto it = place.find(
                lookupSpecSymbol<FieldOp>(get, get.getFieldAttr()));
            it != place.end() && it->second != k)
          reads[k].push_back(it->second);
    });
  // A field with the fields it reads, transitively.
  auto closure = [&](unsigned k, llvm::SetVector<unsigned> &into) {
    llvm::SmallVector<unsigned> work{k};
    while (!work.empty()) {
      unsigned at = work.pop_back_val();
      if (into.insert(at))
        work.append(reads[at].begin(), reads[at].end());
    }
  };
  llvm::SmallVector<unsigned> outputs;
  for (auto [k, f] : llvm::enumerate(fields))
    if (isOutput(FieldOp(f)))
      outputs.push_back(unsigned(k));
  const unsigned parts =
      std::min<unsigned>(maxParts, unsigned(outputs.size()));
  auto whole = [&] {
    RowPart all;
    all.fields.assign(fields.begin(), fields.end());
    for (FieldOp f : fields)
      if (isOutput(f))
        all.stores.push_back(f);
    return std::vector<RowPart>{all};
  };
  if (parts < 2)
    return whole();
  // Largest first, each to the part it grows least (its closure's fields
  // that part lacks), ties to the smaller part.
  std::vector<unsigned> cost(outputs.size(), 0);
  for (auto [j, k] : llvm::enumerate(outputs)) {
    llvm::SetVector<unsigned> own;
    closure(k, own);
    for (unsigned f : own)
      cost[j] += size[f];
  }
  llvm::SmallVector<unsigned> order(outputs.size());
  for (unsigned j = 0; j < order.size(); ++j)
    order[j] = j;
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned a, unsigned b) { return cost[a] > cost[b]; });
  std::vector<llvm::SetVector<unsigned>> members(parts);
  std::vector<llvm::SetVector<unsigned>> stored(parts);
  std::vector<unsigned> load(parts, 0);
  for (unsigned j : order) {
    llvm::SetVector<unsigned> own;
    closure(outputs[j], own);
    unsigned best = 0, bestTotal = ~0u;
    for (unsigned p = 0; p < parts; ++p) {
      unsigned grown = 0;
      for (unsigned f : own)
        if (!members[p].contains(f))
          grown += size[f];
      if (load[p] + grown < bestTotal) {
        bestTotal = load[p] + grown;
        best = p;
      }
    }
    for (unsigned f : own)
      if (members[best].insert(f))
        load[best] += size[f];
    stored[best].insert(outputs[j]);
  }
  // A field no part holds (read by no output of the row: a column loop's
  // alone) still runs at every row, computed but not stored, with the
  // checks the serial loop makes there: in the smallest part.
  for (unsigned k = 0; k < fields.size(); ++k) {
    if (llvm::any_of(members, [&](const auto &m) { return m.contains(k); }))
      continue;
    const unsigned smallest = unsigned(
        std::min_element(load.begin(), load.end()) - load.begin());
    llvm::SetVector<unsigned> own;
    closure(k, own);
    for (unsigned f : own)
      if (members[smallest].insert(f))
        load[smallest] += size[f];
  }
  std::vector<RowPart> result;
  for (unsigned p = 0; p < parts; ++p) {
    if (stored[p].empty())
      continue;
    RowPart part;
    for (auto [k, f] : llvm::enumerate(fields)) {
      if (members[p].contains(unsigned(k)))
        part.fields.push_back(f);
      if (stored[p].contains(unsigned(k)))
        part.stores.push_back(f);
    }
    result.push_back(std::move(part));
  }
  return result.size() < 2 ? whole() : result;
}

} // namespace imeta
