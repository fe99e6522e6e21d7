"""The `python` rule kind: front (the cheap gates, the entry point), gates, skeleton (the
parts worth parsing), analysis (the syntax-tree walk), names, strings, lines (a stand-in for
text that does not parse), schema. Imports as `code` says."""
