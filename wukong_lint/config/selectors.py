"""Validation of rule selectors: a name in `--select`, `--ignore` or the config's `select`,
`ignore`, `per-path-ignores` and `rule-params` that names no rule, category or id prefix is an
error (exit 2), with a "did you mean" suggestion. A typo must never turn every rule off and
let the run pass.

One entry point, `validate_selection`, for every caller: `check` and `baseline` (through
cli/common.py), the hook and the GitHub Action's `args`. It runs only when there is
something to check (the pre-commit path without a config does not import this module), and
imports `difflib` only to word an error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from wukong_lint.model import CATEGORIES
from wukong_lint.util.errors import UsageError

# Names that select every rule (`all` as in ruff; `*` as a per-path-ignores rule list).
EVERY_RULE = ("all", "ALL", "*")


def _prefix_matches(selector: str, rule_id: str) -> bool:
    """The prefix test of engine/selection.py and suppress.covers: whole id parts only."""
    if selector == rule_id:
        return True
    if not selector or not rule_id.startswith(selector):
        return False
    return selector.endswith((".", "-")) or rule_id[len(selector)] in ".-"


def covers(names: Iterable[str], rule_id: str, category: str) -> bool:
    """Whether a per-path-ignores rule list covers a finding's rule: the same names as
    `--ignore` (ids, categories, id prefixes), `*` or `all` for every rule."""
    return any(
        name in EVERY_RULE or name == category or _prefix_matches(name, rule_id) for name in names
    )


def names_something(name: str, ids: Sequence[str], categories: Iterable[str]) -> bool:
    """Whether `name` is a rule id, a category, an id prefix or one of EVERY_RULE."""
    if name in EVERY_RULE or name in categories:
        return True
    return any(_prefix_matches(name, rule_id) for rule_id in ids)


def suggestion(name: str, ids: Sequence[str], categories: Iterable[str]) -> str | None:
    """The closest known name: a category, an id, or an id prefix (`secret.githb` ->
    `secret.github-pat`)."""
    import difflib

    candidates = set(categories) | set(ids)
    for rule_id in ids:  # prefixes: `secret`, `secret.github`, ...
        parts = rule_id.replace("-", ".").split(".")
        candidates.update(rule_id[: len(".".join(parts[:n]))] for n in range(1, len(parts)))
    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6)
    if not close and name.lower() != name:
        return suggestion(name.lower(), ids, categories)
    return close[0] if close else None


def unknown_name_message(where: str, name: str, ids: Sequence[str], cats: Iterable[str]) -> str:
    close = suggestion(name, ids, cats)
    hint = f": did you mean '{close}'?" if close else " (see `wukong-lint rules list`)"
    return f"{where}: {name!r} matches no rule, category or rule-id prefix{hint}"


def validate_selection(
    rules: Sequence[Any],
    *,
    select: Iterable[str] = (),
    ignore: Iterable[str] = (),
    config: Any = None,
    option_names: tuple[str, str] = ("--select", "--ignore"),
) -> None:
    """Raise UsageError (exit 2, one line) for the first selector naming nothing.

    `rules`: every loaded rule (also those off by default), before selection. `select` and
    `ignore` are the command line's (or the hook's / the Action's) lists, already split at
    commas; `config` a `Config` whose `select`, `ignore`, `per-path-ignores` and `rule-params`
    are checked too (messages name its file). `option_names` word the command line's part.
    """
    ids = [rule.id for rule in rules]
    categories = set(CATEGORIES) | {rule.category for rule in rules}
    checks: list[tuple[str, str]] = [(option_names[0], n) for n in select]
    checks += [(option_names[1], n) for n in ignore]
    source = getattr(config, "path", None) or "config"
    if config is not None:
        checks += [(f"{source}: select", n) for n in config.select]
        checks += [(f"{source}: ignore", n) for n in config.ignore]
        for glob, names in config.per_path_ignores:
            checks += [(f"{source}: per-path-ignores[{glob!r}]", n) for n in names]
    for where, name in checks:
        if not names_something(name, ids, categories):
            raise UsageError(unknown_name_message(where, name, ids, categories))
    known = set(ids)
    for rule_id in (getattr(config, "rule_params", None) or {}) if config is not None else ():
        if rule_id not in known:  # rule-params set a rule's own settings: an exact id only
            close = suggestion(rule_id, ids, ())
            hint = f": did you mean '{close}'?" if close else ""
            raise UsageError(f"{source}: rule-params: unknown rule {rule_id!r}{hint}")


def require_rules(
    selected: Sequence[Any],
    select: Sequence[str],
    ignore: Sequence[str],
    dirs: Sequence[str] = (),
) -> None:
    """A rule set without a rule to run is an error: the scan would check nothing and pass
    (`--select` of a category without rules, `--ignore all`, an empty `--rules` folder with
    `--no-builtin-rules`)."""
    if selected:
        return
    asked = [f"select {', '.join(select)}" if select else "", ""]
    asked[1] = f"ignore {', '.join(ignore)}" if ignore else ""
    if not select and not ignore:
        asked = [f"no rule is on in {', '.join(dirs)}" if dirs else "no rule is on"]
    said = ", ".join(part for part in asked if part)
    raise UsageError(f"no rule left to run ({said}): nothing would be checked")
