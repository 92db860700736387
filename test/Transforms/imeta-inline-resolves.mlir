// RUN: imeta-opt %s --split-input-file --verify-diagnostics --imeta-inline-resolves=path=slotted | FileCheck %s

// A path that resolves inputs reads them in place: every read of a
// resolved input in the formulas the path reads is a read of its field (a
// list's length its row count, a load the field's formula at that row,
// checked in the load's words). The path stands alone, its rules in the
// evaluator's order (the rules that read state, then the resolved
// inputs' minimums, then the rest); the other paths are gone.

// CHECK-LABEL: imeta.spec @inlined
imeta.spec @inlined {
  imeta.config @cap : i32
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @ids : !imeta.list {min = 0 : i64}
  imeta.input @slot : i32 {optional}
  imeta.input @len : i32 {slot = @slot, min = 0 : i64, optional}
  imeta.input @tok : !imeta.list {slot = @slot, optional}
  imeta.field @q_of seq = "1 + len"
  imeta.field @ids_count seq = "slot >= 0 ? len(tok) : 0"
  imeta.field @ids_of rows(@ids_count) = "tok[j] + 1"
  imeta.field @qf seq = "q"
  imeta.field @pos rows(@qf) = "ids[j % len(ids)]"
  imeta.path @base target(cpu) {
    imeta.require "R" "q <= cap" seq = "qf <= cap"
    imeta.output "pos" = @pos
  }
  imeta.path @slotted target(cpu) extends @base needs [@slot, @len, @tok] {
    imeta.require "S" "len <= cap" seq = "len <= cap"
    imeta.resolve @q = @q_of
    imeta.resolve @ids = @ids_of
  }
  // A read keeps the input's name for a broken rule's message:
  // CHECK: imeta.field @qf seq {
  // CHECK-NEXT: imeta.get @q_of {imeta.read_as = "q"} : i32
  // CHECK: imeta.field @pos rows(@qf) {
  // CHECK: imeta.get @ids_count {imeta.read_as = "len(ids)"} : i32
  // An element's count names nothing the formula wrote:
  // CHECK: imeta.get @ids_count {imeta.read_as = ""} : i32
  // CHECK: %[[AT:.*]] = imeta.check_index %{{.*}}, %{{.*}}, "'ids'" : i32
  // CHECK: imeta.load @tok[%[[AT]]] : i32
  // The first element of the resolved list below its minimum (counted
  // back from the row count) and its value:
  // CHECK: imeta.field @ids_below_min rows(@ids_count)
  // CHECK: imeta.field @ids_first_low seq
  // CHECK: imeta.field @ids_low_value seq
  // CHECK-NOT: imeta.path @base
  // CHECK: imeta.path @slotted target(cpu) needs [@slot, @len, @tok] attributes {imeta.inlined_resolves = [@q, @ids]} {
  // CHECK-NEXT: imeta.require "S" "len <= cap" seq
  // CHECK: imeta.require "bounds" "the resolved inputs' minimums" seq attributes {imeta.resolved_bounds = [{input = @q, min = 1 : i64, value = @q_of}, {count = @ids_count, first = @ids_first_low, input = @ids, min = 0 : i64, value = @ids_low_value}], imeta.schedule_after = [@q_of, @ids_count, @ids_low_value]}
  // CHECK: imeta.require "R" "q <= cap" seq
  // CHECK: imeta.output "pos" = @pos
  // CHECK-NOT: imeta.resolve
}

// -----

// A resolved list read by count() has no single row to stand for it.
imeta.spec @counted {
  imeta.input @ids : !imeta.list
  imeta.input @slot : i32 {optional}
  imeta.input @tok : !imeta.list {slot = @slot, optional}
  imeta.field @ids_count seq = "len(tok)"
  imeta.field @ids_of rows(@ids_count) = "tok[j]"
  imeta.field @hits seq = "count(ids, 0, len(ids), 5, 5)"
  imeta.path @base target(cpu) {
    imeta.output "hits" = @hits
  }
  // expected-error @+1 {{resolves inputs that cannot be read in place: 'ids' is read by count() in field 'hits'}}
  imeta.path @slotted target(cpu) extends @base needs [@slot, @tok] {
    imeta.resolve @ids = @ids_of
  }
}

// -----

// A resolving rows field that yields its row index itself: a load of the
// list at u is u, checked against the row count.
// CHECK-LABEL: imeta.spec @rowindex
imeta.spec @rowindex {
  imeta.input @ids : !imeta.list
  imeta.input @slot : i32 {optional}
  imeta.input @rows : i32 {slot = @slot, optional}
  imeta.field @ids_count seq = "rows"
  imeta.field @ids_of rows(@ids_count) = "j"
  imeta.field @third seq = "ids[2]"
  imeta.path @base target(cpu) {
    imeta.output "third" = @third
  }
  // CHECK: imeta.field @third seq {
  // CHECK: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK: %[[AT:.*]] = imeta.check_index %[[C2]], %{{.*}}, "'ids'" : i32
  // CHECK-NEXT: imeta.yield %[[AT]] : i32
  imeta.path @slotted target(cpu) extends @base needs [@slot, @rows] {
    imeta.resolve @ids = @ids_of
  }
}

