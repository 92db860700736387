// Column fields whose list reads the GPU column loop checks once per row
// (gather: under col < len; reverse: a decreasing index; nested: under two
// bounds, through a product), two it checks per value (wrap: through a
// remainder; tail: in an `else` branch), a division below a split
// whose dividend can be negative (shifted), and reads whose index a
// column step shares where its ends agree (gather: the dividend moves by
// one a column; strided: by two; fixed: not at all). Compiled by
// test/Lowering/emit-monotone-loads.test (the code it emits) and run by
// MonotoneLoadsGpuTest.cu (on the device, against the host routine,
// including reads out of range), with host-stage fields of several values
// a point.
imeta.spec @monotone_loads {
  imeta.config @width : i32 {min = 1 : i64}
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
  imeta.field @gather rows(@nq) cols(@width) {
    %t = imeta.col_index : i32
    %len = imeta.get @len : i32
    %in = arith.cmpi slt, %t, %len : i32
    %v = scf.if %in -> (i32) {
      %j = imeta.row_index : i32
      %d = imeta.get_config @d : i32
      %p = arith.addi %j, %t : i32
      %k = arith.divsi %p, %d : i32
      %x = imeta.load @src[%k] : i32
      scf.yield %x : i32
    } else {
      %none = arith.constant -1 : i32
      scf.yield %none : i32
    }
    imeta.yield %v : i32
  }
  imeta.field @reverse rows(@nq) cols(@width) {
    %t = imeta.col_index : i32
    %w = imeta.get_config @width : i32
    %one = arith.constant 1 : i32
    %top = arith.subi %w, %one : i32
    %k = arith.subi %top, %t : i32
    %x = imeta.load @src[%k] : i32
    imeta.yield %x : i32
  }
  imeta.field @wrap rows(@nq) cols(@width) {
    %t = imeta.col_index : i32
    %d = imeta.get_config @d : i32
    %k = arith.remsi %t, %d : i32
    %x = imeta.load @src[%k] : i32
    imeta.yield %x : i32
  }
  imeta.field @tail rows(@nq) cols(@width) {
    %t = imeta.col_index : i32
    %len = imeta.get @len : i32
    %in = arith.cmpi slt, %t, %len : i32
    %v = scf.if %in -> (i32) {
      %none = arith.constant -1 : i32
      scf.yield %none : i32
    } else {
      %k = arith.subi %t, %len : i32
      %x = imeta.load @src[%k] : i32
      scf.yield %x : i32
    }
    imeta.yield %v : i32
  }
  // Two bounds (col < len, then col < 50) and a product: t * d / 2, read
  // at columns [0, min(width, len, 50)).
  imeta.field @nested rows(@nq) cols(@width) {
    %t = imeta.col_index : i32
    %len = imeta.get @len : i32
    %cap = arith.constant 50 : i32
    %in = arith.cmpi slt, %t, %len : i32
    %v = scf.if %in -> (i32) {
      %low = arith.cmpi slt, %t, %cap : i32
      %w = scf.if %low -> (i32) {
        %d = imeta.get_config @d : i32
        %two = arith.constant 2 : i32
        %p = arith.muli %t, %d : i32
        %k = arith.divsi %p, %two : i32
        %x = imeta.load @src[%k] : i32
        scf.yield %x : i32
      } else {
        %big = arith.constant -2 : i32
        scf.yield %big : i32
      }
      scf.yield %w : i32
    } else {
      %none = arith.constant -1 : i32
      scf.yield %none : i32
    }
    imeta.yield %v : i32
  }
  // A division below `col < len` whose dividend is below zero at a row's
  // first columns ((t - 2) / d): the row's range test fails there, each
  // value takes its own (ColumnSplit.h).
  imeta.field @shifted rows(@nq) cols(@width) {
    %t = imeta.col_index : i32
    %len = imeta.get @len : i32
    %in = arith.cmpi slt, %t, %len : i32
    %v = scf.if %in -> (i32) {
      %d = imeta.get_config @d : i32
      %two = arith.constant 2 : i32
      %p = arith.subi %t, %two : i32
      %k = arith.divsi %p, %d : i32
      scf.yield %k : i32
    } else {
      %none = arith.constant -1 : i32
      scf.yield %none : i32
    }
    imeta.yield %v : i32
  }
  // A read below `col < min(len, width) / 2` whose dividend moves by two
  // a column ((2t + j) / d): a step shares the quotient of its first and
  // last column where they agree, tested at both ends (ColumnSplit.h);
  // the index stays below gather's.
  imeta.field @strided rows(@nq) cols(@width) {
    %t = imeta.col_index : i32
    %len = imeta.get @len : i32
    %w = imeta.get_config @width : i32
    %vis = arith.minsi %len, %w : i32
    %two = arith.constant 2 : i32
    %half = arith.divsi %vis, %two : i32
    %in = arith.cmpi slt, %t, %half : i32
    %v = scf.if %in -> (i32) {
      %j = imeta.row_index : i32
      %d = imeta.get_config @d : i32
      %t2 = arith.muli %t, %two : i32
      %p = arith.addi %t2, %j : i32
      %k = arith.divsi %p, %d : i32
      %x = imeta.load @src[%k] : i32
      scf.yield %x : i32
    } else {
      %none = arith.constant -1 : i32
      scf.yield %none : i32
    }
    imeta.yield %v : i32
  }
  // A read below `col < len` at one index, (min(len, width) - 1) / d: the
  // dividend is the same at every column, a step divides and reads once
  // without testing its ends.
  imeta.field @fixed rows(@nq) cols(@width) {
    %t = imeta.col_index : i32
    %len = imeta.get @len : i32
    %in = arith.cmpi slt, %t, %len : i32
    %v = scf.if %in -> (i32) {
      %w = imeta.get_config @width : i32
      %d = imeta.get_config @d : i32
      %one = arith.constant 1 : i32
      %vis = arith.minsi %len, %w : i32
      %p = arith.subi %vis, %one : i32
      %k = arith.divsi %p, %d : i32
      %x = imeta.load @src[%k] : i32
      scf.yield %x : i32
    } else {
      %none = arith.constant -1 : i32
      scf.yield %none : i32
    }
    imeta.yield %v : i32
  }
  // Host-stage fields of more than one value a point, copied to their
  // buffers by the kernel: K values a sequence, `cols` wide (up to `d`,
  // the first `min(len, d)` of them live), K values once.
  imeta.field @q_and_n seq = "nq, len"
  imeta.field @live_firsts seq = "min(len, d)"
  imeta.field @firsts seq cols(@d) live(@live_firsts) = "col < len(src) ? src[col] : -1"
  imeta.field @dims scalar = "width, d, width * d"
  // Reductions of a rows field's rows: computed on the host, the kernel
  // unchanged.
  imeta.field @first_src rows(@nq) = "j < len(src) ? src[j] : -1"
  imeta.field @src_max seq = "max_of(first_src)"
  imeta.field @src_stats scalar = "max_of(first_src), min_of(first_src), sum_of(first_src)"
  imeta.path @p target(gpu) {
    imeta.output "q_and_n" = @q_and_n
    imeta.output "firsts" = @firsts
    imeta.output "dims" = @dims
    imeta.output "src_max" = @src_max
    imeta.output "src_stats" = @src_stats
    imeta.output "gather" = @gather fill(-7)
    imeta.output "reverse" = @reverse
    imeta.output "wrap" = @wrap
    imeta.output "tail" = @tail
    imeta.output "nested" = @nested
    imeta.output "shifted" = @shifted
    imeta.output "strided" = @strided
    imeta.output "fixed" = @fixed
  }
}
