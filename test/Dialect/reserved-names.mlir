// RUN: imeta-opt %s -split-input-file -verify-diagnostics
//
// Names the generated C++ would collide with (issue 34): a type of the
// generated code, macros of <cstdint> and <cstdio>, names C++ reserves.
// Before, imeta-gen accepted them and the generated code did not compile.

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f seq = "q"
  imeta.path @p target(cpu) {
    // expected-error @below {{output name 'Buffer' is a name the generated code or a header it includes (<cstdint>, <cstdio>, <climits>, CUDA's) already uses; choose another}}
    imeta.output "Buffer" = @f
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  // expected-error @below {{name 'NULL' is a name the generated code or a header it includes}}
  imeta.field @NULL seq = "q"
  imeta.path @p target(cpu) {
    imeta.output "f" = @NULL
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{name 'EOF' is a name the generated code}}
  imeta.config @EOF : i32
  imeta.input @q : i32
  imeta.field @f seq = "q"
  imeta.path @p target(cpu) {
    imeta.output "f" = @f
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f seq = "q"
  imeta.path @p target(cpu) {
    // expected-error @below {{output name 'INT32_MAX' is a name the generated code}}
    imeta.output "INT32_MAX" = @f
  }
}

// -----

imeta.spec @s {
  // expected-error @below {{name 'threadIdx' is a name the generated code}}
  imeta.input @threadIdx : i32
  imeta.field @f seq = "threadIdx"
  imeta.path @p target(cpu) {
    imeta.output "f" = @f
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  imeta.field @f seq = "q"
  // expected-error @below {{name 'Status' is a name the generated code}}
  imeta.path @Status target(cpu) {
    imeta.output "f" = @f
  }
}

// -----

imeta.spec @s {
  imeta.input @q : i32
  // expected-error @below {{name '__f' starts with '_' or holds '__', which C++ reserves for the implementation; choose another}}
  imeta.field @__f seq = "q"
  imeta.path @p target(cpu) {
    imeta.output "f" = @__f
  }
}

// -----

// expected-error @below {{spec name '_Spec' starts with '_'}}
imeta.spec @_Spec {
  imeta.input @q : i32
  imeta.field @f seq = "q"
  imeta.path @p target(cpu) {
    imeta.output "f" = @f
  }
}
