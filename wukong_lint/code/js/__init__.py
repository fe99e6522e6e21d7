"""The `javascript` rule kind (JS and TS): gates, reach, sites (text tests before parsing),
syntax (tree-sitter), analysis (the tree walk), sinks, values, lines (huge or minified
texts), schema. Imports as `code` says."""
