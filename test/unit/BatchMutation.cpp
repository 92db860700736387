//===- BatchMutation.cpp - breaking a valid batch file at random ----------===//

#include "BatchMutation.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace imeta;

namespace {

/// A replacement value for a mutated key.
llvm::json::Value randomValue(std::mt19937_64 &rng) {
  switch (rng() % 9) {
  case 0: return -1;
  case 1: return 0;
  case 2: return int64_t(2147483647);
  case 3: return int64_t(1) << 40;
  case 4: return "x";
  case 5: return true;
  case 6: return llvm::json::Array{};
  case 7: return llvm::json::Array{-5, 3};
  default: return int64_t(rng() % 100000);
  }
}

/// An edge value for an integer whose neighbour (in its list, or itself
/// for a scalar) is `near`.
int64_t edgeValue(int64_t near, std::mt19937_64 &rng) {
  switch (rng() % 8) {
  case 0: return -1;
  case 1: return 0;
  case 2: return 1;
  case 3: return INT32_MAX;
  case 4: return INT32_MIN;
  case 5: return int64_t(1) << 31;
  case 6: return near + 1;
  default: return near - 1;
  }
}

} // namespace

void test::mutateKey(llvm::json::Object &root, std::mt19937_64 &rng) {
  llvm::json::Object *target = root.getObject("config");
  llvm::json::Array *seqs = root.getArray("sequences");
  if (rng() % 10 == 0) {
    seqs->clear();
    return;
  }
  if (rng() % 2 && !seqs->empty())
    target = (*seqs)[rng() % seqs->size()].getAsObject();
  std::vector<std::string> keys;
  for (auto &kv : *target)
    keys.push_back(kv.first.str());
  keys.push_back("unknown_key");
  std::string key = keys[rng() % keys.size()];
  if (rng() % 4 == 0)
    target->erase(key);
  else
    (*target)[key] = randomValue(rng);
}

void test::mutateElement(llvm::json::Object &root, std::mt19937_64 &rng) {
  // Every integer of the batch, as (the value, its neighbour's value).
  std::vector<std::pair<llvm::json::Value *, int64_t>> ints;
  auto collect = [&](llvm::json::Object &obj) {
    for (auto &kv : obj) {
      if (std::optional<int64_t> v = kv.second.getAsInteger()) {
        ints.push_back({&kv.second, *v});
      } else if (llvm::json::Array *list = kv.second.getAsArray()) {
        for (size_t k = 0; k < list->size(); ++k) {
          std::optional<int64_t> near = (*list)[k == 0 ? k : k - 1].getAsInteger();
          if ((*list)[k].getAsInteger() && near)
            ints.push_back({&(*list)[k], *near});
        }
      }
    }
  };
  if (llvm::json::Object *config = root.getObject("config"))
    collect(*config);
  if (llvm::json::Array *seqs = root.getArray("sequences"))
    for (llvm::json::Value &s : *seqs)
      if (llvm::json::Object *obj = s.getAsObject())
        collect(*obj);
  if (ints.empty())
    return;
  auto [value, near] = ints[rng() % ints.size()];
  *value = edgeValue(near, rng);
}
