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

/// Changes the batch's `state` object (SPEC-async.md §5): one of its keys
/// replaced, removed or added, or one slot's entry of one array replaced,
/// removed or added.
void mutateState(llvm::json::Object &state, std::mt19937_64 &rng) {
  std::vector<std::string> keys;
  for (auto &kv : state)
    keys.push_back(kv.first.str());
  if (keys.empty() || rng() % 2) {
    keys.push_back("unknown_key");
    std::string key = keys[rng() % keys.size()];
    if (rng() % 4 == 0)
      state.erase(key);
    else
      state[key] = randomValue(rng);
    return;
  }
  llvm::json::Array *slots = state.getArray(keys[rng() % keys.size()]);
  if (!slots)
    return;
  switch (slots->empty() ? 2 : rng() % 3) {
  case 0: // one slot's entry: a wrong type, an edge, a row for a value
    (*slots)[rng() % slots->size()] = randomValue(rng);
    break;
  case 1: // one slot fewer
    slots->erase(slots->begin() + rng() % slots->size());
    break;
  default: // one slot more, like the last (or a random value)
    slots->push_back(slots->empty() || rng() % 2
                         ? randomValue(rng)
                         : llvm::json::Value(slots->back()));
    break;
  }
}

} // namespace

void test::mutateKey(llvm::json::Object &root, std::mt19937_64 &rng) {
  llvm::json::Object *target = root.getObject("config");
  llvm::json::Array *seqs = root.getArray("sequences");
  // A batch with request state: one change in three is the state's (the
  // draws of a batch without it are as they were).
  if (llvm::json::Object *state = root.getObject("state"))
    if (rng() % 3 == 0) {
      mutateState(*state, rng);
      return;
    }
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
  // The request state: a slot's value, or an entry of a slot's row.
  if (llvm::json::Object *state = root.getObject("state"))
    for (auto &kv : *state)
      if (llvm::json::Array *slots = kv.second.getAsArray()) {
        for (llvm::json::Value &slot : *slots)
          if (llvm::json::Array *row = slot.getAsArray()) {
            for (size_t k = 0; k < row->size(); ++k) {
              std::optional<int64_t> near =
                  (*row)[k == 0 ? k : k - 1].getAsInteger();
              if ((*row)[k].getAsInteger() && near)
                ints.push_back({&(*row)[k], *near});
            }
          }
        for (size_t k = 0; k < slots->size(); ++k) {
          std::optional<int64_t> near =
              (*slots)[k == 0 ? k : k - 1].getAsInteger();
          if ((*slots)[k].getAsInteger() && near)
            ints.push_back({&(*slots)[k], *near});
        }
      }
  if (ints.empty())
    return;
  auto [value, near] = ints[rng() % ints.size()];
  *value = edgeValue(near, rng);
}
