//===- FormulaEmitter.h - a field or rule body as C++ -----------*- C++ -*-===//
//
// Prints the body of an imeta.field or imeta.require as C++ statements,
// valid in host code and in CUDA device code. By default temporaries are
// int64_t and every result of an i32 op is checked to fit (as the
// evaluator does), loads are bounds-checked and divisions guarded; a
// failure returns `imeta_fail(c.err, ...)` from the enclosing function.
// In a fill function (FormulaScope::fast) the i32 values that are not
// list-dependent have type `I` and their checks are guarded by `kChk`,
// the function's template parameters (see RangeProof.h).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_FORMULAEMITTER_H
#define IMETA_LOWERING_FORMULAEMITTER_H

#include "dialect/IMetaOps.h"
#include "dialect/RuleOperands.h"
#include "lib/Analysis/ListDependence.h"
#include "lib/Lowering/CodeStream.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace imeta {

/// What a spec's formulas are named by, fixed before anything is emitted:
/// the ratio sets' ids (the generated bucket maps are indexed by them, in
/// spec order) and the list dependence of its values.
class FormulaNaming {
public:
  explicit FormulaNaming(SpecOp spec);
  /// Adds the list dependence of a copy of the spec that a path is
  /// planned on (imeta-inline-resolves).
  void addCopy(SpecOp copy);

  /// The id of one of the spec's ratio sets (or unions).
  unsigned setId(mlir::FlatSymbolRefAttr set) const;
  llvm::ArrayRef<mlir::FlatSymbolRefAttr> ratioSets() const { return sets; }
  bool isListDependent(mlir::Value v) const {
    return lists.values.contains(v);
  }

private:
  std::vector<mlir::FlatSymbolRefAttr> sets;
  ListDependence lists;
};

/// What emitting a spec's formulas records for the generated tables: the
/// sites a failure names and the fields and rules that own them, by the
/// ids the generated code records; and the temporaries' names.
class EmitterState {
public:
  /// A diagnostic site: the op's name, " at file:line:col" (or ""), and
  /// what it reads where an index can miss ("'block_table'", "prefix sum
  /// 'cu_q'", "'ca_ratios'"): the evaluator's words for its failures.
  struct Site {
    std::string op, at, what;
  };

  explicit EmitterState(const FormulaNaming &naming) : naming(naming) {}

  const FormulaNaming &names() const { return naming; }
  unsigned setId(mlir::FlatSymbolRefAttr set) const {
    return naming.setId(set);
  }

  /// The id of `op`'s site, recorded on first use.
  unsigned site(mlir::Operation *op);
  /// A new owner id for the field or rule `name`.
  unsigned owner(llvm::StringRef name);
  /// A fresh temporary's name (t0, t1, ...).
  std::string newTemp();

  llvm::ArrayRef<Site> sites() const { return siteList; }
  llvm::ArrayRef<std::string> owners() const { return ownerList; }

private:
  const FormulaNaming &naming;
  std::vector<Site> siteList;
  llvm::DenseMap<mlir::Operation *, unsigned> siteOf;
  std::vector<std::string> ownerList;
  unsigned nextTemp = 0;
};

/// Where the formula runs: how the point's indices and bucket are named.
struct FormulaScope {
  int ownerId = 0;                 ///< field or rule id for errors
  mlir::FlatSymbolRefAttr ratios;  ///< the point's ratio set, if bucketed
  std::string bucket = "b";        ///< index of the point's ratio in it
  std::string ratio = "n";         ///< the ratio value
  std::string seq = "-1", row = "-1", globalRow = "-1", col = "-1";
  /// How a failure is recorded: the call up to its first argument. A
  /// device stage's lanes each keep their own record (`imeta_note(&tr`).
  std::string failCall = "imeta_fail(c.err";
  /// In a fill function: `I`/`kChk` are in scope; each list input X has
  /// the sequence's elements at `lb_X` and their count in `ll_X`, each
  /// other input its value at `si_X`, each unbucketed seq field its value
  /// at `hs_X` (read once, before any store).
  bool fast = false;
  /// Loads whose bounds the enclosing loop checked for all its columns.
  llvm::SmallPtrSet<mlir::Operation *, 2> rangeCheckedLoads;
  /// In a GPU column step: the name of a bool that a failed check sets
  /// after recording its error (the step goes on; a failed load reads
  /// nothing), for the step to return after its stores. A kernel's
  /// unrolled step then has no exits (each `return` from it costs the
  /// warp a chain of convergence breaks per value).
  std::string deferFailures;
  /// In a device stage's own step (EmitDeviceStage.h): the lanes (`ln`)
  /// among which the outermost reduce_rows splits a sequence's rows. The
  /// formula runs in a `bool` lambda on every lane alike.
  std::string rowLanes;
  /// Values the enclosing loop computed once before it (emitHoisted): the
  /// C++ name of each.
  llvm::DenseMap<mlir::Value, std::string> hoisted;
  /// Divisors the enclosing loop prepared an `imeta_divider` for: its name.
  llvm::DenseMap<mlir::Value, std::string> dividers;
  /// Compares whose outcome the enclosing code established (a column
  /// step on one side of a split, ColumnSplit.h): a branch on one emits
  /// only the side taken, a select the operand taken.
  llvm::DenseMap<mlir::Value, bool> known;
  /// 32-bit divisions whose dividend the enclosing code found inside
  /// their divider's range (a column step below a split, ColumnSplit.h):
  /// the multiply without its per-value test.
  llvm::SmallPtrSet<mlir::Operation *, 2> exactDivisions;
  /// 32-bit divisions (quotients, remainders) whose quotient the enclosing
  /// GPU step computed once for all its values (ColumnSplit.h): its name.
  llvm::DenseMap<mlir::Operation *, std::string> stepQuotients;
  /// The C++ name of a rows field of the same row space (its value at this
  /// point, given the index of the bucket to read).
  llvm::function_ref<std::string(FieldOp, const std::string &)> rowsLocal;
  /// In a device stage (EmitDeviceStage.cpp): the array holding host value
  /// X (the stage's own pointer `H.h_X` where it has one: a read of the
  /// context's `c.h_X` after any store through a pointer loads the pointer
  /// again), "" or unset for the context's; the number of sequences; and
  /// the locals holding the unbucketed seq fields this sequence's pass
  /// computed before (read there, not stored and loaded again).
  llvm::function_ref<std::string(mlir::Operation *)> hostArray;
  std::string numSeqs = "c.num_seqs";
  llvm::DenseMap<mlir::Operation *, std::string> seqLocals;
  /// In the host stage's step of a seq field: its values for this bucket
  /// (`H.h_X + b * stride`) and their count a sequence, which imeta.prev
  /// reads at sequence i - 1; "" elsewhere (no earlier sequence's values).
  std::string ownValues;
  std::string ownWidth = "1";
};

/// Emits `body`; `results` receives the C++ names of the yielded values.
mlir::LogicalResult emitFormula(CodeStream &cs, EmitterState &st,
                                mlir::Region &body, const FormulaScope &scope,
                                llvm::SmallVectorImpl<std::string> &results);

/// Emits, in program order, the ops of `body` that `targets` are computed
/// from (none may have regions), as `scope` names the point; `names`
/// receives the C++ name of each target. Evaluates part of a formula at
/// another point (a row's end column, MonotoneLoads.h).
mlir::LogicalResult emitSlice(CodeStream &cs, EmitterState &st,
                              mlir::Region &body,
                              llvm::ArrayRef<mlir::Value> targets,
                              const FormulaScope &scope,
                              llvm::SmallVectorImpl<std::string> &names);

/// Emits a rule's body as emitFormula does, then, where it reached its
/// yield, stores each of `operands` (its named reads, RuleOperands.h) in
/// `int64_t` variable `vars[k]`, declared by the caller outside the body:
/// a broken rule's message prints them.
mlir::LogicalResult
emitRuleFormula(CodeStream &cs, EmitterState &st, RequireOp rule,
                const FormulaScope &scope, llvm::ArrayRef<RuleOperand> operands,
                llvm::ArrayRef<std::string> vars,
                llvm::SmallVectorImpl<std::string> &results);

/// The context's divider for `divisor` where it is a config value, the
/// point's ratio or a scalar field (made once per step by a GPU path's
/// stage: `c.dv_cfg_X`, `c.dv_set[s][b]`, `c.dv_h_X[b]`); "" otherwise.
std::string contextDivider(EmitterState &st, const FormulaScope &scope,
                           mlir::Value divisor);

/// The divider a 32-bit division by `divisor` uses in `scope`: one the
/// enclosing loop prepared, else the context's; "" where it has none.
std::string dividerOf(EmitterState &st, const FormulaScope &scope,
                      mlir::Value divisor);


/// Emits such a read on its own; returns the C++ name holding it.
std::string emitHoisted(CodeStream &cs, EmitterState &st, mlir::Operation *op,
                        const FormulaScope &scope);

/// Whether the range proof covers `v` in `scope`: an i1/i32 value of a
/// fill function that is not list-dependent.
bool proofCovers(const EmitterState &st, const FormulaScope &scope,
                 mlir::Value v);

/// The C++ type of `v` in `scope`: `I` where the proof covers it, else
/// int64_t.
std::string valueType(const EmitterState &st, const FormulaScope &scope,
                      mlir::Value v);

/// The expression indexing the bucket of set `of` that holds the scope's
/// point ("0" when `of` is not bucketed).
std::string bucketIndex(const FormulaNaming &names, const FormulaScope &scope,
                        mlir::FlatSymbolRefAttr of);
inline std::string bucketIndex(const EmitterState &st,
                               const FormulaScope &scope,
                               mlir::FlatSymbolRefAttr of) {
  return bucketIndex(st.names(), scope, of);
}

/// The arguments by which `imeta_fail` records the point's ratio: its set's
/// id and the bucket ("2, b"), or "-1, 0" where the point has none; the
/// message looks the ratio up. Not the ratio itself: kept live for every
/// check, it cost the device kernels registers. The device records
/// neither (imeta_fail).
std::string failRatioArgs(const EmitterState &st, const FormulaScope &scope);

/// The C++ expression of bucket `bucket` (an index) of `set` in a message's
/// words ("bucket 2 of 'ca_ratios'", runtime/HostErrors.inc's
/// bucket_words), read from the context `c`.
std::string bucketWords(const EmitterState &st, mlir::FlatSymbolRefAttr set,
                        llvm::StringRef bucket);

} // namespace imeta

#endif // IMETA_LOWERING_FORMULAEMITTER_H
