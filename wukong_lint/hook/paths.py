"""The config's `exclude` and `per-path-ignores` for the live hook's file tools.

`check` never scans an excluded file and suppresses what `per-path-ignores` names in a file.
The hook judges an agent's Edit / Write / MultiEdit / NotebookEdit (and apply_patch) of such
a file, so it applies the same globs to the file the tool changes, relative to the config's
folder (the event's `cwd` resolves a relative `file_path`):

- Findings about the file's content (a secret, injection, info-leak, a dangerous command in
  a script being written, ...) are dropped when the file is excluded, and when a
  `per-path-ignores` entry covers their rule.
- Findings about the agent's action (`sensitive-path`: where it writes; the 戒 protocol's
  `body-boundary`, `avatar-boundary`, `context`, `transcript-integrity`) are not about the
  file's text, and `check` of a folder never reports them: `exclude` and an "every rule"
  entry (`*`, `all`, `[]`) leave them; a `per-path-ignores` entry naming the rule or its
  category by name covers them.
- Fail closed: a target outside the config's folder is never matched (a `*.conf` glob must
  not let a write to /etc/nginx.conf through), and a call that changes several files is
  filtered only when every one of them is covered (the hook's finding does not say which
  file it came from).

Imported only when the config has such globs and the event is a file tool.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from wukong_lint.model import Finding

# Categories that judge what the agent does, not what the file holds.
ACTION_CATEGORIES = frozenset(
    {
        "sensitive-path",
        "guard-integrity",  # writing the hook's own policy: never about the file's text
        "body-boundary",
        "avatar-boundary",
        "context",
        "transcript-integrity",
    }
)


def file_targets(tool: str, tool_input: Any, cwd: str | None) -> list[str]:
    """The absolute, normalised paths a file tool changes ([] when it names none)."""
    from wukong_lint.model.events import EDIT_TOOLS, target_paths

    if tool not in EDIT_TOOLS:
        return []
    base = cwd or os.getcwd()
    return [os.path.normpath(os.path.join(base, p)) for p in target_paths(tool, tool_input)]


def project_relative(path: str, root: str) -> str | None:
    """`path` relative to `root` with `/`, or None when it is outside `root`."""
    try:
        rel = os.path.relpath(path, root)
    except ValueError:  # another drive (Windows)
        return None
    if rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


def filter_findings(
    findings: Sequence[Finding],
    targets: Sequence[str],
    root: str,
    exclude: Sequence[str],
    path_ignores: Sequence[tuple[str, Sequence[str]]],
) -> list[Finding]:
    """`findings` with those the config's globs cover for every target marked suppressed
    (`suppressed_by="config"`, as `check` marks them)."""
    if not targets or not findings:
        return list(findings)
    from wukong_lint.config.path_globs import expand, matches

    rels = [project_relative(t, root) for t in targets]
    if any(rel is None for rel in rels):
        return list(findings)  # outside the project: not the config's to relax
    excluded = [expand(glob, root) for glob in exclude]
    ignores = [(expand(glob, root), names) for glob, names in path_ignores]

    def covered(finding: Finding, rel: str) -> bool:
        content = finding.category not in ACTION_CATEGORIES
        if content and any(matches(rel, forms) for forms in excluded):
            return True
        return any(
            matches(rel, forms) and _names_cover(names, finding, content)
            for forms, names in ignores
        )

    out = []
    for finding in findings:
        if not finding.suppressed and all(covered(finding, rel) for rel in rels if rel is not None):
            finding = finding._replace(suppressed=True, suppressed_by="config")
        out.append(finding)
    return out


def _names_cover(names: Sequence[str], finding: Finding, content: bool) -> bool:
    from wukong_lint.config.selectors import EVERY_RULE, covers

    if not names or any(name in EVERY_RULE for name in names):
        return content  # "every rule": the rules that read the file
    return covers(names, finding.rule_id, finding.category)


def apply_config_paths(data: dict[str, Any], config: Any, findings: list[Finding]) -> list[Finding]:
    """The hook's findings for `data` after the config's path globs (see the module docs)."""
    if not findings or not (config.exclude or config.per_path_ignores):
        return findings
    tool = data.get("tool_name")
    cwd = data.get("cwd") if isinstance(data.get("cwd"), str) and data.get("cwd") else None
    targets = file_targets(tool, data.get("tool_input"), cwd) if isinstance(tool, str) else []
    if not targets:
        return findings
    root = os.path.abspath(config.root)
    return filter_findings(findings, targets, root, config.exclude, config.per_path_ignores)
