//===- FormatTest.cpp - imeta::fmt prints what llvm::formatv prints -------===//

#include "lib/Support/Format.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

// Every shape of format string the emitters write, and the corners of
// formatv's syntax they lean on: `{{`, a lone `}`, a brace with another
// before its close (text), spaces inside a replacement, repeats, order.
TEST(FormatTest, SameTextAsFormatv) {
  const char *formats[] = {"{0}",
                           "{0} = {1};",
                           "{ {0}; {1} = true; }",
                           "{0}}",
                           "{ 0 }",
                           "{{0}",
                           "}{0}",
                           "{0} {{ }} {1}",
                           "{0 }",
                           "if (x) { {0} }",
                           "{1}{0}{1}",
                           "a{{{0}}}",
                           "no braces",
                           "",
                           "Range{ {0}, {1} };"};
  for (const char *format : formats)
    EXPECT_EQ(imeta::fmt(format, "A", 7), llvm::formatv(format, "A", 7).str())
        << "format: " << format;
}

TEST(FormatTest, EachArgumentAsFormatvPrintsIt) {
  bool yes = true;
  int64_t negative = INT64_MIN;
  unsigned count = 3;
  llvm::StringRef ref = "ref";
  std::string text = "text";
  const char *format = "{0} {1} {2} {3} {4} {5} {6}";
  EXPECT_EQ(
      imeta::fmt(format, yes, negative, count, ref, text, 'c', -1),
      llvm::formatv(format, yes, negative, count, ref, text, 'c', -1).str());
}

TEST(FormatTest, StreamsInPlace) {
  std::string out;
  llvm::raw_string_ostream os(out);
  imeta::writeFormat(os, "x{0}y{1}", 1, "z");
  EXPECT_EQ(out, "x1yz");
}

} // namespace
