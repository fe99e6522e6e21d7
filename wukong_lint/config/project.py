"""Project configuration: `.wukong-lint.yaml` (or `.yml`), or `[tool.wukong-lint]` in
`pyproject.toml`.

Found by walking up from the current folder to the root of its git work tree (the first
folder holding one of those files wins; in one folder the YAML file wins), or given with
`--config FILE`. This module is imported on the pre-commit path: finding *no* config file
costs a few `stat` calls; YAML/TOML and pydantic are imported only when a file exists.

Keys (kebab-case, as in ruff):

    fail-on: high                 # low | medium | high | critical
    select: [secret]              # rule ids, categories, id prefixes; longest match wins
    ignore: [secret.jwt]
    per-path-ignores:             # glob -> rule ids / categories / prefixes ("*": all)
      "tests/*": [secret.generic-assignment]
    exclude: [vendor/, "*.min.js"]  # globs: paths no rule sees
    rule-dirs: [my-rules/]        # extra rule packs, relative to the config file
    builtin-rules: true
    rule-params:                  # per-rule overrides of a rule's settings
      secret.generic-assignment: {entropy: 3.2, severity: medium}
    profile: generic              # default of `check --profile`: generic | wukong
    baseline: .wukong-lint-baseline.json
    allow-comments: [gitleaks, detect-secrets, bandit, ruff]   # honour their inline comments
                                  # (bandit nosec, ruff noqa with S codes: code rules only)
"""

import os
from typing import Any

from wukong_lint.config.settings import PROFILES, Config  # noqa: F401 (re-exported)
from wukong_lint.util.errors import UsageError

YAML_NAMES = (".wukong-lint.yaml", ".wukong-lint.yml")
PYPROJECT = "pyproject.toml"


def _has_tool_table(path: str) -> bool:
    """A cheap look for `[tool.wukong-lint]` before importing a TOML parser."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return False
    return "wukong-lint" in text and any(
        line.strip().replace('"', "").replace(" ", "").startswith("[tool.wukong-lint")
        for line in text.splitlines()
    )


def find_config(start: str | None = None) -> str | None:
    """The config file that applies to `start` (default: the current folder), or None."""
    folder = os.path.abspath(start or os.curdir)
    while True:
        for name in YAML_NAMES:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                return candidate
        candidate = os.path.join(folder, PYPROJECT)
        if os.path.isfile(candidate) and _has_tool_table(candidate):
            return candidate
        if os.path.exists(os.path.join(folder, ".git")):
            return None  # the top of the work tree
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def read_toml(path: str) -> dict[str, Any]:
    try:
        import tomllib  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            raise UsageError(f"{path}: reading TOML needs Python 3.11+ or tomli") from None
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as err:
        raise UsageError(f"{path}: cannot read: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise UsageError(f"{path}: invalid TOML: {err}") from None
    except UnicodeDecodeError as err:
        raise UsageError(
            f"{path}: invalid TOML: not UTF-8 ({err.reason} at byte {err.start})"
        ) from None
    except RecursionError:
        raise UsageError(f"{path}: invalid TOML: nested too deeply") from None


def _read_raw(path: str) -> dict[str, Any]:
    if os.path.basename(path) == PYPROJECT or path.endswith(".toml"):
        data = read_toml(path)
        if os.path.basename(path) == PYPROJECT:
            data = data.get("tool", {}).get("wukong-lint", {})
        return data if isinstance(data, dict) else {}
    import yaml

    from wukong_lint.util.yaml_strict import load as load_strict

    try:
        with open(path, encoding="utf-8") as handle:
            data = load_strict(handle)  # a key given twice is an error, not the last wins
    except OSError as err:
        raise UsageError(f"{path}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise UsageError(f"{path}: not valid UTF-8 (byte {err.start})") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(err, "problem", None) or "invalid YAML"
        raise UsageError(f"{path}: {problem}{where}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UsageError(f"{path}: expected a mapping of settings at the top level")
    return data


def load_config(path: str) -> Config:
    if not os.path.isfile(path):
        raise UsageError(f"config file not found: {path}")
    from wukong_lint.config.model import validate

    return validate(_read_raw(path), os.path.abspath(path))


def resolve_config(explicit: str | None = None, start: str | None = None) -> Config:
    """The config given with --config, else the one found from `start`, else defaults."""
    path = explicit or find_config(start)
    return load_config(path) if path else Config()


def apply_rule_params(rules: list[Any], config: Config) -> list[Any]:
    """The rules with the config's `rule-params` applied (checked against each rule)."""
    if not config.rule_params:
        return rules
    from wukong_lint.config.model import override_rule

    by_id = {rule.id: i for i, rule in enumerate(rules)}
    out = list(rules)
    for rule_id, params in config.rule_params.items():
        if rule_id not in by_id:
            raise UsageError(f"{config.path}: rule-params: unknown rule {rule_id!r}")
        index = by_id[rule_id]
        out[index] = override_rule(out[index], params, config.path or "config")
    return out
