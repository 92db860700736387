// A GPU path whose rows field reads a config list: the spec verifies, but
// the planner refuses the path (a kernel does not hold config lists), so
// every tool and backend says so by the field's name, as a spec error
// (exit 3), before the batch is read.
imeta.spec @gpu_config_list {
  imeta.config @windows : !imeta.list {min = 1 : i64}
  imeta.input @query_len : i32 {min = 1 : i64}
  imeta.field @q seq = "query_len"
  imeta.field @window_end rows(@q) = "windows[0] + j"
  imeta.path @gpu target(gpu) {
    imeta.output "window_end" = @window_end
  }
}
