//===- PostOrder.h - a dependency walk on an explicit stack -----*- C++ -*-===//
//
// The planner (which fields a path computes, in which order) and the
// evaluator (which fields a read needs first) walk the same graph the same
// way: depth first from one node, each node after the nodes it reads. The
// graph follows the spec, so the walk keeps its own stack: a chain of
// fields as long as the spec costs no call stack.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_SUPPORT_POSTORDER_H
#define IMETA_SUPPORT_POSTORDER_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace imeta {

/// Calls `visit` on `root` and every node it reaches through `depsOf`
/// (a SmallVector of nodes) that `known` does not call done, each after
/// the nodes it depends on. A node is visited once; one reached again
/// while its own dependencies are being walked (a cycle) is skipped there.
template <typename Node, typename DepsOf, typename Known, typename Visit>
void walkPostOrder(Node root, DepsOf depsOf, Known known, Visit visit) {
  if (known(root))
    return;
  struct Frame {
    Node node;
    llvm::SmallVector<Node> deps;
    size_t next = 0;
  };
  llvm::DenseSet<Node> seen{root};
  llvm::SmallVector<Frame> stack;
  stack.push_back({root, depsOf(root)});
  while (!stack.empty()) {
    Frame &top = stack.back();
    if (top.next == top.deps.size()) {
      Node done = top.node;
      stack.pop_back();
      visit(done);
      continue;
    }
    Node dep = top.deps[top.next++];
    if (!known(dep) && seen.insert(dep).second)
      stack.push_back({dep, depsOf(dep)});
  }
}

} // namespace imeta

#endif // IMETA_SUPPORT_POSTORDER_H
