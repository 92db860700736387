// RUN: imeta-opt %s --imeta-split-resolves --split-input-file --verify-diagnostics | FileCheck %s

// A path that resolves inputs gets a first stage, @P_resolve: a CPU path
// that outputs the resolving fields (a list's rows and their count) and
// checks the rules that read state; the rest stay with @P, now marked.

// CHECK-LABEL: imeta.spec @split
imeta.spec @split {
  imeta.config @cap : i32
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @ids : !imeta.list
  imeta.input @slot : i32 {min = -1 : i64, optional}
  imeta.input @len : i32 {slot = @slot, min = 0 : i64, optional}
  imeta.field @q_of seq = "1 + len"
  imeta.field @ids_of rows(@q_of) = "j"
  imeta.field @qf seq = "q"
  imeta.field @pos rows(@qf) = "ids[j]"
  imeta.path @base target(cpu) {
    imeta.require "R" "q <= cap" seq = "qf <= cap"
    imeta.output "pos" = @pos
  }
  // CHECK: imeta.path @slotted target(cpu) extends @base needs [@slot, @len] attributes {imeta.resolved_by = @slotted_resolve}
  imeta.path @slotted target(cpu) extends @base needs [@slot, @len] {
    imeta.require "S" "len <= cap" seq = "len <= cap"
    imeta.resolve @q = @q_of
    imeta.resolve @ids = @ids_of
  }
  // CHECK: imeta.path @slotted_resolve target(cpu) needs [@slot, @len] attributes {imeta.resolve_stage = @slotted}
  // CHECK-NEXT: imeta.require "S" "len <= cap" seq
  // CHECK-NOT: imeta.require
  // CHECK: imeta.output "q" = @q_of
  // CHECK-NEXT: imeta.output "ids" = @ids_of
  // CHECK-NEXT: imeta.output "ids_count" = @q_of
  // CHECK-NEXT: }
}

// -----

// The stage's name is taken: an error at the resolving path.
imeta.spec @taken {
  imeta.input @q : i32
  imeta.field @one seq = "1"
  // expected-error @below {{resolves inputs, and its first stage is the path @p_resolve, a name the spec already uses; rename that}}
  imeta.path @p target(cpu) {
    imeta.resolve @q = @one
    imeta.output "one" = @one
  }
  imeta.path @p_resolve target(cpu) {
    imeta.output "one" = @one
  }
}
