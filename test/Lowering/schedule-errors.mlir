// RUN: imeta-gen %s --split-input-file --verify-diagnostics --emit=source > /dev/null
// RUN: not imeta-gen %S/Inputs/late-read.mlir -o %t.out
// RUN: not ls %t.out

// imeta-gen follows a schedule (or layout) recorded in the spec, but only a
// legal one: each bad one is an error at the op that records it, and no
// file is written.

// A fill schedule that computes a field before one it reads.
imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @pos rows(@nq) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @plus_one rows(@nq) {
    %p = imeta.get @pos : i32
    imeta.yield %p : i32
  }
  // expected-error @below {{schedule imeta.fill computes @plus_one before @pos, which it reads}}
  imeta.path @p target(cpu) attributes {imeta.fill = [[@nq, @plus_one, @pos]]} {
    imeta.output "plus_one" = @plus_one
  }
}

// -----

// A rows field put in another count's loop nest.
imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @nk seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @pos rows(@nq) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  // expected-error @below {{schedule imeta.fill puts @pos in the rows of @nk; it has rows(@nq)}}
  imeta.path @p target(cpu) attributes {imeta.fill = [[@nk, @pos]]} {
    imeta.output "pos" = @pos
  }
}

// -----

// A fill schedule that leaves out a field the path needs.
imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @pos rows(@nq) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @two rows(@nq) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  // expected-error @below {{schedule imeta.fill fills 1 rows fields; the path needs 2}}
  imeta.path @p target(cpu) attributes {imeta.fill = [[@nq, @pos]]} {
    imeta.output "pos" = @pos
    imeta.output "two" = @two
  }
}

// -----

// Rules checked out of the order they are written (a rule guards what
// follows it).
imeta.spec @s {
  imeta.require "R1" "a" scalar {
    %t = arith.constant true
    imeta.yield %t : i1
  }
  imeta.require "R2" "b" scalar {
    %t = arith.constant true
    imeta.yield %t : i1
  }
  imeta.field @one scalar {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{schedule imeta.host checks rule 1 out of order; rules run in the order they are written}}
  imeta.path @p target(cpu) attributes {imeta.host = [1, 0, @one]} {
    imeta.output "one" = @one
  }
}

// -----

// A host schedule that sums a field before computing it.
imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.prefix_sum @cu = @nq : !imeta.prefix<exclusive>
  // expected-error @below {{schedule imeta.host computes @cu before @nq, which it reads}}
  imeta.path @p target(cpu) attributes {imeta.host = [@cu, @nq]} {
    imeta.output "cu" = @cu
  }
}

// -----

// A recorded buffer layout the field does not have.
imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{records the buffer layout '[1][N][2] i32', but its field is laid out as '[1][N][1] i32'}}
    imeta.output "nq" = @nq {imeta.layout = "[1][N][2] i32"}
  }
}

// -----

// A kernel does not hold config lists.
imeta.spec @s {
  imeta.config @table : !imeta.list {min = 0 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  // expected-note @below {{field @f is here}}
  imeta.field @f rows(@nq) {
    %j = imeta.row_index : i32
    %v = imeta.config_at @table[%j] : i32
    imeta.yield %v : i32
  }
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  // expected-error @below {{is a GPU path, but field @f reads a config list, which a kernel does not hold; give the path target(cpu)}}
  imeta.path @p target(gpu) {
    imeta.output "f" = @f
  }
}
