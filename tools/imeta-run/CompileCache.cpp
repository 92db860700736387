//===- CompileCache.cpp - compiled generated code, kept between runs ------===//

#include "CompileCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace imeta;
using llvm::SmallString;
using llvm::StringRef;

/// Bump when what a cache entry holds changes meaning.
static constexpr StringRef kCacheFormat = "imeta-compile-cache 1";

static llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

static std::string inDir(StringRef dir, StringRef name) {
  SmallString<256> p(dir);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

static llvm::Error writeFile(StringRef path, StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return fail("cannot write '" + path + "': " + ec.message());
  os << text;
  return llvm::Error::success();
}

/// Runs `program args...`, its output into `log`; fails with the log.
static llvm::Error compile(StringRef program, llvm::ArrayRef<std::string> args,
                           StringRef log) {
  llvm::SmallVector<StringRef> argv{program};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<StringRef> redirects[] = {std::nullopt, log, log};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, redirects, 0,
                                     0, &message);
  if (rc == 0)
    return llvm::Error::success();
  std::string text;
  if (auto buf = llvm::MemoryBuffer::getFile(log))
    text = (*buf)->getBuffer().take_front(4000).str();
  return fail("compiling the generated code failed (" + program +
              "): " + message + "\n" + text);
}

/// The job's key: everything that decides the object, hashed.
static std::string keyOf(const CompileJob &job) {
  llvm::SHA256 hash;
  auto add = [&](StringRef text) {
    hash.update(text);
    hash.update(StringRef("\0", 1));
  };
  add(kCacheFormat);
  add(job.program);
  for (const std::string &flag : job.flags)
    add(flag);
  for (const auto &[name, text] : job.files) {
    add(name);
    add(*text);
  }
  for (const std::string &name : job.compiled)
    add(name);
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(llvm::ArrayRef<uint8_t>(digest), /*LowerCase=*/true);
}

std::string imeta::compileCacheDir() {
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("IMETA_CACHE_DIR"))
    return *dir;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME"))
    return inDir(*xdg, "imeta");
  if (std::optional<std::string> home = llvm::sys::Process::GetEnv("HOME"))
    return inDir(inDir(*home, ".cache"), "imeta");
  return "";
}

llvm::Expected<BuiltObject> imeta::buildCached(const CompileJob &job) {
  std::string cacheDir = compileCacheDir();
  if (!cacheDir.empty() && llvm::sys::fs::create_directories(cacheDir))
    cacheDir.clear(); // not writable: build without keeping it
  std::string key = keyOf(job);
  std::string cached = cacheDir.empty() ? "" : inDir(cacheDir, key + ".so");
  // Keeping the sources means writing them: compiled again.
  if (!job.keepSources && !cached.empty() && llvm::sys::fs::exists(cached))
    return BuiltObject{cached, false};

  SmallString<128> dir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("imeta-run", dir))
    return fail("cannot create a temporary directory: " + ec.message());
  for (const auto &[name, text] : job.files)
    if (llvm::Error err = writeFile(inDir(dir, name), *text))
      return err;
  // Written aside, then renamed: a concurrent run sees all of it or none.
  SmallString<256> aside;
  std::error_code ec =
      cached.empty()
          ? llvm::sys::fs::createTemporaryFile("imeta-run", "so", aside)
          : llvm::sys::fs::createUniqueFile(
                inDir(cacheDir, key + "-%%%%%%.so.tmp"), aside);
  if (ec)
    return fail("cannot create the compiled code's file: " + ec.message());
  std::string out(aside);
  std::vector<std::string> args = job.flags;
  args.push_back("-o");
  args.push_back(out);
  for (const std::string &name : job.compiled)
    args.push_back(inDir(dir, name));
  if (llvm::errs().is_displayed())
    llvm::errs() << "imeta-run: compiling the generated code (once per "
                 << "spec and compiler"
                 << (cached.empty() ? "" : "; kept in " + cacheDir) << ")\n";
  llvm::Error built = compile(job.program, args, inDir(dir, "compile.log"));
  if (job.keepSources)
    llvm::errs() << "imeta-run: generated code kept in " << dir << "\n";
  else
    llvm::sys::fs::remove_directories(dir);
  if (built) {
    llvm::sys::fs::remove(out);
    return built;
  }
  if (cached.empty())
    return BuiltObject{out, true};
  if (std::error_code ec = llvm::sys::fs::rename(out, cached)) {
    llvm::sys::fs::remove(out);
    return fail("cannot keep the compiled code in '" + cached +
                "': " + ec.message());
  }
  return BuiltObject{cached, false};
}
