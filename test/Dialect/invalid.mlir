// RUN: imeta-opt %s -split-input-file -verify-diagnostics

// Every error a spec author can make, each with its diagnostic.

imeta.spec @s {
  // expected-error @below {{type must be i32, i1 or !imeta.list, got 'f32'}}
  imeta.config @c : f32
}

// -----

imeta.spec @s {
  // expected-error @below {{'min' bounds an integer, but @c is a bool}}
  imeta.config @c : i1 {min = 0 : i64}
}

// -----

imeta.spec @s {
  // expected-error @below {{type must be i32, i1 or !imeta.list, got 'i64'}}
  imeta.input @x : i64
}

// -----

imeta.spec @s {
  // expected-error @below {{only a list can be 'resident' (a table of rows), but @slot is 'i32'}}
  imeta.input @slot : i32 {min = 0 : i64, resident}
}

// -----

imeta.spec @s {
  // expected-error @below {{a 'resident' list cannot be 'optional'}}
  imeta.input @bt : !imeta.list {min = 0 : i64, optional, resident}
}

// -----

imeta.spec @s {
  // expected-error @below {{a 'resident' list needs 'min'}}
  imeta.input @bt : !imeta.list {resident}
}

// -----

imeta.spec @s {
  // expected-error @below {{needs at least one member}}
  imeta.ratio_union @u = []
}

// -----

imeta.spec @s {
  // expected-error @below {{unknown ratio set @nope}}
  imeta.ratio_union @u = [@nope]
}

// -----

imeta.spec @s {
  imeta.config @c : i32
  // expected-error @below {{@c is not a ratio set}}
  imeta.ratio_union @u = [@c]
}

// -----

// An axis: the indices 0 .. K-1 of an i32 config parameter.
imeta.spec @s {
  imeta.config @k : !imeta.list
  // expected-error @below {{counts its indices with @k, which must be an i32 config parameter}}
  imeta.axis @a = @k
}

// -----

imeta.spec @s {
  imeta.config @k : i32
  imeta.axis @a = @k
  // expected-error @below {{ratio_min() reads a ratio set; 'a' is an axis, whose least index is 0}}
  imeta.field @f scalar = "ratio_min(a)"
}

// -----

imeta.spec @s {
  // expected-error @below {{unknown config parameter @nothing}}
  imeta.axis @a = @nothing
}

// -----

imeta.spec @s {
  imeta.config @k : i32
  imeta.axis @a = @k
  imeta.ratios @r
  // expected-error @below {{@a is an axis (indices 0 .. K-1), which joins no union of ratio sets}}
  imeta.ratio_union @u = [@r, @a]
}

// -----

imeta.spec @s {
  imeta.config @k : i32
  // expected-error @below {{@k is not a ratio set or an axis; it is a config parameter: read it with imeta.get_config @k}}
  imeta.field @f seq over @k = "1"
}

// -----

imeta.spec @s {
  // expected-error @below {{body must end with 'imeta.yield'}}
  imeta.field @f seq {
    %c = arith.constant 1 : i32
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{body takes no arguments}}
  imeta.field @f seq {
  ^bb0(%a: i32):
    imeta.yield %a : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    // expected-error @below {{'arith.shli' op is not supported in a formula}}
    %d = arith.shli %c, %c : i32
    imeta.yield %d : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    %a = arith.constant 1 : i32
    %b = arith.constant 2 : i64
    // expected-error @below {{'imeta.clamp' op failed to verify that all of {value, lo, hi, result} have same type}}
    %c = "imeta.clamp"(%a, %a, %b) : (i32, i32, i64) -> i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    // expected-error @below {{computes a 'i16'; formulas compute in i1, i32 and i64}}
    %c = arith.constant 1 : i16
    %d = arith.extsi %c : i16 to i32
    imeta.yield %d : i32
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{a 'rows' field names its row count field: rows(@count)}}
  imeta.field @f rows {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{is over the sequences where @n holds (seq(@n)), but it is not one i1 value a sequence}}
  imeta.field @f seq(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @w : i32
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{'live' bounds a sequence's columns; a scalar's columns are all live}}
  imeta.field @f scalar cols(@w) live(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{'live' bounds the columns of a 'cols' field}}
  imeta.field @f seq live(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{must yield values of one type}}
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    %t = arith.constant true
    imeta.yield %c, %t : i32, i1
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{must yield at least one value}}
  imeta.field @f seq {
    imeta.yield
  }
}

// -----

imeta.spec @s {
  imeta.config @w : i32
  // expected-error @below {{a 'cols' field yields one value per column}}
  imeta.field @f seq cols(@w) {
    %c = arith.constant 1 : i32
    imeta.yield %c, %c : i32, i32
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{unknown ratio set or axis @r}}
  imeta.field @f seq over @r {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{unknown field @n}}
  imeta.field @f rows(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @n : i32
  // expected-error @below {{@n is not a field; it is a config parameter: read it with imeta.get_config @n}}
  imeta.field @f rows(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @n scalar {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{row count @n must be a 'seq' field}}
  imeta.field @f rows(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c, %c : i32, i32
  }
  // expected-error @below {{row count @n must be a flat field (one value per point)}}
  imeta.field @f rows(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @n seq {
    %c = arith.constant true
    imeta.yield %c : i1
  }
  // expected-error @below {{row count @n must be i32}}
  imeta.field @f rows(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.ratios @r
  imeta.field @n seq over @r {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{reads @n, which is bucketed over @r, from a context that is not bucketed; declare the reader `over @r` too}}
  imeta.field @f rows(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @w : i1
  // expected-error @below {{column count @w must be an i32 config or a flat i32 scalar field}}
  imeta.field @f seq cols(@w) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @w : i32
  imeta.field @n scalar {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{live column count @n must be a 'seq' field}}
  imeta.field @f seq cols(@w) live(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @n scalar {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{summand @n must be a 'seq' field}}
  imeta.prefix_sum @cu = @n : !imeta.prefix<exclusive>
}

// -----

imeta.spec @s {
  // expected-error @below {{a rule holds for the batch ('scalar') or for every sequence ('seq'), not per row}}
  imeta.require "R" "m" rows {
    %t = arith.constant true
    imeta.yield %t : i1
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{must yield exactly one i1}}
  imeta.require "R" "m" scalar {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{unknown ratio set or axis @r}}
  imeta.require "R" "m" scalar over @r {
    %t = arith.constant true
    imeta.yield %t : i1
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    imeta.output "x" = @f
    // expected-error @below {{output name 'x' is produced twice by path @p}}
    imeta.output "x" = @f
  }
}

// -----

imeta.spec @s {
  imeta.path @p target(cpu) {
    // expected-error @below {{cannot appear in a path}}
    %c = arith.constant 1 : i32
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{unknown path @q}}
  imeta.path @p target(cpu) extends @q {
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{cycle between paths through 'extends' @q}}
  imeta.path @p target(cpu) extends @q {
  }
  imeta.path @q target(cpu) extends @p {
  }
}

// -----

imeta.spec @s {
  imeta.path @p target(cpu) {
    // expected-error @below {{path lists @missing, but no field of that name is defined}}
    imeta.output "x" = @missing
  }
}

// -----

imeta.spec @s {
  imeta.config @c : i32
  imeta.path @p target(cpu) {
    // expected-error @below {{@c is not a field or prefix sum; a path outputs only those}}
    imeta.output "x" = @c
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{output name 'x.4' must be non-empty, its '.'-separated parts too, and no part digits alone (the buckets of a ratio set or axis are named NAME.n automatically)}}
    imeta.output "x.4" = @f
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{output name 'nums..x' must be non-empty, its '.'-separated parts too}}
    imeta.output "nums..x" = @f
  }
}

// -----

// A nested result's name is spelled with '_' in C++: two outputs may not
// meet there.
imeta.spec @s {
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{'imeta.path' op outputs 'nums.x' and 'nums_x', which the generated C++ both names 'nums_x'; rename one}}
  imeta.path @p target(cpu) {
    imeta.output "nums.x" = @f
    imeta.output "nums_x" = @f
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{output name 'INT32.MAX', in C++ 'INT32_MAX' is a name the generated code}}
    imeta.output "INT32.MAX" = @f
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{cannot appear at the top of an imeta.spec}}
  %c = arith.constant 1 : i32
}

// -----

imeta.spec @s {
  imeta.field @a seq {
    %b = imeta.get @b : i32
    imeta.yield %b : i32
  }
  // expected-error @below {{cycle between fields: @a -> @b -> @a}}
  imeta.field @b seq {
    %a = imeta.get @a : i32
    imeta.yield %a : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @a seq {
    %c0 = arith.constant 0 : i32
    %x = imeta.prefix_at @cu[%c0] : !imeta.prefix<exclusive> -> i32
    imeta.yield %x : i32
  }
  // expected-error @below {{cycle between fields: @a -> @cu -> @a}}
  imeta.prefix_sum @cu = @a : !imeta.prefix<exclusive>
}

// -----

imeta.spec @s {
  // expected-error @below {{cycle between fields: @a -> @a}}
  imeta.field @a seq {
    %a = imeta.get @a : i32
    imeta.yield %a : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @f scalar {
    // expected-error @below {{'imeta.seq_index' op is only valid in a 'seq' or 'rows' domain}}
    %i = imeta.seq_index : i32
    imeta.yield %i : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    // expected-error @below {{'imeta.row_index' op is only valid in a 'rows' domain}}
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
}

// -----

imeta.spec @s {
  imeta.require "R" "m" seq {
    // expected-error @below {{'imeta.row' op is only valid in a 'rows' domain}}
    %r = imeta.row : i32
    %c = arith.constant 0 : i32
    %ok = arith.cmpi eq, %r, %c : i32
    imeta.yield %ok : i1
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    // expected-error @below {{'imeta.col_index' op is only valid in a field with 'cols'}}
    %c = imeta.col_index : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    // expected-error @below {{'imeta.ratio' op is only valid in a field or rule bucketed 'over' a ratio set}}
    %n = imeta.ratio : i32
    imeta.yield %n : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @f scalar {
    // expected-error @below {{unknown config parameter @nope}}
    %c = imeta.get_config @nope : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @l : !imeta.list
  imeta.field @f scalar {
    // expected-error @below {{@l is a list; read it as a ratio set}}
    %c = imeta.get_config @l : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @b : i1
  imeta.field @f scalar {
    // expected-error @below {{result type 'i32' does not match the type 'i1' of @b}}
    %c = imeta.get_config @b : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f scalar {
    // expected-error @below {{reads the current sequence, but the enclosing field has domain 'scalar'}}
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
}

// -----

imeta.spec @s {
  imeta.input @t : !imeta.list
  imeta.field @f seq {
    // expected-error @below {{@t is a list; read it with imeta.load}}
    %q = imeta.get_input @t : i32
    imeta.yield %q : i32
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f seq {
    // expected-error @below {{unknown input @k}}
    %q = imeta.get_input @k : i32
    imeta.yield %q : i32
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f seq {
    %c = arith.constant 0 : i32
    // expected-error @below {{@q is not a list}}
    %x = imeta.load @q[%c] : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @w seq {
    %c = arith.constant 1 : i32
    imeta.yield %c, %c : i32, i32
  }
  imeta.field @f seq {
    // expected-error @below {{field @w must be a flat field (one value per point)}}
    %x = imeta.get @w : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @g seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @f scalar {
    // expected-error @below {{reads the current sequence, but the enclosing field has domain 'scalar'}}
    %x = imeta.get @g : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @m seq {
    %c = arith.constant 2 : i32
    imeta.yield %c : i32
  }
  imeta.field @g rows(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @f rows(@m) {
    // expected-error @below {{reads the rows field @g outside its row space; only a 'rows(@n)' field may read it}}
    %x = imeta.get @g : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.ratios @a
  imeta.ratios @b
  imeta.field @g seq over @a {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @f seq over @b {
    // expected-error @below {{reads @g, bucketed over @a, from a context bucketed over @b, which is not a subset of it}}
    %x = imeta.get @g : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @g seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @f seq {
    // expected-error @below {{result type 'i64' does not match the type 'i32' of @g}}
    %x = imeta.get @g : i64
    %y = arith.trunci %x : i64 to i32
    imeta.yield %y : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @g seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.prefix_sum @ends = @g : !imeta.prefix<inclusive>
  imeta.field @f seq {
    %i = imeta.seq_index : i32
    // expected-error @below {{reads @ends as exclusive, but it is declared inclusive}}
    %x = imeta.prefix_at @ends[%i] : !imeta.prefix<exclusive> -> i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @f scalar {
    // expected-error @below {{unknown prefix sum @cu}}
    %x = imeta.prefix_total @cu : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.ratios @r
  imeta.field @g seq over @r {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.prefix_sum @cu = @g : !imeta.prefix<exclusive>
  imeta.field @f scalar {
    // expected-error @below {{reads @cu, which is bucketed over @r, from a context that is not bucketed; declare the reader `over @r` too}}
    %x = imeta.prefix_total @cu : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @f scalar {
    // expected-error @below {{unknown ratio set or axis @r}}
    %x = imeta.ratio_min @r : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @c : i32
  imeta.field @f scalar {
    // expected-error @below {{@c is not a ratio set}}
    %x = imeta.ratio_count @c : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{must be nested in an imeta.field or imeta.require}}
  %i = imeta.seq_index : i32
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.require "R" "m" scalar {
    // expected-error @below {{reads the current sequence, but the enclosing rule has domain 'scalar'}}
    %q = imeta.get_input @q : i32
    %c = arith.constant 0 : i32
    %ok = arith.cmpi eq, %q, %c : i32
    imeta.yield %ok : i1
  }
}

// -----

imeta.spec @s {
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{@f is not a path}}
  imeta.path @p target(cpu) extends @f {
  }
}

// -----

imeta.spec @s {
  imeta.field @g seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @f scalar {
    // expected-error @below {{@g is not a prefix sum; it is a field: read it with imeta.get @g}}
    %x = imeta.prefix_total @g : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @c : i32
  imeta.field @f seq {
    // expected-error @below {{@c is not an input; it is a config parameter: read it with imeta.get_config @c}}
    %x = imeta.get_input @c : i32
    imeta.yield %x : i32
  }
}

// -----

imeta.spec @s {
  // expected-note @below {{see existing symbol definition here}}
  imeta.config @c : i32
  // expected-error @below {{redefinition of symbol named 'c'}}
  imeta.input @c : i32
}

// -----

imeta.spec @s {
  imeta.field @w seq {
    %c = arith.constant 4 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{column count @w must be an i32 config or a flat i32 scalar field}}
  imeta.field @f seq cols(@w) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

imeta.spec @s {
  imeta.ratios @r
  imeta.field @w scalar over @r {
    %c = arith.constant 4 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{reads @w, which is bucketed over @r, from a context that is not bucketed; declare the reader `over @r` too}}
  imeta.field @f seq cols(@w) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

// A prefix sum read as a field: the message says how to read it.
imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.prefix_sum @cu = @q : !imeta.prefix<exclusive>
  imeta.field @f seq {
    // expected-error @below {{@cu is not a field; it is a prefix sum: read an entry with imeta.prefix_at @cu[%i] or its total with imeta.prefix_total @cu}}
    %x = imeta.get @cu : i32
    imeta.yield %x : i32
  }
}

// -----

// A list input read as a scalar one.
imeta.spec @s {
  imeta.input @bt : !imeta.list
  imeta.field @f seq {
    // expected-error @below {{@bt is a list; read it with imeta.load}}
    %x = imeta.get_input @bt : i32
    imeta.yield %x : i32
  }
}

// -----

// A misspelt convention names the two there are.
imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{expected the prefix sum's convention, 'exclusive' (entry i: the sum before sequence i) or 'inclusive' (through it)}}
  imeta.prefix_sum @cu = @q : !imeta.prefix<exclusiv>
}

// -----

// imeta.reduce runs over sequences, once per batch.
imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @f seq {
    // expected-error @below {{is only valid in a 'scalar' field or rule (one value per batch); define a scalar field with it and read that with imeta.get}}
    %m = imeta.reduce max @q : i32
    imeta.yield %m : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @one scalar {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @f scalar {
    // expected-error @below {{reduces @one, a scalar of one value; read it with imeta.get}}
    %m = imeta.reduce sum @one : i32
    imeta.yield %m : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @f scalar {
    // expected-error @below {{result type 'i64' does not match the type 'i32' of @q}}
    %m = imeta.reduce min @q : i64
    %t = arith.trunci %m : i64 to i32
    imeta.yield %t : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @f scalar {
    // expected-error @below {{one of the following enum values for attribute 'kind' [sum, max, min]}}
    %m = imeta.reduce mean @q : i32
    imeta.yield %m : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @base target(cpu) { imeta.output "q" = @q }
  imeta.path @p target(cpu) extends @base {
    // expected-error @below {{drops 'k', which base path @base does not output}}
    imeta.drop "k"
  }
}

// -----

imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    imeta.output "q" = @q
    // expected-error @below {{drops 'q', but path @p extends no path; list only the outputs it produces}}
    imeta.drop "q"
  }
}

// -----

imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @base target(cpu) { imeta.output "q" = @q }
  imeta.path @p target(cpu) extends @base {
    imeta.output "q" = @q
    // expected-error @below {{drops 'q', which path @p also outputs or drops}}
    imeta.drop "q"
  }
}

// -----

imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @base target(cpu) { imeta.output "q" = @q }
  // expected-error @below {{drops every output of @base; a path produces at least one}}
  imeta.path @p target(cpu) extends @base {
    imeta.drop "q"
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{produces no output; list at least one with imeta.output "name" = @field}}
  imeta.path @p target(cpu) {
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{has both a formula string and a body; keep one}}
  imeta.field @f seq = "1" {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
}

// -----

// Names the generated C++ spells: identifiers, not keywords.
imeta.spec @s {
  // expected-error @below {{name 'class' is a C++ keyword, which the generated code cannot name; choose another}}
  imeta.input @class : i32
}

// -----

imeta.spec @s {
  // expected-error @below {{name 'a-b' must be an identifier (letters, digits, '_'): the generated C++ spells it}}
  imeta.config @"a-b" : i32
}

// -----

imeta.spec @s {
  imeta.field @q seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{output name 'if' is a C++ keyword, which the generated code cannot name; choose another}}
    imeta.output "if" = @q
  }
}

// -----

// expected-error @below {{spec name 'namespace' is a C++ keyword}}
imeta.spec @namespace {
}

// -----

imeta.spec @s {
  imeta.config @B : i32
  imeta.input @q : i32
  imeta.field @f seq {
    %c = arith.constant 0 : i32
    // expected-error @below {{@B is not a list; read it with imeta.get_config @B}}
    %v = imeta.config_at @B[%c] : i32
    imeta.yield %v : i32
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f seq {
    %c = arith.constant 0 : i32
    // expected-error @below {{@q is not a list; read it with imeta.get_input @q}}
    %n = imeta.count @q[%c, %c] in [%c, %c] : i32
    imeta.yield %n : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @c : i32
  imeta.input @q : i32
  imeta.field @f seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  // expected-error @below {{needs @c, which every batch gives already; list only optional config parameters and inputs (declare it {optional})}}
  imeta.path @p target(cpu) needs [@c] {
    imeta.output "f" = @f
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  // expected-error @below {{needs @f, which is not a config parameter or an input}}
  imeta.path @p target(cpu) needs [@f] {
    imeta.output "f" = @f
  }
}

// -----

// A declared fill: rows past the batch, of the output's type.
imeta.spec @s {
  imeta.input @q : i32
  imeta.field @total scalar = "7"
  imeta.path @p target(cpu) {
    // expected-error @below {{output 'total' is a scalar: it has no rows past the batch to fill}}
    imeta.output "total" = @total fill(0)
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @big seq = "q > 1" : i1
  imeta.path @p target(cpu) {
    // expected-error @below {{output 'big' is bool: fill(0) or fill(1), not fill(-1)}}
    imeta.output "big" = @big fill(-1)
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @nq seq = "q"
  imeta.path @p target(cpu) {
    // expected-error @below {{output 'nq': fill(4294967296) does not fit i32}}
    imeta.output "nq" = @nq fill(4294967296)
  }
}

// -----

// Sums per column: the column named exactly where the sum has columns.
imeta.spec @s {
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
  imeta.prefix_sum @flat = @n : !imeta.prefix<exclusive>
  imeta.field @a seq {
    %i = imeta.seq_index : i32
    // expected-error @below {{'imeta.prefix_at' op reads @cu, a sum per column of @wide: name the column, [i, column]}}
    %v = imeta.prefix_at @cu[%i] : !imeta.prefix<exclusive> -> i32
    imeta.yield %v : i32
  }
}

// -----

imeta.spec @s {
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
  imeta.prefix_sum @flat = @n : !imeta.prefix<exclusive>
  imeta.field @b scalar {
    // expected-error @below {{'imeta.prefix_total' op reads @cu, a sum per column of @wide: name the column, [column]}}
    %v = imeta.prefix_total @cu : i32
    imeta.yield %v : i32
  }
}

// -----

imeta.spec @s {
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
  imeta.prefix_sum @flat = @n : !imeta.prefix<exclusive>
  imeta.field @c seq {
    %i = imeta.seq_index : i32
    // expected-error @below {{'imeta.prefix_at' op reads a column of @flat, but @n has one value a sequence}}
    %v = imeta.prefix_at @flat[%i, %i] : !imeta.prefix<exclusive> -> i32
    imeta.yield %v : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @w : i32
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @some seq cols(@w) live(@n) {
    %c = imeta.col_index : i32
    imeta.yield %c : i32
  }
  // expected-error @below {{'imeta.prefix_sum' op summand @some has 'live' columns; a sum per column needs every column's value}}
  imeta.prefix_sum @cu = @some : !imeta.prefix<exclusive>
}

// -----

imeta.spec @s {
  imeta.config @w : i32
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @some seq cols(@w) live(@n) {
    %c = imeta.col_index : i32
    imeta.yield %c : i32
  }
  imeta.field @m scalar {
    // expected-error @below {{'imeta.reduce' op reduces @some, whose columns past 'live' are unspecified; reduce a field without 'live'}}
    %v = imeta.reduce max @some : i32
    imeta.yield %v : i32
  }
}

// -----

imeta.spec @s {
  imeta.config @w : i32
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @some seq cols(@w) live(@n) {
    %c = imeta.col_index : i32
    imeta.yield %c : i32
  }
  imeta.field @r rows(@n) cols(@w) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @m scalar {
    // expected-error @below {{'imeta.reduce' op reduces @r, a 'rows' field with columns; reduce a rows field of one value a row}}
    %v = imeta.reduce max @r : i32
    imeta.yield %v : i32
  }
}

// -----

// A rows field's rows reduce in a seq field or a scalar, one value a row.
imeta.spec @s {
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @r rows(@n) {
    %j = imeta.row_index : i32
    imeta.yield %j, %j : i32, i32
  }
  imeta.field @m seq {
    // expected-error @below {{'imeta.reduce' op reduces @r, a 'rows' field of 2 values a row; reduce a rows field of one value a row}}
    %v = imeta.reduce max @r : i32
    imeta.yield %v : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @r rows(@n) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @m rows(@n) {
    // expected-error @below {{'imeta.reduce' op reduces the rows of @r in a 'rows' field; define a 'seq' field with it (the sequence's rows) and read that with imeta.get}}
    %v = imeta.reduce sum @r : i32
    imeta.yield %v : i32
  }
}

// -----

imeta.spec @s {
  imeta.ratios @set
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @r rows(@n) over @set {
    %j = imeta.ratio : i32
    imeta.yield %j : i32
  }
  imeta.field @m scalar {
    // expected-error @below {{reads @r, which is bucketed over @set, from a context that is not bucketed; declare the reader `over @set` too}}
    %v = imeta.reduce max @r : i32
    imeta.yield %v : i32
  }
}

// -----

// imeta.reduce_rows: in a seq field, its body a row's value.
imeta.spec @s {
  imeta.field @m scalar {
    %n = arith.constant 3 : i32
    // expected-error @below {{'imeta.reduce_rows' op is only valid in a 'seq' or 'rows' field (it reduces the current sequence's rows)}}
    %v = imeta.reduce_rows max %n : i32 {
    ^bb0(%r: i32):
      imeta.yield %r : i32
    }
    imeta.yield %v : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @m seq {
    %n = arith.constant 3 : i32
    // expected-error @below {{'imeta.reduce_rows' op body takes one i32 argument, the row}}
    %v = imeta.reduce_rows sum %n : i32 {
      imeta.yield %n : i32
    }
    imeta.yield %v : i32
  }
}

// -----

imeta.spec @s {
  imeta.field @m seq {
    %n = arith.constant 3 : i32
    // expected-error @below {{'imeta.reduce_rows' op body must yield one 'i32'}}
    %v = imeta.reduce_rows min %n : i32 {
    ^bb0(%r: i32):
      %b = arith.cmpi sgt, %r, %n : i32
      imeta.yield %b : i1
    }
    imeta.yield %v : i32
  }
}

// rows(@len): with a fill, on an unbucketed rows or seq field, naming an
// unbucketed i32 scalar.
// -----

imeta.spec @s {
  imeta.ratios @set
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @len scalar {
    %c = arith.constant 4 : i32
    imeta.yield %c : i32
  }
  imeta.field @r rows(@n) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @rb rows(@n) over @set {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{output 'a': rows(@len) needs fill(v), the value of the rows past the field's}}
    imeta.output "a" = @r rows(@len)
  }
}

// -----

imeta.spec @s {
  imeta.ratios @set
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @len scalar {
    %c = arith.constant 4 : i32
    imeta.yield %c : i32
  }
  imeta.field @r rows(@n) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @rb rows(@n) over @set {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{output 'b': rows(@len) is for an unbucketed 'rows' or 'seq' field}}
    imeta.output "b" = @rb fill(-1) rows(@len)
  }
}

// -----

imeta.spec @s {
  imeta.ratios @set
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @len scalar {
    %c = arith.constant 4 : i32
    imeta.yield %c : i32
  }
  imeta.field @r rows(@n) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @rb rows(@n) over @set {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{output 'c': rows(@n) must name an unbucketed i32 scalar field}}
    imeta.output "c" = @r fill(-1) rows(@n)
  }
}

// State inputs (SPEC-async.md): read at a per-sequence i32 slot input,
// both optional (a path that reads them needs them).
// -----

imeta.spec @s {
  imeta.input @slot : !imeta.list {optional}
  // expected-error @below {{'imeta.input' op 'slot' @slot must be a per-sequence i32 input}}
  imeta.input @x : i32 {slot = @slot, optional}
}

// -----

imeta.spec @s {
  imeta.input @slot : i32
  // expected-error @below {{'imeta.input' op a state input and its slot input are 'optional': a path that reads them lists them in 'needs'}}
  imeta.input @x : i32 {slot = @slot, optional}
}

// -----

imeta.spec @s {
  imeta.input @slot : i32 {optional}
  // expected-error @below {{'imeta.input' op 'key' and 'width' belong to a state input (one with 'slot')}}
  imeta.input @x : i32 {key = "y"}
}

// -----

imeta.spec @s {
  imeta.config @w : i32
  imeta.input @slot : i32 {optional}
  // expected-error @below {{'imeta.input' op 'width' gives a state list's row length, but @x is 'i32'}}
  imeta.input @x : i32 {slot = @slot, width = @w, optional}
}

// -----

imeta.spec @s {
  imeta.input @slot : i32 {optional}
  // expected-error @below {{'imeta.input' op a state input is a table of slots already; drop 'resident'}}
  imeta.input @x : !imeta.list {slot = @slot, resident, min = 0 : i64}
}

// imeta.resolve: a scalar input from a seq field of its type, a list
// input from a rows field of one i32 value a row.
// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f seq {
    %c = arith.constant true
    imeta.yield %c : i1
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{'imeta.resolve' op input @q ('i32') is resolved from a 'seq' field of its type, but @f is not one}}
    imeta.resolve @q = @f
    imeta.output "f" = @f
  }
}

// -----

imeta.spec @s {
  imeta.input @l : !imeta.list
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{'imeta.resolve' op list input @l is resolved from a 'rows' i32 field (sequence i's list is its rows), but @f is not one}}
    imeta.resolve @l = @f
    imeta.output "f" = @f
  }
}

// -----

imeta.spec @s {
  imeta.input @slot : i32 {optional}
  imeta.input @x : i32 {slot = @slot, optional}
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{'imeta.resolve' op @x is state; resolve a per-sequence input}}
    imeta.resolve @x = @f
    imeta.output "f" = @f
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    imeta.resolve @q = @f
    // expected-error @below {{'imeta.resolve' op @q is resolved twice}}
    imeta.resolve @q = @f
    imeta.output "f" = @f
  }
}

// -----

// A rule that reads request state is checked before the resolution, so it
// may not read a resolved input, here through a field.
imeta.spec @s {
  imeta.input @slot : i32 {optional}
  imeta.input @held : i32 {slot = @slot, optional}
  imeta.input @q : i32
  imeta.field @d seq {
    %q = imeta.get_input @q : i32
    %h = imeta.get_input @held : i32
    %d = arith.subi %q, %h : i32
    imeta.yield %d : i32
  }
  // expected-note @below {{the rule is here}}
  imeta.require "S1" "q differs from held" seq {
    %d = imeta.get @d : i32
    %z = arith.constant 0 : i32
    %ok = arith.cmpi ne, %d, %z : i32
    imeta.yield %ok : i1
  }
  imeta.field @f seq {
    %h = imeta.get_input @held : i32
    imeta.yield %h : i32
  }
  imeta.path @p target(cpu) needs [@slot, @held] {
    // expected-error @below {{'imeta.resolve' op resolves @q, which rule 'S1' ('q differs from held') reads with request state: a rule that reads state is checked on the batch as given, before the resolution; split it into a rule on the state and one on @q}}
    imeta.resolve @q = @f
    imeta.output "d" = @d
  }
}

// -----

imeta.spec @s {
  imeta.config @w : i1
  imeta.input @slot : i32 {optional}
  // expected-error @below {{'imeta.input' op 'width' @w must be an i32 config parameter}}
  imeta.input @x : !imeta.list {slot = @slot, width = @w, optional}
}

// A path reads request state only where it needs it.
// -----

imeta.spec @s {
  imeta.input @slot : i32 {optional}
  imeta.input @x : i32 {slot = @slot, optional}
  imeta.field @f seq {
    %x = imeta.get_input @x : i32
    imeta.yield %x : i32
  }
  // expected-error @below {{'imeta.path' op reads request state @x; list it in 'needs' (a batch of another path gives no state)}}
  imeta.path @p target(cpu) needs [@slot] {
    imeta.output "f" = @f
  }
}

// A resolving field reads the batch as given, not another resolved input.
// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.input @k : i32
  imeta.field @q_of seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @k_of seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.path @p target(cpu) {
    imeta.resolve @q = @q_of
    // expected-error @below {{'imeta.resolve' op field @k_of reads @q, which this path resolves too; a resolving field reads the batch as given}}
    imeta.resolve @k = @k_of
    imeta.output "q" = @q_of
  }
}

// -----

imeta.spec @s {
  imeta.ratios @set
  imeta.input @q : i32
  imeta.field @f seq over @set {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    // expected-error @below {{'imeta.resolve' op field @f must give one value a point, unbucketed}}
    imeta.resolve @q = @f
    imeta.output "f" = @f
  }
}

// -----

imeta.spec @s {
  imeta.input @l : !imeta.list
  imeta.field @n seq {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.field @r rows(@n) {
    %c = arith.constant 1 : i32
    imeta.yield %c : i32
  }
  imeta.path @p target(cpu) {
    imeta.resolve @l = @r
    // expected-error @below {{'imeta.resolve' op @l is resolved twice}}
    imeta.resolve @l = @r
    imeta.output "n" = @n
  }
}
