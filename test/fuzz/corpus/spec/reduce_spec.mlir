// imeta.reduce: vLLM's max_query_len and max_seq_len (max over the
// batch), a total (sum), a minimum, a reduction per ratio bucket, a rule
// on a reduction, and a rows field reading one through imeta.get.
imeta.spec @reduce {
  imeta.ratios @set
  imeta.input @q : i32 {min = 1 : i64}
  imeta.input @k : i32 {min = 1 : i64}
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.field @nk seq {
    %k = imeta.get_input @k : i32
    imeta.yield %k : i32
  }
  imeta.field @max_query_len scalar {
    %m = imeta.reduce max @nq : i32
    imeta.yield %m : i32
  }
  imeta.field @max_seq_len scalar {
    %m = imeta.reduce max @nk : i32
    imeta.yield %m : i32
  }
  imeta.field @total_q scalar {
    %s = imeta.reduce sum @nq : i32
    imeta.yield %s : i32
  }
  imeta.field @min_k scalar {
    %m = imeta.reduce min @nk : i32
    imeta.yield %m : i32
  }
  // Per bucket: the longest history in units of the bucket's ratio.
  imeta.field @blocks seq over @set {
    %k = imeta.get_input @k : i32
    %n = imeta.ratio : i32
    %b = arith.ceildivsi %k, %n : i32
    imeta.yield %b : i32
  }
  imeta.field @max_blocks scalar over @set {
    %m = imeta.reduce max @blocks : i32
    imeta.yield %m : i32
  }
  imeta.require "R1" "the batch holds at most 64 query tokens" scalar {
    %t = imeta.reduce sum @nq : i32
    %cap = arith.constant 64 : i32
    %ok = arith.cmpi sle, %t, %cap : i32
    imeta.yield %ok : i1
  }
  // Each row's distance to the longest query (a padded layout's pad).
  imeta.field @pad rows(@nq) {
    %m = imeta.get @max_query_len : i32
    %q = imeta.get @nq : i32
    %d = arith.subi %m, %q : i32
    imeta.yield %d : i32
  }
  imeta.path @all target(cpu) {
    imeta.output "max_query_len" = @max_query_len
    imeta.output "max_seq_len" = @max_seq_len
    imeta.output "total_q" = @total_q
    imeta.output "min_k" = @min_k
    imeta.output "max_blocks" = @max_blocks
    imeta.output "pad" = @pad
  }
}
