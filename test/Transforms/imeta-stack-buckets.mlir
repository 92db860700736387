// RUN: imeta-opt %s --imeta-stack-buckets | FileCheck %s

// Each output records its stacked buffer: [buckets][rows][width] type.

imeta.spec @stack {
  imeta.config @w : i32
  imeta.ratios @r
  imeta.input @q : i32
  imeta.field @nq seq {
    %q = imeta.get_input @q : i32
    imeta.yield %q : i32
  }
  imeta.prefix_sum @cu = @nq : !imeta.prefix<exclusive>
  imeta.field @pairs rows(@nq) over @r {
    %n = imeta.ratio : i32
    imeta.yield %n, %n : i32, i32
  }
  imeta.field @wide rows(@nq) cols(@w) {
    %c = imeta.col_index : i32
    imeta.yield %c : i32
  }
  imeta.field @flag scalar {
    %t = arith.constant true
    imeta.yield %t : i1
  }
  // CHECK-LABEL: imeta.path @p
  imeta.path @p target(cpu) {
    // CHECK: imeta.output "cu" = @cu {imeta.layout = "[1][N+1][1] i32"}
    imeta.output "cu" = @cu
    // CHECK: imeta.output "pairs" = @pairs {imeta.layout = "[r][rows(nq)][2] i32"}
    imeta.output "pairs" = @pairs
    // CHECK: imeta.output "wide" = @wide {imeta.layout = "[1][rows(nq)][w] i32"}
    imeta.output "wide" = @wide
    // CHECK: imeta.output "flag" = @flag {imeta.layout = "[1][1][1] i1"}
    imeta.output "flag" = @flag
    // CHECK: imeta.output "counts" = @nq {imeta.layout = "[1][N][1] i32"}
    imeta.output "counts" = @nq
  }
}
