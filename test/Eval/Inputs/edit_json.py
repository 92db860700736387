"""Prints the JSON file argv[1] after the Python statement argv[2] edits
it as `b` (the lit tests' way to derive a broken batch from a good one)."""
import json
import sys

b = json.load(open(sys.argv[1]))
exec(sys.argv[2])
print(json.dumps(b))
