//===- CodeStream.h - an indented output stream for emitters ----*- C++ -*-===//

#ifndef IMETA_LOWERING_CODESTREAM_H
#define IMETA_LOWERING_CODESTREAM_H

#include "lib/Support/Format.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace imeta {

/// Writes lines at the current indentation; `{`/`}` blocks via Scope.
class CodeStream {
public:
  explicit CodeStream(llvm::raw_ostream &os, unsigned indent = 0)
      : os(os), indent(indent) {}

  /// The current indentation, in levels (for a stream whose text another
  /// stream takes later, at that depth).
  unsigned level() const { return indent; }

  /// Writes one line at the current indentation, verbatim.
  void line(llvm::StringRef text) { os.indent(columns()) << text << "\n"; }
  /// Writes one formatted line (imeta::fmt; a literal brace is `{{`).
  template <typename T, typename... Ts>
  void line(llvm::StringRef format, T &&arg, Ts &&...args) {
    os.indent(columns());
    writeFormat(os, format, std::forward<T>(arg), std::forward<Ts>(args)...);
    os << "\n";
  }
  void blank() { os << "\n"; }
  void raw(llvm::StringRef text) { os << text; }

  /// Opens `head {` and closes `}` (plus `tail`) at the end of the scope.
  class Scope {
  public:
    Scope(CodeStream &cs, const std::string &head, std::string tail = "")
        : cs(cs), tail(std::move(tail)) {
      cs.line("{0} {{", head);
      ++cs.indent;
    }
    ~Scope() {
      --cs.indent;
      cs.line("}{0}", tail);
    }

  private:
    CodeStream &cs;
    std::string tail;
  };

private:
  llvm::raw_ostream &os;
  unsigned indent;
  /// Nesting deeper than this is written flush with it: the output stays
  /// linear in a deeply nested formula's size.
  static constexpr unsigned kMaxIndent = 16;
  unsigned columns() const { return 2 * std::min(indent, kMaxIndent); }
};

} // namespace imeta

#endif // IMETA_LOWERING_CODESTREAM_H
