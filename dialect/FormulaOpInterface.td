//===- FormulaOpInterface.td - what a formula op means -----*- tablegen -*-===//
//
// The one place for a formula op's meaning: an op a field's or rule's body
// may hold implements this interface (the imeta ops in FormulaOps.cpp, the
// arith and scf ops the dialect accepts as external models in
// ArithFormulaModels.cpp). The verifier accepts exactly the ops that
// implement it; each consumer iterates over it instead of a switch of its
// own.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_FORMULA_OP_INTERFACE_TD
#define IMETA_FORMULA_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def IMeta_FormulaOpInterface : OpInterface<"FormulaOpInterface"> {
  let description = [{
    An op that a field's or a rule's formula may hold. `evaluate` is the
    reference semantics: every integer in 64 bits, a result that leaves its
    type, a division by zero or a read outside a list an error in the
    evaluator's words. `inferRange` is its rule in the int32 proof that
    lets the generated fills run in 32 bits unchecked; `emitCpp` its C++.
  }];
  let cppNamespace = "::imeta";
  let methods = [
    InterfaceMethod<[{
        Sets the op's results at the interpreter's point from its operands'
        values, or fails with the reason (FormulaInterpreter::fail).
      }],
      "::mlir::LogicalResult", "evaluate",
      (ins "::imeta::FormulaInterpreter &":$interp)>,
    InterfaceMethod<[{
        Prints the range of the op's results over the batch from its
        operands' ranges (the per-batch int32 proof), and requires what the
        fast fill instantiation leaves unchecked.
      }],
      "::mlir::LogicalResult", "inferRange",
      (ins "::imeta::RangeRuleBuilder &":$ranges)>,
    InterfaceMethod<[{
        Prints the op as C++ statements that define its results (one
        printer for the CPU and the CUDA code), each check recording the
        evaluator's failure.
      }],
      "::mlir::LogicalResult", "emitCpp",
      (ins "::imeta::CppFormulaPrinter &":$printer)>,
    InterfaceMethod<[{
        Appends the fields and prefix sums the op reads (the dependency
        graph between fields: cycles refused, paths scheduled by it).
      }],
      "void", "getFieldDependencies",
      (ins "::llvm::SmallVectorImpl<::mlir::FlatSymbolRefAttr> &":$deps),
      /*methodBody=*/[{}], /*defaultImplementation=*/[{ return; }]>,
    InterfaceMethod<[{
        What the op's failures name beside its location: the list, prefix
        sum or ratio set it reads ("'block_table'", "prefix sum 'cu_q'"),
        in the evaluator's and the generated code's messages alike. By
        default nothing.
      }],
      "std::string", "getFailureSubject", (ins),
      /*methodBody=*/[{}], /*defaultImplementation=*/[{ return ""; }]>,
    InterfaceMethod<[{
        Whether the op reads a value that is the same at every row and
        column of a sequence's bucket and cannot fail (a config parameter,
        a scalar input, the ratio, a field computed by the host stage): a
        loop over rows or columns computes it once before it. By default:
        no.
      }],
      "bool", "isBucketInvariantRead", (ins),
      /*methodBody=*/[{}], /*defaultImplementation=*/[{ return false; }]>,
    InterfaceMethod<[{
        How the op's result varies with the column of a `cols` field, from
        its operands' trends (the column loop's analyses: MonotoneLoads,
        ColumnSplit). By default: invariant if every operand is.
      }],
      "::imeta::Trend", "columnTrend",
      (ins "::llvm::ArrayRef<::imeta::Trend>":$operands),
      /*methodBody=*/[{}],
      /*defaultImplementation=*/[{ return ::imeta::defaultColumnTrend(operands); }]>,
    InterfaceMethod<[{
        Whether the result is one more at each next column (the column plus
        or minus invariant values), given whether each operand is
        (`operandMovesByOne`) and the operands' trends. By default: no.
      }],
      "bool", "movesByOneColumn",
      (ins "::llvm::function_ref<bool(unsigned)>":$operandMovesByOne,
           "::llvm::ArrayRef<::imeta::Trend>":$operands),
      /*methodBody=*/[{}], /*defaultImplementation=*/[{ return false; }]>,
    InterfaceMethod<[{
        The input the op reads: a scalar input's value, a list's elements
        or its length. By default: none.
      }],
      "::mlir::FlatSymbolRefAttr", "getInputRead", (ins),
      /*methodBody=*/[{}], /*defaultImplementation=*/[{ return {}; }]>,
    InterfaceMethod<[{
        Whether the op reads elements of its list input (not only its
        length): they must be where it runs (a host stage reads a table's
        host rows). By default: no.
      }],
      "bool", "readsListElements", (ins),
      /*methodBody=*/[{}], /*defaultImplementation=*/[{ return false; }]>,
    InterfaceMethod<[{
        The divisor of a truncating division or remainder (C's `/` and
        `%`), which the generated code may replace by a multiplication
        where the divisor is invariant. By default: none.
      }],
      "::mlir::Value", "getDivisor", (ins),
      /*methodBody=*/[{}], /*defaultImplementation=*/[{ return {}; }]>,
  ];
}

#endif // IMETA_FORMULA_OP_INTERFACE_TD
