//===- ToolSupport.h - what every imeta tool does alike --------*- C++ -*-===//
//
// The command-line conventions of imeta-opt, imeta-gen and imeta-run:
// `--version` names imeta's version and the LLVM it was built with;
// `--help` lists the tool's own options, LLVM's backend options hidden
// (still listed by `--help-hidden`); and one set of exit codes (README,
// "Exit codes").
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TOOLS_COMMON_TOOLSUPPORT_H
#define IMETA_TOOLS_COMMON_TOOLSUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ToolOutputFile.h"

#include <string>

namespace imeta {

/// What a tool's exit code says.
enum ExitCode : int {
  kExitOk = 0,
  /// The batch breaks a rule of SPEC.md or a formula fails on it.
  kExitBatchRefused = 1,
  /// A bad command line, or a file that cannot be read or written, or a
  /// batch file that is not JSON.
  kExitUsage = 2,
  /// The spec does not parse, verify or generate (located diagnostics).
  kExitSpecInvalid = 3,
  /// The generated code did not compile or load: a bug to report.
  kExitInternal = 4,
};

/// A failure and the exit code it calls for.
class ToolError : public llvm::ErrorInfo<ToolError> {
public:
  static char ID;
  ToolError(ExitCode code, std::string message)
      : code(code), text(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  ExitCode code;
  std::string text;
};

/// A ToolError.
llvm::Error toolError(ExitCode code, const llvm::Twine &message);

/// Prints "TOOL: error: MESSAGE"; returns `code`.
int reportError(llvm::StringRef tool, const llvm::Twine &message,
                ExitCode code);

/// Prints `err` as reportError does and returns the exit code it calls
/// for: a ToolError's own, else `otherwise`.
int report(llvm::StringRef tool, llvm::Error err, ExitCode otherwise);

/// Flushes and keeps `file` (an -o output); a failed write (a full disk)
/// is an error naming `path`, and the file is not kept (LLVM would abort
/// with "IO failure on output stream").
llvm::Error keepOutput(llvm::ToolOutputFile &file, llvm::StringRef path);

/// imeta's version ("0.1.0").
llvm::StringRef version();

/// Sets `--version` to print `tool`'s imeta and LLVM versions.
void setVersionPrinter(llvm::StringRef tool);

/// Hides every option registered so far (LLVM's, at static
/// initialization) from `--help`; options registered later (the tool's
/// own, MLIR's pass options) stay listed.
void hideOptionsRegisteredSoFar();

} // namespace imeta

#endif // IMETA_TOOLS_COMMON_TOOLSUPPORT_H
