// A compact formula outside an imeta.spec (found by test/fuzz's spec
// fuzzer: its names were looked up in a null spec) is a located error.
// RUN: not imeta-gen %s --emit=header 2>&1 | FileCheck %s
// CHECK: formula-outside-spec.mlir:[[@LINE+1]]:1: error: 'imeta.field' op has a compact formula outside an imeta.spec: its names resolve in the spec
imeta.field @f seq = "q + 1"
imeta.spec @s {
  imeta.input @q : i32 {min = 1 : i64}
  imeta.field @g seq = "q"
  imeta.path @p target(cpu) {
    imeta.output "g" = @g
  }
}
