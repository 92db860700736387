// Optional outputs: absent from a step whose field has no point, as vLLM
// sets its prefill-only tensors to None when no sequence prefills. The
// prefill rows (q > 1) and each ratio's compressed rows (k / n of them)
// may be empty; a seq field and a prefix sum are empty without sequences.
imeta.spec @optional_outputs {
  imeta.ratios @ratios
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @k : i32 {min = 1 : i64}
  imeta.field @prefill_len seq = "q > 1 ? q : 0"
  imeta.field @prefill_pos rows(@prefill_len) = "k - q + j"
  imeta.field @compressed seq over @ratios = "k / n"
  imeta.field @compressed_pos rows(@compressed) over @ratios = "j * n"
  imeta.field @nq seq = "q"
  imeta.prefix_sum @cu_q = @nq : !imeta.prefix<exclusive>
  imeta.prefix_sum @end_q = @nq : !imeta.prefix<inclusive>
  imeta.field @total scalar = "total(cu_q)"
  imeta.path @cpu target(cpu) {
    imeta.output "prefill.positions" = @prefill_pos optional
    imeta.output "compressed_positions" = @compressed_pos optional
    imeta.output "seq_lens" = @nq optional
    imeta.output "query_start_loc" = @cu_q optional
    imeta.output "query_end_loc" = @end_q optional
    imeta.output "always.positions" = @prefill_pos fill(-1)
    imeta.output "num_tokens" = @total
  }
  imeta.path @gpu target(gpu) extends @cpu {
  }
}
