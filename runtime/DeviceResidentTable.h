//===- DeviceResidentTable.h - a ResidentTable with its device rows -*- C++ -*-===//
//
// ResidentTable plus the device copy of its rows, allocated once at
// construction (rows x max_len values: graph-safe, never reallocated) and
// kept current by the GPU stages that read it (ResidentTable.h says how).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_RUNTIME_DEVICERESIDENTTABLE_H
#define IMETA_RUNTIME_DEVICERESIDENTTABLE_H

#include "ResidentTable.h"

#include <cuda_runtime.h>

namespace imeta::runtime {

template <typename ListTable>
class DeviceResidentTable : public ResidentTable<ListTable> {
public:
  DeviceResidentTable(std::string name, int32_t rows, int32_t maxLen,
                      int32_t bound)
      : ResidentTable<ListTable>(std::move(name), rows, maxLen, bound) {
    size_t bytes = size_t(this->rows()) * size_t(this->rowCapacity()) * 4;
    status = cudaMalloc(&device, bytes ? bytes : 4);
    if (status == cudaSuccess)
      status = cudaMemset(device, 0, bytes ? bytes : 4);
  }
  DeviceResidentTable(const DeviceResidentTable &) = delete;
  DeviceResidentTable &operator=(const DeviceResidentTable &) = delete;
  ~DeviceResidentTable() {
    if (device)
      cudaFree(device);
  }

  /// cudaSuccess unless the device rows could not be allocated.
  cudaError_t allocation() const { return status; }
  /// The view a GPU path's stage takes (its kernels keep the rows current).
  ListTable gpuView() { return ResidentTable<ListTable>::gpuView(device); }

private:
  int32_t *device = nullptr;
  cudaError_t status = cudaSuccess;
};

} // namespace imeta::runtime

#endif // IMETA_RUNTIME_DEVICERESIDENTTABLE_H
