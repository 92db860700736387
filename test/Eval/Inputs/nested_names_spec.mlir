// Outputs named as nested results (vLLM's nums_dict): `nums.prefill`,
// `nums.decode`; a bucketed one prints NAME.n after its dotted name.
imeta.spec @nested_names {
  imeta.ratios @set
  imeta.input @q : i32 {min = 1 : i64}
  imeta.field @qf seq = "q"
  imeta.field @prefill seq = "int(q > 1)"
  imeta.field @num_prefill scalar = "sum_of(prefill)"
  imeta.field @num_decode scalar = "N - num_prefill"
  imeta.field @pos rows(@qf) over @set = "n * j"
  imeta.path @p target(cpu) {
    imeta.output "nums.prefill" = @num_prefill
    imeta.output "nums.decode" = @num_decode
    imeta.output "rows.scaled" = @pos fill(-1)
  }
  imeta.path @pg target(gpu) {
    imeta.output "nums.prefill" = @num_prefill
    imeta.output "nums.decode" = @num_decode
    imeta.output "rows.scaled" = @pos fill(-1)
  }
}
