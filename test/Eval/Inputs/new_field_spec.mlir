// A spec with fields no C++ mentions: the evaluator knows them only by their
// formulas. Reads the V4 batch format (config keys it does not use are
// declared too, as every config key must be).
imeta.spec @new_fields {
  imeta.config @block_size : i32 {min = 1 : i64}
  imeta.config @window_size : i32
  imeta.config @swa_block_size : i32
  imeta.ratios @dense_ratios
  imeta.ratios @sparse_ratios
  imeta.ratio_union @ca = [@dense_ratios, @sparse_ratios]
  imeta.config @max_model_len : i32
  imeta.config @max_num_blocks : i32
  imeta.config @force_load_balance : i1
  imeta.input @seqlen_q : i32 {min = 1 : i64}
  imeta.input @seqlen_k : i32
  imeta.input @block_table : !imeta.list
  imeta.input @state_id : i32
  imeta.input @is_placeholder : i1 {optional}
  imeta.input @swa_valid_start : i32 {optional}
  imeta.input @token_ids : !imeta.list
  imeta.input @draft_tokens : !imeta.list {optional}

  imeta.field @q seq {
    %q = imeta.get_input @seqlen_q : i32
    imeta.yield %q : i32
  }
  // The reverse position within the chunk: q - 1 - j.
  imeta.field @rev rows(@q) {
    %q = imeta.get @q : i32
    %j = imeta.row_index : i32
    %c1 = arith.constant 1 : i32
    %a = arith.subi %q, %j : i32
    %b = arith.subi %a, %c1 : i32
    imeta.yield %b : i32
  }
  // Token pairs (token_ids[j], ratio-scaled j), per ratio.
  imeta.field @pairs rows(@q) over @ca {
    %j = imeta.row_index : i32
    %n = imeta.ratio : i32
    %t = imeta.load @token_ids[%j] : i32
    %s = arith.muli %j, %n : i32
    imeta.yield %t, %s : i32, i32
  }
  // Odd rows only: ceil(q / 2) rows per sequence, each its global row index.
  imeta.field @half seq {
    %q = imeta.get @q : i32
    %c2 = arith.constant 2 : i32
    %h = arith.ceildivsi %q, %c2 : i32
    imeta.yield %h : i32
  }
  imeta.field @odd_rows rows(@half) {
    %r = imeta.row : i32
    %i = imeta.seq_index : i32
    %c10 = arith.constant 10 : i32
    %x = arith.muli %i, %c10 : i32
    %y = arith.addi %x, %r : i32
    imeta.yield %y : i32
  }
  imeta.prefix_sum @ends = @half : !imeta.prefix<inclusive>
  imeta.field @any_placeholder scalar {
    %N = imeta.num_seqs : i32
    %t = imeta.prefix_total @ends : i32
    %c = arith.cmpi sgt, %t, %N : i32
    imeta.yield %c : i1
  }
  imeta.path @p target(cpu) {
    imeta.output "rev" = @rev
    imeta.output "pairs" = @pairs
    imeta.output "odd_rows" = @odd_rows
    imeta.output "ends" = @ends
    imeta.output "more_halves_than_seqs" = @any_placeholder
  }
}
