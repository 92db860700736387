// RUN: imeta-opt %s -split-input-file -imeta-expand-formulas | FileCheck %s
// RUN: imeta-opt %s -split-input-file | FileCheck %s --check-prefix=KEPT

// A compact field is kept as written until expanded.
// KEPT: imeta.field @slot rows(@q) = "pos = k - q + j; bt[pos / B] * B + pos % B"

// Bindings, arithmetic, the point, reads of config, inputs and fields,
// and a list read.
// CHECK-LABEL: imeta.spec @slots
// CHECK: imeta.field @slot rows(@q) {
// CHECK-NEXT: %[[K:.*]] = imeta.get @k : i32
// CHECK-NEXT: %[[Q:.*]] = imeta.get @q : i32
// CHECK-NEXT: %[[S:.*]] = arith.subi %[[K]], %[[Q]] : i32
// CHECK-NEXT: %[[J:.*]] = imeta.row_index : i32
// CHECK-NEXT: %[[POS:.*]] = arith.addi %[[S]], %[[J]] : i32
// CHECK-NEXT: %[[B:.*]] = imeta.get_config @B : i32
// CHECK-NEXT: %[[BLK:.*]] = arith.divsi %[[POS]], %[[B]] : i32
// CHECK-NEXT: %[[PHYS:.*]] = imeta.load @bt[%[[BLK]]] : i32
// CHECK: arith.muli %[[PHYS]]
// CHECK: arith.remsi %[[POS]]
// CHECK: imeta.yield
imeta.spec @slots {
  imeta.config @B : i32 {min = 1 : i64}
  imeta.input @len : i32 {min = 1 : i64}
  imeta.input @hist : i32 {min = 1 : i64}
  imeta.input @bt : !imeta.list {min = 0 : i64}
  imeta.field @q seq = "len"
  imeta.field @k seq = "hist"
  imeta.field @slot rows(@q) = "pos = k - q + j; bt[pos / B] * B + pos % B"
  imeta.path @p target(cpu) { imeta.output "slot" = @slot }
}

// -----

// `c ? a : b` runs one side (scf.if); a flag field declares `: i1`.
// CHECK-LABEL: imeta.spec @branch
// CHECK: imeta.field @first rows(@q) {
// CHECK: %[[C:.*]] = arith.cmpi slt
// CHECK-NEXT: %[[R:.*]] = scf.if %[[C]] -> (i32) {
// CHECK: imeta.load @bt
// CHECK: scf.yield
// CHECK: } else {
// CHECK-NEXT: %[[M:.*]] = arith.constant -1 : i32
// CHECK-NEXT: scf.yield %[[M]] : i32
// CHECK: imeta.field @flag rows(@q) {
// CHECK: %[[L:.*]] = arith.cmpi sge
// CHECK: %[[NOT:.*]] = arith.xori
// CHECK: arith.andi %[[L]], %[[NOT]] : i1
// CHECK: imeta.yield %{{.*}} : i1
imeta.spec @branch {
  imeta.input @len : i32 {min = 1 : i64}
  imeta.input @hole : i1 {optional}
  imeta.input @bt : !imeta.list {min = 0 : i64}
  imeta.field @q seq = "len"
  imeta.field @first rows(@q) = "j < len(bt) ? bt[j] : -1"
  imeta.field @flag rows(@q) = "j >= 0 && !hole" : i1
  imeta.path @p target(cpu) {
    imeta.output "first" = @first
    imeta.output "flag" = @flag
  }
}

// -----

// Functions, prefix sums, reductions, the ratio, and `@name` for a symbol.
// CHECK-LABEL: imeta.spec @functions
// CHECK: imeta.field @f seq over @set {
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: imeta.clamp
// CHECK: arith.ceildivsi
// CHECK: arith.floordivsi
// CHECK: imeta.prefix_at @cu[%{{.*}}] : !imeta.prefix<exclusive> -> i32
// CHECK: imeta.prefix_total @cu : i32
// CHECK: imeta.ratio : i32
// CHECK: imeta.get @two : i32
// CHECK: imeta.ratio_min @set : i32
// CHECK: imeta.ratio_count @set : i32
// CHECK: imeta.field @top scalar {
// CHECK-NEXT: imeta.reduce max @q : i32
imeta.spec @functions {
  imeta.ratios @set
  imeta.input @len : i32 {min = 1 : i64}
  imeta.field @q seq = "len"
  imeta.field @two seq = "2"
  imeta.prefix_sum @cu = @q : !imeta.prefix<exclusive>
  imeta.field @f seq over @set = "a = min(q, 3) + max(q, 1) + clamp(q, 0, 9); b = ceildiv(q, 2) + floordiv(q, 2); c = cu[i] + total(cu); a + b + c + n + @two + ratio_min(set) + ratio_count(set)"
  imeta.field @top scalar = "max_of(q)"
  imeta.path @p target(cpu) {
    imeta.output "f" = @f
    imeta.output "top" = @top
  }
}

// -----

// A symbol named like a built-in is read as `@name` (bare, it is an error:
// imeta-expand-formulas-errors.mlir).
// CHECK-LABEL: imeta.spec @builtin_named
// CHECK: imeta.field @g seq {
// CHECK-NEXT: imeta.get @n : i32
imeta.spec @builtin_named {
  imeta.field @n seq = "2"
  imeta.field @g seq = "@n + 1"
  imeta.path @p target(cpu) { imeta.output "g" = @g }
}

// -----

// A sub-formula called from two fields, and from another sub-formula: its
// ops in place, the argument for its parameter.
// CHECK-LABEL: imeta.spec @calls
// CHECK: imeta.formula @slot(p) = "bt[p / B] * B + p % B"
// CHECK: imeta.field @a rows(@q) {
// CHECK-NEXT: %[[J:.*]] = imeta.row_index : i32
// CHECK-NEXT: %[[B:.*]] = imeta.get_config @B : i32
// CHECK-NEXT: %[[D:.*]] = arith.divsi %[[J]], %[[B]] : i32
// CHECK-NEXT: imeta.load @bt[%[[D]]] : i32
// CHECK: imeta.field @b rows(@q) {
// CHECK: %[[K:.*]] = imeta.get @q : i32
// CHECK: %[[P:.*]] = arith.addi %{{.*}}, %[[K]] : i32
// CHECK: arith.divsi %[[P]]
imeta.spec @calls {
  imeta.config @B : i32 {min = 1 : i64}
  imeta.input @len : i32 {min = 1 : i64}
  imeta.input @bt : !imeta.list {min = 0 : i64}
  imeta.formula @slot(p) = "bt[p / B] * B + p % B"
  imeta.formula @shifted(p, by) = "slot(p + by)"
  imeta.field @q seq = "len"
  imeta.field @a rows(@q) = "slot(j)"
  imeta.field @b rows(@q) = "shifted(j, q)"
  imeta.path @p target(cpu) {
    imeta.output "a" = @a
    imeta.output "b" = @b
  }
}

// -----

// A rule, compact: its value is the condition.
// CHECK-LABEL: imeta.spec @rules
// CHECK: imeta.require "R1" "q <= k" seq {
// CHECK-NEXT: %[[Q:.*]] = imeta.get_input @q : i32
// CHECK-NEXT: %[[K:.*]] = imeta.get_input @k : i32
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi sle, %[[Q]], %[[K]] : i32
// CHECK-NEXT: imeta.yield %[[OK]] : i1
imeta.spec @rules {
  imeta.input @q : i32
  imeta.input @k : i32
  imeta.require "R1" "q <= k" seq = "q <= k"
  imeta.field @f seq = "q"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// select(c, a, b): both sides computed, one arith.select (no branch); a
// negated literal is a constant; a per-column sum read at [i, column] and
// its total at a column.
// CHECK-LABEL: imeta.spec @selects
// CHECK: imeta.field @pick rows(@q) {
// CHECK: %[[C:.*]] = arith.cmpi
// CHECK: %[[M:.*]] = arith.constant -1 : i32
// CHECK-NEXT: %[[V:.*]] = arith.select %[[C]], %{{.*}}, %[[M]] : i32
// CHECK-NEXT: imeta.yield %[[V]] : i32
// CHECK-NOT: scf.if
// CHECK: imeta.field @at seq {
// CHECK: imeta.prefix_at @cu[%{{.*}}, %{{.*}}] : !imeta.prefix<exclusive> -> i32
// CHECK: imeta.prefix_total @cu[%{{.*}}] : i32
imeta.spec @selects {
  imeta.config @w : i32
  imeta.input @x : i32
  imeta.field @q seq = "x"
  imeta.field @pick rows(@q) = "select(j < 2, j * 3, -1)"
  imeta.field @wide seq cols(@w) = "col"
  imeta.prefix_sum @cu = @wide : !imeta.prefix<exclusive>
  imeta.field @at seq = "cu[i, 0] + total(cu, w - 1)"
}

// -----

// A rows field's rows reduced: in a seq field, a fold over the sequence's
// rows of the field's formula (gathered at the row); in a scalar, the same
// fold in a hidden seq field (the sequence's maximum where it has rows,
// else the identity), reduced over the batch, 0 where no sequence has a
// row; one hidden field for both reads of the same reduction.
// CHECK-LABEL: imeta.spec @rows_reduction
// CHECK: imeta.field @last seq {
// CHECK-NEXT: %[[N:.*]] = imeta.get @q : i32
// CHECK-NEXT: %[[M:.*]] = imeta.reduce_rows max %[[N]] : i32 {
// CHECK-NEXT: ^bb0(%[[R:.*]]: i32):
// CHECK:        imeta.check_index %[[R]], %{{.*}}, "the rows of 'pos'" : i32
// CHECK:        imeta.yield %{{.*}} : i32
// CHECK-NEXT: }
// CHECK-NEXT: imeta.yield %[[M]] : i32
// CHECK: imeta.field @pos_max_over_rows seq {
// CHECK-NEXT: %[[N:.*]] = imeta.get @q : i32
// CHECK-NEXT: %[[M:.*]] = imeta.reduce_rows max %[[N]] : i32 {
// CHECK:        imeta.yield %{{.*}} : i32
// CHECK-NEXT: }
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi sgt, %[[N]], %[[ZERO]] : i32
// CHECK-NEXT: %[[ID:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT: %[[V:.*]] = arith.select %[[ANY]], %[[M]], %[[ID]] : i32
// CHECK-NEXT: imeta.yield %[[V]] : i32
// CHECK: imeta.field @longest scalar {
// CHECK-NEXT: %[[B:.*]] = imeta.reduce max @pos_max_over_rows : i32
// CHECK-NEXT: %[[C:.*]] = imeta.reduce max @q : i32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi sgt, %[[C]], %[[ZERO]] : i32
// CHECK-NEXT: %[[NONE:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[V:.*]] = arith.select %[[ANY]], %[[B]], %[[NONE]] : i32
// CHECK-NEXT: imeta.yield %[[V]] : i32
// CHECK: imeta.field @total scalar {
// CHECK-NEXT: %[[S:.*]] = imeta.reduce sum @pos_sum_over_rows : i32
// CHECK-NEXT: imeta.yield %[[S]] : i32
// CHECK: imeta.require "R1" "positions below 100" scalar {
// CHECK: imeta.reduce max @pos_max_over_rows : i32
// CHECK-NOT: imeta.field @pos_max_over_rows_2
imeta.spec @rows_reduction {
  imeta.input @len : i32 {min = 0 : i64}
  imeta.field @q seq = "len"
  imeta.field @pos rows(@q) = "j + 1"
  imeta.field @last seq = "max_of(pos)"
  imeta.field @longest scalar = "max_of(pos)"
  imeta.field @total scalar = "sum_of(pos)"
  imeta.require "R1" "positions below 100" scalar = "max_of(pos) < 100"
  imeta.path @p target(cpu) {
    imeta.output "last" = @last
    imeta.output "longest" = @longest
    imeta.output "total" = @total
  }
}

// -----

// int(c): a condition as 1 or 0.
// CHECK-LABEL: imeta.spec @to_int
// CHECK: imeta.field @count seq {
// CHECK: %[[C:.*]] = arith.cmpi sgt
// CHECK-NEXT: %[[I:.*]] = arith.extui %[[C]] : i1 to i32
// CHECK: arith.addi %[[I]]
imeta.spec @to_int {
  imeta.input @len : i32 {min = 0 : i64}
  imeta.field @count seq = "int(len > 2) + int(len > 5)"
  imeta.path @p target(cpu) { imeta.output "count" = @count }
}
