//===- BackendAgreementTest.cpp - evaluator and generated driver agree ----===//
//
// imeta-run's two answers for one batch: the reference evaluator's (parse,
// rules, then the fields) and the generated code's through its driver (the
// C ABI `--backend cpu` loads, linked in here). On valid random batches and
// on broken ones (a key replaced, removed or added; one number set to an
// edge value or its neighbour's plus or minus one), every path of the V4
// spec must give the same text: the same field file, or the same error. A
// batch the evaluator's parser refuses goes to the driver as its raw values
// (out of int32, negative), which the driver must refuse in the same words.
// Some seeds, and a test of their own, are decode_async batches (request
// state read at each sequence's slot, SPEC-async.md), their `state` object
// changed like the rest. A GPU path with a device stage runs a third
// time, its host stage as the device runs it (one lane): the CPU run's
// exact text.
//
//===----------------------------------------------------------------------===//

#include "BatchMutation.h"
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

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>

using namespace imeta;
using mlir::Operation;
using mlir::SymbolTable;
using llvm::isa;
using llvm::cast;
using llvm::StringRef;

namespace {

/// Batches per run; IMETA_AGREEMENT_SEEDS asks for more (a longer search,
/// e.g. under the sanitizers).
int numSeeds() {
  const char *env = std::getenv("IMETA_AGREEMENT_SEEDS");
  return env && std::atoi(env) > 0 ? std::atoi(env) : 1200;
}

/// What one backend answered: a field file, or an error.
struct Answer {
  bool ok = false;
  std::string text;
};

Answer evaluator(SpecOp spec, PathOp path, const Batch &batch) {
  Evaluator ev(spec, batch);
  if (llvm::Error err = ev.checkPath(path))
    return {false, llvm::toString(std::move(err))};
  auto outputs = ev.evaluatePath(path);
  if (!outputs)
    return {false, llvm::toString(outputs.takeError())};
  Answer a{true, ""};
  llvm::raw_string_ostream os(a.text);
  printFieldFile(os, *outputs);
  return a;
}

/// `gpu` 2: on the CPU with a GPU path's host stage run as its device
/// stage runs it (one lane).
Answer driver(const runtime::DriverArgs &args, PathOp path, size_t numSeqs,
              int gpu = 0) {
  Answer a;
  std::string name = path.getSymName().str();
  a.ok = args.run(imeta_driver_run, name.c_str(), int32_t(numSeqs), gpu,
                  a.text) == 0;
  return a;
}

/// Whether the driver's answer is that `path` has no device stage.
bool noStage(const Answer &a, PathOp path) {
  return !a.ok && llvm::StringRef(a.text).starts_with(
                      ("path '" + path.getSymName() + "' has no ").str());
}

/// The first line where `a` and `b` differ, each cut to 200 characters.
std::string firstDifference(llvm::StringRef a, llvm::StringRef b) {
  llvm::SmallVector<llvm::StringRef> as, bs;
  a.split(as, '\n');
  b.split(bs, '\n');
  for (size_t k = 0; k < std::max(as.size(), bs.size()); ++k) {
    llvm::StringRef x = k < as.size() ? as[k] : "", y = k < bs.size() ? bs[k] : "";
    if (x != y)
      return llvm::formatv("line {0}: '{1}' vs '{2}'", k + 1, x.take_front(200),
                           y.take_front(200))
          .str();
  }
  return "";
}

/// The evaluator's message without the context it adds as it descends
/// (`output 'O': field 'A' (bucket n of 'S'): ...`): from its innermost field on,
/// which is what the generated code, fusing every field, can name.
llvm::StringRef innermost(llvm::StringRef message) {
  size_t at = message.rfind("field '");
  return at == llvm::StringRef::npos ? message : message.drop_front(at);
}

/// The rule a message ends with (" (R6)"), or "".
llvm::StringRef ruleTag(llvm::StringRef message) {
  size_t at = message.rfind(" (R");
  return message.ends_with(")") && at != llvm::StringRef::npos
             ? message.drop_front(at)
             : "";
}

/// Whether `a` is a tool's refusal to hold a batch's values (not a rule
/// of SPEC.md: the evaluator and the driver each cap what they hold).
bool tooLarge(const Answer &a) {
  llvm::StringRef t = a.text;
  return !a.ok && (t.contains("more than the driver holds") ||
                   t.contains("the reference evaluator holds") ||
                   t.contains("the reference evaluator stops here"));
}

/// Counts of the outcomes, and the comparison of two refusals.
struct Tally {
  int accepted = 0, sameError = 0, otherFirstFailure = 0, tooLargeForATool = 0,
      unparsed = 0;
  /// Runs of a GPU path's device stage (one lane) that gave the CPU run's
  /// exact answer, field files and refusals.
  int stagedAccepted = 0, stagedRefused = 0;

  /// The device stage's run must answer exactly as the host stage's.
  void staged(const std::string &context, const Answer &got,
              const Answer &cpu, const llvm::json::Value &json) {
    ASSERT_EQ(got.ok, cpu.ok)
        << context << ": host stage '" << (cpu.ok ? "accepts" : cpu.text)
        << "', device stage '" << (got.ok ? "accepts" : got.text)
        << "'; batch " << llvm::formatv("{0}", json).str();
    ASSERT_TRUE(got.text == cpu.text)
        << context << ": host stage and device stage differ, "
        << firstDifference(got.text, cpu.text) << "; batch "
        << llvm::formatv("{0}", json).str();
    ++(got.ok ? stagedAccepted : stagedRefused);
  }

  /// Both refused the batch (changed `changes` times). The driver names
  /// the evaluator's failure; or another failure the batch also has, met
  /// first in the driver's order: one of two changes (the driver checks
  /// input by input, the evaluator sequence by sequence), or one value
  /// that breaks two formulas (the generated code fuses the fields), which
  /// are then two fields under the same rule.
  void refused(const std::string &context, int changes, const Answer &got,
               const Answer &want) {
    if (got.text == innermost(want.text)) {
      ++sameError;
      return;
    }
    // A sequence's needed input left out reaches the driver's ABI as its
    // zero (the ABI has no per-sequence absence); the driver refuses the
    // zero under the same rule.
    if (llvm::StringRef(want.text).contains("needs it)") &&
        llvm::StringRef(want.text).starts_with("sequence ") &&
        ruleTag(got.text) == ruleTag(want.text)) {
      ++otherFirstFailure;
      return;
    }
    if (changes < 2) {
      EXPECT_TRUE(llvm::StringRef(got.text).starts_with("field '") &&
                  innermost(want.text).starts_with("field '") &&
                  ruleTag(got.text) == ruleTag(want.text))
          << context << ": driver '" << got.text << "', evaluator '"
          << want.text << "'";
    }
    ++otherFirstFailure;
  }
};

/// Changes batch `json` `changes` times (drawing from `rng`), then runs it
/// on every path it was made for (those that parse it before the changes)
/// on the evaluator and the generated driver: the same field file, or the
/// same refusal, counted in `tally`. `broken`: the batch breaks a rule
/// before the changes (a random decode_async batch may), which counts as
/// one change more; such a batch is made for path `forPath`.
void agree(SpecOp spec, uint64_t seed, llvm::json::Value json, int changes,
           bool broken, std::mt19937_64 &rng, Tally &tally,
           llvm::StringRef forPath = "") {
  // The paths the batch is made for: those whose optional keys it gives.
  llvm::DenseSet<Operation *> madeFor;
  for (auto path : spec.getBody().front().getOps<PathOp>()) {
    if (path.getSymName() == forPath) {
      madeFor.insert(path);
      continue;
    }
    llvm::Expected<Batch> parsed = parseBatch(spec, json, path);
    if (parsed)
      madeFor.insert(path);
    else
      llvm::consumeError(parsed.takeError());
  }
  // A staged run keeps its proof box across runs, as a device step does:
  // the batch before its changes makes one (for its configuration), so
  // that the changed batch, where it keeps the configuration and its
  // proof leaves lie within the box, runs unchecked on the box's word
  // alone, and must still answer as the CPU.
  if (changes > 0)
    for (auto path : spec.getBody().front().getOps<PathOp>()) {
      if (!madeFor.contains(path))
        continue;
      llvm::Expected<Batch> before = parseBatch(spec, json, path);
      if (!before) {
        llvm::consumeError(before.takeError());
        continue;
      }
      (void)driver(toDriverArgs(spec, *before), path,
                   before->sequences.size(), 2);
    }
  for (int m = 0; m < changes; ++m) {
    if (rng() % 3 == 0)
      test::mutateKey(*json.getAsObject(), rng);
    else
      test::mutateElement(*json.getAsObject(), rng);
  }
  size_t n = json.getAsObject()->getArray("sequences")->size();
  // A batch with request state the backends disagree on is kept as
  // /tmp/async-repro-agreement-SEED.json.
  const testing::TestResult *result =
      testing::UnitTest::GetInstance()->current_test_info()->result();
  const int failuresBefore = result->total_part_count();
  llvm::scope_exit keepRepro([&] {
    if (result->total_part_count() == failuresBefore ||
        !json.getAsObject()->get("state"))
      return;
    std::string file =
        llvm::formatv("/tmp/async-repro-agreement-{0}.json", seed).str();
    if (FILE *f = std::fopen(file.c_str(), "w")) {
      std::string text = llvm::formatv("{0:2}", json).str();
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    }
  });
  // Each path reads the batch for itself: the optional keys it needs
  // are required, the others ignored.
  bool unparsed = false;
  for (auto path : spec.getBody().front().getOps<PathOp>()) {
    if (!madeFor.contains(path))
      continue; // a batch without the keys the path needs
    std::string context =
        llvm::formatv("seed {0}, path {1}", seed, path.getSymName()).str();
    llvm::Expected<Batch> batch = parseBatch(spec, json, path);
    if (!batch) {
      // The evaluator refuses the file; the driver gets its values as
      // they are, where its C ABI can carry them, and must refuse them
      // too.
      Answer want{false, llvm::toString(batch.takeError())};
      std::optional<runtime::DriverArgs> raw =
          test::rawDriverArgs(spec, path, *json.getAsObject());
      if (!raw) {
        unparsed = true;
        continue;
      }
      Answer got = driver(*raw, path, n);
      if (Answer st = driver(*raw, path, n, 2); !noStage(st, path)) {
        tally.staged(context, st, got, json);
        if (testing::Test::HasFatalFailure())
          return;
      }
      ASSERT_FALSE(got.ok) << context << ": the evaluator refuses the batch ('"
                           << want.text << "'), the driver accepts it; batch "
                           << llvm::formatv("{0}", json).str();
      tally.refused(context, changes + broken, got, want);
      continue;
    }
    runtime::DriverArgs args = toDriverArgs(spec, *batch);
    Answer want = evaluator(spec, path, *batch);
    Answer got = driver(args, path, batch->sequences.size());
    if (Answer st = driver(args, path, batch->sequences.size(), 2);
        !noStage(st, path)) {
      tally.staged(context, st, got, json);
      if (testing::Test::HasFatalFailure())
        return;
    }
    // A batch too large for either tool to hold (a column count near
    // INT32_MAX) is refused by each in its own words.
    if (tooLarge(want) || tooLarge(got)) {
      ++tally.tooLargeForATool;
      continue;
    }
    ASSERT_EQ(got.ok, want.ok)
        << context << ": evaluator '" << (want.ok ? "accepts" : want.text)
        << "', driver '" << (got.ok ? "accepts" : got.text) << "'; batch "
        << llvm::formatv("{0}", json).str();
    if (!got.ok) {
      tally.refused(context, changes + broken, got, want);
      continue;
    }
    ASSERT_TRUE(got.text == want.text)
        << context << ": field files differ, "
        << firstDifference(got.text, want.text) << "; batch "
        << llvm::formatv("{0}", json).str();
    ++tally.accepted;
  }
  tally.unparsed += unparsed;
}

TEST(BackendAgreement, EvaluatorAndGeneratedDriverGiveTheSameText) {
  SpecOp spec = test::v4Spec();
  ASSERT_TRUE(spec);
  Tally tally;
  const int seeds = numSeeds();
  for (uint64_t seed = 0; seed < uint64_t(seeds); ++seed) {
    std::mt19937_64 rng(seed);
    auto kind = seed % 2 ? ref::PathKind::Decode : ref::PathKind::Prompt;
    // One decode seed in four is a decode_async batch (request state by
    // slot, SPEC-async.md), one in four of those left unchanged. One
    // prompt batch in two carries the Engram keys (one valid batch in
    // two, one changed batch in four).
    const bool async = seed % 8 == 5;
    std::optional<ref::AsyncBatch> slotted;
    if (async)
      slotted = ref::randomAsyncBatch(seed);
    llvm::json::Value json =
        async ? ref::toJson(*slotted)
              : ref::toJson(seed % 8 == 0 || seed % 8 == 2
                                ? ref::randomEngramBatch(seed)
                                : ref::randomBatch(kind, seed));
    // One batch in four stays valid; the others get one or two changes,
    // most of them a number (a key's change mostly stops at parsing).
    const int changes =
        (async ? (seed / 8) % 4 : seed % 4) ? 1 + int(rng() % 2) : 0;
    agree(spec, seed, std::move(json), changes,
          slotted && *slotted->brokenRule(), rng, tally,
          async ? "decode_async" : "");
    if (HasFatalFailure())
      return;
  }
  // Each outcome occurs often: the changes are neither all fatal nor all
  // harmless, and a refusal nearly always names the evaluator's failure.
  EXPECT_GT(tally.accepted, seeds * 5 / 6);
  EXPECT_GT(tally.sameError, seeds * 5 / 6);
  EXPECT_LT(tally.otherFirstFailure * 20, tally.sameError);
  EXPECT_LT(tally.unparsed, seeds / 4);
  // The device stages (decode, decode_zos, decode_varlen and the GPU
  // prompt paths) ran on accepted and on refused batches alike.
  EXPECT_GT(tally.stagedAccepted, seeds);
  EXPECT_GT(tally.stagedRefused, seeds / 2);
  std::printf("%d field files equal, %d refusals in the same words, %d "
              "refusals naming another failure of the batch, %d "
              "too large for a tool to hold, %d files the driver's C ABI "
              "cannot carry; device stage == host stage on %d field files "
              "and %d refusals\n",
              tally.accepted, tally.sameError, tally.otherFirstFailure,
              tally.tooLargeForATool, tally.unparsed, tally.stagedAccepted,
              tally.stagedRefused);
}

/// decode_async alone, on more batches than the test above gives it:
/// random slotted batches (SPEC-async.md; one in eight breaking R11, R3 or
/// R5 on purpose), one in four unchanged, the others changed once or twice
/// (the state's keys, slots and values among the changes).
TEST(BackendAgreement, DecodeAsyncEvaluatorAndDriverGiveTheSameText) {
  SpecOp spec = test::v4Spec();
  ASSERT_TRUE(spec);
  Tally tally;
  const int seeds = numSeeds() * 2;
  for (uint64_t seed = 0; seed < uint64_t(seeds); ++seed) {
    std::mt19937_64 rng(seed + 7000000);
    ref::AsyncBatch batch = ref::randomAsyncBatch(seed + 1000000);
    const int changes = seed % 4 ? 1 + int(rng() % 2) : 0;
    agree(spec, seed + 1000000, ref::toJson(batch), changes,
          *batch.brokenRule(), rng, tally, "decode_async");
    if (HasFatalFailure())
      return;
  }
  // One path a batch: most unchanged batches and harmless changes are
  // accepted, most changes refused in the evaluator's words.
  EXPECT_GT(tally.accepted, seeds / 4);
  EXPECT_GT(tally.sameError, seeds / 4);
  EXPECT_LT(tally.otherFirstFailure * 20, tally.sameError);
  EXPECT_LT(tally.unparsed, seeds / 4);
  std::printf("decode_async: %d field files equal, %d refusals in the same "
              "words, %d refusals naming another failure of the batch, %d "
              "too large for a tool to hold, %d files the driver's C ABI "
              "cannot carry\n",
              tally.accepted, tally.sameError, tally.otherFirstFailure,
              tally.tooLargeForATool, tally.unparsed);
}

} // namespace
