"""YAML rule files -> validated CompiledRule records (cache-miss path only)."""

from __future__ import annotations

from typing import Any

import yaml
from pydantic import ValidationError

from wukong_lint.engine.filters import DEFAULT_SECRET_FILTERS
from wukong_lint.engine.kinds import KINDS, model_for
from wukong_lint.engine.rules import CompiledRule
from wukong_lint.engine.schema import Allow, RegexRule, RuleBase
from wukong_lint.model import Severity
from wukong_lint.util.errors import RuleError


class _NoAliasLoader(yaml.SafeLoader):
    """Safe YAML without anchors/aliases: rules never need them, and aliases allow YAML bombs."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "YAML aliases are not allowed in rule files", event.start_mark
            )
        return super().compose_node(parent, index)


def _load_documents(path: str) -> list[tuple[dict[str, Any], dict[str, int]]]:
    """Rule mappings with the line of each of their keys (for error messages)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as err:
        raise RuleError(f"{path}: cannot read rule file: {err}") from None
    loader = None
    try:
        loader = _NoAliasLoader(text)  # (its reader rejects NUL and other controls at once)
        node = loader.get_single_node()
        if node is None:
            raise RuleError(f"{path}: empty rule file")
        data = loader.construct_document(node)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise RuleError(f"{path}{where}: invalid YAML: {problem}") from None
    except RecursionError:
        raise RuleError(f"{path}: invalid YAML: nested too deeply") from None
    finally:
        if loader is not None:
            loader.dispose()

    rule_nodes: list[Any]
    from wukong_lint.engine.data_kinds import is_data_document

    if is_data_document(data):
        return []  # facts some rule kinds read (engine/data_docs.py), not rules
    if isinstance(data, dict) and "rules" in data and "id" not in data:
        if set(data) != {"rules"} or not isinstance(data["rules"], list):
            raise RuleError(f"{path}: expected a mapping with only a 'rules' list, or one rule")
        items = data["rules"]
        rule_nodes = next(v for k, v in node.value if k.value == "rules").value
    elif isinstance(data, dict):
        items = [data]
        rule_nodes = [node]
    else:
        raise RuleError(f"{path}: expected a rule (a mapping) or a 'rules' list")
    out = []
    for item, item_node in zip(items, rule_nodes, strict=False):
        if not isinstance(item, dict):
            raise RuleError(f"{path}:{item_node.start_mark.line + 1}: a rule must be a mapping")
        lines = {
            str(key.value): key.start_mark.line + 1
            for key, _ in getattr(item_node, "value", [])
            if hasattr(key, "value")
        }
        lines[""] = item_node.start_mark.line + 1
        out.append((item, lines))
    return out


def _describe(err: ValidationError, lines: dict[str, int]) -> tuple[int, str]:
    first = err.errors()[0]
    loc = [str(p) for p in first["loc"]]
    line = lines.get(loc[0], lines[""]) if loc else lines[""]
    where = ".".join(loc)
    if first["type"] == "extra_forbidden":
        return line, f"unknown key '{where}'"
    if first["type"] == "missing":
        return line, f"missing field '{where}'"
    message = first["msg"].removeprefix("Value error, ")
    return line, f"{where}: {message}" if where else message


def compile_file(path: str) -> list[CompiledRule]:
    compiled = []
    for data, lines in _load_documents(path):
        rule_id = data.get("id")
        name = f"rule '{rule_id}'" if isinstance(rule_id, str) else "rule without id"
        kind = data.get("kind")
        model = model_for(kind) if isinstance(kind, str) else None
        if model is None:
            known = ", ".join(sorted(KINDS))
            problem = "missing field 'kind'" if kind is None else f"unknown kind {kind!r}"
            raise RuleError(f"{path}:{lines.get('kind', lines[''])}: {name}: {problem} ({known})")
        try:
            rule = model.model_validate(data)
            compiled.append(to_compiled(rule, path))
        except ValidationError as err:
            line, problem = _describe(err, lines)
            raise RuleError(f"{path}:{line}: {name}: {problem}") from None
        except (TypeError, ValueError, RecursionError, OverflowError) as err:
            # what a validator did not foresee in a pack is still the pack's error, named
            problem = str(err).splitlines()[0] if str(err) else type(err).__name__
            raise RuleError(f"{path}:{lines['']}: {name}: {problem}") from None
    return compiled


def to_compiled(rule: RuleBase, path: str) -> CompiledRule:
    common: dict[str, Any] = {
        "id": rule.id,
        "category": rule.category,
        "severity": int(Severity.parse(rule.severity)),
        "message": rule.message.strip(),
        "kind": rule.kind,  # type: ignore[attr-defined]
        "applies_to": tuple(rule.applies_to),
        "source_file": str(path),
        "docs": rule.docs.strip(),
        "paths": tuple(rule.paths),
        "exclude_paths": tuple(rule.exclude_paths),
        "enabled": rule.enabled,
        "tags": tuple(rule.tags),
        "examples_match": tuple(rule.examples.match),
        "examples_no_match": tuple(rule.examples.no_match),
        "keywords": tuple(rule.keywords),
    }
    if isinstance(rule, RegexRule):
        is_secret = rule.category == "secret"
        filters = (
            rule.filters
            if rule.filters is not None
            else (list(DEFAULT_SECRET_FILTERS) if is_secret else [])
        )
        allow = tuple(
            (a.target, a.regex) if isinstance(a, Allow) else ("secret", a) for a in rule.allow
        )
        common.update(
            regex=rule.regex,
            secret_group=rule.secret_group,
            entropy=rule.entropy,
            min_length=rule.min_length,
            filters=tuple(filters),
            allow=allow,
            redact=is_secret if rule.redact is None else rule.redact,
            multiline=rule.multiline,
            lines_after=rule.lines_after,
            reach=rule.reach,
            locate=rule.locate,
            after_keyword=rule.after_keyword or "",
        )
    else:
        common["params"] = rule.params()
        # a structured kind that finds secrets masks them in snippets, as regex rules do
        common["redact"] = rule.category == "secret"
    return CompiledRule(**common)
