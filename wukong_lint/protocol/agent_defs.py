"""Claude Code agent definitions (`.claude/agents/*.md`), read as the 戒 protocol needs them:
the tools an agent may use, whether it runs in the background, how many may run at once,
and its output contract with the fields it must and may return.

Found on disk, a definition is the source of truth for those, whatever the protocol version
(Claude Code enforces its front matter). Upstream wrote them in two layouts, both read here:

- front matter (`tools` / `disallowedTools`, or the 2.0 era's `allowed_tools` /
  `disallowed_tools` lists; `background: true`), an identity block (`background: 必须`,
  `max_concurrent: 2-3`), an "输出格式 (Output Contract)" section holding a fenced Markdown
  template (its own `## Summary` headings sit inside the fence: they do not end the
  section), then a "Contract 字段说明" table (字段 | 类型 | 必填 | 说明) saying which fields are
  required (是) and which optional (否);
- a contract as a fenced YAML or JSON block, an `output_contract:` front-matter key, or a list
  of `name:` bullets under the contract heading (all required); a fenced Markdown template
  without a table gives its headings.
"""

from __future__ import annotations

import os
import re
from typing import Any, NamedTuple


class Definition(NamedTuple):
    name: str
    tools: tuple[str, ...] | None  # None: every tool
    disallowed: tuple[str, ...]
    # `background: true` in the front matter: Claude Code runs it in the background
    background: bool
    # what the definition says of background runs: required, optional, forbidden (None: not)
    background_rule: str | None
    max: int | None  # at most this many at once (None: no limit said)
    contract: tuple[tuple[str, bool], ...]  # (field, required)
    keys: tuple[str, ...]  # its front-matter keys (for detection)


_FRONT = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*)$")  # (the title's closing #s: stripped after)
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_CONTRACT_TITLE = re.compile(r"(?i)output[ \t_-]*contract|输出契约|输出格式")
_BULLET = re.compile(r"^[ \t]*[-*+][ \t]*`?([A-Za-z_][\w -]{0,40}?)`?[ \t]*(?::|：|$|\s[-—(])")
_YES = frozenset({"是", "yes", "y", "true", "required", "✓", "✅", "必填", "必须"})
_NO = frozenset({"否", "no", "n", "false", "optional", "✗", "❌", "可选", "选填"})
_BACKGROUND = {"必须": "required", "required": "required", "true": "required",
               "可选": "optional", "optional": "optional",
               "禁止": "forbidden", "forbidden": "forbidden", "false": "forbidden"}  # fmt: skip
_MAX_READ = 65536


def _tool_list(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list):
        return None
    return tuple(str(v).strip().split("(", 1)[0] for v in items if str(v).strip())


def _lines_outside_fences(text: str) -> list[tuple[str, bool]]:
    """(line, inside a fence) for each line."""
    out = []
    fence: str | None = None
    for line in text.splitlines():
        found = _FENCE.match(line)
        if found:
            if fence is None:
                fence = found.group(1)
                out.append((line, True))
                continue
            if line.strip().startswith(fence):
                fence = None
                out.append((line, True))
                continue
        out.append((line, fence is not None))
    return out


def _contract_section(lines: list[tuple[str, bool]]) -> list[tuple[str, bool]] | None:
    """The lines of the contract section, up to the next heading of its level or above that
    is not inside a fence (None: no such section)."""
    for i, (line, fenced) in enumerate(lines):
        heading = None if fenced else _HEADING.match(line)
        if heading is None or not _CONTRACT_TITLE.search(heading.group(2)):
            continue
        level = len(heading.group(1))
        end = len(lines)
        for k in range(i + 1, len(lines)):
            other, other_fenced = lines[k]
            found = None if other_fenced else _HEADING.match(other)
            if found is not None and len(found.group(1)) <= level:
                end = k
                break
        return lines[i + 1 : end]
    return None


def _table(lines: list[tuple[str, bool]]) -> tuple[tuple[str, bool], ...]:
    """The fields of a "Contract 字段说明" table: a Markdown table with a field column and a
    required column (字段 / Field, 必填 / Required)."""
    for i, (line, fenced) in enumerate(lines):
        if fenced or not line.lstrip().startswith("|"):
            continue
        head = [c.strip().strip("*`").lower() for c in line.strip().strip("|").split("|")]
        field_col = next(
            (k for k, c in enumerate(head) if c in ("字段", "field", "name", "字段名")), None
        )
        need_col = next((k for k, c in enumerate(head) if c in ("必填", "required", "必须")), None)
        if field_col is None or need_col is None:
            continue
        fields: list[tuple[str, bool]] = []
        for row, row_fenced in lines[i + 1 :]:
            if row_fenced or not row.lstrip().startswith("|"):
                break
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            if len(cells) <= max(field_col, need_col) or set(cells[field_col]) <= set("-: "):
                continue
            name = cells[field_col].strip("`* ")
            need = cells[need_col].strip("`* ").lower()
            if name:
                fields.append((name, need not in _NO))
        if fields:
            return tuple(fields)
    return ()


def _fenced_blocks(section: list[tuple[str, bool]]) -> list[tuple[str, str]]:
    """(language, text) of each fenced block of a section."""
    blocks: list[tuple[str, str]] = []
    current: list[str] | None = None
    language = ""
    for line, fenced in section:
        if fenced and _FENCE.match(line):
            if current is None:
                current, language = [], line.strip().lstrip("`~").strip().lower()
            else:
                blocks.append((language, "\n".join(current)))
                current = None
            continue
        if current is not None:
            current.append(line)
    return blocks


def _keys(value: Any) -> tuple[str, ...]:
    if isinstance(value, dict):
        if len(value) == 1 and isinstance(next(iter(value.values())), (dict, list)):
            value = next(iter(value.values()))  # {output_contract: {...}}
        if isinstance(value, dict):
            return tuple(str(k) for k in value)
    if isinstance(value, list):
        return tuple(str(v) for v in value if isinstance(v, (str, int)))
    return ()


def _section_contract(section: list[tuple[str, bool]]) -> tuple[str, ...]:
    """Required fields from a contract section without a table: a fenced YAML/JSON block's
    keys, a fenced Markdown template's headings, or `name:` bullets."""
    import yaml

    for language, block in _fenced_blocks(section):
        if language in ("markdown", "md"):
            headings = [m.group(2).rstrip(" \t#") for m in map(_HEADING.match, block.splitlines())
                        if m]  # fmt: skip
            names = [h.split("(", 1)[0].split("（", 1)[0].strip().lower() for h in headings]
            return tuple(dict.fromkeys(n for n in names if n))
        try:
            value = yaml.safe_load(block)
        except Exception:
            continue
        keys = _keys(value)
        if keys:
            return keys
    names = [m.group(1).strip() for line, fenced in section if not fenced
             for m in [_BULLET.match(line)] if m]  # fmt: skip
    return tuple(dict.fromkeys(names))


def _identity(lines: list[tuple[str, bool]]) -> dict[str, str]:
    """`key: value` lines of the identity block (a fenced YAML block under 身份标识)."""
    found: dict[str, str] = {}
    for line, fenced in lines:
        if not fenced:
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if sep and key in ("background", "max_concurrent") and key not in found:
            found[key] = value.strip().strip("\"'")
    return found


def _max(value: str | None) -> int | None:
    """`max_concurrent: 1` / `2-3` (3) / `10+` (no limit)."""
    if not value or value.endswith("+"):
        return None
    numbers = [int(n) for n in re.findall(r"\d+", value)]
    return max(numbers) if numbers else None


def parse_definition(text: str, file_name: str) -> Definition | None:
    """One definition (None: no front matter, so no Claude Code agent)."""
    front = _FRONT.match(text)
    if not front:
        return None
    try:
        import yaml

        meta = yaml.safe_load(front.group(1))
    except Exception:
        return None
    if not isinstance(meta, dict):
        return None
    name = str(meta.get("name") or file_name.rsplit(".", 1)[0]).lower()
    tools = _tool_list(meta.get("tools", meta.get("allowed_tools")))
    disallowed = _tool_list(meta.get("disallowedTools", meta.get("disallowed_tools"))) or ()
    lines = _lines_outside_fences(text[front.end() :])
    identity = _identity(lines)
    front_background = str(meta.get("background", "")).strip().lower()
    rule = _BACKGROUND.get(front_background) or _BACKGROUND.get(identity.get("background", ""))
    contract: tuple[tuple[str, bool], ...] = tuple((k, True) for k in
                                                   _keys(meta.get("output_contract")))  # fmt: skip
    if not contract:
        section = _contract_section(lines)
        contract = _table(lines)
        if not contract and section is not None:
            contract = tuple((k, True) for k in _section_contract(section))
    return Definition(
        name=name,
        tools=tools,
        disallowed=disallowed,
        background=front_background in ("true", "required", "必须"),
        background_rule=rule,
        max=_max(identity.get("max_concurrent")),
        contract=contract,
        keys=tuple(str(k) for k in meta),
    )


def load_definitions(folder: str) -> dict[str, Definition]:
    """The definitions of a folder, by agent name (lower case)."""
    found: dict[str, Definition] = {}
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return found
    for name in names:
        if not name.endswith(".md"):
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                text = handle.read(_MAX_READ)
        except (OSError, UnicodeDecodeError):
            continue
        definition = parse_definition(text, name)
        if definition is not None:
            found[definition.name] = definition
    return found


def user_agents_dir() -> str:
    """Where Claude Code keeps the user's own agents (`~/.claude/agents`, or under
    CLAUDE_CONFIG_DIR when that is set): upstream's install.sh copies the avatars there."""
    base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return os.path.join(base, "agents")
