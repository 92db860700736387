// RUN: imeta-opt %s -split-input-file -imeta-test-column-analyses -verify-diagnostics -o /dev/null

// The optimizations of a GPU column loop (EmitColumnLoop.cpp) are decided
// by analyses of the field's formula; each case shows what one decides.

// Hoisting (ColumnInvariants.h): config, input and seq-field reads are
// computed once before the loop; a rows field's value (per row) and a
// list read are not. A read indexed by the column is monotone with no
// bound (MonotoneLoads.h).
imeta.spec @hoist {
  imeta.config @w : i32 {min = 1 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @src : !imeta.list {min = 0 : i64}
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @r rows(@nq) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @f rows(@nq) cols(@w) {
    // expected-remark @below {{read once before the column loop}}
    %w = imeta.get_config @w : i32
    // expected-remark @below {{read once before the column loop}}
    %q = imeta.get_input @q : i32
    // expected-remark @below {{read once before the column loop}}
    %nq = imeta.get @nq : i32
    %r = imeta.get @r : i32
    %t = imeta.col_index : i32
    // expected-remark @below {{index monotone: checked once per row, 0 bounds}}
    %x = imeta.load @src[%t] : i32
    %a = arith.addi %w, %q : i32
    %b = arith.addi %a, %nq : i32
    %c = arith.addi %b, %r : i32
    %d = arith.addi %c, %x : i32
    imeta.yield %d : i32
  }
  imeta.path @p target(gpu) { imeta.output "f" = @f }
}

// -----

// Dividers: a 32-bit division by a config parameter or the ratio uses the
// context's divider; by another hoisted read, one the loop prepares; by a
// value computed per column, none. A 64-bit division takes none either.
imeta.spec @dividers {
  imeta.config @w : i32 {min = 1 : i64}
  imeta.config @d : i32 {min = 1 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.ratios @set
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @f rows(@nq) over @set cols(@w) {
    %t = imeta.col_index : i32
    // expected-remark @below {{read once before the column loop}}
    %d = imeta.get_config @d : i32
    // expected-remark @below {{read once before the column loop}}
    %n = imeta.ratio : i32
    // expected-remark @below {{read once before the column loop}}
    %q = imeta.get_input @q : i32
    // expected-remark @below {{divider: context}}
    %a = arith.divsi %t, %d : i32
    // expected-remark @below {{divider: context}}
    %b = arith.remsi %t, %n : i32
    // expected-remark @below {{divider: loop}}
    %c = arith.divsi %t, %q : i32
    %one = arith.constant 1 : i32
    %t1 = arith.addi %t, %one : i32
    %e = arith.divsi %q, %t1 : i32
    %s1 = arith.addi %a, %b : i32
    %s2 = arith.addi %s1, %c : i32
    %s3 = arith.addi %s2, %e : i32
    imeta.yield %s3 : i32
  }
  imeta.path @p target(gpu) { imeta.output "f" = @f }
}

// -----

// The split (ColumnSplit.h): `col < len` at the top, tested by a branch,
// decides every compare against the same bound; the division in the
// `then` side, its dividend monotone in the column, is ranged once per
// row; the read it indexes is checked once per row under one bound
// (MonotoneLoads.h).
imeta.spec @split {
  imeta.config @w : i32 {min = 1 : i64}
  imeta.config @d : i32 {min = 1 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @n : i32 {min = 0 : i64}
  imeta.input @src : !imeta.list {min = 0 : i64}
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @len seq {
    %n = imeta.get_input @n : i32
    imeta.yield %n : i32
  }
  imeta.field @gather rows(@nq) cols(@w) {
    %t = imeta.col_index : i32
    // expected-remark @below {{read once before the column loop}}
    // expected-remark @below {{split bound}}
    %len = imeta.get @len : i32
    // expected-remark @below {{decided once per step}}
    %in = arith.cmpi slt, %t, %len : i32
    // expected-remark @below {{decided once per step}}
    %in2 = arith.cmpi slt, %t, %len : i32
    %v = scf.if %in -> (i32) {
      // expected-remark @below {{read once before the column loop}}
      %d = imeta.get_config @d : i32
      // expected-remark @below {{divider: context}}
      // expected-remark @below {{monotone below the split}}
      %k = arith.divsi %t, %d : i32
      // expected-remark @below {{index monotone: checked once per row, 1 bounds}}
      %x = imeta.load @src[%k] : i32
      scf.yield %x : i32
    } else {
      %none = arith.constant -1 : i32
      scf.yield %none : i32
    }
    %z = arith.constant 0 : i32
    %w = arith.select %in2, %v, %z : i32
    imeta.yield %w : i32
  }
  imeta.path @p target(gpu) { imeta.output "gather" = @gather }
}

// -----

// No split where the bound changes with the column, and a read whose
// index goes through a remainder is checked at every value (no remark).
imeta.spec @nosplit {
  imeta.config @w : i32 {min = 1 : i64}
  imeta.config @d : i32 {min = 1 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @src : !imeta.list {min = 0 : i64}
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @f rows(@nq) cols(@w) {
    %t = imeta.col_index : i32
    // expected-remark @below {{read once before the column loop}}
    %d = imeta.get_config @d : i32
    %t2 = arith.addi %t, %t : i32
    %in = arith.cmpi slt, %t, %t2 : i32
    // expected-remark @below {{divider: context}}
    %k = arith.remsi %t, %d : i32
    %x = imeta.load @src[%k] : i32
    %none = arith.constant -1 : i32
    %v = arith.select %in, %x, %none : i32
    imeta.yield %v : i32
  }
  imeta.path @p target(gpu) { imeta.output "f" = @f }
}
