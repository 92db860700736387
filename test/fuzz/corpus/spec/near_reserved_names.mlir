// Names one step from those the generated code or its headers use
// (dialect/ReservedNames.inc refuses those): each must compile under an
// engine's strict flags (scripts/test-generated-strict.sh).
imeta.spec @near_reserved_names {
  imeta.config @eof : i32 {min = 1 : i64}
  imeta.config @null : i32 {min = 0 : i64}
  imeta.input @int32_max : i32 {min = 1 : i64}
  imeta.input @status : i32 {min = 0 : i64}
  imeta.input @range : !imeta.list {min = 0 : i64}
  imeta.require "N1" "int32_max >= null" seq = "int32_max >= null"
  imeta.field @config seq = "int32_max + status"
  imeta.field @sequences seq = "len(range)"
  imeta.prefix_sum @buffers = @config : !imeta.prefix<exclusive>
  imeta.field @fill rows(@config) = "j % eof"
  imeta.field @stdin_ scalar = "max_of(config)"
  imeta.path @status_path target(cpu) {
    imeta.output "Buffers" = @buffers
    imeta.output "outputs" = @fill
    imeta.output "Status_" = @stdin_
    imeta.output "sequences" = @sequences
  }
}
