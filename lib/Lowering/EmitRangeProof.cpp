//===- EmitRangeProof.cpp - the per-batch int32 proof of a path ----------===//
//
// In each path's prepare (host source): the interval evaluation of every
// fill formula over the batch, which sets `c.proven` (RangeProof.h).
//
//===----------------------------------------------------------------------===//

#include "lib/Lowering/EmitDeviceStage.h"
#include "lib/Lowering/EmitHost.h"
#include "lib/Support/Format.h"

using namespace mlir;
using imeta::fmt;

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
                                leafText,
                            std::vector<std::string> *leavesOut) {
  const bool lanes = static_cast<bool>(leafText);
  auto text = [&](std::string expr) {
    return leafText ? leafText(expr) : expr;
  };
  // Lanes: each scan of the batch once, as lv[k] (reduced in the prelude).
  std::vector<std::string> scans;
  llvm::StringMap<unsigned> scanIndex;
  auto collective = [&](const std::string &expr) -> std::string {
    auto [it, inserted] = scanIndex.try_emplace(expr, scans.size());
    if (inserted)
      scans.push_back(expr);
    return fmt("lv[{0}]", it->second);
  };
  auto scan = [&](std::string expr) {
    return lanes ? collective(text(std::move(expr))) : text(std::move(expr));
  };
  // One section a field: its text, and the sections whose ranges it reads.
  struct Section {
    std::string text;
    llvm::SmallVector<unsigned> deps;
    unsigned lines = 0;
  };
  std::vector<Section> sections;
  llvm::DenseMap<Operation *, unsigned> sectionOf;
  std::string preText;
  llvm::raw_string_ostream preOs(preText);
  CodeStream pre(preOs, cs.level());
  CodeStream &head = lanes ? pre : cs;
  llvm::StringMap<std::string> leaves;
  llvm::DenseMap<Operation *, std::string> fieldRange;
  auto hostArray = [&](Operation *op) {
    return scan(fmt("r_span(c.h_{0}, {1} * {2})", symName(op),
                    L.numBuckets(getRatios(op)), L.hostStride(op)));
  };
  auto rowsField = [&](FieldOp f) {
    if (lanes && sectionOf.count(f))
      sections.back().deps.push_back(sectionOf[f]);
    return fieldRange.lookup(f);
  };
  for (const RowSpace &space : plan.rowSpaces) {
    std::string count = FieldOp(space.count).getSymName().str();
    std::string buckets = L.numBuckets(FieldOp(space.count).getRatiosAttr());
    // Rows j of a sequence: [0, max count); rows r of the batch:
    // [0, the largest bucket's total). (A space whose formulas read
    // neither leaves them unread.)
    head.line("[[maybe_unused]] const Range rj_{0} = r_index({1}.hi);", count,
              scan(fmt("r_span(c.h_{0}, {1} * N)", count, buckets)));
    if (!lanes)
      cs.line("[[maybe_unused]] const Range rr_{0} = "
              "r_totals(c.rowstart_{0}, N, {1});",
              count, buckets);
    for (FieldOp field : space.fields) {
      RangeScope scope;
      scope.seq = lanes ? collective("ln.part_exact(r_index(N))")
                        : "r_index(N)";
      scope.row = "rj_" + count;
      scope.globalRow =
          lanes ? collective(fmt("ln.part_exact(r_totals(c.rowstart_{0}, "
                                 "N, {1}))",
                                 count, buckets))
                : "rr_" + count;
      if (FlatSymbolRefAttr set = field.getRatiosAttr())
        scope.ratio = fmt("r_span(c.set[{0}], c.num_set[{0}])", st.setId(set));
      if (field.getCols()) {
        auto width = lookupSpecSymbol<FieldOp>(field, field.getColsAttr());
        scope.col = width ? fmt("r_index({0}.hi)", hostArray(width))
                          : "r_index(c.cfg_" + field.getCols()->str() + ")";
      }
      scope.rowsField = rowsField;
      scope.hostArray = hostArray;
      scope.leafText = leafText;
      std::string result;
      if (!lanes) {
        scope.leaves = &leaves;
        cs.line("// {0}", field.getSymName());
        if (failed(emitRangeFormula(cs, st, field.getBody(), scope, result)))
          return failure();
        fieldRange[field] = result;
        continue;
      }
      // A section's own scope: its leaves are its own.
      llvm::StringMap<std::string> own;
      scope.leaves = &own;
      scope.collective = collective;
      sections.emplace_back();
      std::string body;
      llvm::raw_string_ostream os(body);
      CodeStream sub(os, cs.level() + 1);
      sub.line("// {0}", field.getSymName());
      if (failed(emitRangeFormula(sub, st, field.getBody(), scope, result)))
        return failure();
      sections.back().text = std::move(body);
      sections.back().lines =
          unsigned(llvm::count(sections.back().text, '\n'));
      sectionOf[field] = unsigned(sections.size() - 1);
      fieldRange[field] = result;
    }
  }
  if (!lanes)
    return success();
  // The leaves are the caller's; then the row spaces' ranges.
  *leavesOut = scans;
  cs.raw(preText);
  // Each section with the sections it reads (in order), into the part
  // with the fewest lines so far, the longest first.
  std::vector<llvm::SmallVector<unsigned>> closure(sections.size());
  std::vector<unsigned> weight(sections.size(), 0);
  for (unsigned k = 0; k < sections.size(); ++k) {
    llvm::SmallVector<unsigned> all{k};
    for (unsigned d : sections[k].deps)
      all.append(closure[d].begin(), closure[d].end());
    llvm::sort(all);
    all.erase(std::unique(all.begin(), all.end()), all.end());
    closure[k] = all;
    for (unsigned d : all)
      weight[k] += sections[d].lines;
  }
  std::vector<unsigned> order(sections.size());
  for (unsigned k = 0; k < order.size(); ++k)
    order[k] = k;
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return weight[a] > weight[b];
  });
  constexpr unsigned kParts = 8; // a CTA's warps in the device step
  std::vector<llvm::SmallVector<unsigned>> parts(kParts);
  std::vector<unsigned> load(kParts, 0);
  for (unsigned k : order) {
    unsigned best = 0;
    for (unsigned b = 1; b < kParts; ++b)
      if (load[b] < load[best])
        best = b;
    parts[best].append(closure[k].begin(), closure[k].end());
    load[best] += weight[k];
  }
  for (unsigned b = 0; b < kParts; ++b) {
    auto &members = parts[b];
    if (members.empty())
      continue;
    llvm::sort(members);
    members.erase(std::unique(members.begin(), members.end()), members.end());
    CodeStream::Scope part(cs, fmt("if (ln.part({0}))", b));
    for (unsigned k : members)
      cs.raw(sections[k].text);
  }
  return success();
}

} // namespace imeta::emit
