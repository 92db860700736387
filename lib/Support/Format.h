//===- Format.h - formatv's syntax without its per-call parse --*- C++ -*-===//
//
// The emitters write a line or an expression for every op of every formula:
// millions for a 1 MB spec. llvm::formatv parses (splits and trims) its
// format string on every call, which was an eighth of imeta-gen's time
// there. imeta::fmt takes the same format strings, `{N}` replacements and
// `{{` for a literal brace, formats each argument with formatv's own
// adapters (so a value prints exactly as formatv prints it) and scans the
// format string once, in place. Layout options (`{0,8}`, `{0:x}`) are not
// supported: no emitter uses them. As in formatv, a `{` followed by another
// before any `}` is text.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_SUPPORT_FORMAT_H
#define IMETA_SUPPORT_FORMAT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadicDetails.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <tuple>

namespace imeta {
namespace detail {
using FormatArg = llvm::support::detail::format_adapter *;

/// Writes `format` to `os`, `{N}` replaced by args[N], `{{` by `{`.
inline void writeFormat(llvm::raw_ostream &os, llvm::StringRef format,
                        llvm::ArrayRef<FormatArg> args) {
  while (!format.empty()) {
    size_t brace = format.find('{');
    os << format.take_front(brace);
    if (brace == llvm::StringRef::npos)
      return;
    format = format.drop_front(brace + 1);
    if (format.consume_front("{")) {
      os << '{';
      continue;
    }
    size_t close = format.find('}');
    // A brace with another before its close is text (`{ {0}; }`).
    if (size_t reopen = format.find('{'); reopen < close) {
      os << '{' << format.take_front(reopen);
      format = format.drop_front(reopen);
      continue;
    }
    unsigned index = 0;
    if (close == llvm::StringRef::npos ||
        format.take_front(close).trim().getAsInteger(10, index) ||
        index >= args.size())
      llvm::report_fatal_error("imeta::fmt: a replacement other than {N} "
                               "with N below the argument count");
    args[index]->format(os, "");
    format = format.drop_front(close + 1);
  }
}
} // namespace detail

/// Streams `format` with its arguments (llvm::formatv's syntax, see above).
template <typename... Ts>
void writeFormat(llvm::raw_ostream &os, llvm::StringRef format, Ts &&...args) {
  auto adapters = std::make_tuple(
      llvm::support::detail::build_format_adapter(std::forward<Ts>(args))...);
  std::apply(
      [&](auto &...adapter) {
        detail::FormatArg list[] = {&adapter..., nullptr};
        detail::writeFormat(os, format, llvm::ArrayRef(list, sizeof...(Ts)));
      },
      adapters);
}

/// The text of `format` with its arguments (llvm::formatv's syntax).
template <typename... Ts>
std::string fmt(llvm::StringRef format, Ts &&...args) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writeFormat(os, format, std::forward<Ts>(args)...);
  return text;
}

} // namespace imeta

#endif // IMETA_SUPPORT_FORMAT_H
