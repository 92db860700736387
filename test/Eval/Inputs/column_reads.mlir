// A block table as a new user first writes it: each row's ids read from
// the sequence's list up to its block count, and no rule that the list
// holds that many ids. The fill then checks each read itself (an index
// into a list has no bound the range proof knows), so a short list is a
// refusal that names the field, the sequence, its row and the first
// column past the list. A long row's columns are walked by a warp in
// tiles on the GPU; the refusal's words come from the CPU's walk, which a
// device step runs on one lane after its warps found the failure
// (test/Eval/column-reads.test; the GPU: test/gpu/every-spec.txt).
imeta.spec @column_reads {
  imeta.config @block_size : i32 {min = 1 : i64}
  imeta.config @max_blocks : i32 {min = 1 : i64}
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @k : i32 {min = 1 : i64}
  imeta.input @block_ids : !imeta.list {min = 0 : i64}
  imeta.require "C1" "q <= k" seq = "q <= k"
  imeta.require "C2" "the blocks fit a row" seq = "(k + block_size - 1) / block_size <= max_blocks"
  imeta.field @nq seq = "q"
  imeta.field @num_blocks seq = "(k + block_size - 1) / block_size"
  imeta.field @positions rows(@nq) = "k - q + j"
  imeta.field @table rows(@nq) cols(@max_blocks) = "col < num_blocks ? block_ids[col] : -1"
  imeta.path @step target(gpu) {
    imeta.output "positions" = @positions
    imeta.output "block_table" = @table
  }
}
