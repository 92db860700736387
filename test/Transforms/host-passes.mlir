// RUN: imeta-opt %s -split-input-file -imeta-test-host-passes -verify-diagnostics -o /dev/null

// The host stage's passes over the sequences (HostPasses.h): consecutive
// per-sequence steps (rules, seq fields, prefix sums) share one loop; a
// step that reads a prefix sum of its run, a scalar field or a batch rule
// runs alone.

imeta.spec @runs {
  imeta.config @B : i32 {min = 1 : i64}
  imeta.input @len : i32 {min = 0 : i64}
  imeta.require "R1" "len <= B" seq {
    %l = imeta.get_input @len : i32
    %b = imeta.get_config @B : i32
    %ok = arith.cmpi sle, %l, %b : i32
    imeta.yield %ok : i1
  }
  imeta.field @count seq {
    %l = imeta.get_input @len : i32
    imeta.yield %l : i32
  }
  imeta.prefix_sum @cu = @count : !imeta.prefix<exclusive>
  imeta.field @twice seq {
    %c = imeta.get @count : i32
    %t = arith.addi %c, %c : i32
    imeta.yield %t : i32
  }
  // Reads the sum's entries: after the whole sum.
  imeta.field @start seq {
    %i = imeta.seq_index : i32
    %s = imeta.prefix_at @cu[%i] : !imeta.prefix<exclusive> -> i32
    imeta.yield %s : i32
  }
  imeta.field @total scalar {
    %t = imeta.prefix_total @cu : i32
    imeta.yield %t : i32
  }
  // expected-remark @below {{one loop: rule R1, @count, @twice, @cu}}
  // expected-remark @below {{alone: @start}}
  // expected-remark @below {{alone: @total}}
  imeta.path @p target(cpu) {
    imeta.output "twice" = @twice
    imeta.output "start" = @start
    imeta.output "total" = @total
  }
}

// -----

// A step alone between two runs splits them (the order recorded by
// imeta-order-host).
imeta.spec @split {
  imeta.input @len : i32 {min = 0 : i64}
  imeta.field @a seq {
    %l = imeta.get_input @len : i32
    imeta.yield %l : i32
  }
  imeta.field @b seq {
    %a = imeta.get @a : i32
    imeta.yield %a : i32
  }
  imeta.field @n scalar {
    %n = imeta.num_seqs : i32
    imeta.yield %n : i32
  }
  imeta.field @c seq {
    %n = imeta.get @n : i32
    imeta.yield %n : i32
  }
  imeta.field @d seq {
    %c = imeta.get @c : i32
    %b = imeta.get @b : i32
    %s = arith.addi %c, %b : i32
    imeta.yield %s : i32
  }
  // expected-remark @below {{one loop: @a, @b}}
  // expected-remark @below {{alone: @n}}
  // expected-remark @below {{one loop: @c, @d}}
  imeta.path @p target(cpu) attributes {imeta.host = [@a, @b, @n, @c, @d]} {
    imeta.output "d" = @d
  }
}
