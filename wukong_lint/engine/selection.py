"""Which rules run: `select` / `ignore` lists of rule ids, categories or id prefixes.

As in flake8 and ruff, the most specific (longest) matching entry decides, so
`--ignore secret --select secret.github-pat` keeps exactly that one secret rule.
"""

from __future__ import annotations

from collections.abc import Iterable

from wukong_lint.engine.rules import CompiledRule


def _match_length(selector: str, rule: CompiledRule) -> int:
    """How specifically `selector` names `rule` (0: not at all)."""
    if selector in ("all", "ALL", "*"):
        return 1
    if selector == rule.id:
        return 10_000  # an exact id beats any prefix
    if selector == rule.category:
        return len(selector) + 1
    if rule.id.startswith(selector) and (
        selector.endswith((".", "-")) or rule.id[len(selector)] in ".-"
    ):
        return len(selector) + 1
    return 0


def is_selected(rule: CompiledRule, select: Iterable[str], ignore: Iterable[str]) -> bool:
    select, ignore = list(select), list(ignore)
    best_select = max((_match_length(s, rule) for s in select), default=0)
    best_ignore = max((_match_length(s, rule) for s in ignore), default=0)
    if not rule.enabled and best_select < 10_000:
        return False  # a rule that is off by default runs only when named
    if select and best_select == 0:
        return False
    return best_select >= best_ignore
