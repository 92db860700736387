//===- imeta-gen.cpp - spec -> generated .h/.cpp/.cu ----------------------===//
//
// Code generation is issue 3; until then the tool says so and fails, so
// that no build mistakes it for a working generator.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv, "imeta code generator\n");
  llvm::WithColor::error(llvm::errs(), "imeta-gen")
      << "code generation is not implemented yet (issue 3); use imeta-run "
         "for the reference evaluator\n";
  return 1;
}
