// Folds over the sequences: a field that reads its own value at the
// previous sequence (prev), one that reads another field's there.
imeta.spec @fold {
  imeta.input @q : i32 {min = 0 : i64}
  imeta.field @run seq = "m = i == 0 ? q : max(prev(0), q); m, prev(1) + q"
  imeta.field @flag seq = "!prev() || q > 2" : i1
  imeta.field @m seq = "q + 1"
  imeta.field @x seq = "prev() + m"
  imeta.path @cpu target(cpu) {
    imeta.output "run" = @run
    imeta.output "flag" = @flag
    imeta.output "x" = @x
  }
  imeta.path @gpu target(gpu) extends @cpu {
  }
}
