//===- DriverAbi.h - the C ABI of a generated driver ------------*- C++ -*-===//
//
// What `imeta-gen`'s `NAME_driver.cpp` exports and its callers use
// (`imeta-run --backend cpu|cuda` loads it; the GPU tests link it): batch
// values by name in, the field file (SPEC.md §6) or an error out. The one
// definition: the generator emits this text into every driver
// (lib/Lowering/EmitDriver.cpp), so a driver builds on its own.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_RUNTIME_DRIVERABI_H
#define IMETA_RUNTIME_DRIVERABI_H

#include <cstdint>

extern "C" {
/// One config parameter or input: `count` values (a scalar has one; an
/// input one per sequence; a list input its values with `num_offsets` =
/// num_seqs + 1 `offsets`, rising from 0 to `count`; request state one
/// value a slot, or a list's values with `num_offsets` = slots + 1
/// `offsets`). The driver refuses a value outside int32 and a count that
/// does not match, as the evaluator's parser words it; it never narrows a
/// value.
///
/// The contract: `name` is one of the spec's config parameters, ratio sets
/// or inputs, each given once; `data` holds `count` values (not null when
/// `count` > 0; 0 <= count <= 2^26), `offsets` `num_offsets` entries. The
/// driver checks all of that, and every pointer, before it reads or
/// allocates anything; what it cannot see is an array shorter than its
/// count says.
struct imeta_value {
  const char *name;
  const int64_t *data;
  int64_t count;
  const int64_t *offsets;
  /// Entries of `offsets` (read for request state; 0 where not given).
  int64_t num_offsets;
};

/// Runs path `path` on the batch (on the device if `gpu` is 1 and the
/// driver was built with -DIMETA_DRIVER_CUDA; if 2, on the CPU with a GPU
/// path's host stage run as its device stage runs it, one lane: a test of
/// that stage without a GPU; if 3, on the device by the path's device
/// step, docs/device-step.md): 0 and `*json` the field file, or
/// nonzero and `*error` the message. Both stay valid until the next call.
/// `json` and `error` must not be null (the call returns 2 and does
/// nothing else); a null `path`, a negative `num_seqs` or count, a null
/// array with a count above 0 are errors (1). No exception leaves the call
/// (running out of memory is the error "driver: out of memory"). Not
/// reentrant: one call at a time per loaded driver.
/// `capacity`: rows per bucket of every output buffer (0: exactly the rows
/// each needs); an output with a declared fill prints its rows up to the
/// capacity, those past the live ones its fill. An output that needs more
/// rows than a positive capacity is refused with 3 (the request, not the
/// batch, is at fault), as is a mode the path lacks (GPU code, a device
/// stage or a device step).
int imeta_driver_run(const char *path, int32_t num_seqs,
                     const imeta_value *config, int num_config,
                     const imeta_value *inputs, int num_inputs, int gpu,
                     int64_t capacity, const char **json, const char **error);
typedef decltype(&imeta_driver_run) imeta_driver_run_fn;
}

#endif // IMETA_RUNTIME_DRIVERABI_H
