//===- VariantsTest.cpp - the variant paths against SPEC-variants.md ------===//
//
// The variant paths of specs/deepinfer_v4.mlir (prompt_cp and its GPU
// mirror, prompt_yoco, prompt_yoco_cp, prompt_engram, decode_varlen) on
// the reference evaluator and the generated CPU code (through the
// driver), each compared field by field with ReferenceVariants
// (SPEC-variants.md by hand) on random batches and the edge batches of
// §8; the mirrors of all ranks together cover every row once, and their
// boundary indices find every kept row; batches breaking R7, R8 or R10
// are refused by name. decode_async (SPEC-async.md) on random slotted
// batches: its fields are decode_varlen's of the batch resolved by hand
// (§3), on both; batches breaking R11 (or R3, R5 once resolved) are
// refused by both in the same words, naming the sequence and rule that
// decode_varlen names on the resolved batch.
//
//===----------------------------------------------------------------------===//

#include "RandomBatch.h"
#include "RandomBatchJson.h"
#include "RawDriverArgs.h"
#include "ReferenceVariants.h"
#include "V4Spec.h"

#include "lib/Eval/Batch.h"
#include "lib/Eval/DriverValues.h"
#include "lib/Eval/Evaluator.h"
#include "lib/Eval/FieldJson.h"
#include "runtime/DriverAbi.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>

using namespace imeta;

namespace {

constexpr int kSeeds = 300;

/// A reference field as the field file writes it.
llvm::json::Value toJson(const ref::Field &f) {
  auto value = [&](int64_t v) -> llvm::json::Value {
    if (f.isBool)
      return v != 0;
    return v;
  };
  if (f.isScalar)
    return value(f.data.at(0));
  llvm::json::Array out;
  for (int64_t r = 0; r < f.emptyRows; ++r)
    out.push_back(llvm::json::Array());
  for (size_t k = 0; k < f.data.size(); k += f.width) {
    if (f.width == 1 && !f.hasCols) {
      out.push_back(value(f.data[k]));
      continue;
    }
    llvm::json::Array row;
    for (unsigned c = 0; c < f.width; ++c)
      row.push_back(value(f.data[k + c]));
    out.push_back(std::move(row));
  }
  return out;
}

/// Runs `path` on the evaluator and the generated driver: both field
/// files, or the first error.
struct Outcome {
  std::string evaluator, driver, error;
};

Outcome run(llvm::StringRef pathName, const llvm::json::Value &json) {
  SpecOp spec = test::v4Spec();
  PathOp path = test::v4Path(pathName);
  Outcome o;
  llvm::Expected<Batch> batch = parseBatch(spec, json, path);
  if (!batch) {
    o.error = llvm::toString(batch.takeError());
    return o;
  }
  Evaluator ev(spec, *batch);
  if (llvm::Error err = ev.checkPath(path)) {
    o.error = llvm::toString(std::move(err));
    return o;
  }
  auto outputs = ev.evaluatePath(path);
  if (!outputs) {
    o.error = llvm::toString(outputs.takeError());
    return o;
  }
  llvm::raw_string_ostream os(o.evaluator);
  printFieldFile(os, *outputs);
  std::string name = pathName.str();
  if (toDriverArgs(spec, *batch)
          .run(imeta_driver_run, name.c_str(), int32_t(batch->sequences.size()),
               /*gpu=*/0, o.driver) != 0) {
    o.error = "driver: " + o.driver;
    o.driver.clear();
  }
  return o;
}

/// Field file `text` holds exactly the fields of `want`, equal.
void expectFields(const std::string &text, const ref::Fields &want,
                  const std::string &who) {
  SCOPED_TRACE(who);
  llvm::Expected<llvm::json::Value> got = llvm::json::parse(text);
  ASSERT_TRUE(bool(got)) << llvm::toString(got.takeError());
  const llvm::json::Object *obj = got->getAsObject();
  ASSERT_TRUE(obj);
  std::set<std::string> names, wanted;
  for (const auto &kv : *obj)
    names.insert(kv.first.str());
  for (const auto &kv : want)
    wanted.insert(kv.first);
  EXPECT_EQ(names, wanted);
  for (const auto &kv : want) {
    const llvm::json::Value *v = obj->get(kv.first);
    if (!v)
      continue;
    const ref::Field &f = kv.second;
    if (!f.liveCols.empty()) {
      // Rows whose columns past the live ones are unspecified.
      const llvm::json::Array *rows = v->getAsArray();
      ASSERT_TRUE(rows && rows->size() == f.liveCols.size()) << kv.first;
      for (size_t r = 0; r < rows->size(); ++r)
        for (int64_t col = 0; col < f.liveCols[r]; ++col)
          EXPECT_EQ((*(*rows)[r].getAsArray())[col].getAsInteger(),
                    f.data[r * f.width + col])
              << kv.first << " row " << r << " column " << col;
      continue;
    }
    llvm::json::Value expected = toJson(f);
    EXPECT_TRUE(*v == expected)
        << "field " << kv.first << ": got " << llvm::formatv("{0}", *v).str()
        << ", want " << llvm::formatv("{0}", expected).str();
  }
}

void check(llvm::StringRef path, const ref::Batch &batch,
           const ref::Fields &want, const std::string &what) {
  llvm::json::Value json = ref::toJson(batch);
  SCOPED_TRACE(
      llvm::formatv("{0}, path {1}, batch {2}", what, path, json).str());
  Outcome o = run(path, json);
  ASSERT_EQ(o.error, "");
  expectFields(o.evaluator, want, "evaluator");
  expectFields(o.driver, want, "generated CPU code");
}

TEST(Variants, PromptCpEqualsSpec) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch b = ref::randomBatch(ref::PathKind::Prompt, seed);
    check("prompt_cp", b, ref::promptCp(b), "seed " + std::to_string(seed));
    check("prompt_cp_mirror", b, ref::promptCpMirror(b),
          "seed " + std::to_string(seed));
    check("prompt_cp_expanded", b, ref::promptCpExpanded(b),
          "seed " + std::to_string(seed));
    if (HasFatalFailure())
      return;
  }
}

TEST(Variants, PromptYocoEqualsSpec) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch b = ref::randomBatch(ref::PathKind::Prompt, seed + 4242);
    check("prompt_yoco", b, ref::promptYoco(b), "seed " + std::to_string(seed));
    if (HasFatalFailure())
      return;
  }
}

TEST(Variants, PromptYocoCpEqualsSpec) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch b = ref::randomBatch(ref::PathKind::Prompt, seed + 5151);
    check("prompt_yoco_cp", b, ref::promptYocoCp(b),
          "seed " + std::to_string(seed));
    if (HasFatalFailure())
      return;
  }
}

TEST(Variants, PromptEngramEqualsSpec) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch b = ref::randomEngramBatch(seed);
    check("prompt_engram", b, ref::promptEngram(b),
          "seed " + std::to_string(seed));
    if (HasFatalFailure())
      return;
  }
}

/// §8's Engram example: G = 3, pad 0, image 9, LUT[t] = 100 + t.
TEST(Variants, EngramWorkedExample) {
  ref::Batch b = ref::variantEdgeBatches().front();
  b.sequences.resize(1);
  ref::Sequence &s = b.sequences[0];
  s.seqlenQ = 3;
  s.seqlenK = 4;
  s.tokenIds = {1, 9, 2, 3};
  b.config.maxNgram = 3;
  b.config.engramPad = 0;
  b.config.engramImage = 9;
  for (int64_t t = 0; t < 10; ++t)
    b.config.lookupTable.push_back(100 + t);
  ref::Fields want = ref::promptEngram(b);
  EXPECT_EQ(want["ngram_token_ids"].data,
            (std::vector<int64_t>{0, 0, 0, 102, 0, 0, 103, 102, 0}));
  check("prompt_engram", b, want, "worked example");
}

TEST(Variants, DecodeVarlenEqualsSpec) {
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch b = ref::randomBatch(ref::PathKind::Decode, seed + 777);
    check("decode_varlen", b, ref::decodeVarlen(b),
          "seed " + std::to_string(seed));
    if (HasFatalFailure())
      return;
  }
}

TEST(Variants, EdgeBatchesEqualSpec) {
  std::vector<ref::Batch> edges = ref::variantEdgeBatches();
  ASSERT_GE(edges.size(), 8u);
  for (size_t e = 0; e < edges.size(); ++e) {
    const ref::Batch &b = edges[e];
    std::string what = "edge batch " + std::to_string(e);
    check("prompt_cp", b, ref::promptCp(b), what);
    check("prompt_cp_mirror", b, ref::promptCpMirror(b), what);
    check("prompt_cp_expanded", b, ref::promptCpExpanded(b), what);
    check("prompt_yoco", b, ref::promptYoco(b), what);
    check("prompt_yoco_cp", b, ref::promptYocoCp(b), what);
  }
}

/// §8's worked example, its values as the page gives them.
TEST(Variants, WorkedExample) {
  ref::Batch b = ref::variantEdgeBatches().front();
  ref::Fields cp = ref::promptCp(b);
  EXPECT_EQ(cp["mirror_cp_index"].data,
            (std::vector<int64_t>{2, 3, 4, -1, 6, 7}));
  EXPECT_EQ(cp["mirror_cp_reverse_index"].data,
            (std::vector<int64_t>{0, 1, 6, 7, 8, 4, 10, 11}));
  EXPECT_EQ(cp["ke.2"].data, (std::vector<int64_t>{2, 3, 3, 0, 4, 4}));
  ref::Fields y = ref::promptYoco(b);
  EXPECT_EQ(y["yoco_consumer_slot_mapping_store_swa"].data,
            (std::vector<int64_t>{11, 6, 0, 1, 2}));
  EXPECT_EQ(y["yoco_consumer_swa_index_pivots"].data,
            (std::vector<int64_t>{4,  0, 8, 1, 4,  0, 8, 2, 8,  0,
                                  10, 1, 8, 0, 10, 2, 8, 0, 10, 3}));
  check("prompt_cp", b, cp, "worked example");
  check("prompt_yoco", b, y, "worked example");
  ref::Fields yc = ref::promptYocoCp(b);
  EXPECT_EQ(yc["yoco_consumer_mirror_cp_index"].data,
            (std::vector<int64_t>{1, -1, 3, 4}));
  EXPECT_EQ(yc["yoco_consumer_cp_positions"].data,
            (std::vector<int64_t>{6, 0, 1, 2}));
  EXPECT_EQ(yc["yoco_consumer_cp_contrib_pad_len"].data,
            (std::vector<int64_t>{4}));
  EXPECT_EQ(yc["yoco_cp_contrib_index"].data,
            (std::vector<int64_t>{1, 2, 4, 5}));
  EXPECT_EQ(yc["yoco_cp_boundary_index"].data,
            (std::vector<int64_t>{5, -1, 6, 7}));
  check("prompt_yoco_cp", b, yc, "worked example");
  b.config.cpRank = 0;
  EXPECT_EQ(ref::promptYocoCp(b)["yoco_cp_contrib_index"].data,
            (std::vector<int64_t>{4, -1, -1, -1}));
  check("prompt_yoco_cp", b, ref::promptYocoCp(b), "worked example, rank 0");
}

/// Under YoCo and CP, over all ranks of the generated code: the compact
/// mirrors hold every kept row once; every rank pads its contribution to
/// the same length; and each compact-mirror row's boundary index points,
/// in the rank-major all-gather of the contributions (each a full-mirror
/// row of its rank), at that very row.
TEST(Variants, BoundaryIndexFindsEveryKeptRow) {
  int checked = 0;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch b = ref::randomBatch(ref::PathKind::Prompt, seed + 313);
    const int64_t p = b.config.cpSize;
    std::vector<llvm::json::Object> ranks;
    for (int64_t rho = 0; rho < p; ++rho) {
      b.config.cpRank = rho;
      Outcome o = run("prompt_yoco_cp", ref::toJson(b));
      ASSERT_EQ(o.error, "") << "seed " << seed << ", rank " << rho;
      ranks.push_back(std::move(*llvm::json::parse(o.driver)->getAsObject()));
    }
    auto ints = [](llvm::json::Object &o, llvm::StringRef name) {
      std::vector<int64_t> v;
      for (const llvm::json::Value &e : *o.getArray(name))
        v.push_back(*e.getAsInteger());
      return v;
    };
    const int64_t padLen =
        *ranks[0].getInteger("yoco_consumer_cp_contrib_pad_len");
    std::vector<int64_t> gathered; // global row of each all-gathered entry
    for (llvm::json::Object &r : ranks) {
      ASSERT_EQ(*r.getInteger("yoco_consumer_cp_contrib_pad_len"), padLen);
      std::vector<int64_t> contrib = ints(r, "yoco_cp_contrib_index");
      std::vector<int64_t> full = ints(r, "mirror_cp_index");
      ASSERT_EQ(int64_t(contrib.size()), padLen);
      for (int64_t m : contrib)
        gathered.push_back(m < 0 ? -1 : full.at(m));
    }
    std::vector<int64_t> queryRows =
        ints(ranks[0], "yoco_consumer_query_indices");
    std::vector<int> seen(queryRows.size(), 0);
    for (llvm::json::Object &r : ranks) {
      std::vector<int64_t> index = ints(r, "yoco_consumer_mirror_cp_index");
      std::vector<int64_t> boundary = ints(r, "yoco_cp_boundary_index");
      ASSERT_EQ(index.size(), boundary.size());
      for (size_t mc = 0; mc < index.size(); ++mc) {
        if (index[mc] < 0) {
          EXPECT_EQ(boundary[mc], -1);
          continue;
        }
        ++seen.at(index[mc]);
        ASSERT_GE(boundary[mc], 0) << "seed " << seed;
        EXPECT_EQ(gathered.at(boundary[mc]), queryRows[index[mc]])
            << "seed " << seed << ", compact-mirror row " << mc;
      }
    }
    for (size_t rc = 0; rc < seen.size(); ++rc)
      ASSERT_EQ(seen[rc], 1) << "seed " << seed << ": compact row " << rc;
    ++checked;
  }
  EXPECT_EQ(checked, kSeeds);
}

/// Over all ranks, the generated mirrors hold every row of the layout
/// exactly once, the rest pads (their number as §2.1 counts them), and
/// the reverse index points at each row's place in the all-gather.
TEST(Variants, MirrorsCoverEveryRowOnce) {
  int checked = 0;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::Batch b = ref::randomBatch(ref::PathKind::Prompt, seed + 99);
    int64_t p = b.config.cpSize, T = 0, pads = 0, expectedPads = 0;
    for (const ref::Sequence &s : b.sequences) {
      T += s.seqlenQ;
      int64_t ps = (s.seqlenQ + 2 * p - 1) / (2 * p);
      expectedPads += 2 * ps * p - s.seqlenQ;
    }
    std::vector<int> seen(T, 0);
    std::vector<int64_t> gathered; // rank-major all-gather of the indices
    std::vector<int64_t> reverse;
    for (int64_t rho = 0; rho < p; ++rho) {
      b.config.cpRank = rho;
      Outcome o = run("prompt_cp_mirror", ref::toJson(b));
      ASSERT_EQ(o.error, "") << "seed " << seed << ", rank " << rho;
      llvm::json::Value v = *llvm::json::parse(o.driver);
      const llvm::json::Array *index =
          v.getAsObject()->getArray("mirror_cp_index");
      ASSERT_TRUE(index);
      for (const llvm::json::Value &e : *index) {
        int64_t row = *e.getAsInteger();
        gathered.push_back(row);
        if (row < 0) {
          ++pads;
          continue;
        }
        ASSERT_LT(row, T);
        ++seen[row];
      }
      reverse.clear();
      for (const llvm::json::Value &e :
           *v.getAsObject()->getArray("mirror_cp_reverse_index"))
        reverse.push_back(*e.getAsInteger());
    }
    for (int64_t r = 0; r < T; ++r) {
      ASSERT_EQ(seen[r], 1) << "seed " << seed << ": row " << r;
      ASSERT_EQ(gathered.at(reverse[r]), r) << "seed " << seed;
    }
    EXPECT_EQ(pads, expectedPads) << "seed " << seed;
    ++checked;
  }
  EXPECT_EQ(checked, kSeeds);
}

/// A batch that breaks R7, R8 or R10 is refused by both, naming the rule
/// (and the sequence where there is one).
TEST(Variants, RuleBreakersRefusedByName) {
  ref::Batch base = ref::variantEdgeBatches().front();
  struct Case {
    const char *path;
    std::function<void(llvm::json::Object &)> change;
    const char *error;
  };
  auto config = [](llvm::json::Object &o) { return o.getObject("config"); };
  auto seq = [](llvm::json::Object &o, size_t i) {
    return (*o.getArray("sequences"))[i].getAsObject();
  };
  std::vector<Case> cases = {
      {"prompt_cp", [&](auto &o) { (*config(o))["cp_rank"] = 2; },
       "R7: cp_rank < cp_size (cp_rank = 2, cp_size = 2)"},
      {"prompt_cp", [&](auto &o) { (*config(o))["cp_size"] = 0; },
       "config: cp_size = 0 breaks cp_size >= 1 (R7)"},
      {"prompt_cp", [&](auto &o) { config(o)->erase("cp_size"); },
       "config: missing key 'cp_size' (path @prompt_cp needs it) (R7)"},
      {"prompt_cp_mirror", [&](auto &o) { (*config(o))["cp_rank"] = -1; },
       "config: cp_rank = -1 breaks cp_rank >= 0 (R7)"},
      {"prompt_yoco", [&](auto &o) { (*seq(o, 1))["data_len"] = 2; },
       "sequence 1: R8: seqlen_k <= data_len (k = 3, data_len = 2)"},
      {"prompt_yoco", [&](auto &o) { (*seq(o, 0))["data_len"] = 65; },
       "sequence 0: R8: data_len <= max_model_len (data_len = 65, max_model_len = 64)"},
      {"prompt_yoco",
       [&](auto &o) { (*config(o))["yoco_prefill_keep_tokens"] = -1; },
       "config: yoco_prefill_keep_tokens = -1 breaks "
       "yoco_prefill_keep_tokens >= 0 (R8)"},
      {"prompt_yoco_cp", [&](auto &o) { (*config(o))["cp_rank"] = 2; },
       "R7: cp_rank < cp_size (cp_rank = 2, cp_size = 2)"},
      {"prompt_yoco_cp", [&](auto &o) { config(o)->erase("cp_rank"); },
       "config: missing key 'cp_rank' (path @prompt_yoco_cp needs it) (R7)"},
      {"prompt_yoco_cp", [&](auto &o) { (*seq(o, 1))["data_len"] = 2; },
       "sequence 1: R8: seqlen_k <= data_len (k = 3, data_len = 2)"},
      {"prompt_yoco_cp",
       [&](auto &o) { config(o)->erase("yoco_prefill_keep_tokens"); },
       "config: missing key 'yoco_prefill_keep_tokens' (path "
       "@prompt_yoco_cp needs it) (R8)"},
  };
  for (const Case &c : cases) {
    llvm::json::Value json = ref::toJson(base);
    c.change(*json.getAsObject());
    Outcome o = run(c.path, json);
    EXPECT_EQ(o.error, c.error) << c.path;
    // The generated code refuses the same values in the same words (a
    // key left out is the parser's to name: the driver gets values).
    llvm::Expected<Batch> loose = parseBatch(test::v4Spec(), json);
    if (!loose) {
      llvm::consumeError(loose.takeError());
      continue;
    }
    if (llvm::StringRef(c.error).contains("missing key"))
      continue;
    std::string text;
    std::string name = c.path;
    ASSERT_NE(toDriverArgs(test::v4Spec(), *loose)
                  .run(imeta_driver_run, name.c_str(),
                       int32_t(loose->sequences.size()), 0, text),
              0)
        << c.path << ": the driver accepts " << c.error;
    EXPECT_EQ(text, std::string(c.error).substr(0, text.size())) << c.path;
  }
  // R9: a token outside the table, an empty table, a negative entry.
  ref::Batch e = ref::randomEngramBatch(3);
  llvm::json::Value ej = ref::toJson(e);
  (*seq(*ej.getAsObject(), 0)->getArray("token_ids"))[0] =
      int64_t(e.config.lookupTable.size());
  const size_t tokens = seq(*ej.getAsObject(), 0)->getArray("token_ids")->size();
  EXPECT_EQ(run("prompt_engram", ej).error,
            "sequence 0: R9: every token_ids entry lies in [0, "
            "len(engram_lookup_table)) (len(token_ids) = " +
                std::to_string(tokens) + ", len(engram_lookup_table) = " +
                std::to_string(e.config.lookupTable.size()) + ")");
  ej = ref::toJson(e);
  (*config(*ej.getAsObject()))["engram_lookup_table"] = llvm::json::Array{};
  EXPECT_EQ(run("prompt_engram", ej).error,
            "R9: engram_lookup_table is not empty (len(engram_lookup_table) "
            "= 0)");
  ej = ref::toJson(e);
  (*config(*ej.getAsObject()))["engram_lookup_table"] =
      llvm::json::Array{3, -1};
  EXPECT_EQ(run("prompt_engram", ej).error,
            "config: engram_lookup_table[1] = -1 breaks engram_lookup_table "
            ">= 0 (R9)");
  ej = ref::toJson(e);
  (*config(*ej.getAsObject()))["max_ngram_size"] = 0;
  EXPECT_EQ(run("prompt_engram", ej).error,
            "config: max_ngram_size = 0 breaks max_ngram_size >= 1 (R9)");
  // A sequence without data_len, for the path that needs it.
  llvm::json::Value json = ref::toJson(base);
  seq(*json.getAsObject(), 1)->erase("data_len");
  EXPECT_EQ(run("prompt_yoco", json).error,
            "sequence 1: missing key 'data_len' (path @prompt_yoco needs it) "
            "(R8)");
  // The prompt path ignores the variants' keys, present or not.
  EXPECT_EQ(run("prompt", json).error, "");
}

TEST(Variants, DecodeVarlenRefusesTooManyDrafts) {
  ref::Batch b = ref::randomBatch(ref::PathKind::Decode, 5);
  int64_t maxQ = 0;
  for (const ref::Sequence &s : b.sequences)
    maxQ = std::max(maxQ, s.seqlenQ);
  b.config.nextn = maxQ - 2;
  Outcome o = run("decode_varlen", ref::toJson(b));
  if (maxQ >= 2) {
    EXPECT_NE(o.error.find("R10: seqlen_q <= nextn + 1"), std::string::npos)
        << o.error;
  }
  b.config.nextn = maxQ - 1;
  EXPECT_EQ(run("decode_varlen", ref::toJson(b)).error, "");
}

//===----------------------------------------------------------------------===//
// decode_async (SPEC-async.md)
//===----------------------------------------------------------------------===//

/// SPEC-async.md §3 by hand: sequence i of the step as the SPEC.md decode
/// sequence read from the state at its slot (slot -1: q = k = 1, token 0,
/// state 0, num_blocks(i) zero block ids).
ref::Batch resolveAsync(const ref::AsyncBatch &a) {
  ref::Batch b;
  b.config = a.config;
  const ref::AsyncState &st = a.state;
  for (const ref::AsyncSequence &q : a.sequences) {
    ref::Sequence s{};
    s.isPlaceholder = q.isPlaceholder;
    s.swaValidStart = 0;
    if (q.slot < 0) {
      s.seqlenQ = 1;
      s.seqlenK = 1;
      s.tokenIds.assign(1, 0);
      s.stateId = 0;
      s.blockTable.assign(size_t(ref::numBlocks(a.config, 1)), 0);
    } else {
      size_t slot = size_t(q.slot);
      int64_t drafts = st.numDrafts.at(slot);
      s.seqlenQ = 1 + drafts;
      s.seqlenK = st.numComputed.at(slot) + s.seqlenQ;
      s.tokenIds.assign(1, st.lastToken.at(slot));
      s.draftTokens.assign(st.draftTokens.at(slot).begin(),
                           st.draftTokens.at(slot).begin() + drafts);
      s.stateId = st.stateId.at(slot);
      s.blockTable = st.blockTable.at(slot);
    }
    b.sequences.push_back(std::move(s));
  }
  return b;
}

/// One path on both backends, each answer on its own: the evaluator's
/// field file or refusal; the driver's, from the parsed batch or (where
/// the evaluator's parser refuses the file) from its raw values.
struct Answers {
  bool evalOk = false, driverOk = false, driverRan = false;
  std::string evaluator, driver;
};

Answers answer(llvm::StringRef pathName, const llvm::json::Value &json) {
  SpecOp spec = test::v4Spec();
  PathOp path = test::v4Path(pathName);
  Answers a;
  std::string name = pathName.str();
  int32_t n = int32_t(json.getAsObject()->getArray("sequences")->size());
  llvm::Expected<Batch> batch = parseBatch(spec, json, path);
  if (!batch) {
    a.evaluator = llvm::toString(batch.takeError());
    if (std::optional<runtime::DriverArgs> raw =
            test::rawDriverArgs(spec, path, *json.getAsObject())) {
      a.driverRan = true;
      a.driverOk = raw->run(imeta_driver_run, name.c_str(), n, 0, a.driver) == 0;
    }
    return a;
  }
  Evaluator ev(spec, *batch);
  if (llvm::Error err = ev.checkPath(path)) {
    a.evaluator = llvm::toString(std::move(err));
  } else if (auto outputs = ev.evaluatePath(path)) {
    a.evalOk = true;
    llvm::raw_string_ostream os(a.evaluator);
    printFieldFile(os, *outputs);
  } else {
    a.evaluator = llvm::toString(outputs.takeError());
  }
  a.driverRan = true;
  a.driverOk = toDriverArgs(spec, *batch).run(imeta_driver_run, name.c_str(),
                                              n, 0, a.driver) == 0;
  return a;
}

/// Saves `json` as /tmp/async-repro-NAME.json (a disagreement's
/// reproducer); its path.
std::string saveRepro(const std::string &name, const llvm::json::Value &json) {
  std::string file = "/tmp/async-repro-" + name + ".json";
  if (FILE *f = std::fopen(file.c_str(), "w")) {
    std::string text = llvm::formatv("{0:2}", json).str();
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  return file;
}

/// SPEC-async.md §5's example, its resolved values as the page gives them.
TEST(DecodeAsync, WorkedExample) {
  ref::AsyncBatch a;
  a.config = {/*blockSize=*/8, /*windowSize=*/4, /*swaBlockSize=*/7,
              /*maxModelLen=*/64, /*maxNumBlocks=*/8, {4}, {2},
              /*forceLoadBalance=*/false};
  a.config.nextn = 2;
  a.state.numComputed = {10, 0, 3};
  a.state.lastToken = {501, 7, 42};
  a.state.numDrafts = {2, 0, 1};
  a.state.draftTokens = {{601, 602}, {0, 0}, {77, 0}};
  a.state.stateId = {4, 0, 2};
  a.state.blockTable = {{5, 9}, {}, {3}};
  a.sequences = {{2, false, false}, {0, false, false}, {-1, true, true}};
  ref::Fields want = ref::decodeVarlen(resolveAsync(a));
  EXPECT_EQ(want["seqlens_q"].data, (std::vector<int64_t>{2, 3, 1}));
  EXPECT_EQ(want["cu_seqlens_q"].data, (std::vector<int64_t>{2, 5, 6}));
  EXPECT_EQ(want["positions"].data,
            (std::vector<int64_t>{3, 4, 10, 11, 12, 0}));
  EXPECT_EQ(want["input_ids"].data,
            (std::vector<int64_t>{42, 77, 501, 601, 602, 0}));
  Answers got = answer("decode_async", ref::toJson(a));
  ASSERT_TRUE(got.evalOk) << got.evaluator;
  ASSERT_TRUE(got.driverOk) << got.driver;
  expectFields(got.evaluator, want, "evaluator");
  expectFields(got.driver, want, "generated CPU code");
}

/// Several hundred valid random slotted batches: decode_async's field
/// file, on the evaluator and on the generated CPU code, is the
/// evaluator's decode_varlen field file of the batch resolved by hand
/// (SPEC-async.md §3), and SPEC-variants.md's decode_varlen by hand.
TEST(DecodeAsync, EqualsDecodeVarlenOfTheResolvedBatch) {
  constexpr int kValid = 600;
  auto start = std::chrono::steady_clock::now();
  int checked = 0, unreadBad = 0, minusOne = 0, placeholderAtSlot = 0,
      repeated = 0, zeroComputed = 0, atMaxLen = 0, noBlocks = 0;
  std::map<int64_t, int> byNextn;
  for (uint64_t seed = 0; checked < kValid; ++seed) {
    ref::AsyncBatch a = ref::randomAsyncBatch(seed);
    if (*a.brokenRule())
      continue;
    unreadBad += a.broken == ref::AsyncBreak::UnreadBadValue;
    ++byNextn[a.config.nextn];
    std::set<int64_t> seen;
    for (const ref::AsyncSequence &q : a.sequences) {
      minusOne += q.slot < 0;
      placeholderAtSlot += q.slot >= 0 && q.isPlaceholder;
      repeated += q.slot >= 0 && !seen.insert(q.slot).second;
    }
    ref::Batch resolved = resolveAsync(a);
    for (const ref::Sequence &s : resolved.sequences) {
      zeroComputed += s.seqlenK == s.seqlenQ;
      atMaxLen += s.seqlenK == a.config.maxModelLen;
      noBlocks += ref::numBlocks(a.config, s.seqlenK) == 0;
    }
    llvm::json::Value json = ref::toJson(a);
    llvm::json::Value resolvedJson = ref::toJson(resolved);
    std::string what = llvm::formatv("seed {0}, batch {1}, resolved {2}", seed,
                                     json, resolvedJson)
                           .str();
    SCOPED_TRACE(what);
    Answers async = answer("decode_async", json);
    Answers varlen = answer("decode_varlen", resolvedJson);
    ASSERT_TRUE(varlen.evalOk) << varlen.evaluator;
    ASSERT_TRUE(async.evalOk)
        << "evaluator refuses a valid batch: " << async.evaluator << " ("
        << saveRepro("refused-" + std::to_string(seed), json) << ")";
    ASSERT_TRUE(async.driverOk)
        << "driver refuses a valid batch: " << async.driver << " ("
        << saveRepro("driver-refused-" + std::to_string(seed), json) << ")";
    EXPECT_EQ(async.evaluator, varlen.evaluator)
        << "evaluator: decode_async differs from decode_varlen of the "
           "resolved batch";
    if (async.driver != async.evaluator)
      ADD_FAILURE() << "driver and evaluator differ on decode_async ("
                    << saveRepro("fields-" + std::to_string(seed), json)
                    << "): "
                    << llvm::formatv("driver {0}\nevaluator {1}",
                                     async.driver, async.evaluator)
                           .str();
    expectFields(async.evaluator, ref::decodeVarlen(resolved),
                 "evaluator against SPEC-variants.md by hand");
    if (HasFailure())
      return;
    ++checked;
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::printf("%d valid decode_async batches (%d with bad values at unread "
              "slots): %d padding placeholders, %d placeholders at a slot, "
              "%d repeated slots, %d sequences with s = 0, %d with k = "
              "max_model_len, %d with no block; %.2f s\n",
              checked, unreadBad, minusOne, placeholderAtSlot, repeated,
              zeroComputed, atMaxLen, noBlocks, seconds);
  // The generator reaches every shape it is meant to.
  for (int64_t nextn = 0; nextn <= 3; ++nextn)
    EXPECT_GT(byNextn[nextn], kValid / 8) << "nextn " << nextn;
  EXPECT_GT(unreadBad, 0);
  EXPECT_GT(minusOne, kValid / 4);
  EXPECT_GT(placeholderAtSlot, kValid / 4);
  EXPECT_GT(repeated, kValid / 4);
  EXPECT_GT(zeroComputed, kValid / 4);
  EXPECT_GT(atMaxLen, kValid / 8);
}

/// A state value the evaluator's parser refuses (out of int32, a key left
/// out, an array of another length), given to the driver through its C
/// ABI as it is: refused in the evaluator's words (SPEC-async.md §4).
TEST(DecodeAsync, RawStateValuesRefusedInTheSameWords) {
  const int64_t big = int64_t(1) << 31;
  struct Case {
    const char *what;
    std::function<void(llvm::json::Object &)> change;
  };
  auto state = [](llvm::json::Object &o) { return o.getObject("state"); };
  auto row = [&](llvm::json::Object &o, const char *key, size_t slot) {
    return (*state(o)->getArray(key))[slot].getAsArray();
  };
  std::vector<Case> cases = {
      {"state_id out of int32",
       [&](auto &o) { (*state(o)->getArray("state_id"))[1] = big; }},
      {"num_drafts out of int32",
       [&](auto &o) { (*state(o)->getArray("num_drafts"))[0] = big; }},
      {"num_computed out of int32",
       [&](auto &o) { (*state(o)->getArray("num_computed"))[2] = -big - 1; }},
      {"last_token out of int32",
       [&](auto &o) { (*state(o)->getArray("last_token"))[1] = big; }},
      {"block id out of int32",
       [&](auto &o) { (*row(o, "block_table", 2))[0] = big; }},
      {"draft token out of int32",
       [&](auto &o) { (*row(o, "draft_tokens", 1))[1] = big; }},
      {"num_drafts left out",
       [&](auto &o) { state(o)->erase("num_drafts"); }},
      {"block_table left out",
       [&](auto &o) { state(o)->erase("block_table"); }},
      {"slots outside in two sequences",
       [&](auto &o) {
         (*(*o.getArray("sequences"))[0].getAsObject())["slot"] = 5;
         (*(*o.getArray("sequences"))[2].getAsObject())["slot"] = -2;
       }},
      {"one slot more out of int32",
       [&](auto &o) { state(o)->getArray("last_token")->push_back(big); }},
  };
  // SPEC-async.md §5's example.
  const char *example = R"({"config": {"block_size": 8, "window_size": 4,
      "swa_block_size": 7, "dense_ratios": [4], "sparse_ratios": [2],
      "max_model_len": 64, "max_num_blocks": 8, "force_load_balance": false,
      "nextn": 2},
    "state": {"num_computed": [10, 0, 3], "last_token": [501, 7, 42],
      "num_drafts": [2, 0, 1], "draft_tokens": [[601, 602], [0, 0], [77, 0]],
      "state_id": [4, 0, 2], "block_table": [[5, 9], [], [3]]},
    "sequences": [{"slot": 2}, {"slot": 0},
                  {"slot": -1, "is_placeholder": true}]})";
  for (const Case &c : cases) {
    llvm::Expected<llvm::json::Value> json = llvm::json::parse(example);
    ASSERT_TRUE(bool(json)) << llvm::toString(json.takeError());
    c.change(*json->getAsObject());
    Answers got = answer("decode_async", *json);
    EXPECT_FALSE(got.evalOk) << c.what;
    ASSERT_TRUE(got.driverRan) << c.what;
    EXPECT_FALSE(got.driverOk) << c.what;
    std::string name = c.what;
    std::replace(name.begin(), name.end(), ' ', '-');
    if (got.driver != got.evaluator)
      ADD_FAILURE() << c.what << ": driver '" << got.driver
                    << "', evaluator '" << got.evaluator << "' ("
                    << saveRepro(name, *json) << ")";
  }
}

/// Two sequences (or one, twice) whose resolved inputs break R3: a
/// negative state id, a negative block id, k > max_model_len or a block
/// table shorter than num_blocks(k), at the slots they read. SPEC-async.md
/// §4: the error names the sequence and the rule as decode_varlen's does
/// on the resolved batch; the generated code says the same.
TEST(DecodeAsync, TwoBrokenSequencesNamedAsDecodeVarlen) {
  constexpr int kBatches = 400;
  int checked = 0, asVarlen = 0, driverSame = 0, driverAsVarlen = 0;
  bool savedVarlen = false, savedDriver = false;
  std::mt19937_64 rng(2718);
  for (uint64_t seed = 0; checked < kBatches; ++seed) {
    ref::AsyncBatch a = ref::randomAsyncBatch(seed + 50000);
    if (a.broken != ref::AsyncBreak::None)
      continue;
    std::vector<size_t> reading;
    for (size_t i = 0; i < a.sequences.size(); ++i)
      if (a.sequences[i].slot >= 0)
        reading.push_back(i);
    if (reading.empty())
      continue;
    ref::AsyncState &st = a.state;
    for (int b = 0; b < 2; ++b) {
      size_t slot = size_t(a.sequences[reading[rng() % reading.size()]].slot);
      std::vector<int64_t> &row = st.blockTable[slot];
      int64_t nb = ref::numBlocks(a.config, st.numComputed[slot] + 1 +
                                                st.numDrafts[slot]);
      switch (rng() % 4) {
      case 0:
        st.stateId[slot] = -1 - int64_t(rng() % 3);
        break;
      case 1:
        if (row.empty())
          row.push_back(-1);
        else
          row[rng() % row.size()] = -1 - int64_t(rng() % 3);
        break;
      case 2:
        st.numComputed[slot] = a.config.maxModelLen - st.numDrafts[slot];
        break;
      default:
        if (nb >= 1)
          row.resize(size_t(nb - 1));
        else
          st.stateId[slot] = -1;
        break;
      }
    }
    ref::Batch resolved = resolveAsync(a);
    llvm::json::Value json = ref::toJson(a);
    Answers async = answer("decode_async", json);
    Answers varlen = answer("decode_varlen", ref::toJson(resolved));
    SCOPED_TRACE(llvm::formatv("seed {0}, batch {1}", seed + 50000, json).str());
    ASSERT_FALSE(varlen.evalOk);
    ASSERT_FALSE(async.evalOk);
    ++checked;
    driverAsVarlen += async.driver == varlen.evaluator;
    if (async.evaluator == varlen.evaluator) {
      ++asVarlen;
    } else if (!savedVarlen) {
      savedVarlen = true;
      ADD_FAILURE() << "the evaluator's decode_async refusal '"
                    << async.evaluator << "' is not decode_varlen's '"
                    << varlen.evaluator << "' on the resolved batch ("
                    << saveRepro("two-breaks-evaluator", json) << ")";
    }
    if (async.driver == async.evaluator) {
      ++driverSame;
    } else if (!savedDriver) {
      savedDriver = true;
      ADD_FAILURE() << "refusals differ: driver '" << async.driver
                    << "', evaluator '" << async.evaluator << "' ("
                    << saveRepro("two-breaks-driver", json) << ")";
    }
  }
  EXPECT_EQ(asVarlen, checked)
      << "evaluator: decode_async named otherwise than decode_varlen";
  EXPECT_EQ(driverSame, checked) << "driver and evaluator named otherwise";
  std::printf("%d batches broken twice: the evaluator as decode_varlen on "
              "%d, the driver as the evaluator on %d, as decode_varlen on "
              "%d\n",
              checked, asVarlen, driverSame, driverAsVarlen);
}

/// Random batches breaking a rule on purpose: both refuse them, naming the
/// rule, in the same words; a bad value at a slot no sequence reads is
/// accepted (R11 checks only the slots read) and changes nothing.
TEST(DecodeAsync, RuleBreakersRefusedInTheSameWords) {
  constexpr uint64_t kSeeds = 4000;
  std::map<ref::AsyncBreak, int> refused;
  int carried = 0;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    ref::AsyncBatch a = ref::randomAsyncBatch(seed);
    if (a.broken == ref::AsyncBreak::None)
      continue;
    llvm::json::Value json = ref::toJson(a);
    SCOPED_TRACE(llvm::formatv("seed {0}, break {1}, batch {2}", seed,
                               int(a.broken), json)
                     .str());
    Answers got = answer("decode_async", json);
    if (a.broken == ref::AsyncBreak::UnreadBadValue) {
      EXPECT_TRUE(got.evalOk) << got.evaluator;
      EXPECT_TRUE(got.driverOk)
          << got.driver << " ("
          << saveRepro("unread-" + std::to_string(seed), json) << ")";
      if (got.evalOk && got.driverOk && got.driver != got.evaluator)
        ADD_FAILURE() << "field files differ ("
                      << saveRepro("unread-" + std::to_string(seed), json)
                      << ")";
      ++refused[a.broken];
      continue;
    }
    std::string rule = a.brokenRule();
    EXPECT_FALSE(got.evalOk) << "the evaluator accepts a batch breaking "
                             << rule;
    EXPECT_NE(got.evaluator.find(rule), std::string::npos)
        << "the evaluator's refusal '" << got.evaluator << "' names no "
        << rule;
    if (got.driverRan) {
      ++carried;
      if (got.driverOk)
        ADD_FAILURE() << "the driver accepts a batch the evaluator refuses ('"
                      << got.evaluator << "') ("
                      << saveRepro("accepted-" + std::to_string(seed), json)
                      << ")";
      else if (got.driver != got.evaluator)
        ADD_FAILURE() << "refusals differ: driver '" << got.driver
                      << "', evaluator '" << got.evaluator << "' ("
                      << saveRepro("refusal-" + std::to_string(seed), json)
                      << ")";
    }
    ++refused[a.broken];
  }
  std::printf("decode_async rule breakers of %d seeds (%d through the "
              "driver):",
              int(kSeeds), carried);
  for (auto [kind, count] : refused)
    std::printf(" %d:%d", int(kind), count);
  std::printf("\n");
  for (int kind = int(ref::AsyncBreak::SlotOutOfRange);
       kind <= int(ref::AsyncBreak::UnreadBadValue); ++kind)
    EXPECT_GT(refused[ref::AsyncBreak(kind)], 0) << "break " << kind;
}

} // namespace
