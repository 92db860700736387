// RUN: imeta-opt %s --imeta-drop-unused-fields | FileCheck %s

// Fields reached from a path output, a rule, a row count, a live count or
// a prefix sum stay; the rest go.

// CHECK-LABEL: imeta.spec @drop
imeta.spec @drop {
  imeta.config @w : i32
  imeta.input @q : i32
  // CHECK: imeta.field @count
  imeta.field @count seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  // CHECK: imeta.field @checked
  imeta.field @checked seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  // CHECK: imeta.require
  imeta.require "R" "checked >= 0" seq {
    %c = imeta.get @checked : i32
    %z = arith.constant 0 : i32
    %ok = arith.cmpi sge, %c, %z : i32
    imeta.yield %ok : i1
  }
  // CHECK: imeta.prefix_sum @cu
  imeta.prefix_sum @cu = @count : !imeta.prefix<exclusive>
  // CHECK-NOT: imeta.prefix_sum @unused_sum
  imeta.prefix_sum @unused_sum = @count : !imeta.prefix<inclusive>
  // CHECK: imeta.field @out rows(@count) cols(@w) live(@count)
  imeta.field @out rows(@count) cols(@w) live(@count) {
    %i = imeta.seq_index : i32
    %s = imeta.prefix_at @cu[%i] : !imeta.prefix<exclusive> -> i32
    imeta.yield %s : i32
  }
  // CHECK-NOT: imeta.field @dead
  imeta.field @dead seq {
    %c = imeta.get @count : i32
    imeta.yield %c : i32
  }
  // CHECK: imeta.path @p
  imeta.path @p target(cpu) {
    imeta.output "out" = @out
  }
}

// The shipped spec keeps only what its paths and rules read: nothing is dead.
// RUN: imeta-opt %specs/deepinfer_v4.mlir --imeta-expand-formulas > %t.before.mlir
// RUN: imeta-opt %specs/deepinfer_v4.mlir --imeta-drop-unused-fields > %t.after.mlir
// RUN: diff %t.before.mlir %t.after.mlir
