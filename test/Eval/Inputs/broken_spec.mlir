// A spec that does not verify: imeta-run reports where, and runs nothing.
imeta.spec @broken {
  imeta.path @p target(cpu) {
    imeta.output "x" = @nope
  }
}
