//===- ResidentTable.h - a resident list input's rows, kept across steps -*- C++ -*-===//
//
// The table a `resident` list input (the block table) is read from when
// imeta owns it: `rows x max_len` values allocated once, rows changed by
// deltas (assign, append, truncate, free) as the scheduler changes them.
// Every value a delta writes is checked once, there, against [min, bound)
// (the spec's minimum: block ids >= 0; below the KV pool's size), and a
// delta to a free row (append, truncate, free) or one that would
// break a rule or overflow a row is refused whole, naming the row, the
// value and the rule: nothing changes. So a step never scans the values.
//
// The rows live on the host (what CPU paths read: `cpuView`) and, once a
// GPU path reads them, on the device: `gpuView` hands the generated stage
// the device rows plus per-row marks of the first column changed since the
// device last received the row. The stage sends exactly those values in
// its one host-to-device copy and its kernel writes them into the device
// rows before reading; the stage then clears the marks of the rows it
// sent. Rows no step reads stay marked until one does.
//
// Header-only, no CUDA: DeviceResidentTable.h adds the device rows. One
// thread at a time.
//
//===----------------------------------------------------------------------===//

#ifndef IMETA_RUNTIME_RESIDENTTABLE_H
#define IMETA_RUNTIME_RESIDENTTABLE_H

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace imeta::runtime {

/// `ListTable` is the generated header's table view (e.g.
/// imeta_gen::deepinfer_v4::ListTable).
template <typename ListTable> class ResidentTable {
public:
  /// `name` is the resident list input's: values lie in [min, bound), its
  /// min the spec's (the generated header's resident_min, found through
  /// ListTable's namespace), `bound` the engine's (the KV pool's blocks).
  /// A name that is no resident list of the spec: every delta is refused.
  ResidentTable(std::string name, int32_t rows, int32_t maxLen, int32_t bound)
      : name(std::move(name)), numRows(std::max(rows, 0)),
        maxLen(std::max(maxLen, 0)), bound(bound),
        values(size_t(numRows) * size_t(this->maxLen), 0),
        lengths(size_t(numRows), 0), dirty(size_t(numRows), INT32_MAX),
        live(size_t(numRows), false) {
    known = resident_min(this->name, ListTable{}, min);
  }

  int32_t rows() const { return numRows; }
  int32_t rowCapacity() const { return maxLen; }
  int32_t length(int32_t row) const { return lengths[size_t(row)]; }
  const int32_t *row(int32_t row) const {
    return values.data() + size_t(row) * size_t(maxLen);
  }

  /// Row `row` becomes `ids` (a sequence joins, or its table is rebuilt).
  std::string assign(int32_t row, const int32_t *ids, int32_t n) {
    if (std::string e = check(row, "assign", ids, n, 0); !e.empty())
      return e;
    write(row, 0, ids, n);
    live[size_t(row)] = true;
    return "";
  }
  /// Appends `ids` to row `row` (a sequence crossed into new blocks).
  std::string append(int32_t row, const int32_t *ids, int32_t n) {
    if (std::string e = checkLive(row, "append"); !e.empty())
      return e;
    if (std::string e = check(row, "append", ids, n, lengths[size_t(row)]);
        !e.empty())
      return e;
    write(row, lengths[size_t(row)], ids, n);
    return "";
  }
  /// Keeps the first `len` values of row `row` (speculative rollback).
  std::string truncate(int32_t row, int32_t len) {
    if (std::string e = checkLive(row, "truncate"); !e.empty())
      return e;
    if (len < 0 || len > lengths[size_t(row)])
      return "'" + name + "': truncate row " + std::to_string(row) + " to " +
             std::to_string(len) + ": the row holds " +
             std::to_string(lengths[size_t(row)]) + " values";
    lengths[size_t(row)] = len;
    return "";
  }
  /// Empties row `row` (its sequence finished); a free row (freed, or
  /// never assigned) cannot be freed.
  std::string free(int32_t row) {
    if (std::string e = checkLive(row, "free"); !e.empty())
      return e;
    lengths[size_t(row)] = 0;
    live[size_t(row)] = false;
    return "";
  }
  /// Whether row `row` holds a sequence's values (assigned, not freed).
  bool isLive(int32_t row) const {
    return row >= 0 && row < numRows && live[size_t(row)];
  }

  /// The host rows, for CPU paths.
  ListTable cpuView() const {
    ListTable t;
    t.host = values.data();
    t.lengths = lengths.data();
    t.row_stride = maxLen;
    t.num_rows = numRows;
    t.bound = bound;
    t.values_checked = known; // each value was checked as it was written
    return t;
  }
  /// The rows for a GPU path: `deviceRows` (rows x max_len values, this
  /// table's alone), the host rows and the marks the stage sends from.
  ListTable gpuView(const int32_t *deviceRows) {
    ListTable t = cpuView();
    t.device = deviceRows;
    t.dirty_from = dirty.data();
    return t;
  }
  /// Values the device has yet to receive, over all rows (for reports).
  int64_t pendingValues() const {
    int64_t n = 0;
    for (int32_t r = 0; r < numRows; ++r)
      n += std::max(0, lengths[size_t(r)] - std::max(0, dirty[size_t(r)]));
    return n;
  }

private:
  std::string checkRow(int32_t row, const char *what) const {
    if (!known)
      return "'" + name + "': " + what + ": no resident list input of the "
             "spec has this name";
    if (row < 0 || row >= numRows)
      return "'" + name + "': " + what + " row " + std::to_string(row) +
             ": the table has " + std::to_string(numRows) + " rows";
    return "";
  }
  /// A row that holds a sequence's values (assign made it so, free undid it).
  std::string checkLive(int32_t row, const char *what) const {
    if (std::string e = checkRow(row, what); !e.empty())
      return e;
    if (!live[size_t(row)])
      return "'" + name + "': " + what + " row " + std::to_string(row) +
             ": the row is free (never assigned, or freed)";
    return "";
  }
  /// `n` values from `ids` at column `at` of `row`: row, room, range.
  std::string check(int32_t row, const char *what, const int32_t *ids,
                    int32_t n, int32_t at) const {
    if (std::string e = checkRow(row, what); !e.empty())
      return e;
    if (n < 0 || (n > 0 && !ids))
      return "'" + name + "': " + what + " to row " + std::to_string(row) +
             ": no values";
    if (int64_t(at) + n > maxLen)
      return "'" + name + "': " + what + " to row " + std::to_string(row) +
             ": " + std::to_string(int64_t(at) + n) +
             " values overflow the row's " + std::to_string(maxLen);
    for (int32_t k = 0; k < n; ++k)
      if (ids[k] < min || ids[k] >= bound)
        return "'" + name + "': " + what + " to row " + std::to_string(row) +
               ": value " + std::to_string(ids[k]) + " (index " +
               std::to_string(k) + " of the delta) is outside [" +
               std::to_string(min) + ", " + std::to_string(bound) + ")";
    return "";
  }
  void write(int32_t row, int32_t at, const int32_t *ids, int32_t n) {
    std::copy(ids, ids + n, values.begin() + size_t(row) * maxLen + at);
    lengths[size_t(row)] = at + n;
    int32_t &d = dirty[size_t(row)];
    d = std::min(d, at);
  }

  std::string name;
  int32_t numRows, maxLen, bound, min = 0;
  bool known = false; ///< `name` is a resident list of the spec
  std::vector<int32_t> values, lengths, dirty;
  std::vector<bool> live;
};

} // namespace imeta::runtime

#endif // IMETA_RUNTIME_RESIDENTTABLE_H
