//===- VariantsTest.cpp - the variant paths against SPEC-variants.md ------===//
//
// The variant paths of specs/deepinfer_v4.mlir (prompt_cp and its GPU
// mirror, prompt_yoco, prompt_yoco_cp, prompt_engram, decode_varlen) on
// the reference evaluator and the generated CPU code (through the
// driver), each compared field by field with ReferenceVariants
// (SPEC-variants.md by hand) on random batches and the edge batches of
// §8; the mirrors of all ranks together cover every row once, and their
// boundary indices find every kept row; batches breaking R7, R8 or R10
// are refused by name.
//
//===----------------------------------------------------------------------===//

#include "RandomBatch.h"
#include "RandomBatchJson.h"
#include "ReferenceVariants.h"
#include "V4Spec.h"

#include "lib/Eval/Batch.h"
#include "lib/Eval/DriverValues.h"
#include "lib/Eval/Evaluator.h"
#include "lib/Eval/FieldJson.h"
#include "runtime/DriverAbi.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

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
  if (llvm::Error err = ev.checkRules(path)) {
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
       "R7: cp_rank < cp_size"},
      {"prompt_cp", [&](auto &o) { (*config(o))["cp_size"] = 0; },
       "config: cp_size = 0 breaks cp_size >= 1 (R7)"},
      {"prompt_cp", [&](auto &o) { config(o)->erase("cp_size"); },
       "config: missing key 'cp_size' (path @prompt_cp needs it) (R7)"},
      {"prompt_cp_mirror", [&](auto &o) { (*config(o))["cp_rank"] = -1; },
       "config: cp_rank = -1 breaks cp_rank >= 0 (R7)"},
      {"prompt_yoco", [&](auto &o) { (*seq(o, 1))["data_len"] = 2; },
       "sequence 1: R8: seqlen_k <= data_len"},
      {"prompt_yoco", [&](auto &o) { (*seq(o, 0))["data_len"] = 65; },
       "sequence 0: R8: data_len <= max_model_len"},
      {"prompt_yoco",
       [&](auto &o) { (*config(o))["yoco_prefill_keep_tokens"] = -1; },
       "config: yoco_prefill_keep_tokens = -1 breaks "
       "yoco_prefill_keep_tokens >= 0 (R8)"},
      {"prompt_yoco_cp", [&](auto &o) { (*config(o))["cp_rank"] = 2; },
       "R7: cp_rank < cp_size"},
      {"prompt_yoco_cp", [&](auto &o) { config(o)->erase("cp_rank"); },
       "config: missing key 'cp_rank' (path @prompt_yoco_cp needs it) (R7)"},
      {"prompt_yoco_cp", [&](auto &o) { (*seq(o, 1))["data_len"] = 2; },
       "sequence 1: R8: seqlen_k <= data_len"},
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
  EXPECT_EQ(run("prompt_engram", ej).error,
            "sequence 0: R9: every token_ids entry lies in [0, "
            "len(engram_lookup_table))");
  ej = ref::toJson(e);
  (*config(*ej.getAsObject()))["engram_lookup_table"] = llvm::json::Array{};
  EXPECT_EQ(run("prompt_engram", ej).error,
            "R9: engram_lookup_table is not empty");
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

} // namespace
