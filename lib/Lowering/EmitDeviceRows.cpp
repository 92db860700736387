//===- EmitDeviceRows.cpp - checks of the rows an engine keeps on the GPU -===//
//
// A table input whose rows the engine keeps on the device alone (its
// ListTable's `host` null, its values not checked as they were written)
// cannot be scanned by the host before a step: the kernel checks each
// value where it reads it (issue 34: an id past the bound became a slot
// far outside the pool). The stage marks such a table (tv_X_bound, its
// bound; 0: the host checked it). The check kernel before the plain one
// (EmitCheckKernel.cpp) checks each sequence's row, every CTA of the
// sequence, and at a bad value leaves the sequence in its verdict, so
// that the plain kernel writes nothing; `<path>_check` then names the
// first bad value in the host's order, read back from the device (an
// error path). A device step checks the rows in its sequence stage
// (EmitDeviceStage.cpp) and writes nothing either.
//
//===----------------------------------------------------------------------===//

#include "lib/Lowering/EmitCuda.h"
#include "lib/Support/Format.h"

using namespace mlir;
using imeta::fmt;

namespace imeta::emit {

void CudaEmitter::emitDeviceRowChecks(CodeStream &cu,
                                      const llvm::SetVector<Operation *> &used,
                                      StringRef onFail) {
  for (const InputDecl *in : residentInputs(L.inputs(), used)) {
    StringRef name = in->name;
    int64_t min = *in->op.getMin();
    cu.line("// Rows of '{0}_table' on the device alone: every block of the "
            "sequence checks",
            name);
    cu.line("// its row before any is read (the first bad column a "
            "thread's, the block's any).");
    CodeStream::Scope s(cu, fmt("if (c.tv_{0}_bound)", name));
    cu.line("int64_t bad = INT64_MAX;");
    cu.line("for (int64_t k = c.in_{0}_begin[i] + threadIdx.x; k < "
            "c.in_{0}_end[i]; k += blockDim.x)",
            name);
    cu.line("  if (c.in_{0}[k] < {1} || c.in_{0}[k] >= c.tv_{0}_bound) {{ "
            "bad = k; break; }",
            name, min);
    CodeStream::Scope fail(cu, "if (__syncthreads_or(bad != INT64_MAX))");
    cu.line("if (bad != INT64_MAX) imeta_fail(c.err, kTableValue, {0}, 0, i, "
            "bad - c.in_{1}_begin[i], c.in_{1}[bad], -1, 0, 0);",
            in - L.inputs().data(), name);
    cu.line(onFail);
    cu.line("return;");
  }
}

void CudaEmitter::emitDeviceRowRescan(CodeStream &cu, const PathPlan &plan) {
  std::vector<const InputDecl *> tables =
      residentInputs(L.inputs(), L.deviceInputs(plan));
  if (tables.empty())
    return;
  std::string p = PathOp(plan.path).getSymName().str();
  cu.line("/// After the kernel failed: the first value of a table row on "
          "the device alone");
  cu.line("/// outside [min, bound), by sequence then input (the host's "
          "order: it checks");
  cu.line("/// tables before any formula), read back; empty if none.");
  CodeStream::Scope f(cu, fmt("static std::string "
                              "{0}_device_rows_failure(const GpuStaging "
                              "&s, const ErrorRecord &e)",
                              p));
  cu.line("const {0} &hc = *static_cast<const {0} *>(s.host);",
          L.ctxName(plan));
  cu.line("// The row bounds the stage packed, where the host staging "
          "holds them.");
  cu.line("auto staged = [&](const int64_t *d) { return "
          "reinterpret_cast<const int64_t *>(static_cast<const char "
          "*>(s.host) + (reinterpret_cast<const char *>(d) - "
          "static_cast<const char *>(s.device))); };");
  cu.line("std::vector<int32_t> row;");
  {
    CodeStream::Scope i(cu, "for (int64_t i = 0; i < hc.num_seqs; ++i)");
    for (const InputDecl *in : tables) {
      StringRef name = in->name;
      CodeStream::Scope t(cu, fmt("if (hc.tv_{0}_bound)", name));
      cu.line("const int64_t b = staged(hc.in_{0}_begin)[i], n = "
              "staged(hc.in_{0}_end)[i] - b;",
              name);
      cu.line("row.resize(size_t(n));");
      cu.line("if (n > 0 && cudaMemcpy(row.data(), hc.in_{0} + b, size_t(n) "
              "* sizeof(int32_t), cudaMemcpyDeviceToHost) != cudaSuccess) "
              "return \"'{0}_table': its device rows could not be read "
              "back\";",
              name);
      cu.line("for (int64_t k = 0; k < n; ++k)");
      cu.line("  if (row[size_t(k)] < {1} || row[size_t(k)] >= "
              "hc.tv_{0}_bound) return table_value_message({2}, i, k, "
              "row[size_t(k)], hc.tv_{0}_stride ? b / hc.tv_{0}_stride : 0, "
              "hc.tv_{0}_bound);",
              name, int64_t(*in->op.getMin()), in - L.inputs().data());
    }
  }
  cu.line("// The kernel saw a bad value that is no longer there.");
  cu.line("if (e.kind == kTableValue) return \"sequence \" + "
          "std::to_string(e.seq) + \": a table value \" + "
          "std::to_string(e.value) + \" outside [min, bound) at column \" + "
          "std::to_string(e.row) + \" (the device rows changed after the "
          "kernel read them)\";");
  cu.line("return std::string();");
}

} // namespace imeta::emit
