//===- IMetaDialect.td - the imeta dialect definition ------*- tablegen -*-===//
//
// The dialect in which a spec states, once, the formula of every metadata
// field an attention kernel consumes.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_DIALECT_TD
#define IMETA_DIALECT_TD

include "mlir/IR/OpBase.td"

def IMeta_Dialect : Dialect {
  let name = "imeta";
  let cppNamespace = "::imeta";
  let summary = "Per-step input metadata of LLM inference engines";
  let description = [{
    A spec (`imeta.spec`) declares the batch's config parameters
    (`imeta.config`, `imeta.ratios`), the scheduler's per-sequence inputs
    (`imeta.input`), the rules a batch must satisfy (`imeta.require`), and
    fields (`imeta.field`, `imeta.prefix_sum`), each with a formula region
    built from `arith` (and `scf.if`) over the sequence's inputs, the config
    and the row index. Paths (`imeta.path`) name the fields they produce.
    Nothing outside the spec knows what any field means.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let useDefaultTypePrinterParser = 1;
}

/// Base class of every imeta op.
class IMeta_Op<string mnemonic, list<Trait> traits = []>
    : Op<IMeta_Dialect, mnemonic, traits>;

#endif // IMETA_DIALECT_TD
