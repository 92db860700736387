// A compact formula naming its own field (found by test/fuzz's spec
// fuzzer: the field's half-built body was read as if complete, a heap
// overflow) is the cycle error it is.
// RUN: not imeta-gen %s --emit=header 2>&1 | FileCheck %s
imeta.spec @s {
  imeta.input @q : i32 {min = 1 : i64}
  // CHECK: formula-names-own-field.mlir:[[@LINE+1]]:3: error: 'imeta.field' op cycle between fields: @g -> @g
  imeta.field @g seq = "g + q"
  imeta.field @h seq = "q + h"
  imeta.path @p target(cpu) {
    imeta.output "g" = @g
  }
}
