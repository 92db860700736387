// RUN: imeta-opt %s --imeta-fuse-rows | FileCheck %s

// One group per row space, [@count, fields in dependency order]; a field
// read by others (@pos) comes first, so generated code computes it once per
// row. Fields only reached through others are fused too.

imeta.spec @fuse {
  imeta.input @q : i32
  imeta.input @k : i32
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @nk seq {
    %k = imeta.get_input @k : i32
    imeta.yield %k : i32
  }
  imeta.field @plus_one rows(@nq) {
    %p = imeta.get @pos : i32
    %c1 = arith.constant 1 : i32
    %v = arith.addi %p, %c1 : i32
    imeta.yield %v : i32
  }
  imeta.field @pos rows(@nq) {
    %j = imeta.row_index : i32
    imeta.yield %j : i32
  }
  imeta.field @hist rows(@nk) {
    %r = imeta.row : i32
    imeta.yield %r : i32
  }
  // CHECK-LABEL: imeta.path @p target(cpu)
  // CHECK-SAME: imeta.fill = {{\[}}[@nq, @pos, @plus_one], [@nk, @hist]]
  imeta.path @p target(cpu) {
    imeta.output "plus_one" = @plus_one
    imeta.output "hist" = @hist
  }
}

// The shipped spec: decode fuses all its rows fields into one group over
// seqlen_q; prompt has four row spaces.
// RUN: imeta-opt %specs/deepinfer_v4.mlir --imeta-fuse-rows | FileCheck %s --check-prefix=V4
// V4: imeta.path @prompt target(cpu) attributes {imeta.fill = {{\[}}[@q, @positions, {{[^]]*}}], [@new_compressed_rows, {{[^]]*}}], [@ca_load_rows, @load_segments_ca], [@swa_load_rows, @load_segments_swa]]}
// V4: imeta.path @decode target(cpu) attributes {imeta.fill = {{\[}}[@q, @positions, {{[^]]*}}]]}
