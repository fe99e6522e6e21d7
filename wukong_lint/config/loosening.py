"""Which parts of a configuration loosen the guarded categories, and the configuration
without them.

The live hook guards an agent that can write the project's files, the project's config
included. So a project config may tighten the hook's policy freely, but the parts that
loosen a *guarded* category apply only when the user approved that exact file (approvals.py);
otherwise the hook drops them and says so. Guarded are the security categories
(`dangerous-command`, `sensitive-path`, `secret`, `guard-integrity`) and, under profile
`wukong`, the 戒 categories (`body-boundary`, `avatar-boundary`, `context`,
`transcript-integrity`). Loosening, relative to the built-in defaults:

- `ignore` naming a guarded category, a rule or an id prefix inside one, or `all`;
- `select` that does not cover a guarded category whole (`[anchor]`, `[secret.jwt]`);
- `per-path-ignores` naming one; `exclude` (it hides what a Write puts in those files);
- `builtin-rules: false` (with or without `rule-dirs` in their place);
- `fail-on: critical` (a high finding would only ask);
- `rule-params` of a guarded rule, except raising its severity or `enabled: true`;
- `allow-comments` of a secret scanner (`gitleaks`, `detect-secrets`);
- `profile: generic` in a project that is `wukong` by its `.wukong/` folder.

Tightening (kept): `fail-on` low or medium, `select`/`ignore`/`per-path-ignores` of the other
categories, `rule-dirs` adding packs, raised severities, `profile: wukong`.

Imported by the hook and `config approve` only, and cheap: no YAML, no pydantic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from wukong_lint.config.selectors import EVERY_RULE
from wukong_lint.config.settings import Config

SECURITY = ("dangerous-command", "sensitive-path", "secret", "guard-integrity")
PROTOCOL = ("body-boundary", "avatar-boundary", "context", "transcript-integrity")
SEVERITIES = ("low", "medium", "high", "critical")
# allow-comments names -> the categories whose findings their comments suppress
COMMENT_CATEGORIES = {"gitleaks": ("secret",), "detect-secrets": ("secret",)}


class Loosening(NamedTuple):
    key: str  # the config key: ignore, select, per-path-ignores...
    detail: str  # what it names (a category, a rule, a glob)
    categories: tuple[str, ...]  # the guarded categories it loosens


def guarded(wukong: bool) -> tuple[str, ...]:
    """The guarded categories: the security ones, and the 戒 ones under profile wukong."""
    return SECURITY + PROTOCOL if wukong else SECURITY


def reached(name: str, categories: Iterable[str]) -> tuple[str, ...]:
    """The categories a selection name reaches, whole or in part: `all`, the category, a
    prefix of it at a `.`/`-` boundary (`dangerous`), a rule or prefix inside it."""
    out = []
    for category in categories:
        if (
            name in EVERY_RULE
            or name == category
            or name.startswith(category + ".")
            or (
                category.startswith(name)
                and (name.endswith((".", "-")) or category[len(name)] in ".-")
            )
        ):
            out.append(category)
    return tuple(out)


def covers_whole(names: Iterable[str], category: str) -> bool:
    """Whether a `select` list selects every rule of `category` (an empty one does)."""
    names = list(names)
    if not names:
        return True
    return any(
        n in EVERY_RULE
        or n == category
        or (category.startswith(n) and (n.endswith((".", "-")) or category[len(n)] in ".-"))
        for n in names
    )


def _category_of(rule_id: str, rules: Mapping[str, tuple[str, int]] | None) -> str:
    if rules is not None and rule_id in rules:
        return rules[rule_id][0]
    return rule_id.split(".", 1)[0]


def _param_loosens(
    rule_id: str, key: str, value: Any, rules: Mapping[str, tuple[str, int]] | None
) -> bool:
    name = key.replace("-", "_")
    if name == "enabled":
        return value is not True
    if name == "severity":
        if value not in SEVERITIES:
            return True
        own = rules[rule_id][1] if rules is not None and rule_id in rules else 4
        return SEVERITIES.index(value) + 1 < own  # (unknown rule: only critical is no lowering)
    return True  # any other setting changes what the rule finds: the hook cannot tell how


def loosenings(
    config: Config,
    categories: Sequence[str],
    *,
    rules: Mapping[str, tuple[str, int]] | None = None,
    wukong_project: bool = False,
) -> list[Loosening]:
    """What in `config` loosens the `categories` (see the module docs). `rules`: rule id ->
    (category, severity) when the rule set is known (a severity in `rule-params` is then
    compared with the rule's own; without it, only `critical` is surely no lowering)."""
    found: list[Loosening] = []
    for name in config.ignore:
        hit = reached(name, categories)
        if hit:
            found.append(Loosening("ignore", name, hit))
    dropped = tuple(c for c in categories if not covers_whole(config.select, c))
    if dropped:
        found.append(Loosening("select", ", ".join(config.select), dropped))
    for glob, names in config.per_path_ignores:
        for name in names:
            hit = reached(name, categories)
            if hit:
                found.append(Loosening("per-path-ignores", f"{glob}: {name}", hit))
    # exclude hides what a file tool writes into those files (secrets, a script's commands);
    # what the call does (sensitive-path, guard-integrity, the protocol) stays judged
    content = tuple(c for c in categories if c in ("secret", "dangerous-command"))
    for glob in config.exclude:
        if content:
            found.append(Loosening("exclude", glob, content))
    if not config.builtin_rules:
        found.append(Loosening("builtin-rules", "false", tuple(categories)))
    if config.fail_on == "critical":
        found.append(Loosening("fail-on", "critical", tuple(categories)))
    for rule_id, params in (config.rule_params or {}).items():
        category = _category_of(rule_id, rules)
        if category not in categories:
            continue
        for key, value in params.items():
            if _param_loosens(rule_id, key, value, rules):
                found.append(Loosening("rule-params", f"{rule_id}.{key}", (category,)))
    for name in config.allow_comments:
        hit = tuple(c for c in COMMENT_CATEGORIES.get(name, ()) if c in categories)
        if hit:
            found.append(Loosening("allow-comments", name, hit))
    if config.profile == "generic" and wukong_project:
        protocol = tuple(c for c in categories if c in PROTOCOL) or PROTOCOL
        found.append(Loosening("profile", "generic", protocol))
    return found


def without(config: Config, found: Sequence[Loosening]) -> Config:
    """`config` with the parts listed in `found` dropped (the rest, tightening or neutral,
    kept): the config the hook applies when a project's loosening is not approved."""
    if not found:
        return config
    keys = {item.key for item in found}
    loose_names = {item.detail for item in found if item.key == "ignore"}
    loose_params = {item.detail for item in found if item.key == "rule-params"}
    loose_ppi = {item.detail for item in found if item.key == "per-path-ignores"}
    changes: dict[str, Any] = {}
    if "ignore" in keys:
        changes["ignore"] = tuple(n for n in config.ignore if n not in loose_names)
    if "select" in keys:  # the config's narrowing of other categories stays
        missing = next(item.categories for item in found if item.key == "select")
        changes["select"] = tuple(config.select) + tuple(missing)
    if "per-path-ignores" in keys:
        changes["per_path_ignores"] = tuple(
            (glob, kept)
            for glob, names in config.per_path_ignores
            if (kept := tuple(n for n in names if f"{glob}: {n}" not in loose_ppi))
        )
    if "exclude" in keys:
        changes["exclude"] = ()
    if "builtin-rules" in keys:
        changes["builtin_rules"] = True
    if "fail-on" in keys:
        changes["fail_on"] = None
    if "rule-params" in keys:
        params = {
            rule_id: kept
            for rule_id, settings in (config.rule_params or {}).items()
            if (kept := {k: v for k, v in settings.items() if f"{rule_id}.{k}" not in loose_params})
        }
        changes["rule_params"] = params or None
    if "allow-comments" in keys:
        loose = {item.detail for item in found if item.key == "allow-comments"}
        changes["allow_comments"] = tuple(n for n in config.allow_comments if n not in loose)
    if "profile" in keys:
        changes["profile"] = None
    return config._replace(**changes)


def describe(found: Sequence[Loosening]) -> str:
    """`dangerous-command, sensitive-path (ignore), secret (exclude vendor/)`, one entry per
    config key, for the hook's warning and `config approve`."""
    by_key: dict[str, tuple[list[str], list[str]]] = {}
    for item in found:
        categories, details = by_key.setdefault(item.key, ([], []))
        categories += [c for c in item.categories if c not in categories]
        if item.detail not in details:
            details.append(item.detail)
    parts = []
    for key, (categories, details) in by_key.items():
        shown = ", ".join(details[:3]) + (", ..." if len(details) > 3 else "")
        parts.append(f"{', '.join(categories)} ({key}: {shown})")
    return "; ".join(parts)
