//===- CompileCache.h - compiled generated code, kept between runs -*- C++ -*-//
//
// imeta-run's compiled backends build the generated code of a spec into a
// shared object. The object is kept under a cache directory, named by a
// SHA-256 of everything that determines it (the compiler, its flags, the
// names and texts of the sources), so a second run on the same spec and
// compiler loads it instead of compiling (Triton's on-disk cache does the
// same for kernels). The directory is $IMETA_CACHE_DIR, else
// $XDG_CACHE_HOME/imeta, else $HOME/.cache/imeta; an entry appears whole
// (written aside, then renamed), so concurrent runs never load half of one.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_TOOLS_IMETARUN_COMPILECACHE_H
#define IMETA_TOOLS_IMETARUN_COMPILECACHE_H

#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace imeta {

/// One shared object to build: `program flags -o OUT sources...`.
struct CompileJob {
  std::string program;
  std::vector<std::string> flags;
  /// Every file the compiler reads (name, text: the caller's, alive while
  /// the job builds), written side by side; the ones in `compiled` are
  /// named on its command line, in that order.
  std::vector<std::pair<std::string, const std::string *>> files;
  std::vector<std::string> compiled;
  /// Keep the written sources (their directory is printed).
  bool keepSources = false;
};

/// The cache directory ("" where no variable names one).
std::string compileCacheDir();

/// A built shared object.
struct BuiltObject {
  std::string path;
  bool temporary = false; ///< not cached: the caller removes it once loaded
};

/// `job`'s shared object: the cached one where the same job was built
/// before, else built now (a progress line on a terminal's stderr) and
/// kept. Without a usable cache directory it is built as a temporary
/// file, every time.
llvm::Expected<BuiltObject> buildCached(const CompileJob &job);

} // namespace imeta

#endif // IMETA_TOOLS_IMETARUN_COMPILECACHE_H
