// imeta.clamp: min(max(x, lo), hi), in a seq field, a rows field and a
// rule, and with lo > hi (then hi).
imeta.spec @clamp {
  imeta.input @x : i32
  imeta.input @lo : i32
  imeta.input @hi : i32
  imeta.field @c seq {
    %x = imeta.get_input @x : i32
    %lo = imeta.get_input @lo : i32
    %hi = imeta.get_input @hi : i32
    %c = imeta.clamp %x, %lo, %hi : i32
    imeta.yield %c : i32
  }
  imeta.require "R1" "clamp stays at or below hi" seq {
    %c = imeta.get @c : i32
    %hi = imeta.get_input @hi : i32
    %ok = arith.cmpi sle, %c, %hi : i32
    imeta.yield %ok : i1
  }
  imeta.field @one seq {
    %c1 = arith.constant 1 : i32
    imeta.yield %c1 : i32
  }
  imeta.field @rows rows(@one) {
    %x = imeta.get_input @x : i32
    %lo = imeta.get_input @lo : i32
    %hi = imeta.get_input @hi : i32
    %c = imeta.clamp %x, %lo, %hi : i32
    %c2 = arith.constant 2 : i32
    %d = arith.muli %c, %c2 : i32
    imeta.yield %c, %d : i32, i32
  }
  imeta.path @all target(cpu) {
    imeta.output "c" = @c
    imeta.output "rows" = @rows
  }
}
