"""Rule kinds over a git change as a whole: `change` (a staged change or a commit range)
and `weakening` (a range that turns the scan of security findings down).

Layer: a domain. May import `engine`, `config`, `model`, `util`; must not import another
domain, `sources`, `hook` or `cli`.
"""
