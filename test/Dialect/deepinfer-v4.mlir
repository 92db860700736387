// The shipped spec verifies and round-trips unchanged.
// RUN: imeta-opt %specs/deepinfer_v4.mlir > %t.mlir
// RUN: imeta-opt %t.mlir | diff %t.mlir -
// RUN: FileCheck %s --input-file %t.mlir

// One path per SPEC.md path; decode_zos differs from decode in
// cu_seqlens_q; decode_zos_expanded and prompt_expanded add the expansions,
// on the GPU.
// CHECK-LABEL: imeta.spec @deepinfer_v4
// CHECK: imeta.path @prompt target(cpu)
// CHECK: imeta.path @decode target(cpu)
// CHECK: imeta.path @decode_zos target(gpu) extends @decode {
// CHECK-NEXT: imeta.output "cu_seqlens_q" = @cu_seqlens_q_inclusive
// CHECK-NEXT: }
// CHECK: imeta.path @decode_zos_expanded target(gpu) extends @decode_zos {
// CHECK-NEXT: imeta.output "kv_swa_index" = @kv_swa_index
// CHECK-NEXT: imeta.output "kv_ca_index" = @decode_kv_ca_index
// CHECK-NEXT: }
// CHECK: imeta.path @prompt_expanded target(gpu) extends @prompt {
// CHECK-NEXT: imeta.output "kv_swa_full_index" = @kv_swa_full_index
// CHECK-NEXT: imeta.output "kv_ca_index" = @prompt_kv_ca_index
// CHECK-NEXT: }
