// Fields over a subset of the sequences: vLLM's prefill-only and
// decode-only tensors after split_decodes_and_prefills, in batch order.
imeta.spec @subsets {
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @k : i32 {min = 1 : i64}
  imeta.input @state : i32 {min = 0 : i64}
  imeta.field @is_prefill seq = "q > 1" : i1
  imeta.field @is_decode seq = "!is_prefill" : i1
  imeta.field @q_p seq(@is_prefill) = "q"
  imeta.prefix_sum @qsl_p = @q_p : !imeta.prefix<exclusive>
  imeta.prefix_sum @qend_p = @q_p : !imeta.prefix<inclusive>
  imeta.field @state_p seq(@is_prefill) = "state"
  imeta.field @has_init_p seq(@is_prefill) = "k > q" : i1
  imeta.field @member_p seq(@is_prefill) = "r"
  imeta.field @seq_of_p seq(@is_prefill) = "i"
  imeta.field @span_p seq(@is_prefill) = "qsl_p[r + 1] - qsl_p[r]"
  imeta.field @end_p seq(@is_prefill) = "qend_p[r]"
  imeta.field @state_d seq(@is_decode) = "state"
  imeta.field @one_p seq(@is_prefill) = "1"
  imeta.field @num_prefills scalar = "sum_of(one_p)"
  imeta.field @max_q_p scalar = "max_of(q_p)"
  imeta.field @prefill_tokens scalar = "total(qsl_p)"
  imeta.field @q_or_zero seq = "sum_of(q_p)"
  imeta.path @cpu target(cpu) {
    imeta.output "query_start_loc_p" = @qsl_p optional
    imeta.output "query_end_p" = @qend_p
    imeta.output "state_indices_p" = @state_p optional
    imeta.output "has_initial_states_p" = @has_init_p optional
    imeta.output "member_p" = @member_p
    imeta.output "seq_of_p" = @seq_of_p
    imeta.output "span_p" = @span_p
    imeta.output "end_p" = @end_p
    imeta.output "state_indices_d" = @state_d optional
    imeta.output "num_prefills" = @num_prefills
    imeta.output "max_q_p" = @max_q_p
    imeta.output "prefill_tokens" = @prefill_tokens
    imeta.output "q_or_zero" = @q_or_zero
    imeta.output "qsl_all" = @qsl_p
  }
  imeta.path @gpu target(gpu) extends @cpu {
  }
}
