// RUN: imeta-opt %s --imeta-order-host | FileCheck %s

// The host stage: each rule right after the values it reads (rules keep
// their order: spec rules, then the path's), then every other host value
// in dependency order. A path with a recorded order keeps it.

imeta.spec @order {
  imeta.config @w : i32
  imeta.input @q : i32
  imeta.field @count seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.require "R1" "w >= 1" scalar {
    %w = imeta.get_config @w : i32
    %c1 = arith.constant 1 : i32
    %ok = arith.cmpi sge, %w, %c1 : i32
    imeta.yield %ok : i1
  }
  imeta.require "R2" "count >= 1" seq {
    %c = imeta.get @count : i32
    %c1 = arith.constant 1 : i32
    %ok = arith.cmpi sge, %c, %c1 : i32
    imeta.yield %ok : i1
  }
  imeta.prefix_sum @cu = @count : !imeta.prefix<exclusive>
  imeta.field @rows rows(@count) {
    %i = imeta.seq_index : i32
    %s = imeta.prefix_at @cu[%i] : !imeta.prefix<exclusive> -> i32
    imeta.yield %s : i32
  }
  // CHECK-LABEL: imeta.path @p target(cpu)
  // CHECK-SAME: imeta.host = [0, @count, 1, 2, @cu]
  imeta.path @p target(cpu) {
    imeta.require "R3" "w <= 64" scalar {
      %w = imeta.get_config @w : i32
      %c64 = arith.constant 64 : i32
      %ok = arith.cmpi sle, %w, %c64 : i32
      imeta.yield %ok : i1
    }
    imeta.output "rows" = @rows
  }
  // CHECK-LABEL: imeta.path @kept target(cpu)
  // CHECK-SAME: imeta.host = [@count, 0, 1, @cu]
  imeta.path @kept target(cpu) attributes {imeta.host = [@count, 0, 1, @cu]} {
    imeta.output "rows" = @rows
  }
}
