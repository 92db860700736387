//===- Batch.cpp - a batch of sequences, read against a spec --------------===//

#include "lib/Eval/Batch.h"
#include "dialect/IMetaSymbols.h"

#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace imeta;
using llvm::formatv;

namespace {
/// Builds errors that name where in the batch they are and which rule.
struct Where {
  std::string prefix; ///< "config" or "sequence 3"
  llvm::Error fail(const llvm::Twine &msg, std::optional<StringRef> rule) {
    std::string text = prefix + ": " + msg.str();
    if (rule)
      text += " (" + rule->str() + ")";
    return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
  }
};

/// A JSON integer that fits int32.
std::optional<int64_t> asInt32(const llvm::json::Value &v) {
  std::optional<int64_t> i = v.getAsInteger();
  if (!i || *i < std::numeric_limits<int32_t>::min() ||
      *i > std::numeric_limits<int32_t>::max())
    return std::nullopt;
  return i;
}

/// Reads a value of a declared type (i32, i1 or !imeta.list) into the
/// matching map, checking `min`.
template <typename DeclOp>
llvm::Error readValue(DeclOp decl, const llvm::json::Value *v, Where &where,
                      llvm::StringMap<int64_t> &scalars,
                      llvm::StringMap<std::vector<int64_t>> &lists,
                      bool checkBound = true, StringRef shown = "") {
  // Stored under its symbol; named in messages as the batch file names it.
  StringRef name = decl.getSymName();
  StringRef said = shown.empty() ? name : shown;
  std::optional<StringRef> rule = decl.getRule();
  Type type = decl.getType();
  std::optional<int64_t> min;
  if (auto declared = decl.getMin(); declared && checkBound)
    min = int64_t(*declared);
  auto checkMin = [&](int64_t x, const llvm::Twine &what) -> llvm::Error {
    if (min && x < *min)
      return where.fail(formatv("{0} = {1} breaks {2} >= {3}", what.str(), x,
                                said, *min),
                        rule);
    return llvm::Error::success();
  };
  if (isa<ListType>(type)) {
    std::vector<int64_t> &out = lists[name];
    if (!v)
      return llvm::Error::success(); // optional: the empty list
    const llvm::json::Array *arr = v->getAsArray();
    if (!arr)
      return where.fail(formatv("'{0}' must be a list of int32 integers",
                                said),
                        rule);
    for (auto [idx, e] : llvm::enumerate(*arr)) {
      std::optional<int64_t> x = asInt32(e);
      if (!x)
        return where.fail(
            formatv("'{0}'[{1}] must be an int32 integer", said, idx), rule);
      if (llvm::Error err = checkMin(*x, formatv("{0}[{1}]", said, idx)))
        return err;
      out.push_back(*x);
    }
    return llvm::Error::success();
  }
  if (type.isInteger(1)) {
    std::optional<bool> b = v ? v->getAsBoolean() : std::optional<bool>(false);
    if (!b)
      return where.fail(formatv("'{0}' must be true or false", said), rule);
    scalars[name] = *b;
    return llvm::Error::success();
  }
  std::optional<int64_t> x = v ? asInt32(*v) : std::optional<int64_t>(0);
  if (!x)
    return where.fail(formatv("'{0}' must be an int32 integer", said), rule);
  scalars[name] = *x;
  return checkMin(*x, said);
}

/// The name among `names` spelt most like `key`, at most two edits away
/// (a misspelling), or "".
std::string closest(StringRef key, llvm::ArrayRef<StringRef> names) {
  std::string best;
  unsigned bestDistance = 3;
  for (StringRef name : names)
    if (name != key) {
      unsigned d = key.edit_distance(name, /*AllowReplacements=*/true, 2);
      if (d < bestDistance)
        best = name.str(), bestDistance = d;
    }
  return best;
}

/// Where a declared key is missing: "; is 'KEY' a misspelling?" for an
/// undeclared key of `obj` spelt like it.
std::string misspeltAs(const llvm::json::Object &obj, StringRef name,
                       llvm::ArrayRef<StringRef> declared) {
  llvm::SmallVector<StringRef> undeclared;
  for (const auto &kv : obj)
    if (!llvm::is_contained(declared, StringRef(kv.first)))
      undeclared.push_back(kv.first);
  std::string near = closest(name, undeclared);
  return near.empty() ? "" : "; is '" + near + "' a misspelling?";
}

/// Fails on a key the spec does not declare: a typo of an optional key
/// would otherwise silently read as its default.
llvm::Error checkKnownKeys(const llvm::json::Object &obj,
                           llvm::ArrayRef<StringRef> declared, Where &where) {
  for (const auto &kv : obj)
    if (!llvm::is_contained(declared, StringRef(kv.first))) {
      std::string near = closest(kv.first, declared);
      return where.fail(
          formatv("unknown key '{0}'{1}", kv.first.str(),
                  near.empty() ? "" : " (did you mean '" + near + "'?)"),
          std::nullopt);
    }
  return llvm::Error::success();
}
} // namespace

/// Reads the batch's `state` object: each state input's array (those the
/// path needs, or all without a path), one entry (a row, for a list) per
/// slot, all of one slot input of one length.
static llvm::Error readState(const llvm::json::Object &root,
                             llvm::ArrayRef<InputOp> stateInputs, PathOp path,
                             llvm::ArrayRef<Operation *> needs, Batch &batch) {
  Where where{"state"};
  const llvm::json::Value *stateValue = root.get("state");
  const llvm::json::Object *state =
      stateValue ? stateValue->getAsObject() : nullptr;
  if (stateValue && !state)
    return where.fail("must be a JSON object of arrays, one per state input",
                      std::nullopt);
  llvm::SmallVector<StringRef> known;
  for (InputOp in : stateInputs)
    known.push_back(in.getBatchKey());
  llvm::StringMap<std::pair<size_t, StringRef>> slotsOf; // slot -> (n, key)
  for (InputOp in : stateInputs) {
    StringRef key = in.getBatchKey();
    const llvm::json::Value *v = state ? state->get(key) : nullptr;
    std::optional<StringRef> rule = in.getRule();
    // A path reads the state it needs; a batch of another path may carry
    // state for others (no path named: every array is read).
    bool needed = llvm::is_contained(needs, in.getOperation());
    if (path && !needed)
      continue;
    if (!v) {
      if (needed)
        return where.fail(formatv("missing key '{0}' (path @{1} needs it){2}",
                                  key, path.getSymName(),
                                  state ? misspeltAs(*state, key, known) : ""),
                          rule);
      continue;
    }
    const llvm::json::Array *arr = v->getAsArray();
    if (!arr)
      return where.fail(formatv("'{0}' must be a list, one entry per slot", key),
                        rule);
    StateArray &out = batch.state[in.getSymName()];
    out.slot = in.getSlot()->str();
    bool isList = isa<ListType>(in.getType());
    std::optional<int64_t> width;
    if (auto w = in.getWidthAttr())
      width = batch.config.lookup(w.getValue());
    for (auto [slot, e] : llvm::enumerate(*arr)) {
      Where at{formatv("state '{0}' slot {1}", key, slot).str()};
      SequenceInputs one;
      // Bounds (`min`) hold where a sequence reads the slot: checkSlots.
      if (llvm::Error err = readValue(in, &e, at, one.scalars, one.lists,
                                      /*checkBound=*/false, key))
        return err;
      if (!isList) {
        out.scalars.push_back(one.scalars.lookup(in.getSymName()));
        continue;
      }
      std::vector<int64_t> &row = one.lists[in.getSymName()];
      if (width && int64_t(row.size()) != *width)
        return at.fail(formatv("has {0} {1}, not {2} = {3}", row.size(),
                               row.size() == 1 ? "entry" : "entries",
                               in.getWidth()->str(), *width),
                       rule);
      out.rows.push_back(std::move(row));
    }
    auto [it, first] =
        slotsOf.try_emplace(out.slot, std::make_pair(arr->size(), key));
    if (!first && it->second.first != arr->size())
      return where.fail(formatv("'{0}' has {1} slots but '{2}' has {3}; every "
                                "state array of slot input '{4}' has one "
                                "length",
                                key, arr->size(), it->second.second,
                                it->second.first, out.slot),
                        rule);
    if (arr->empty())
      return where.fail(formatv("'{0}' has no slot; the state holds at least "
                                "one",
                                key),
                        rule);
  }
  if (state)
    return checkKnownKeys(*state, known, where);
  return llvm::Error::success();
}

/// A sequence's slots lie in [-1, slots), and the state it reads at them
/// keeps each state input's `min`.
static llvm::Error checkSlots(const SequenceInputs &seq,
                              llvm::ArrayRef<InputOp> stateInputs,
                              const Batch &batch, Where &at) {
  for (InputOp in : stateInputs) {
    auto it = batch.state.find(in.getSymName());
    if (it == batch.state.end())
      continue;
    const StateArray &arr = it->second;
    int64_t slot = seq.scalars.lookup(arr.slot);
    auto slotDecl =
        lookupSpecSymbol<InputOp>(in, in.getSlotAttr());
    if (slot < -1 || slot >= int64_t(arr.size()))
      return at.fail(formatv("{0} = {1} is outside [-1, {2}) (the slots of "
                             "state '{3}')",
                             arr.slot, slot, arr.size(), in.getBatchKey()),
                     slotDecl.getRule());
    std::optional<uint64_t> min = in.getMin();
    if (slot < 0 || !min)
      continue;
    auto check = [&](int64_t x, const llvm::Twine &what) -> llvm::Error {
      if (x >= int64_t(*min))
        return llvm::Error::success();
      return at.fail(formatv("{0} = {1} at {2} {3} breaks {4} >= {5}",
                             what.str(), x, arr.slot, slot, in.getBatchKey(),
                             int64_t(*min)),
                     in.getRule());
    };
    if (arr.rows.empty() && !isa<ListType>(in.getType())) {
      if (llvm::Error err = check(arr.scalars[size_t(slot)], in.getBatchKey()))
        return err;
      continue;
    }
    for (auto [k, x] : llvm::enumerate(arr.rows[size_t(slot)]))
      if (llvm::Error err = check(x, formatv("{0}[{1}]", in.getBatchKey(), k)))
        return err;
  }
  return llvm::Error::success();
}

/// " (path @P needs it)" where `needs` (path's) holds `decl`, else "".
static std::string neededBy(PathOp path, llvm::ArrayRef<Operation *> needs,
                            Operation *decl) {
  if (!llvm::is_contained(needs, decl))
    return "";
  return formatv(" (path @{0} needs it)", path.getSymName()).str();
}

llvm::Expected<Batch> imeta::parseBatch(SpecOp spec,
                                        const llvm::json::Value &json,
                                        PathOp path) {
  Batch batch;
  Where top{"batch"};
  const llvm::json::Object *root = json.getAsObject();
  if (!root)
    return top.fail("must be a JSON object with 'config' and 'sequences'",
                    std::nullopt);
  for (const auto &kv : *root)
    if (!llvm::is_contained({"config", "sequences", "state"},
                            StringRef(kv.first)))
      return top.fail(formatv("unknown key '{0}' (a batch has 'config', "
                              "'sequences' and, for request state, 'state')",
                              StringRef(kv.first).take_front(64)),
                      std::nullopt);
  const llvm::json::Object *config = root->getObject("config");
  if (!config)
    return top.fail("missing 'config' object", std::nullopt);
  const llvm::json::Array *seqs = root->getArray("sequences");
  if (!seqs)
    return top.fail("missing 'sequences' list", std::nullopt);

  // The path's needs, once: every sequence's inputs are checked against them.
  llvm::SmallVector<Operation *> needs;
  if (path)
    needs = getPathNeeds(path);
  Where where{"config"};
  Block &body = spec.getBody().front();
  llvm::SmallVector<StringRef> known;
  for (auto param : body.getOps<ConfigOp>())
    known.push_back(param.getSymName());
  for (auto set : body.getOps<RatiosOp>())
    known.push_back(set.getSymName());
  for (auto param : body.getOps<ConfigOp>()) {
    const llvm::json::Value *v = config->get(param.getSymName());
    // An optional parameter is checked in full where the path needs it
    // (or no path is named); elsewhere it is only read.
    std::string needed = neededBy(path, needs, param);
    bool required = !param.getOptional() || !needed.empty();
    if (!v && required)
      return where.fail(formatv("missing key '{0}'{1}{2}", param.getSymName(),
                                needed,
                                misspeltAs(*config, param.getSymName(), known)),
                        param.getRule());
    bool checkBound = v && (required || !path);
    if (llvm::Error err = readValue(param, v, where, batch.config,
                                    batch.lists, checkBound))
      return err;
  }
  // Ratio sets and axes in declaration order, as the generated code.
  for (Operation &op : body) {
    if (auto axis = dyn_cast<AxisOp>(op)) {
      // An optional count only where the path needs it (elsewhere the
      // axis is empty if its count is out of range: Evaluator::ratios).
      auto cfg = lookupSpecSymbol<ConfigOp>(axis, axis.getCountAttr());
      if (cfg && cfg.getOptional() && path &&
          neededBy(path, needs, cfg).empty())
        continue;
      int64_t count = batch.config.lookup(axis.getCount());
      if (count < 0 || count > kMaxBuckets)
        return where.fail(formatv("{0} = {1}: axis '{2}' holds 0 to {3} "
                                  "indices",
                                  axis.getCount(), count, axis.getSymName(),
                                  kMaxBuckets),
                          axis.getRule());
      continue;
    }
    auto set = dyn_cast<RatiosOp>(op);
    if (!set)
      continue;
    StringRef name = set.getSymName();
    const llvm::json::Value *v = config->get(name);
    if (!v)
      return where.fail(formatv("missing key '{0}'{1}", name,
                                misspeltAs(*config, name, known)),
                        set.getRule());
    const llvm::json::Array *arr = v->getAsArray();
    std::vector<int64_t> &out = batch.lists[name];
    llvm::SmallSet<int64_t, 8> seen;
    for (size_t idx = 0; arr && idx < arr->size(); ++idx) {
      std::optional<int64_t> x = asInt32((*arr)[idx]);
      if (!x || *x < 1 || !seen.insert(*x).second) {
        arr = nullptr;
        break;
      }
      out.push_back(*x);
    }
    if (!arr)
      return where.fail(
          formatv("'{0}' must be a list of distinct integers >= 1", name),
          set.getRule());
  }
  if (llvm::Error err = checkKnownKeys(*config, known, where))
    return err;

  // Per-sequence inputs: not state, not resolved by the path.
  llvm::SmallVector<InputOp> inputs, stateInputs;
  llvm::SmallVector<StringRef> resolved;
  if (path)
    for (ResolveOp r : getPathResolves(path))
      resolved.push_back(r.getInput());
  for (InputOp in : body.getOps<InputOp>())
    if (in.isState())
      stateInputs.push_back(in);
    else if (!llvm::is_contained(resolved, in.getSymName()))
      inputs.push_back(in);
  if (llvm::Error err = readState(*root, stateInputs, path, needs, batch))
    return err;
  known.clear();
  for (InputOp in : inputs)
    known.push_back(in.getSymName());
  for (auto [i, s] : llvm::enumerate(*seqs)) {
    Where at{formatv("sequence {0}", i).str()};
    const llvm::json::Object *obj = s.getAsObject();
    if (!obj)
      return at.fail("must be a JSON object", std::nullopt);
    SequenceInputs seq;
    for (InputOp in : inputs) {
      const llvm::json::Value *v = obj->get(in.getSymName());
      std::string needed = neededBy(path, needs, in);
      if (!v && (!in.getOptional() || !needed.empty()))
        return at.fail(formatv("missing key '{0}'{1}{2}", in.getSymName(),
                               needed,
                               misspeltAs(*obj, in.getSymName(), known)),
                       in.getRule());
      if (llvm::Error err = readValue(in, v, at, seq.scalars, seq.lists))
        return err;
    }
    for (StringRef name : resolved)
      if (obj->get(name))
        return at.fail(formatv("'{0}' is not given in path @{1}: it is "
                               "resolved from the batch (imeta.resolve)",
                               name, path.getSymName()),
                       std::nullopt);
    if (llvm::Error err = checkKnownKeys(*obj, known, at))
      return err;
    if (llvm::Error err = checkSlots(seq, stateInputs, batch, at))
      return err;
    batch.sequences.push_back(std::move(seq));
  }
  return batch;
}

std::optional<int64_t> Batch::stateScalar(size_t i, StringRef name) const {
  auto it = state.find(name);
  if (it == state.end())
    return std::nullopt;
  int64_t slot = sequences[i].scalars.lookup(it->second.slot);
  if (slot < 0 || size_t(slot) >= it->second.scalars.size())
    return std::nullopt;
  return it->second.scalars[size_t(slot)];
}

const std::vector<int64_t> *Batch::stateRow(size_t i, StringRef name) const {
  auto it = state.find(name);
  if (it == state.end())
    return nullptr;
  int64_t slot = sequences[i].scalars.lookup(it->second.slot);
  if (slot < 0 || size_t(slot) >= it->second.rows.size())
    return nullptr;
  return &it->second.rows[size_t(slot)];
}
