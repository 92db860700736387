//===- CppFormulaPrinter.h - what emitCpp() prints into ---------*- C++ -*-===//
//
// The services a formula op's `emitCpp` (FormulaOpInterface) uses to print
// itself as C++ valid in host code and in CUDA device code: its operands'
// names, declarations of its results, the checks whose failure records
// the evaluator's error (`imeta_fail`), and what the enclosing loop knows
// about the point (see lib/Lowering/FormulaEmitter.h). lib/Lowering's
// printer implements it.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_CPPFORMULAPRINTER_H
#define IMETA_DIALECT_CPPFORMULAPRINTER_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <optional>
#include <string>

namespace imeta {

class CppFormulaPrinter {
public:
  virtual ~CppFormulaPrinter() = default;

  // Names and declarations.
  /// The C++ name of operand `i` of `op`.
  virtual std::string operand(mlir::Operation *op, unsigned i) = 0;
  /// Declares `op`'s single result as `expr`; returns its name.
  virtual std::string define(mlir::Operation *op, const std::string &expr) = 0;
  mlir::LogicalResult alias(mlir::Operation *op, const std::string &expr) {
    define(op, expr);
    return mlir::success();
  }
  /// Names `v` `name` (declared by the caller).
  virtual void bind(mlir::Value v, const std::string &name) = 0;
  /// A fresh temporary's name.
  virtual std::string fresh() = 0;
  /// The C++ type of `v`: the fill's `I` where the proof covers it, else
  /// int64_t.
  virtual std::string valueType(mlir::Value v) = 0;
  /// "[[maybe_unused]] " where a known branch may leave a value unread.
  virtual std::string maybeUnused() = 0;

  // Code.
  virtual void line(const std::string &text) = 0;
  /// Opens `header {` (a bare block for ""), closed by close() with
  /// `}tail` (e.g. ";" after a lambda).
  virtual void open(const std::string &header, const std::string &tail) = 0;
  void open(const std::string &header) { open(header, ""); }
  virtual void close() = 0;
  /// Prints `block`; `yielded` gets the names of its terminator's operands.
  virtual mlir::LogicalResult
  runBlock(mlir::Block &block, llvm::SmallVectorImpl<std::string> &yielded) = 0;

  // Checks.
  /// The statement that records failure `kind` of `op` (its value; for an
  /// index that misses, the length) and leaves the formula.
  virtual std::string fail(llvm::StringRef kind, mlir::Operation *op,
                           llvm::StringRef value,
                           llvm::StringRef length = "0") = 0;
  /// "kChk && " where the range proof covers `op`'s result (the fast
  /// instantiation drops the check), else "".
  virtual std::string proven(mlir::Operation *op) = 0;
  /// Checks that `op`'s i32 or i1 result `name` fits its type.
  void checkFits(mlir::Operation *op, const std::string &name);

  // The point and what the enclosing code knows.
  virtual std::string seq() = 0;
  virtual std::string row() = 0;
  virtual std::string globalRow() = 0;
  virtual std::string col() = 0;
  virtual std::string ratio() = 0;
  /// In a fill function: the sequence's inputs are read once (si_X, lb_X,
  /// ll_X, hs_X), values the proof covers have type I.
  virtual bool fast() = 0;
  /// A deferred failure's flag (a GPU column step), or "".
  virtual std::string deferFailures() = 0;
  /// The lanes that split a sequence's rows among them (a device stage's
  /// own step: every lane of a CTA on one sequence), or "": the outermost
  /// `imeta.reduce_rows` then runs row r on lane r mod count and folds the
  /// lanes' parts (`fold_rows`, runtime/DeviceStage.inc).
  virtual std::string rowLanes() = 0;
  /// The outcome of compare `v` where the enclosing code established it.
  virtual std::optional<bool> known(mlir::Value v) = 0;
  /// A load whose bounds the enclosing loop checked for all its columns.
  virtual bool rangeChecked(mlir::Operation *load) = 0;
  /// A 32-bit division whose dividend lies in its divider's range.
  virtual bool exactDivision(mlir::Operation *op) = 0;
  /// The quotient the enclosing GPU step computed for `op`, or "".
  virtual std::string stepQuotient(mlir::Operation *op) = 0;
  /// The `imeta_divider` of `divisor` (the context's or the loop's), or "".
  virtual std::string divider(mlir::Value divisor) = 0;

  // The context.
  /// The bucket index at which to read a value bucketed over `set` (0 for
  /// none).
  virtual std::string bucketIndex(mlir::FlatSymbolRefAttr set) = 0;
  virtual unsigned setId(mlir::FlatSymbolRefAttr set) = 0;
  /// A rows field of the same row space at this point, bucket `bucket`.
  virtual std::string rowsLocal(mlir::Operation *field,
                                const std::string &bucket) = 0;
  /// A host-stage array of `def` (seq field, scalar field or sum) at
  /// `index` (the context's `c.h_X` unless the scope says otherwise).
  virtual std::string hostValue(mlir::Operation *def,
                                const std::string &index);
  /// Value `column` of the field being computed at the previous sequence,
  /// 0 at the first (imeta.prev), or "" where the code computing it keeps
  /// no earlier sequence's values (only the host stage does).
  virtual std::string previous(int64_t column) {
    (void)column;
    return "";
  }
  /// The batch's number of sequences (`c.num_seqs`, or the scope's).
  virtual std::string numSeqs() { return "c.num_seqs"; }
  /// Where the enclosing code holds the value of the unbucketed seq field
  /// `field` for this point's sequence (a local), or "": read it from its
  /// host-stage array.
  virtual std::string seqLocal(mlir::Operation *field) {
    (void)field;
    return "";
  }
};

} // namespace imeta

#endif // IMETA_DIALECT_CPPFORMULAPRINTER_H
