// The engine's own metadata: a paged-KV step, per sequence q new tokens
// after k - q cached ones, through its block table.
imeta.spec @engine {
  imeta.config @block_size : i32 {min = 1 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @k : i32 {min = 1 : i64}
  imeta.input @block_table : !imeta.list {min = 0 : i64}
  imeta.require "E1" "q <= k" seq = "q <= k"
  imeta.field @nq seq = "q"
  imeta.field @nk seq = "k"
  imeta.prefix_sum @cu_seqlens_q = @nq : !imeta.prefix<exclusive>
  imeta.field @max_seq_len scalar = "max_of(nk)"
  imeta.field @positions rows(@nq) = "k - q + j"
  imeta.field @slot_mapping rows(@nq) = "p = positions; block_table[p / block_size] * block_size + p % block_size"
  imeta.path @step target(cpu) {
    imeta.output "cu_seqlens_q" = @cu_seqlens_q
    imeta.output "max_seq_len" = @max_seq_len
    imeta.output "positions" = @positions
    imeta.output "slot_mapping" = @slot_mapping
  }
}
