"""A rule's `scope` parameter (which agent, which profiles) tested on a unit.

Its own module so that the kinds that only need this test (paths, edits, the memory-bank
gate) do not import the shell model (tree-sitter) with `checks.commands`: the live hook
judges an Edit or a Write without it.
"""

from __future__ import annotations

from typing import Any


def in_scope(scope: dict[str, Any], unit: Any) -> bool:
    event = getattr(unit, "event", None)
    if scope["agent"] != "any" and (event is None or event.is_main != (scope["agent"] == "main")):
        return False
    return not (scope["profiles"] and (event is None or event.ctx.profile not in scope["profiles"]))
