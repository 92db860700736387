// RUN: imeta-gen %s --split-input-file --emit=source | FileCheck %s
// RUN: imeta-gen %s --split-input-file --emit=impl | FileCheck %s --check-prefix=FILL

// Each formula op's C++ (FormulaOpInterface::emitCpp), one spec per op or
// family. In the host stage (--emit=source: seq fields): every i32 result
// computed in 64 bits and checked to fit, every division guarded, every
// read that can miss bounds-checked, each failure recorded with its kind
// (runtime/ErrorRecord.inc; the evaluator's words come from it). In a fill
// function (--emit=impl: rows and cols fields): the point's indices.
// What the C++ computes equals the evaluator: formula-ops-values.test.

// CHECK-LABEL: spec @constant.
// CHECK: const int64_t [[C:t[0-9]+]] = INT64_C(7);
// CHECK-NEXT: *slot = int32_t([[C]]);
imeta.spec @constant {
  imeta.field @f seq {
    %c = arith.constant 7 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// CHECK-LABEL: spec @addi.
// CHECK: const int64_t [[X:t[0-9]+]] = int64_t(c.in_x[i]);
// CHECK-NEXT: const int64_t [[Y:t[0-9]+]] = int64_t(c.in_y[i]);
// CHECK-NEXT: const int64_t [[S:t[0-9]+]] = [[X]] + [[Y]];
// CHECK-NEXT: if (!imeta_fits32([[S]])) return imeta_fail(c.err, kOverflow, {{.*}}, [[S]], -1, 0, 0);
imeta.spec @addi {
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %r = arith.addi %x, %y : i32
    imeta.yield %r : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// CHECK-LABEL: spec @subi_muli.
// CHECK: const int64_t [[D:t[0-9]+]] = {{t[0-9]+}} - {{t[0-9]+}};
// CHECK-NEXT: if (!imeta_fits32([[D]])) return imeta_fail(c.err, kOverflow,
// CHECK-NEXT: const int64_t [[P:t[0-9]+]] = [[D]] * {{t[0-9]+}};
// CHECK-NEXT: if (!imeta_fits32([[P]])) return imeta_fail(c.err, kOverflow,
imeta.spec @subi_muli {
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %d = arith.subi %x, %y : i32
    %p = arith.muli %d, %y : i32
    imeta.yield %p : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// An i64 product checks for 64-bit overflow; its truncation to i32, that
// it fits.
// CHECK-LABEL: spec @mul64.
// CHECK: int64_t [[P:t[0-9]+]];
// CHECK-NEXT: if (imeta_mul_overflow({{t[0-9]+}}, {{t[0-9]+}}, &[[P]])) return imeta_fail(c.err, kOverflow64,
// CHECK-NEXT: const int64_t [[T:t[0-9]+]] = [[P]];
// CHECK-NEXT: if (!imeta_fits32([[T]])) return imeta_fail(c.err, kOverflow,
imeta.spec @mul64 {
  imeta.input @x : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %w = arith.extsi %x : i32 to i64
    %p = arith.muli %w, %w : i64
    %t = arith.trunci %p : i64 to i32
    imeta.yield %t : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// CHECK-LABEL: spec @divsi.
// CHECK: if ([[D:t[0-9]+]] == 0) return imeta_fail(c.err, kDivZero,
// CHECK-NEXT: if ([[N:t[0-9]+]] == INT32_MIN && [[D]] == -1) return imeta_fail(c.err, kOverflow, {{.*}}, -int64_t(INT32_MIN),
// CHECK-NEXT: const int64_t {{t[0-9]+}} = int32_t([[N]]) / int32_t([[D]]);
imeta.spec @divsi {
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %r = arith.divsi %x, %y : i32
    imeta.yield %r : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// The remainder of INT32_MIN by -1 is 0, not an overflow.
// CHECK-LABEL: spec @remsi.
// CHECK: if ([[RD:t[0-9]+]] == 0) return imeta_fail(c.err, kDivZero,
// CHECK-NEXT: = ([[RD]] == -1 ? 0 : int32_t([[RN:t[0-9]+]]) - int32_t([[RN]]) / int32_t([[RD]]) * int32_t([[RD]]));
imeta.spec @remsi {
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %r = arith.remsi %x, %y : i32
    imeta.yield %r : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// CHECK-LABEL: spec @floor_ceil.
// CHECK: if ({{t[0-9]+}} == 0) return imeta_fail(c.err, kDivZero,
// CHECK: = imeta_floordiv(int32_t({{t[0-9]+}}), int32_t({{t[0-9]+}}));
// CHECK: = imeta_ceildiv(int32_t({{t[0-9]+}}), int32_t({{t[0-9]+}}));
imeta.spec @floor_ceil {
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %a = arith.floordivsi %x, %y : i32
    %b = arith.ceildivsi %a, %y : i32
    imeta.yield %b : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// CHECK-LABEL: spec @minmax.
// CHECK: const int64_t [[MIN:t[0-9]+]] = ([[A:t[0-9]+]] < [[B:t[0-9]+]] ? [[A]] : [[B]]);
// CHECK-NEXT: = ([[MIN]] > [[B]] ? [[MIN]] : [[B]]);
imeta.spec @minmax {
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %a = arith.minsi %x, %y : i32
    %b = arith.maxsi %a, %y : i32
    imeta.yield %b : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// CHECK-LABEL: spec @bits.
// CHECK: = ({{t[0-9]+}} & {{t[0-9]+}});
// CHECK-NEXT: = ({{t[0-9]+}} | {{t[0-9]+}});
// CHECK-NEXT: = ({{t[0-9]+}} ^ {{t[0-9]+}});
imeta.spec @bits {
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %a = arith.andi %x, %y : i32
    %o = arith.ori %a, %y : i32
    %e = arith.xori %o, %x : i32
    imeta.yield %e : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// Unsigned compares read the operands' low bits; an i1 zero-extends.
// CHECK-LABEL: spec @cmp_unsigned.
// CHECK: const int64_t [[LT:t[0-9]+]] = ((uint64_t({{t[0-9]+}}) & UINT64_C(4294967295)) < (uint64_t({{t[0-9]+}}) & UINT64_C(4294967295)));
// CHECK-NEXT: const int64_t {{t[0-9]+}} = [[LT]];
imeta.spec @cmp_unsigned {
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %lt = arith.cmpi ult, %x, %y : i32
    %z = arith.extui %lt : i1 to i32
    imeta.yield %z : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// A select picks its operand; an i1 sign-extends to 0 or -1.
// CHECK-LABEL: spec @select_extsi.
// CHECK: const int64_t [[LT:t[0-9]+]] = ({{t[0-9]+}} < {{t[0-9]+}});
// CHECK-NEXT: = ([[LT]] ? {{t[0-9]+}} : {{t[0-9]+}});
// CHECK-NEXT: = -[[LT]];
imeta.spec @select_extsi {
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %lt = arith.cmpi slt, %x, %y : i32
    %s = arith.select %lt, %x, %y : i32
    %m = arith.extsi %lt : i1 to i32
    %r = arith.addi %s, %m : i32
    imeta.yield %r : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// Results declared first, then each branch assigns what it yields.
// CHECK-LABEL: spec @scf_if.
// CHECK: int64_t [[R:t[0-9]+]] = 0;
// CHECK-NEXT: if ({{t[0-9]+}}) {
// CHECK-NEXT: [[R]] = {{t[0-9]+}};
// CHECK-NEXT: }
// CHECK-NEXT: else {
// CHECK-NEXT: [[R]] = {{t[0-9]+}};
imeta.spec @scf_if {
  imeta.input @x : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %c0 = arith.constant 0 : i32
    %neg = arith.cmpi slt, %x, %c0 : i32
    %r = scf.if %neg -> (i32) {
      scf.yield %c0 : i32
    } else {
      scf.yield %x : i32
    }
    imeta.yield %r : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// The batch's reads: a config parameter, a list's length, the sequence,
// the batch size.
// CHECK-LABEL: spec @reads.
// CHECK: = c.cfg_B;
// CHECK-NEXT: = c.in_list_end[i] - c.in_list_begin[i];
// CHECK-NEXT: = i;
// CHECK-NEXT: = c.num_seqs;
imeta.spec @reads {
  imeta.config @B : i32 {min = 1 : i64}
  imeta.input @list : !imeta.list {min = 0 : i64}
  imeta.field @f seq {
    %b = imeta.get_config @B : i32
    %n = imeta.length @list : i32
    %i = imeta.seq_index : i32
    %N = imeta.num_seqs : i32
    %s = arith.addi %b, %n : i32
    %t = arith.addi %i, %N : i32
    %u = arith.addi %s, %t : i32
    imeta.yield %u : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// A list read out of range records the index and the list's length.
// CHECK-LABEL: spec @load.
// CHECK: if ([[I:t[0-9]+]] < 0 || [[I]] >= c.in_list_end[i] - c.in_list_begin[i]) return imeta_fail(c.err, kOutOfRange, {{.*}}, [[I]], -1, 0, c.in_list_end[i] - c.in_list_begin[i]);
// CHECK-NEXT: = int64_t(c.in_list[c.in_list_begin[i] + [[I]]]);
imeta.spec @load {
  imeta.input @list : !imeta.list {min = 0 : i64}
  imeta.field @f seq {
    %c0 = arith.constant 0 : i32
    %v = imeta.load @list[%c0] : i32
    imeta.yield %v : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// CHECK-LABEL: spec @ratios.
// CHECK: if (c.num_set[0] == 0) return imeta_fail(c.err, kEmptySet,
// CHECK-NEXT: = int64_t(c.set[0][0]);
// CHECK-NEXT: = int64_t(c.num_set[0]);
imeta.spec @ratios {
  imeta.ratios @set
  imeta.field @f seq {
    %m = imeta.ratio_min @set : i32
    %k = imeta.ratio_count @set : i32
    %s = arith.addi %m, %k : i32
    imeta.yield %s : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// Host-stage values by entry: a prefix sum's (bounds-checked) and total, a
// field's at the sequence.
// CHECK-LABEL: spec @prefix_get.
// CHECK: // imeta.field @f seq {
// CHECK: if ([[J:t[0-9]+]] < 0 || [[J]] >= (c.num_seqs + 1)) return imeta_fail(c.err, kOutOfRange,
// CHECK-NEXT: = c.h_cu[0 * (c.num_seqs + 1) + [[J]]];
// CHECK-NEXT: = ((c.num_seqs + 1) > 0 ? c.h_cu[0 * (c.num_seqs + 1) + (c.num_seqs + 1) - 1] : 0);
// CHECK-NEXT: = c.h_one[0 * c.num_seqs + i];
imeta.spec @prefix_get {
  imeta.field @one seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.prefix_sum @cu = @one : !imeta.prefix<exclusive>
  imeta.field @f seq {
    %i = imeta.seq_index : i32
    %at = imeta.prefix_at @cu[%i] : !imeta.prefix<exclusive> -> i32
    %t = imeta.prefix_total @cu : i32
    %g = imeta.get @one : i32
    %s = arith.addi %at, %t : i32
    %r = arith.addi %s, %g : i32
    imeta.yield %r : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// CHECK-LABEL: spec @clamp.
// CHECK: const int64_t [[AT:t[0-9]+]] = ([[X:t[0-9]+]] < [[LO:t[0-9]+]] ? [[LO]] : [[X]]);
// CHECK-NEXT: const int64_t {{t[0-9]+}} = ([[AT]] > [[HI:t[0-9]+]] ? [[HI]] : [[AT]]);
imeta.spec @clamp {
  imeta.input @x : i32
  imeta.input @lo : i32
  imeta.input @hi : i32
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    %lo = imeta.get_input @lo : i32
    %hi = imeta.get_input @hi : i32
    %c = imeta.clamp %x, %lo, %hi : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// In a fill function: the row within the sequence, the field's row, the
// bucket's ratio, another rows field's value at the row (its local).
// FILL-LABEL: spec @fill_point.
// FILL: // imeta.field @f rows(@nq) over @set {
// FILL: const I {{t[0-9]+}} = j;
// FILL-NEXT: const I {{t[0-9]+}} = r;
// FILL-NEXT: const I {{t[0-9]+}} = n;
// FILL-NEXT: const I {{t[0-9]+}} = v_g;
imeta.spec @fill_point {
  imeta.input @q : i32 {min = 0 : i64}
  imeta.ratios @set
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @g rows(@nq) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @f rows(@nq) over @set {
    %j = imeta.row_index : i32
    %r = imeta.row : i32
    %n = imeta.ratio : i32
    %g = imeta.get @g : i32
    %a = arith.addi %j, %r : i32
    %b = arith.addi %n, %g : i32
    %s = arith.addi %a, %b : i32
    imeta.yield %s : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// The column of a cols field is its loop's variable.
// FILL-LABEL: spec @fill_column.
// FILL: // imeta.field @f rows(@nq) cols(@w) {
// FILL: for (I col = I(first); col < I(end); ++col)
// FILL-NEXT: const I [[C:t[0-9]+]] = col;
// FILL-NEXT: if (kStore) row_out[col] = int32_t([[C]]);
imeta.spec @fill_column {
  imeta.config @w : i32 {min = 1 : i64}
  imeta.input @q : i32 {min = 0 : i64}
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @f rows(@nq) cols(@w) {
    %c = imeta.col_index : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// A reduction loops over the sequences' host-stage values: a maximum keeps
// the first then the larger; a sum is checked for i64 overflow, then for
// its i32 result.
// CHECK-LABEL: spec @reduce.
// CHECK: // imeta.field @m scalar {
// CHECK: int64_t [[ACC:t[0-9]+]] = 0;
// CHECK-NEXT: for (int64_t [[K:t[0-9]+]] = 0; [[K]] < c.num_seqs; ++[[K]]) {
// CHECK-NEXT: const int64_t [[V:t[0-9]+]] = c.h_nq[0 * c.num_seqs + [[K]]];
// CHECK-NEXT: [[ACC]] = [[K]] == 0 || [[V]] > [[ACC]] ? [[V]] : [[ACC]];
// CHECK: // imeta.field @s scalar {
// CHECK: int64_t [[SUM:t[0-9]+]] = 0;
// CHECK: if (imeta_add_overflow([[SUM]], {{t[0-9]+}}, &[[SUM]])) return imeta_fail(c.err, kOverflow64,
// CHECK: if (!imeta_fits32([[SUM]])) return imeta_fail(c.err, kOverflow,
imeta.spec @reduce {
  imeta.input @q : i32
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @m scalar {
    %m = imeta.reduce max @nq : i32
    imeta.yield %m : i32
  }
  imeta.field @s scalar {
    %s = imeta.reduce sum @nq : i32
    imeta.yield %s : i32
  }
  imeta.path @p target(cpu) {
    imeta.output "m" = @m
    imeta.output "s" = @s
  }
}
