//===- StepGraph.h - a whole GPU step in one CUDA graph ---------*- C++ -*-===//
//
// A GPU path's step as one graph: the copy of the packed step (the
// scheduler's per-step values) from pinned host memory to the device
// staging, then the kernel. Per step the host packs into a pinned buffer
// (a generated `NAME_pack` writing `staging.host`), and `replay` points the
// graph's copy at that buffer and its size and launches the graph.
//
// The pinned side is double-buffered: `next()` hands the buffer whose last
// copy has finished (waiting for it if need be), so packing step t+1 never
// races step t's copy. The device side is one buffer: the copies and
// kernels of successive replays are ordered on the stream.
//
// Contract (not checked: a check would cost every replay): the graph holds
// the raw addresses of the device staging and the output buffers. Keep
// them alive while it may replay; destroy the StepGraph (its stream
// synchronized) before freeing them. One thread at a time.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_RUNTIME_STEPGRAPH_H
#define IMETA_RUNTIME_STEPGRAPH_H

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

namespace imeta::runtime {

class StepGraph {
public:
  StepGraph() = default;
  StepGraph(const StepGraph &) = delete;
  StepGraph &operator=(const StepGraph &) = delete;
  ~StepGraph() {
    if (exec)
      cudaGraphExecDestroy(exec);
    if (graph)
      cudaGraphDestroy(graph);
    for (int k = 0; k < 2; ++k) {
      if (host[k])
        cudaFreeHost(host[k]);
      if (done[k])
        cudaEventDestroy(done[k]);
    }
  }

  /// Allocates the two pinned buffers of `bytes` and captures, on
  /// `stream`, the copy into `device` followed by `launch(stream)` (which
  /// must only enqueue work). Returns an error message, empty on success.
  std::string create(void *device, size_t bytes, cudaStream_t stream,
                     const std::function<cudaError_t(cudaStream_t)> &launch) {
    this->device = device;
    this->bytes = bytes;
    for (int k = 0; k < 2; ++k) {
      if (cudaError_t e = cudaMallocHost(&host[k], bytes))
        return fail("pinned staging", e);
      if (cudaError_t e = cudaEventCreateWithFlags(&done[k],
                                                   cudaEventDisableTiming))
        return fail("event", e);
    }
    if (cudaError_t e =
            cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal))
      return fail("begin capture", e);
    cudaError_t copied = cudaMemcpyAsync(device, host[0], bytes,
                                         cudaMemcpyHostToDevice, stream);
    cudaError_t launched = copied ? copied : launch(stream);
    cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    if (launched)
      return fail("capture of the copy and the launch", launched);
    if (ended)
      return fail("end capture", ended);
    size_t count = 0;
    if (cudaError_t e = cudaGraphGetNodes(graph, nullptr, &count))
      return fail("graph nodes", e);
    std::vector<cudaGraphNode_t> nodes(count);
    if (cudaError_t e = cudaGraphGetNodes(graph, nodes.data(), &count))
      return fail("graph nodes", e);
    for (cudaGraphNode_t n : nodes) {
      cudaGraphNodeType type;
      if (cudaGraphNodeGetType(n, &type) == cudaSuccess &&
          type == cudaGraphNodeTypeMemcpy)
        copy = n;
    }
    if (!copy)
      return "step graph: the captured graph has no copy node";
    if (cudaError_t e = cudaGraphInstantiate(&exec, graph, 0))
      return fail("instantiate", e);
    return "";
  }

  /// The pinned buffer to pack the next step into, once its previous
  /// copy (two replays ago) has finished; nullptr on error.
  void *next() {
    current ^= 1;
    if (cudaEventSynchronize(done[current]) != cudaSuccess)
      return nullptr;
    return host[current];
  }

  /// One step: the copy of `used` bytes from the buffer `next()` gave,
  /// then the kernel. Returns an error message, empty on success.
  std::string replay(size_t used, cudaStream_t stream) {
    if (used == 0 || used > bytes)
      return "step graph: " + std::to_string(used) +
             " bytes to copy, the staging holds " + std::to_string(bytes);
    if (cudaError_t e = cudaGraphExecMemcpyNodeSetParams1D(
            exec, copy, device, host[current], used, cudaMemcpyHostToDevice))
      return fail("copy update", e);
    if (cudaError_t e = cudaGraphLaunch(exec, stream))
      return fail("launch", e);
    if (cudaError_t e = cudaEventRecord(done[current], stream))
      return fail("event", e);
    return "";
  }

private:
  static std::string fail(const char *what, cudaError_t e) {
    return std::string("step graph: ") + what + ": " + cudaGetErrorString(e);
  }

  void *device = nullptr;
  size_t bytes = 0;
  void *host[2] = {nullptr, nullptr};
  cudaEvent_t done[2] = {nullptr, nullptr};
  int current = 1;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaGraphNode_t copy = nullptr;
};

} // namespace imeta::runtime

#endif // IMETA_RUNTIME_STEPGRAPH_H
