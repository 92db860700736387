//===- EmitRangeProof.cpp - the per-batch int32 proof of a path ----------===//
//
// In each path's prepare (host source): the interval evaluation of every
// fill formula over the batch, which sets `c.proven` (RangeProof.h).
//
//===----------------------------------------------------------------------===//

#include "lib/Lowering/EmitDeviceStage.h"
#include "lib/Lowering/EmitHost.h"

using namespace mlir;
using llvm::formatv;

namespace imeta::emit {

LogicalResult HostEmitter::emitRangeProof(CodeStream &cs, const PathPlan &plan) {
  cs.line("// Range proof: with every i32 value of the fills in range for "
          "this batch,");
  cs.line("// they run in 32 bits without overflow checks.");
  cs.line("c.proven = false;");
  CodeStream::Scope proof(cs, "if (fill && mode == FillMode::kAuto)");
  cs.line("bool ok = true;");
  if (failed(emitProofBody(cs, L, st, plan, nullptr)))
    return failure();
  cs.line("c.proven = ok;");
  return success();
}

LogicalResult emitProofBody(CodeStream &cs, const SpecLayout &L,
                            EmitterState &st, const PathPlan &plan,
                            llvm::function_ref<std::string(const std::string &)>
                                leafText) {
  auto text = [&](std::string expr) {
    return leafText ? leafText(expr) : expr;
  };
  llvm::StringMap<std::string> leaves;
  llvm::DenseMap<Operation *, std::string> fieldRange;
  auto hostArray = [&](Operation *op) {
    return text(formatv("r_span(c.h_{0}, {1} * {2})", symName(op),
                        L.numBuckets(getRatios(op)), L.hostStride(op))
                    .str());
  };
  auto rowsField = [&](FieldOp f) { return fieldRange.lookup(f); };
  for (const RowSpace &space : plan.rowSpaces) {
    std::string count = FieldOp(space.count).getSymName().str();
    std::string buckets = L.numBuckets(FieldOp(space.count).getRatiosAttr());
    // Rows j of a sequence: [0, max count); rows r of the batch:
    // [0, the largest bucket's total). (A space whose formulas read
    // neither leaves them unread.)
    cs.line("[[maybe_unused]] const Range rj_{0} = r_index({1}.hi);", count,
            text(formatv("r_span(c.h_{0}, {1} * N)", count, buckets).str()));
    cs.line("[[maybe_unused]] Range rr_{0} = r_index(0);", count);
    cs.line("for (int32_t b = 0; b < {1}; ++b) rr_{0} = r_join(rr_{0}, "
            "r_index(c.rowstart_{0}[b * (N + 1) + N]));",
            count, buckets);
    for (FieldOp field : space.fields) {
      RangeScope scope;
      scope.seq = "r_index(N)";
      scope.row = "rj_" + count;
      scope.globalRow = "rr_" + count;
      if (FlatSymbolRefAttr set = field.getRatiosAttr())
        scope.ratio = formatv("r_span(c.set[{0}], c.num_set[{0}])",
                              st.setId(set));
      if (field.getCols()) {
        auto width = lookupSpecSymbol<FieldOp>(field, field.getColsAttr());
        scope.col = width ? formatv("r_index({0}.hi)", hostArray(width)).str()
                          : "r_index(c.cfg_" + field.getCols()->str() + ")";
      }
      scope.rowsField = rowsField;
      scope.hostArray = hostArray;
      scope.leaves = &leaves;
      scope.leafText = leafText;
      cs.line("// {0}", field.getSymName());
      std::string result;
      if (failed(emitRangeFormula(cs, st, field.getBody(), scope, result)))
        return failure();
      fieldRange[field] = result;
    }
  }
  return success();
}

} // namespace imeta::emit
