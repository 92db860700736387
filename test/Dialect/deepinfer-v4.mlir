// The shipped spec verifies and round-trips unchanged.
// RUN: imeta-opt %specs/deepinfer_v4.mlir > %t.mlir
// RUN: imeta-opt %t.mlir | diff %t.mlir -
// RUN: FileCheck %s --input-file %t.mlir

// One path per SPEC.md path; decode_zos differs from decode only in
// cu_seqlens_q.
// CHECK-LABEL: imeta.spec @deepinfer_v4
// CHECK: imeta.path @prompt target(cpu)
// CHECK: imeta.path @decode target(cpu)
// CHECK: imeta.path @decode_zos target(gpu) extends @decode {
// CHECK-NEXT: imeta.output "cu_seqlens_q" = @cu_seqlens_q_inclusive
// CHECK-NEXT: }
