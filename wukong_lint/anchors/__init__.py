"""Anchors (decision records such as `[D001]`) and memory-bank files: one parse model
(`parse.py`) shared by the lint checks (`checks.py`), the formatter and renderers
(`render.py`) and the maintenance commands (`ops.py`, `cli.py`).

Nothing is imported here: `cli.py` is loaded on every start of the command line.
"""
