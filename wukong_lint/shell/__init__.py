"""The shell-command model and the rule kinds built on it.

- parse (entry point), model, walker, runs, nodes, words, expand, printf, bindings, unknown,
  flat, unwrap, interpreters, interpreter_values, path_reasoning, pieces, selection, files:
  what a command line runs, with which words (expansions resolved where the line tells
  them), fed by what, in which folder, where its paths point, and what it does not tell
  (tree-sitter-bash);
- commands, command_schema, command_targets: the `command` rule kind (dangerous-command);
- paths, path_schema: the `path` rule kind (sensitive-path: reads and writes by tool calls).

Layer: a domain. May import `secrets`, `engine`, `config`, `model`, `util`; must not import
`code`, `changes`, `anchors`, `protocol`, `sources`, `hook` or `cli`.
"""
