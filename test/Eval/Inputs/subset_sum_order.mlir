// A subset field that reads a subset sum declared after its own sum.
imeta.spec @s2 {
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @k : i32 {min = 1 : i64}
  imeta.field @is_p seq = "q > 1" : i1
  imeta.field @two seq(@is_p) = "q * 2 + cu_k[r]"
  imeta.prefix_sum @cu_two = @two : !imeta.prefix<exclusive>
  imeta.field @k_p seq(@is_p) = "k"
  imeta.prefix_sum @cu_k = @k_p : !imeta.prefix<exclusive>
  imeta.path @cpu target(cpu) {
    imeta.output "two" = @two
    imeta.output "cu_two" = @cu_two
  }
}
