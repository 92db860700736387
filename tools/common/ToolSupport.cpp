//===- ToolSupport.cpp - what every imeta tool does alike -----------------===//

#include "tools/common/ToolSupport.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

char imeta::ToolError::ID = 0;

Error imeta::toolError(ExitCode code, const Twine &message) {
  return make_error<ToolError>(code, message.str());
}

int imeta::reportError(StringRef tool, const Twine &message, ExitCode code) {
  WithColor::error(errs(), tool) << message << "\n";
  return code;
}

int imeta::report(StringRef tool, Error err, ExitCode otherwise) {
  ExitCode code = otherwise;
  std::string text;
  handleAllErrors(std::move(err), [&](const ErrorInfoBase &e) {
    if (e.isA<ToolError>())
      code = static_cast<const ToolError &>(e).code;
    text += e.message();
  });
  return reportError(tool, text, code);
}

StringRef imeta::version() { return IMETA_VERSION; }

void imeta::setVersionPrinter(StringRef tool) {
  static std::string name;
  name = tool.str();
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << name << " (imeta " << version() << ")\n  built with LLVM "
       << LLVM_VERSION_STRING << "\n";
  });
}

void imeta::hideOptionsRegisteredSoFar() {
  for (auto &[name, option] : cl::getRegisteredOptions()) {
    if (name == "help" || name == "help-hidden" || name == "version")
      continue;
    if (option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
}

llvm::Error imeta::keepOutput(llvm::ToolOutputFile &file,
                              llvm::StringRef path) {
  file.os().flush();
  if (std::error_code ec = file.os().error()) {
    file.os().clear_error();
    std::string where =
        path == "-" ? std::string("standard output") : "'" + path.str() + "'";
    return toolError(kExitUsage, "cannot write " + where + ": " + ec.message());
  }
  file.keep();
  return llvm::Error::success();
}
