// RUN: imeta-opt %s | imeta-opt | FileCheck %s
// RUN: imeta-opt %s --mlir-print-op-generic | imeta-opt | FileCheck %s

// Every declaration and formula op survives printing and re-parsing.

// CHECK-LABEL: imeta.spec @all_ops
imeta.spec @all_ops {
  // CHECK: imeta.config @B : i32 {min = 1 : i64, rule = "R1"}
  imeta.config @B : i32 {min = 1 : i64, rule = "R1"}
  // CHECK: imeta.config @flag : i1
  imeta.config @flag : i1
  // CHECK: imeta.ratios @dense {rule = "R1"}
  imeta.ratios @dense {rule = "R1"}
  imeta.ratios @sparse
  // CHECK: imeta.ratio_union @all = [@dense, @sparse]
  imeta.ratio_union @all = [@dense, @sparse]
  // CHECK: imeta.config @num_pools : i32
  imeta.config @num_pools : i32
  // CHECK: imeta.axis @pools = @num_pools {rule = "R1"}
  imeta.axis @pools = @num_pools {rule = "R1"}
  // CHECK: imeta.input @len : i32 {min = 1 : i64}
  imeta.input @len : i32 {min = 1 : i64}
  // CHECK: imeta.input @table : !imeta.list {optional}
  imeta.input @table : !imeta.list {optional}
  // CHECK: imeta.input @rows : !imeta.list {min = 0 : i64, resident}
  imeta.input @rows : !imeta.list {min = 0 : i64, resident}

  // CHECK: imeta.field @held seq {
  // CHECK: imeta.clamp %{{.*}}, %{{.*}}, %{{.*}} : i32
  imeta.field @held seq {
    %l = imeta.get_input @len : i32
    %z = arith.constant 0 : i32
    %b = imeta.get_config @B : i32
    %h = imeta.clamp %l, %z, %b : i32
    imeta.yield %h : i32
  }

  // CHECK: imeta.field @longest scalar {
  // CHECK: imeta.reduce max @held : i32
  // CHECK: imeta.reduce sum @held : i32
  // CHECK: imeta.reduce min @held : i32
  imeta.field @longest scalar {
    %m = imeta.reduce max @held : i32
    %s = imeta.reduce sum @held : i32
    %n = imeta.reduce min @held : i32
    %a = arith.addi %m, %s : i32
    %r = arith.addi %a, %n : i32
    imeta.yield %r : i32
  }

  // A sequence's rows reduced (what imeta.reduce of a rows field becomes).
  // CHECK: imeta.field @widest_row seq {
  // CHECK:   %[[N:.*]] = imeta.get @held : i32
  // CHECK:   imeta.reduce_rows max %[[N]] : i32 {
  // CHECK:   ^bb0(%[[R:.*]]: i32):
  // CHECK:     imeta.yield %[[R]] : i32
  // CHECK:   }
  imeta.field @widest_row seq {
    %n = imeta.get @held : i32
    %m = imeta.reduce_rows max %n : i32 {
    ^bb0(%r: i32):
      imeta.yield %r : i32
    }
    imeta.yield %m : i32
  }

  // CHECK: imeta.require "R9" "len <= B" seq {
  imeta.require "R9" "len <= B" seq {
    %l = imeta.get_input @len : i32
    %b = imeta.get_config @B : i32
    %ok = arith.cmpi sle, %l, %b : i32
    imeta.yield %ok : i1
  }
  // CHECK: imeta.field @count seq over @all {
  imeta.field @count seq over @all {
    // CHECK: imeta.seq_index : i32
    %i = imeta.seq_index : i32
    // CHECK: imeta.ratio : i32
    %n = imeta.ratio : i32
    // CHECK: imeta.length @table : i32
    %t = imeta.length @table : i32
    %x = arith.addi %i, %n : i32
    %y = arith.addi %x, %t : i32
    imeta.yield %y : i32
  }
  // CHECK: imeta.prefix_sum @cu = @count : !imeta.prefix<exclusive>
  imeta.prefix_sum @cu = @count : !imeta.prefix<exclusive>
  // CHECK: imeta.prefix_sum @ends = @count : !imeta.prefix<inclusive>
  imeta.prefix_sum @ends = @count : !imeta.prefix<inclusive>
  // CHECK: imeta.field @rowsf rows(@count) over @dense {
  imeta.field @rowsf rows(@count) over @dense {
    // CHECK: imeta.row_index : i32
    %j = imeta.row_index : i32
    // CHECK: imeta.row : i32
    %r = imeta.row : i32
    %i = imeta.seq_index : i32
    // CHECK: imeta.prefix_at @cu[%{{.*}}] : !imeta.prefix<exclusive> -> i32
    %c = imeta.prefix_at @cu[%i] : !imeta.prefix<exclusive> -> i32
    // CHECK: imeta.prefix_total @ends : i32
    %t = imeta.prefix_total @ends : i32
    // CHECK: imeta.get @count : i32
    %g = imeta.get @count : i32
    // CHECK: imeta.num_seqs : i32
    %N = imeta.num_seqs : i32
    // CHECK: imeta.ratio_min @all : i32
    %m = imeta.ratio_min @all : i32
    // CHECK: imeta.ratio_count @sparse : i32
    %k = imeta.ratio_count @sparse : i32
    // CHECK: imeta.yield %{{.*}}, %{{.*}} : i32, i32
    imeta.yield %j, %r : i32, i32
  }
  // CHECK: imeta.field @cols_f rows(@count) over @dense cols(@B) live(@count) {
  imeta.field @cols_f rows(@count) over @dense cols(@B) live(@count) {
    // CHECK: imeta.col_index : i32
    %c = imeta.col_index : i32
    %v = imeta.load @table[%c] : i32
    imeta.yield %v : i32
  }
  // CHECK: imeta.field @flag_f scalar {
  imeta.field @flag_f scalar {
    %f = imeta.get_config @flag : i1
    imeta.yield %f : i1
  }
  // CHECK: imeta.path @p target(cpu) {
  imeta.path @p target(cpu) {
    // CHECK: imeta.output "cu" = @cu
    imeta.output "cu" = @cu
    imeta.output "rows" = @rowsf
  }
  // CHECK: imeta.path @q target(gpu) extends @p {
  imeta.path @q target(gpu) extends @p {
    imeta.output "cu" = @ends
  }
  // CHECK: imeta.path @r target(cpu) extends @p {
  // CHECK-NEXT: imeta.drop "rows"
  imeta.path @r target(cpu) extends @p {
    imeta.drop "rows"
  }
  // CHECK: imeta.path @s target(cpu) extends @q, @r {
  imeta.path @s target(cpu) extends @q, @r {
  }
}

// Optional config parameters, a path's needs, lists read as tables.
// CHECK-LABEL: imeta.spec @tables
imeta.spec @tables {
  // CHECK: imeta.config @lut : !imeta.list {min = 0 : i64, optional}
  imeta.config @lut : !imeta.list {min = 0 : i64, optional}
  imeta.input @toks : !imeta.list
  imeta.input @q : i32
  imeta.field @f seq {
    %c0 = arith.constant 0 : i32
    // CHECK: imeta.count @toks[%{{.*}}, %{{.*}}] in [%{{.*}}, %{{.*}}] : i32
    %n = imeta.count @toks[%c0, %c0] in [%c0, %c0] : i32
    // CHECK: imeta.config_at @lut[%{{.*}}] : i32
    %v = imeta.config_at @lut[%n] : i32
    // CHECK: imeta.config_len @lut : i32
    %l = imeta.config_len @lut : i32
    %s = arith.addi %v, %l : i32
    imeta.yield %s : i32
  }
  // CHECK: imeta.path @p target(cpu) needs [@lut] {
  imeta.path @p target(cpu) needs [@lut] {
    imeta.output "f" = @f
  }
}

// Sums per column, reductions over columns, an output of a scalar's rows.
// CHECK-LABEL: imeta.spec @columns
imeta.spec @columns {
  imeta.config @w : i32
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @wide seq cols(@w) {
    %c = imeta.col_index : i32
    imeta.yield %c : i32
  }
  imeta.prefix_sum @cu = @wide : !imeta.prefix<exclusive>
  // CHECK: imeta.field @totals scalar cols(@w) {
  imeta.field @totals scalar cols(@w) {
    %c = imeta.col_index : i32
    // CHECK: imeta.prefix_total @cu[%{{.*}}] : i32
    %t = imeta.prefix_total @cu[%c] : i32
    imeta.yield %t : i32
  }
  imeta.field @largest scalar {
    // CHECK: imeta.reduce max @totals : i32
    %m = imeta.reduce max @totals : i32
    imeta.yield %m : i32
  }
  imeta.field @at rows(@n) {
    %i = imeta.seq_index : i32
    %j = imeta.row_index : i32
    // CHECK: imeta.prefix_at @cu[%{{.*}}, %{{.*}}] : !imeta.prefix<exclusive> -> i32
    %v = imeta.prefix_at @cu[%i, %j] : !imeta.prefix<exclusive> -> i32
    imeta.yield %v : i32
  }
  imeta.path @p target(cpu) {
    // CHECK: imeta.output "at" = @at fill(-1) rows(@largest)
    imeta.output "at" = @at fill(-1) rows(@largest)
  }
}
