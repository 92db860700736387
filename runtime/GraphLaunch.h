//===- GraphLaunch.h - capture a path's launch, replay it --------*- C++ -*-===//
//
// Captures one launch of a generated GPU path in a CUDA graph and replays
// it. The launch reads everything per step from the staging buffer (whose
// device address is fixed), so a graph captured for the maximum batch
// replays any smaller batch after that step's stage call.
//
// Contract (not checked: a check would cost every replay): the graph holds
// the raw addresses of the staging and the output buffers it was captured
// on. Keep them alive and in place while it may replay; destroy the
// GraphLaunch (and synchronize its stream) before freeing them. A replay
// after they were freed writes freed memory. One thread at a time.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_RUNTIME_GRAPHLAUNCH_H
#define IMETA_RUNTIME_GRAPHLAUNCH_H

#include <cuda_runtime.h>

#include <string>

namespace imeta::runtime {

class GraphLaunch {
public:
  GraphLaunch() = default;
  GraphLaunch(const GraphLaunch &) = delete;
  GraphLaunch &operator=(const GraphLaunch &) = delete;
  ~GraphLaunch() {
    if (exec)
      cudaGraphExecDestroy(exec);
    if (graph)
      cudaGraphDestroy(graph);
  }

  /// Records `launch(stream)` (which must only enqueue work) into a graph.
  /// Returns an error message, empty on success.
  template <typename Launch>
  std::string capture(cudaStream_t stream, Launch &&launch) {
    if (cudaError_t e =
            cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal))
      return std::string("begin capture: ") + cudaGetErrorString(e);
    cudaError_t launched = launch(stream);
    cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    if (launched != cudaSuccess)
      return std::string("launch during capture: ") +
             cudaGetErrorString(launched);
    if (ended != cudaSuccess)
      return std::string("end capture: ") + cudaGetErrorString(ended);
    if (cudaError_t e = cudaGraphInstantiate(&exec, graph, 0))
      return std::string("instantiate: ") + cudaGetErrorString(e);
    return "";
  }

  /// Enqueues one replay on `stream`.
  cudaError_t replay(cudaStream_t stream) {
    return cudaGraphLaunch(exec, stream);
  }

private:
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};

} // namespace imeta::runtime

#endif // IMETA_RUNTIME_GRAPHLAUNCH_H
