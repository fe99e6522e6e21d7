"""Anchors (decision records such as `[D001]`) and memory-bank files: one parse model
(`parse.py`) shared by the lint checks (`checks.py`), the formatter and renderers
(`render.py`) and the maintenance operations (`ops.py`); the `anchors` sub-commands are in
cli/anchors.py and cli/anchors_lint.py.

Layer: a domain. May import `engine`, `model`, `util`; must not import another domain,
`sources`, `hook` or `cli`. Nothing is imported here.
"""
