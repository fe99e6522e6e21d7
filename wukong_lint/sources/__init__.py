"""Sources turn input into units: files and folders (files, dispatch, chunked,
named), git (git, ranges, range_messages, history, weakening), memory-bank markdown (markdown)
and agent transcripts (transcripts/: one reader per format, the session state).

Layer: above the domain packages, whose facts the readers need (credential file names, the
戒 turn facts). May import the domains, `config`, `engine`, `model`, `util`; must not import
`runner`, `hook` or `cli`.
"""
