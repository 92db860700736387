//===- DriverValues.cpp - a parsed batch as a driver's values -------------===//

#include "lib/Eval/DriverValues.h"

using namespace mlir;
using namespace imeta;

runtime::DriverArgs imeta::toDriverArgs(SpecOp spec, const Batch &batch) {
  runtime::DriverArgs args;
  for (Operation &op : spec.getBody().front()) {
    if (auto cfg = dyn_cast<ConfigOp>(op))
      args.config(cfg.getSymName().str(),
                  isa<ListType>(cfg.getType())
                      ? batch.lists.lookup(cfg.getSymName())
                      : std::vector<int64_t>{
                            batch.config.lookup(cfg.getSymName())});
    else if (auto set = dyn_cast<RatiosOp>(op))
      args.config(set.getSymName().str(),
                  batch.lists.lookup(set.getSymName()));
  }
  for (auto in : spec.getBody().front().getOps<InputOp>()) {
    std::vector<int64_t> data, offs{0};
    bool list = isa<ListType>(in.getType());
    if (in.isState()) {
      // One value (a list: a row) per slot, as the batch's `state` gives.
      auto it = batch.state.find(in.getSymName());
      if (it == batch.state.end())
        continue;
      if (!list)
        data = it->second.scalars;
      for (const std::vector<int64_t> &row : it->second.rows) {
        data.insert(data.end(), row.begin(), row.end());
        offs.push_back(int64_t(data.size()));
      }
      args.input(in.getSymName().str(), std::move(data),
                 list ? std::move(offs) : std::vector<int64_t>{});
      continue;
    }
    // An input a path resolves is not in the batch as given.
    if (!batch.sequences.empty() &&
        !batch.sequences.front().scalars.count(in.getSymName()) &&
        !batch.sequences.front().lists.count(in.getSymName()))
      continue;
    for (const SequenceInputs &s : batch.sequences) {
      if (list) {
        const std::vector<int64_t> &xs = s.lists.find(in.getSymName())->second;
        data.insert(data.end(), xs.begin(), xs.end());
        offs.push_back(data.size());
      } else {
        data.push_back(s.scalars.lookup(in.getSymName()));
      }
    }
    args.input(in.getSymName().str(), std::move(data),
               list ? std::move(offs) : std::vector<int64_t>{});
  }
  return args;
}
