"""The `credential-file` rule kind: which files are credential files (file_names, by name
and first bytes), their formats (formats), the syntaxes they are written in (syntax), what a
live credential value looks like (values), and logins in data files (datalogins). Provider
token rules are plain data (rules/secrets/*.yaml) run by the engine's regex kind; masking
of secrets in output lives in engine/masking.

Layer: a domain. May import `engine`, `config`, `model`, `util`; must not import another
domain, `sources`, `hook` or `cli`.
"""
