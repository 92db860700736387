//===- EmitDriver.h - the generated driver (tools' C ABI) --------*- C++ -*-=//
//
// Private to lib/Lowering. <base>_driver.cpp: the C ABI of imeta-run's
// compiled backends, batch values in, the field file out (EmitDriver.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_EMITDRIVER_H
#define IMETA_LOWERING_EMITDRIVER_H

#include "lib/Lowering/SpecLayout.h"

namespace imeta::emit {

class DriverEmitter {
public:
  explicit DriverEmitter(const SpecLayout &layout) : L(layout) {}
  void emit(CodeStream &cs);

private:
  void emitPrologue(CodeStream &cs);
  void emitNames(CodeStream &cs);
  void emitReadConfig(CodeStream &cs);
  void emitStateOnDevice(CodeStream &cs);
  void emitReadInputs(CodeStream &cs);
  void emitNeededConfig(CodeStream &cs, const PathPlan &plan);
  void emitRunPath(CodeStream &cs, const PathPlan &plan);

  const SpecLayout &L;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_EMITDRIVER_H
