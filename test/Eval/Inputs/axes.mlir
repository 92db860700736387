// An axis of num_pools indices (test/Eval/axes.test): fields over it,
// its rows, sums and prefix sums, its count; a GPU path of scalars.
imeta.spec @axes {
  imeta.config @num_pools : i32 {min = 0 : i64}
  imeta.config @layers : !imeta.list {min = 1 : i64}
  imeta.axis @pools = @num_pools
  imeta.input @len : i32 {min = 1 : i64}
  imeta.field @q seq = "len"
  imeta.require "P" "len fits the pool" seq over @pools = "len <= layers[n] * 10"
  imeta.field @slot seq over @pools = "q * layers[n] + n"
  imeta.field @per_pool scalar over @pools = "sum_of(slot)"
  imeta.field @pool_count scalar = "ratio_count(pools)"
  imeta.field @rows rows(@q) over @pools = "n * 100 + j"
  imeta.prefix_sum @cu = @slot : !imeta.prefix<exclusive>
  imeta.path @cpu target(cpu) {
    imeta.output "slot" = @slot
    imeta.output "per_pool" = @per_pool
    imeta.output "pool_count" = @pool_count
    imeta.output "rows" = @rows
    imeta.output "cu" = @cu
  }
  imeta.path @gpu target(gpu) extends @cpu {
  }
  // A GPU path of scalars alone (its stage reads no sequence).
  imeta.path @scalars target(gpu) {
    imeta.output "per_pool" = @per_pool
    imeta.output "pool_count" = @pool_count
  }
}
