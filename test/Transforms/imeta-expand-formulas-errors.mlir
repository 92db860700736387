// RUN: imeta-opt %s -split-input-file -imeta-expand-formulas -verify-diagnostics

// Each mistake in a compact formula is an error at the field that names
// the column and says what to write.

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{formula, column 1: 'lenn' names no local, point or symbol of the spec in "lenn + 1"}}
  imeta.field @f seq = "lenn + 1"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @bt : !imeta.list
  // expected-error @below {{'bt' is a list: read it as bt[index] or len(bt)}}
  imeta.field @f seq = "bt + 1"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{the value is i1; the field declares i32 (add ': i1' for a flag)}}
  imeta.field @f seq = "len > 1"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{'+' needs a number (i32)}}
  imeta.field @f seq = "(len > 1) + 1"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{unexpected text after the formula's value}}
  imeta.field @f seq = "len len"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{min() takes 2 arguments, not 1}}
  imeta.field @f seq = "min(len)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{unknown function 'mean'}}
  imeta.field @f seq = "mean(len, 1)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{'len[...]' reads a list input, a config list or a prefix sum; 'len' is none of them}}
  imeta.field @f seq = "len[0]"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{the two sides of '?:' differ in type}}
  imeta.field @f seq = "len > 0 ? len : len > 1"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// A point name where the point has no such part, in the formula's words.
imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{column 7: 'j' is the row within the sequence, and only a rows field (`rows(@count)`) has rows; field @f is a seq field in "len + j"}}
  imeta.field @f seq = "len + j"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  // expected-error @below {{column 1: 'i' is the sequence, and a scalar is computed once for the batch; field @f is a scalar field}}
  imeta.field @f scalar = "i"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  // expected-error @below {{column 1: 'col' is the column, and only a field with `cols(@width)` has columns; field @f is a seq field}}
  imeta.field @f seq = "col"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{column 12: 'n' is the bucket's ratio or axis index, and only a field or rule `over` a ratio set or an axis has buckets; rule 'R' is checked per sequence}}
  imeta.require "R" "m" seq = "len > 0 && n > 0"
  imeta.field @f seq = "len"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// A spec symbol named like a built-in is never hidden by it.
imeta.spec @s {
  imeta.ratios @set
  imeta.config @n : i32
  // expected-error @below {{column 5: 'n' is the bucket's ratio or axis index here, and the spec also names a config parameter @n: write @n for the symbol, or rename it}}
  imeta.field @f seq over @set = "1 + n"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// What a reduction, total() and len() read, in the formula's words.
imeta.spec @s {
  imeta.input @seq_len : i32
  // expected-error @below {{column 8: max_of() reduces a field; 'seq_len' is an input: define `imeta.field @x seq = "seq_len"` and reduce that, max_of(x)}}
  imeta.field @m scalar = "max_of(seq_len)"
  imeta.path @p target(cpu) { imeta.output "m" = @m }
}

// -----

imeta.spec @s {
  imeta.input @seq_len : i32
  imeta.field @q seq = "seq_len"
  // expected-error @below {{column 7: total() reads a prefix sum; 'q' is a field: sum it with sum_of(q), or define `imeta.prefix_sum @cu = @q : !imeta.prefix<exclusive>` and read total(cu)}}
  imeta.field @t scalar = "total(q)"
  imeta.path @p target(cpu) { imeta.output "t" = @t }
}

// -----

imeta.spec @s {
  imeta.input @seq_len : i32
  // expected-error @below {{column 5: len() is the length of a list input or config list; 'seq_len' is an input}}
  imeta.field @l seq = "len(seq_len)"
  imeta.path @p target(cpu) { imeta.output "l" = @l }
}

// -----

// Conditions compare equal or not; a condition and a number do not compare.
imeta.spec @s {
  imeta.input @a : i32
  // expected-error @below {{column 9: '<' orders numbers; conditions compare with == and !=}}
  imeta.field @f seq = "(a > 0) < (a > 1)" : i1
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @a : i32
  // expected-error @below {{column 9: '==' compares two numbers or two conditions; this compares a condition with a number (int(c) is a condition's 1 or 0)}}
  imeta.field @f seq = "(a > 0) == 1" : i1
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// A sub-formula named like a built-in function could never be called.
imeta.spec @s {
  // expected-error @below {{sub-formula 'max' has the name of a built-in function of compact formulas (max(...)); choose another}}
  imeta.formula @max(p) = "p"
  imeta.input @a : i32
  imeta.field @f seq = "a"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.formula @twice(p) = "p + p"
  imeta.input @len : i32
  // expected-error @below {{@twice takes 1 arguments, not 2}}
  imeta.field @f seq = "twice(len, 1)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// A sub-formula's error names it, at its column in the sub-formula (a
// note gives where the field calls it: test/Dialect/compact-errors.test).
imeta.spec @s {
  // expected-error @below {{formula @bad, column 5: 'nothing' names no local, point or symbol of the spec in "p + nothing"}}
  imeta.formula @bad(p) = "p + nothing"
  imeta.input @len : i32
  imeta.field @f seq = "bad(len)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  // expected-error @below {{@loop -> @loop: a sub-formula cannot call itself}}
  imeta.formula @loop(p) = "loop(p)"
  imeta.input @len : i32
  imeta.field @f seq = "loop(len)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  // expected-error @below {{names parameter 'p' twice}}
  imeta.formula @f2(p, p) = "p"
}

// -----

imeta.spec @s {
  imeta.input @len : i32
  // expected-error @below {{the value is i32; a rule's is a condition (i1)}}
  imeta.require "R1" "len" seq = "len + 1"
  imeta.field @f seq = "len"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// imeta.gather: only a rows field, read where a sequence is current.
imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq = "q"
  // expected-error @below {{'imeta.gather' op gathers @nq, which is not a 'rows' field; read a 'seq' field with imeta.get}}
  imeta.field @f seq = "gather(nq, 0)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq = "q"
  imeta.field @v rows(@nq) = "j"
  // expected-error @below {{'imeta.gather' op reads the current sequence, but the enclosing field has domain 'scalar'}}
  imeta.field @f scalar = "gather(v, 0)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq = "q"
  imeta.field @v rows(@nq) = "r"
  // expected-error @below {{'imeta.gather' op gathers @v, which reads its global row (imeta.row); write its row from a prefix sum of 'nq' and imeta.row_index instead}}
  imeta.field @f rows(@nq) = "gather(v, j)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.config @w : i32
  imeta.input @q : i32
  imeta.field @nq seq = "q"
  imeta.field @v rows(@nq) cols(@w) = "col"
  // expected-error @below {{'imeta.gather' op gathers the 'cols(@w)' field @v column by column: only a field of the same 'cols(@w)' may}}
  imeta.field @f rows(@nq) = "gather(v, j)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq = "q"
  // expected-error @below {{gather() takes a rows field and a row: gather(X, row)}}
  imeta.field @f rows(@nq) = "gather(q, j)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @x : i32
  // expected-error @below {{select()'s first argument needs a condition (i1)}}
  imeta.field @f seq = "select(x, 1, 2)"
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq = "q"
  imeta.field @at rows(@nq) = "r"
  // expected-error @below {{'imeta.reduce' op reduces the rows of @at, which reads its global row (imeta.row); write its row from a prefix sum of 'nq' and imeta.row_index instead}}
  imeta.field @f scalar = "max_of(at)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @x : i32
  // expected-error @below {{int() needs a condition (i1)}}
  imeta.field @f seq = "int(x)"
}

// -----

// Fields over a subset (seq(@cond)): the condition, the reads outside
// the subset, the sums and their reads.
imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq = "q"
  // expected-error @below {{is over the sequences where @nq holds (seq(@nq)), but it is not one i1 value a sequence; a subset's condition is a 'seq' field of one i1 value a sequence}}
  imeta.field @f seq(@nq) = "q"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  // expected-error @below {{is over the sequences where @nope holds (seq(@nope)), but the spec does not define it}}
  imeta.field @f seq(@nope) = "q"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @is_prefill seq = "q > 1" : i1
  imeta.field @q_p seq(@is_prefill) = "q"
  // expected-error @below {{reads @q_p, which has a value only where @is_prefill holds (seq(@is_prefill)); read it in a field over seq(@is_prefill), or reduce it over the members: sum_of(q_p), max_of(q_p), min_of(q_p)}}
  imeta.field @f seq = "q_p + 1"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @is_prefill seq = "q > 1" : i1
  imeta.field @q_p seq(@is_prefill) = "q"
  // expected-error @below {{counts its rows with @q_p, which has a value only where @is_prefill holds; count with a field over every sequence: `sum_of(q_p)` is its value at a member, 0 elsewhere}}
  imeta.field @f rows(@q_p) = "j"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @is_prefill seq = "q > 1" : i1
  imeta.field @r_p seq(@is_prefill) = "r"
  // expected-error @below {{sums @r_p, a field over the sequences where @is_prefill holds, which reads r (its index among the members)}}
  imeta.prefix_sum @cu = @r_p : !imeta.prefix<exclusive>
  imeta.path @p target(cpu) { imeta.output "cu" = @cu }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @is_prefill seq = "q > 1" : i1
  imeta.field @q_p seq(@is_prefill) = "q"
  imeta.prefix_sum @cu = @q_p : !imeta.prefix<exclusive>
  // expected-error @below {{reads @cu, a prefix sum over the sequences where @is_prefill holds, at an index other than the current member's; in a field over seq(@is_prefill) read cu[r] (its start), cu[r + 1] (its end), or anywhere total(cu)}}
  imeta.field @f seq(@is_prefill) = "cu[i]"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @is_prefill seq = "q > 1" : i1
  imeta.field @q_p seq(@is_prefill) = "q"
  imeta.prefix_sum @cu = @q_p : !imeta.prefix<inclusive>
  // expected-error @below {{in a field over seq(@is_prefill) read cu[r] (its end), or anywhere total(cu)}}
  imeta.field @f seq(@is_prefill) = "cu[r + 1]"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @is_prefill seq = "q > 1" : i1
  // expected-error @below {{'j' is the row within the sequence, and a field over a subset has one point a member: read r, its index among the members}}
  imeta.field @f seq(@is_prefill) = "j"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @is_prefill seq = "q > 1" : i1
  imeta.field @f seq(@is_prefill) = "q > 2" : i1
  // expected-error @below {{'imeta.field' op is over the sequences where @f holds (seq(@f)), but it is itself over a subset; write both conditions in one (`a && b`)}}
  imeta.field @g seq(@f) = "q"
  imeta.path @p target(cpu) { imeta.output "g" = @g }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @is_prefill seq = "q > 1" : i1
  imeta.field @q_p seq(@is_prefill) = "q"
  // expected-error @below {{reads @q_p, which has a value only where @is_prefill holds (seq(@is_prefill)); read it in a field over seq(@is_prefill)}}
  imeta.field @f seq = "gather(q_p, 0)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

// prev: a fold's own values in a seq field over every sequence; another
// field's of one value anywhere a sequence is.
imeta.spec @s {
  imeta.input @q : i32
  // expected-error @below {{prev() reads a value at the previous sequence; a scalar is computed once for the batch}}
  imeta.field @f scalar = "prev()"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.config @w : i32
  imeta.input @q : i32
  // expected-error @below {{prev() is the field's value at the previous sequence; only a 'seq' field without cols, over every sequence, has one (prev(x) reads field x's)}}
  imeta.field @f seq cols(@w) = "prev() + col"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  // expected-error @below {{reads value 2 of the previous sequence's, but field @f has 2 values a sequence}}
  imeta.field @f seq = "q + prev(2), q"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @two seq = "q, q"
  // expected-error @below {{reads @two at the previous sequence: a 'seq' field of one value over every sequence has one}}
  imeta.field @f seq = "prev(two)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  // expected-error @below {{prev(q) reads a field at the previous sequence; 'q' is an input}}
  imeta.field @f seq = "prev(q)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @is_prefill seq = "q > 1" : i1
  imeta.field @pair seq(@is_prefill) = "q, q + 1"
  // expected-error @below {{reduces @pair per column, a field over the sequences where @is_prefill holds; a column is reduced over every sequence}}
  imeta.field @f scalar = "max_of(pair, 1)"
  imeta.path @p target(cpu) { imeta.output "f" = @f }
}
