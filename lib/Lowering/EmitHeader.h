//===- EmitHeader.h - the generated public header ----------------*- C++ -*-=//
//
// Private to lib/Lowering. <base>.h: the configuration, the inputs, each
// path's output buffers and entry points (EmitHeader.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_LOWERING_EMITHEADER_H
#define IMETA_LOWERING_EMITHEADER_H

#include "lib/Lowering/SpecLayout.h"

namespace imeta::emit {

class HeaderEmitter {
public:
  explicit HeaderEmitter(const SpecLayout &layout) : L(layout) {}
  void emit(CodeStream &cs);

private:
  void emitConfig(CodeStream &cs);
  void emitListTable(CodeStream &cs);
  void emitListTableMembers(CodeStream &cs);
  void emitSequences(CodeStream &cs);
  void emitPathApi(CodeStream &cs, const PathPlan &plan);

  const SpecLayout &L;
};

} // namespace imeta::emit

#endif // IMETA_LOWERING_EMITHEADER_H
