//===- BatchJson.cpp - a batch file's text as JSON, within limits ---------===//

#include "lib/Eval/BatchJson.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

using namespace llvm;

namespace imeta {
namespace {

/// One pass over the text: strings skipped (their escapes too), nesting
/// counted, numbers and object keys looked at.
class Scanner {
public:
  explicit Scanner(StringRef text) : text(text) {}

  Error scan() {
    while (pos < text.size()) {
      char c = text[pos];
      // A value starts here: a string, a number, a literal, a container.
      if (c == '"' || c == '{' || c == '[' || c == '-' ||
          (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n') {
        if (++values > kMaxBatchValues)
          return fail(pos, formatv("more than {0} values (the limit of a "
                                   "batch file)",
                                   kMaxBatchValues));
      }
      if (c == '"') {
        size_t start = pos;
        if (Error e = skipString())
          return e;
        if (Error e = noteKey(start))
          return e;
        continue;
      }
      if (c == '{' || c == '[') {
        if (objects.size() == size_t(kMaxBatchDepth))
          return fail(pos, formatv("nested more than {0} deep (the limit "
                                   "of a batch file)",
                                   kMaxBatchDepth));
        if (c == '{' && ++numObjects > kMaxBatchObjects)
          return fail(pos, formatv("more than {0} objects (the limit of a "
                                   "batch file)",
                                   kMaxBatchObjects));
        objects.emplace_back();
        isObject.push_back(c == '{');
        expectKey = c == '{';
      } else if (c == '}' || c == ']') {
        if (!objects.empty()) {
          objects.pop_back();
          isObject.pop_back();
        }
        expectKey = false;
      } else if (c == ',') {
        expectKey = !isObject.empty() && isObject.back();
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (Error e = number())
          return e;
        continue;
      }
      ++pos;
    }
    return Error::success();
  }

private:
  Error skipString() {
    for (++pos; pos < text.size(); ++pos) {
      if (text[pos] == '\\')
        ++pos;
      else if (text[pos] == '"') {
        ++pos;
        return Error::success();
      }
    }
    return Error::success(); // unterminated: llvm::json says where
  }

  /// The string at `start` is an object's key: a second one of the same
  /// text in that object is an error, however either is spelled
  /// ("state_id" and "state\u005fid" are one key).
  Error noteKey(size_t start) {
    if (!expectKey)
      return Error::success();
    expectKey = false;
    StringRef raw = text.slice(start + 1, pos - 1);
    std::string key = raw.str();
    if (raw.contains('\\')) {
      Expected<json::Value> unescaped = json::parse(text.slice(start, pos));
      if (!unescaped) {
        consumeError(unescaped.takeError());
        return Error::success(); // a bad escape: llvm::json says where
      }
      key = unescaped->getAsString().value_or(raw).str();
    }
    if (!objects.back().insert(key).second)
      return fail(start, formatv("key \"{0}\" appears twice in one object",
                                 StringRef(key).take_front(64)));
    return Error::success();
  }

  /// A number; one with a fraction or an exponent is noted, one with a
  /// leading zero (03: not JSON, and read as 3 otherwise) refused.
  Error number() {
    size_t start = pos;
    if (text[pos] == '-')
      ++pos;
    if (pos + 1 < text.size() && text[pos] == '0' && text[pos + 1] >= '0' &&
        text[pos + 1] <= '9')
      return fail(start, "a number with a leading zero is not JSON (write "
                         "it without the zero)");
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
      ++pos;
    if (pos < text.size() &&
        (text[pos] == '.' || text[pos] == 'e' || text[pos] == 'E')) {
      while (pos < text.size() &&
             StringRef("0123456789.eE+-").contains(text[pos]))
        ++pos;
      notIntegers.push_back({start, pos});
    }
    return Error::success();
  }

public:
  /// The numbers written with a fraction or an exponent, [begin, end).
  SmallVector<std::pair<size_t, size_t>, 4> notIntegers;

private:
  Error fail(size_t at, const Twine &what) {
    size_t line = 1 + text.take_front(at).count('\n');
    size_t lineStart = text.take_front(at).rfind('\n');
    size_t col = at - (lineStart == StringRef::npos ? 0 : lineStart + 1) + 1;
    return createStringError(
        formatv("line {0}, column {1}: {2}", line, col, what.str()).str());
  }

  StringRef text;
  size_t pos = 0;
  SmallVector<StringSet<>, 8> objects; ///< per open bracket, its keys
  SmallVector<bool, 8> isObject;
  bool expectKey = false;
  int64_t values = 0;
  int64_t numObjects = 0;
};

} // namespace

Expected<json::Value> parseBatchJson(StringRef text) {
  if (text.size() > kMaxBatchBytes)
    return createStringError(formatv("{0} bytes, more than a batch file may "
                                     "hold ({1})",
                                     text.size(), kMaxBatchBytes)
                                 .str());
  Scanner scanner(text);
  if (Error e = scanner.scan())
    return std::move(e);
  // A number with a fraction or an exponent becomes a string: the batch's
  // checks then refuse it where an integer is due, naming the key and the
  // rule, as they refuse 8.5 (llvm::json would read 64.0 as 64).
  std::string quoted;
  if (!scanner.notIntegers.empty()) {
    size_t from = 0;
    for (auto [begin, end] : scanner.notIntegers) {
      quoted += text.slice(from, begin);
      quoted += '"';
      quoted += text.slice(begin, end);
      quoted += '"';
      from = end;
    }
    quoted += text.drop_front(from);
    text = quoted;
  }
  Expected<json::Value> value = json::parse(text);
  if (!value)
    return createStringError("not JSON: " + toString(value.takeError()));
  return value;
}

} // namespace imeta
