"""Code rule kinds: injection and information leakage found in syntax trees, one
sub-package per language (`code.python`, `code.js`), each with its gates (cheap text tests
that skip parsing), its analysis and its YAML schema.

Layer: a domain. May import `engine`, `config`, `model`, `util`; must not import another
domain, `sources`, `hook` or `cli`.
"""
