//===- DriverFuzzer.cpp - libFuzzer: the generated driver's C ABI ---------===//
//
// Any bytes as named values for specs/deepinfer_v4.mlir's generated driver
// (runtime/DriverAbi.h, what imeta-run --backend cpu calls): a path, a
// sequence count, and for each config parameter and input of the spec,
// present or not, a count and values (small, boundary or any int64),
// list inputs with offsets that may or may not add up. The generated
// checks must refuse what they cannot take: an error is fine; a crash, a
// sanitizer report or a timeout is a bug. Then one lie a call (null
// pointers, counts that are negative, huge or do not match, unknown or
// repeated names): the entry checks each before it reads anything.
//
//===----------------------------------------------------------------------===//

#include "runtime/DriverAbi.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

/// Reads the fuzzer's bytes front to back; zeros once they run out.
struct Bytes {
  const uint8_t *data;
  size_t size, at = 0;
  uint8_t byte() { return at < size ? data[at++] : 0; }
  int64_t value() {
    switch (byte() % 8) {
    case 0:
      return 0;
    case 1:
      return 1;
    case 2:
      return -1;
    case 3:
      return INT32_MAX;
    case 4:
      return int64_t(INT32_MIN);
    case 5: {
      int64_t v = 0;
      for (int k = 0; k < 8; ++k)
        v = (v << 8) | byte();
      return v;
    }
    default:
      return int64_t(byte()) * (byte() % 4 + 1);
    }
  }
};

const char *const kPaths[] = {"prompt",
                              "decode",
                              "decode_zos",
                              "decode_zos_expanded",
                              "prompt_expanded",
                              "decode_varlen",
                              "prompt_cp",
                              "prompt_cp_mirror",
                              "prompt_cp_expanded",
                              "prompt_yoco",
                              "prompt_yoco_cp",
                              "prompt_engram"};
const char *const kConfig[] = {"block_size",
                               "window_size",
                               "swa_block_size",
                               "max_model_len",
                               "max_num_blocks",
                               "force_load_balance",
                               "nextn",
                               "cp_size",
                               "cp_rank",
                               "yoco_prefill_keep_tokens",
                               "max_ngram_size",
                               "engram_pad_token",
                               "engram_image_token",
                               "engram_lookup_table",
                               "dense_ratios",
                               "sparse_ratios"};
const char *const kScalarInputs[] = {"seqlen_q",        "seqlen_k",
                                     "state_id",        "is_placeholder",
                                     "swa_valid_start", "data_len"};
const char *const kListInputs[] = {"block_table", "token_ids", "draft_tokens"};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Bytes in{data, size};
  const char *path = kPaths[in.byte() % (sizeof(kPaths) / sizeof(*kPaths))];
  int32_t numSeqs = int32_t(in.byte() % 9) - 1; // -1 .. 7
  std::vector<std::vector<int64_t>> store;
  store.reserve(64);
  std::vector<imeta_value> config, inputs;
  auto values = [&](int64_t count) {
    std::vector<int64_t> &v = store.emplace_back();
    for (int64_t k = 0; k < count; ++k)
      v.push_back(in.value());
    return &v;
  };
  for (const char *name : kConfig) {
    if (in.byte() % 4 == 0)
      continue;
    std::vector<int64_t> *v = values(in.byte() % 5);
    config.push_back({name, v->data(), int64_t(v->size()), nullptr, 0});
  }
  for (const char *name : kScalarInputs) {
    if (in.byte() % 4 == 0)
      continue;
    int64_t count = in.byte() % 3 == 0 ? in.byte() % 9 : numSeqs;
    std::vector<int64_t> *v = values(count < 0 ? 0 : count);
    inputs.push_back({name, v->data(), int64_t(v->size()), nullptr, 0});
  }
  for (const char *name : kListInputs) {
    if (in.byte() % 4 == 0)
      continue;
    std::vector<int64_t> *v = values(in.byte() % 24);
    const int64_t *offsets = nullptr;
    int64_t entries = 0;
    if (in.byte() % 5 != 0) {
      std::vector<int64_t> &o = store.emplace_back();
      int64_t n = numSeqs < 0 ? 0 : numSeqs;
      bool exact = in.byte() % 3 != 0;
      o.push_back(exact ? 0 : in.value());
      for (int64_t i = 0; i < n; ++i)
        o.push_back(exact ? std::min<int64_t>(int64_t(v->size()),
                                              o.back() + in.byte() % 6)
                          : in.value());
      if (exact)
        o.back() = int64_t(v->size());
      offsets = o.data();
      entries = int64_t(o.size());
    }
    inputs.push_back({name, v->data(), int64_t(v->size()), offsets, entries});
  }
  // Lies the driver must catch (a count past the array it points to is
  // the caller's bug no callee can see; these it can): null pointers,
  // negative, huge or mismatched counts and offsets, unknown and repeated
  // names, a repeated record, extreme num_seqs.
  static const char *const kUnknown = "no_such_input";
  int numConfig = int(config.size()), numInputs = int(inputs.size());
  const imeta_value *configArg = config.data(), *inputsArg = inputs.data();
  const char *pathArg = path;
  // The input record a lie goes into, if there is one.
  imeta_value *victim =
      inputs.empty() ? nullptr : &inputs[in.byte() % inputs.size()];
  switch (victim ? in.byte() % 16 : 6 + in.byte() % 10) {
  case 0:
    victim->name = nullptr;
    break;
  case 1:
    victim->data = nullptr;
    break;
  case 2:
    victim->count = in.byte() % 2 ? -2 - in.byte() : INT64_MAX - in.byte();
    break;
  case 3:
    victim->num_offsets = in.value();
    break;
  case 4:
    victim->offsets = nullptr;
    break;
  case 5:
    inputs.push_back(*victim); // a record given twice
    numInputs = int(inputs.size());
    inputsArg = inputs.data();
    break;
  case 6:
    if (!config.empty())
      config[in.byte() % config.size()].name = kUnknown;
    break;
  case 7:
    configArg = nullptr; // with its count
    break;
  case 8:
    inputsArg = nullptr;
    break;
  case 9:
    numInputs = -1 - in.byte();
    break;
  case 10:
    pathArg = nullptr;
    break;
  case 11:
    numSeqs = in.byte() % 2 ? INT32_MAX : INT32_MIN;
    break;
  case 12:
    if (!config.empty())
      config[in.byte() % config.size()].count = int64_t(1) << (30 + in.byte() % 30);
    break;
  default:
    break;
  }
  const char *json = nullptr, *error = nullptr;
  imeta_driver_run(pathArg, numSeqs, configArg, numConfig, inputsArg,
                   numInputs, /*gpu=*/0,
                   /*capacity=*/int64_t(in.byte() % 3) * 16,
                   in.byte() % 32 ? &json : nullptr,
                   in.byte() % 32 ? &error : nullptr);
  return 0;
}
