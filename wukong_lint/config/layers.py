"""The configurations the live hook applies, by precedence: the administrator's managed
file, the user's config, the project's.

- managed: `WUKONG_LINT_MANAGED_CONFIG` when set (tests, a fleet tool), else
  `/etc/wukong-lint/config.yaml` (`.yml`), else macOS's
  `/Library/Application Support/wukong-lint/config.yaml`: read-only to the user;
- user: `$XDG_CONFIG_HOME/wukong-lint/config.yaml` (`.yml`), default
  `~/.config/wukong-lint/`: a protected path, out of the agent's reach;
- project: `.wukong-lint.yaml` or `[tool.wukong-lint]` found from the event's folder, or
  the hook's `--config FILE` (a `--config` inside the user's or the managed config folder
  counts as the user's). Its loosening parts apply only when approved (loosening.py).

`merge` combines them, the higher winning where they disagree, except that the project may
still tighten: `fail-on` is the strictest of user and project unless the managed file sets
it; `select` is the highest one that sets it; `ignore`, `rule-dirs` and `allow-comments` add
up; `rule-params` are merged setting by setting, the higher winning; `builtin-rules: false`
anywhere turns them off (a project's only when approved); `exclude`, `per-path-ignores` and
`baseline` are the project's (their globs are the project's paths); `approvals` is the
managed file's alone.

`check` (run by the user or CI) keeps reading the project config alone, as written.
"""

from __future__ import annotations

import os

from wukong_lint.config.approvals import user_config_dir
from wukong_lint.config.settings import Config

MANAGED_ENV = "WUKONG_LINT_MANAGED_CONFIG"
MANAGED_DIRS = ("/etc/wukong-lint", "/Library/Application Support/wukong-lint")
CONFIG_NAMES = ("config.yaml", "config.yml")
_SEVERITY_ORDER = ("low", "medium", "high", "critical")


def managed_config_path() -> str | None:
    explicit = os.environ.get(MANAGED_ENV)
    if explicit:
        return explicit if os.path.isfile(explicit) else None
    for folder in MANAGED_DIRS:
        for name in CONFIG_NAMES:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                return path
    return None


def user_config_path() -> str | None:
    folder = user_config_dir()
    if not folder:
        return None
    for name in CONFIG_NAMES:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None


def trusted_location(path: str) -> bool:
    """Whether a `--config` file lies where only the user or the administrator writes (the
    user's or the managed config folder): its loosening needs no approval."""
    full = os.path.realpath(path)
    folders = [user_config_dir() or "", *MANAGED_DIRS]
    managed = os.environ.get(MANAGED_ENV)
    if managed:
        folders.append(os.path.dirname(os.path.abspath(managed)))
    return any(
        folder and full.startswith(os.path.realpath(folder).rstrip("/") + "/") for folder in folders
    )


def _stricter(first: str | None, second: str | None) -> str | None:
    known = [v for v in (first, second) if v in _SEVERITY_ORDER]
    return min(known, key=_SEVERITY_ORDER.index) if known else None


def _union(*lists: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name for names in lists for name in names))


def merge(project: Config, user: Config | None, managed: Config | None) -> Config:
    """The configuration the hook applies (see the module docs for who wins)."""
    if user is None and managed is None:
        return project
    user = user or Config()
    managed = managed or Config()
    params: dict[str, dict[str, object]] = {}
    for layer in (project, user, managed):  # lowest first: a higher one overrides
        for rule_id, settings in (layer.rule_params or {}).items():
            params.setdefault(rule_id, {}).update(settings)
    return project._replace(
        fail_on=managed.fail_on or _stricter(user.fail_on, project.fail_on),
        select=managed.select or user.select or project.select,
        ignore=_union(managed.ignore, user.ignore, project.ignore),
        rule_dirs=_union(project.rule_dirs, user.rule_dirs, managed.rule_dirs),
        builtin_rules=project.builtin_rules and user.builtin_rules and managed.builtin_rules,
        rule_params=params or None,
        profile=managed.profile or user.profile or project.profile,
        allow_comments=_union(managed.allow_comments, user.allow_comments, project.allow_comments),
        # (cleaning session files is the user's choice as much as the project's: any layer)
        hygiene=managed.hygiene or user.hygiene or project.hygiene,
        approvals=managed.approvals,
    )
