//===- TestPasses.h - imeta-opt's analysis test passes ---------*- C++ -*-===//
//
// Passes that report the lowering's analyses as remarks, for lit tests
// (upstream's test/lib convention); registered by imeta-opt only.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TEST_LIB_TESTPASSES_H
#define IMETA_TEST_LIB_TESTPASSES_H

namespace imeta::test {
void registerTestColumnAnalyses();
void registerTestHostPasses();

inline void registerTestPasses() {
  registerTestColumnAnalyses();
  registerTestHostPasses();
}
} // namespace imeta::test

#endif // IMETA_TEST_LIB_TESTPASSES_H
