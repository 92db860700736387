// imeta.reduce of a rows field's rows: per sequence in a seq field (0
// for a sequence without rows), over the batch in a scalar field or rule
// (0 without rows; a sequence without rows is no row of value 0: `neg`'s
// maximum stays negative, `pos`'s minimum above 0), of a field reading
// another rows field, of an i1 field ("any", "all"), per ratio bucket.
imeta.spec @reduce_rows {
  imeta.ratios @set
  imeta.input @q : i32 {min = 0 : i64}
  imeta.input @k : i32 {min = 0 : i64}
  imeta.field @nq seq = "q"
  imeta.field @start seq = "k - q"
  imeta.field @pos rows(@nq) = "start + j + 10"
  imeta.field @neg rows(@nq) = "-pos"
  imeta.field @twice rows(@nq) = "pos * 2"
  imeta.field @even rows(@nq) = "pos % 2 == 0" : i1
  imeta.field @big rows(@nq) = "pos >= 10" : i1
  imeta.field @blk rows(@nq) over @set = "(start + j) / n"
  imeta.field @seq_max seq = "max_of(pos)"
  imeta.field @seq_min seq = "min_of(neg)"
  imeta.field @seq_sum seq = "sum_of(pos)"
  imeta.field @max_pos scalar = "max_of(pos)"
  imeta.field @min_pos scalar = "min_of(pos)"
  imeta.field @sum_pos scalar = "sum_of(pos)"
  imeta.field @max_neg scalar = "max_of(neg)"
  imeta.field @max_twice scalar = "max_of(twice)"
  imeta.field @any_even scalar = "max_of(even)" : i1
  imeta.field @all_big scalar = "min_of(big)" : i1
  imeta.field @max_blk scalar over @set = "max_of(blk)"
  imeta.path @all target(cpu) {
    imeta.require "R1" "no position past 1000" scalar = "max_of(pos) <= 1000"
    imeta.output "seq_max" = @seq_max
    imeta.output "seq_min" = @seq_min
    imeta.output "seq_sum" = @seq_sum
    imeta.output "max_pos" = @max_pos
    imeta.output "min_pos" = @min_pos
    imeta.output "sum_pos" = @sum_pos
    imeta.output "max_neg" = @max_neg
    imeta.output "max_twice" = @max_twice
    imeta.output "any_even" = @any_even
    imeta.output "all_big" = @all_big
    imeta.output "max_blk" = @max_blk
  }
  imeta.path @sum target(cpu) {
    imeta.output "sum_pos" = @sum_pos
  }
}
