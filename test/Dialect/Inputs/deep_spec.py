#!/usr/bin/env python3
"""Writes a spec that nests or chains KIND N deep (nesting-limits.test).

paren, min, neg, not, ternary: one field's compact formula nested N deep;
regions: N nested scf.execute_region in SSA form; chain: N fields, each
reading the one before (`fail` makes the first divide by zero)."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
formulas = {
    "paren": "(" * n + "query_len" + ")" * n,
    "min": "min(" * n + "query_len" + ", 1)" * n,
    "neg": "-" * n + "query_len",
    "not": "!" * n + "true ? 1 : 0",
    "ternary": "".join("query_len > %d ? %d : " % (t, t) for t in range(n))
               + "0",
}
head = ("imeta.spec @deep {\n"
        "  imeta.input @query_len : i32 {min = 1 : i64, max = 4096 : i64}\n")
path = ("  imeta.path @p target(cpu) {\n"
        "    imeta.output \"f\" = @%s\n  }\n}\n")
if kind in formulas:
    print(head + '  imeta.field @f seq = "%s"\n' % formulas[kind] + path % "f",
          end="")
elif kind == "regions":
    print(head + "  imeta.field @f seq {\n" + "scf.execute_region {\n" * n +
          "}\n" * n + "  }\n" + path % "f", end="")
elif kind in ("chain", "chain-fail"):
    first = "10 / (query_len - 5)" if kind == "chain-fail" else "query_len"
    fields = ['  imeta.field @f0 seq = "%s"\n' % first]
    fields += ['  imeta.field @f%d seq = "f%d %% 1000 + 1"\n' % (t, t - 1)
               for t in range(1, n)]
    print(head + "".join(fields) + path % ("f%d" % (n - 1)), end="")
else:
    sys.exit("unknown kind " + kind)
