"""What a commit range changes in the scan's own setup, as `weakening` units (see
changes/weakening.py for the line format and which lines are reported).

Compared between the range's start (BASE for `BASE..HEAD`, the merge base for `BASE...HEAD`)
and its end (HEAD), both read from git, never from the work tree:

- the config at the repository root (`.wukong-lint.yaml`, `.wukong-lint.yml`, or
  `[tool.wukong-lint]` in `pyproject.toml`, as `config.find_config` looks for them there);
- the baseline file the config names (or the default `.wukong-lint-baseline.json`): entries
  added;
- the range's findings that an inline `wukong-lint: ignore` comment suppressed (a finding of
  a range is on a line the range adds, so the comment is new too).

A file that cannot be read or parsed at one end counts as empty there: the check reports what
it can see and never fails the scan (the scan itself reports a broken config).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from wukong_lint.config.project import PYPROJECT, YAML_NAMES
from wukong_lint.model import Finding, Source, Unit
from wukong_lint.sources.git import run_git
from wukong_lint.util.errors import InputError

SEVERITIES = ("low", "medium", "high", "critical")
DEFAULT_BASELINE = ".wukong-lint-baseline.json"


def _blob(rev: str, path: str, cwd: str | None) -> str | None:
    try:
        data = run_git(["cat-file", "blob", f"{rev}:{path}"], cwd)
    except InputError:
        return None
    return data.decode("utf-8", "replace")


MAX_CONFIG = 1 << 20  # a config file larger than this is not compared (a pull request's
# config is untrusted input: no YAML aliases either, which allow exponential "bombs")


def _safe_yaml(text: str) -> Any:
    import yaml

    class NoAliases(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                raise yaml.YAMLError("YAML aliases are not compared")
            return super().compose_node(parent, index)

    return yaml.load(text, Loader=NoAliases)  # a SafeLoader


def config_at(rev: str, cwd: str | None = None) -> tuple[str | None, str, dict[str, Any]]:
    """(path, text, settings) of the root config in commit `rev` (None, "", {}: none)."""
    for name in (*YAML_NAMES, PYPROJECT):
        text = _blob(rev, name, cwd)
        if text is None:
            continue
        if len(text) > MAX_CONFIG:
            return name, "", {}
        try:
            if name == PYPROJECT:
                import tomllib  # type: ignore[import-not-found,unused-ignore]

                data = tomllib.loads(text).get("tool", {}).get("wukong-lint")
                if data is None:
                    continue
            else:
                data = _safe_yaml(text)
        except Exception:  # a broken file: nothing to compare (the scan says it is broken)
            return name, text, {}
        return name, text, data if isinstance(data, dict) else {}
    return None, "", {}


def _names(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [v.strip() for item in value if isinstance(item, str) for v in item.split(",") if v]


def _covers(select: list[str], category: str) -> bool:
    """Whether a `select` list reaches (part of) a category; an empty one selects all."""
    return not select or any(
        s in ("all", "*") or category.startswith(s) or s.split(".", 1)[0] == category
        for s in select
    )


def _path_ignores(value: Any) -> set[tuple[str, str]]:
    if not isinstance(value, dict):
        return set()
    return {(name, str(glob)) for glob, names in value.items() for name in _names(names)}


def _severity(value: Any) -> int:
    return SEVERITIES.index(value) if value in SEVERITIES else -1


def config_changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    """(line, a word to find the line in the new file by) for each loosening."""
    from wukong_lint.model import CATEGORIES

    lines: list[tuple[str, str]] = []
    before = set(_names(old.get("ignore")))
    lines += [(f"ignore {n}", n) for n in _names(new.get("ignore")) if n not in before]
    old_select, new_select = _names(old.get("select")), _names(new.get("select"))
    for category in CATEGORIES:
        if _covers(old_select, category) and not _covers(new_select, category):
            lines.append((f"unselect {category}", "select"))
    added = _path_ignores(new.get("per-path-ignores")) - _path_ignores(old.get("per-path-ignores"))
    lines += [(f"per-path-ignore {n} {g}", g) for n, g in sorted(added)]
    if old.get("builtin-rules", True) is not False and new.get("builtin-rules", True) is False:
        lines.append(("builtin-rules off", "builtin-rules"))
    old_fail = _severity(old.get("fail-on", "high"))
    if _severity(new.get("fail-on", "high")) > old_fail >= 0:
        lines.append((f"fail-on {new.get('fail-on')}", "fail-on"))
    before = set(_names(old.get("allow-comments")))
    lines += [
        (f"allow-comments {n}", n) for n in _names(new.get("allow-comments")) if n not in before
    ]
    old_params = old.get("rule-params") if isinstance(old.get("rule-params"), dict) else {}
    new_params = new.get("rule-params") if isinstance(new.get("rule-params"), dict) else {}
    for rule_id, params in sorted(new_params.items()):
        if not isinstance(params, dict):
            continue
        previous = old_params.get(rule_id) if isinstance(old_params.get(rule_id), dict) else {}
        for key, value in sorted(params.items()):
            if previous.get(key) == value:
                continue
            # (without an earlier override the rule's own severity is not known here: only
            # `critical` is surely no lowering)
            if key == "severity" and _severity(value) >= _severity(previous.get(key, "critical")):
                continue  # raised, not lowered
            lines.append((f"rule-params {rule_id} {key}", str(rule_id)))
    return lines


def _baseline_keys(text: str | None) -> set[tuple[str, str, str]]:
    if not text:
        return set()
    try:
        data = json.loads(text)
        entries = data.get("findings", []) if isinstance(data, dict) else []
        return {
            (str(e.get("rule_id")), str(e.get("path")), str(e.get("hash")))
            for e in entries
            if isinstance(e, dict)
        }
    except (ValueError, AttributeError):
        return set()


def _line_of(text: str, word: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if word and word in line:
            return number
    return 1


def _unit(path: str, entries: list[tuple[str, int]]) -> Unit:
    return Unit(
        path,
        "\n".join(line for line, _ in entries) + "\n",
        Source(kind="weakening"),
        size=0,
        line_numbers=tuple(number for _, number in entries),
    )


def weakening_units(
    old: str, new: str, findings: Iterable[Finding], cwd: str | None = None
) -> list[Unit]:
    """Units of what changes from commit `old` to commit `new`, and of the inline ignores
    among `findings` (the range's)."""
    units = []
    old_path, _, old_cfg = config_at(old, cwd)
    new_path, new_text, new_cfg = config_at(new, cwd)
    changes = config_changes(old_cfg, new_cfg)
    if changes:
        path = new_path or old_path or YAML_NAMES[0]
        units.append(_unit(path, [(line, _line_of(new_text, word)) for line, word in changes]))
    baseline = new_cfg.get("baseline") or old_cfg.get("baseline") or DEFAULT_BASELINE
    if isinstance(baseline, str) and not baseline.startswith(("/", "..")):
        text = _blob(new, baseline, cwd)
        added = _baseline_keys(text) - _baseline_keys(_blob(old, baseline, cwd))
        if added:
            entries = [(f"baseline {r} {p}", _line_of(text or "", h)) for r, p, h in sorted(added)]
            units.append(_unit(baseline, entries))
    inline: dict[str, list[tuple[str, int]]] = {}
    for finding in findings:
        if finding.suppressed and finding.suppressed_by == "inline":
            line = f"inline-ignore {finding.rule_id} {finding.path}"
            inline.setdefault(finding.path, []).append((line, finding.line))
    units += [_unit(path, entries) for path, entries in sorted(inline.items())]
    return units
