// A StreamingLLM decode step: each sequence's one new token attends to the
// first `sink` tokens and the last `window` of its k (all of them while
// k <= sink + window). Per sequence, the KV slots it reads, in order,
// padded with -1 to sink + window columns.
imeta.spec @streaming_llm {
  imeta.config @block_size : i32 {min = 1 : i64}
  imeta.config @sink : i32 {min = 0 : i64}
  imeta.config @window : i32 {min = 1 : i64}
  imeta.input @seq_len : i32 {min = 1 : i64}
  imeta.input @block_table : !imeta.list {min = 0 : i64}
  imeta.field @one seq {
    %c1 = arith.constant 1 : i32
    imeta.yield %c1 : i32
  }
  imeta.field @budget scalar {
    %s = imeta.get_config @sink : i32
    %w = imeta.get_config @window : i32
    %b = arith.addi %s, %w : i32
    imeta.yield %b : i32
  }
  // Column c: token c in the sinks (or all of a short sequence), else
  // token k - budget + c; its slot through the block table.
  imeta.field @kv_slots rows(@one) cols(@budget) {
    %c = imeta.col_index : i32
    %k = imeta.get_input @seq_len : i32
    %s = imeta.get_config @sink : i32
    %b = imeta.get @budget : i32
    %used = arith.minsi %k, %b : i32
    %live = arith.cmpi slt, %c, %used : i32
    %slot = scf.if %live -> (i32) {
      %short = arith.cmpi sle, %k, %b : i32
      %in_sink = arith.cmpi slt, %c, %s : i32
      %direct = arith.ori %short, %in_sink : i1
      %shift = arith.subi %k, %b : i32
      %late = arith.addi %shift, %c : i32
      %t = arith.select %direct, %c, %late : i32
      %B = imeta.get_config @block_size : i32
      %blk = arith.divsi %t, %B : i32
      %off = arith.remsi %t, %B : i32
      %phys = imeta.load @block_table[%blk] : i32
      %base = arith.muli %phys, %B : i32
      %v = arith.addi %base, %off : i32
      scf.yield %v : i32
    } else {
      %none = arith.constant -1 : i32
      scf.yield %none : i32
    }
    imeta.yield %slot : i32
  }
  imeta.path @decode target(cpu) {
    imeta.output "kv_slots" = @kv_slots
  }
}
