// One seq field per formula op (or family), computed by the evaluator and
// the generated host stage alike (test/Lowering/formula-ops-values.test)
// and failing each way the generated code records (failure-kinds.test).
imeta.spec @ops {
  imeta.config @B : i32 {min = 1 : i64}
  imeta.ratios @set
  imeta.input @x : i32
  imeta.input @y : i32
  imeta.input @list : !imeta.list {min = 0 : i64}
  imeta.field @f_const seq {
    %c = arith.constant 7 : i32
    imeta.yield %c : i32
  }
  imeta.field @f_add seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %s = arith.addi %x, %y : i32
    imeta.yield %s : i32
  }
  imeta.field @f_mul64 seq {
    %x = imeta.get_input @x : i32
    %w = arith.extsi %x : i32 to i64
    %p = arith.muli %w, %w : i64
    %t = arith.trunci %p : i64 to i32
    imeta.yield %t : i32
  }
  imeta.field @f_div seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %d = arith.divsi %x, %y : i32
    imeta.yield %d : i32
  }
  imeta.field @f_floor seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %d = arith.floordivsi %x, %y : i32
    imeta.yield %d : i32
  }
  imeta.field @f_ceil seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %d = arith.ceildivsi %x, %y : i32
    imeta.yield %d : i32
  }
  imeta.field @f_rem seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %r = arith.remsi %x, %y : i32
    imeta.yield %r : i32
  }
  imeta.field @f_minmax seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %a = arith.minsi %x, %y : i32
    %b = arith.maxsi %a, %y : i32
    imeta.yield %b : i32
  }
  imeta.field @f_bits seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %a = arith.andi %x, %y : i32
    %o = arith.ori %a, %y : i32
    %e = arith.xori %o, %x : i32
    imeta.yield %e : i32
  }
  imeta.field @f_cmp seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %lt = arith.cmpi ult, %x, %y : i32
    %z = arith.extui %lt : i1 to i32
    imeta.yield %z : i32
  }
  imeta.field @f_select seq {
    %x = imeta.get_input @x : i32
    %y = imeta.get_input @y : i32
    %lt = arith.cmpi slt, %x, %y : i32
    %s = arith.select %lt, %x, %y : i32
    %m = arith.extsi %lt : i1 to i32
    %r = arith.addi %s, %m : i32
    imeta.yield %r : i32
  }
  imeta.field @f_if seq {
    %x = imeta.get_input @x : i32
    %c0 = arith.constant 0 : i32
    %neg = arith.cmpi slt, %x, %c0 : i32
    %r = scf.if %neg -> (i32) {
      scf.yield %c0 : i32
    } else {
      scf.yield %x : i32
    }
    imeta.yield %r : i32
  }
  imeta.field @f_reads seq {
    %b = imeta.get_config @B : i32
    %n = imeta.length @list : i32
    %i = imeta.seq_index : i32
    %N = imeta.num_seqs : i32
    %s = arith.addi %b, %n : i32
    %t = arith.addi %i, %N : i32
    %u = arith.addi %s, %t : i32
    imeta.yield %u : i32
  }
  imeta.field @f_load seq {
    %c0 = arith.constant 0 : i32
    %v = imeta.load @list[%c0] : i32
    imeta.yield %v : i32
  }
  imeta.field @f_ratios seq {
    %m = imeta.ratio_min @set : i32
    %k = imeta.ratio_count @set : i32
    %s = arith.addi %m, %k : i32
    imeta.yield %s : i32
  }
  imeta.prefix_sum @cu = @f_const : !imeta.prefix<exclusive>
  imeta.field @f_prefix seq {
    %i = imeta.seq_index : i32
    %at = imeta.prefix_at @cu[%i] : !imeta.prefix<exclusive> -> i32
    %t = imeta.prefix_total @cu : i32
    %g = imeta.get @f_add : i32
    %s = arith.addi %at, %t : i32
    %r = arith.addi %s, %g : i32
    imeta.yield %r : i32
  }
  imeta.path @p target(cpu) {
    imeta.output "seven" = @f_const
    imeta.output "add" = @f_add
    imeta.output "mul64" = @f_mul64
    imeta.output "div" = @f_div
    imeta.output "floor" = @f_floor
    imeta.output "ceil" = @f_ceil
    imeta.output "rem" = @f_rem
    imeta.output "minmax" = @f_minmax
    imeta.output "bits" = @f_bits
    imeta.output "cmp" = @f_cmp
    imeta.output "select" = @f_select
    imeta.output "ifelse" = @f_if
    imeta.output "reads" = @f_reads
    imeta.output "load" = @f_load
    imeta.output "ratios" = @f_ratios
    imeta.output "prefix" = @f_prefix
  }
}
