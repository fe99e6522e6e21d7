"""The reason the hook gives the model when a tool's output holds a secret (PostToolUse of
every agent whose hook sees a tool's output; issue 29's live hygiene): do not repeat, store
or use it, have the user rotate it. It names the rule and where (the tool, its command or
path masked, the line of the output), never the value. hook/judge.py builds its answer with
it; the audit log records the block as for any other; hook/hygiene.py cleans the session
file later, on opt-in.
"""

from __future__ import annotations

from typing import Any

MAX_SUBJECT = 120  # characters of a masked command or path named in a reason
MAX_FIELDS = 256  # strings of a tool response looked through for where a secret stands
MAX_PLACES = 3  # places named per rule


def post_tool_reason(data: dict[str, Any], findings: list[Any], ruleset: Any = None) -> str:
    """The reason given to the model when a tool's output holds secrets: what to do (not
    repeat, store or use them; have the user rotate them), and for each the rule, its
    severity and where it stands in the output (field and line); never the value (the
    snippet is not used)."""
    ruleset = ruleset if ruleset is not None else _rules()
    tool = data.get("tool_name") if isinstance(data.get("tool_name"), str) else "tool"
    subject = _masked(_subject(data.get("tool_input")), ruleset)
    call = f"{tool} `{subject}`" if subject else str(tool)
    places = _places(data.get("tool_response"), ruleset)
    anywhere = list(dict.fromkeys(p for found in places.values() for p in found))
    lines = "; ".join(
        f"{f.rule_id} ({f.severity.label}: {f.message}) in "
        + (", ".join((places.get(f.rule_id) or anywhere)[:MAX_PLACES]) or "the output")
        for f in findings
    )
    return (
        f"wukong-lint: the output of {call} holds a secret: {lines}. Do not repeat, quote, "
        "store or use it (not in a reply, a file, a commit, a command or a summary), and do "
        "not print it again. Tell the user it was exposed to the agent and should be rotated "
        "(revoked and reissued), and that the session file still holds it until it is cleaned "
        "(`wukong-lint redact --in-place` of the session, or the hook's session-end hygiene)."
    )


def _rules() -> Any:
    try:
        from wukong_lint.engine.loader import load_rules

        return load_rules((), details=False)
    except Exception:  # (then nothing is named that would need masking)
        return None


def _places(response: Any, ruleset: Any) -> dict[str, list[str]]:
    """rule id -> where its secrets stand in a tool's response: `stdout line 2`, `line 3`
    (a plain text), `file.content line 7` (the field's path and the line in it)."""
    if ruleset is None:
        return {}
    import re

    from wukong_lint.engine.masking.redactor import Redactor

    redactor = Redactor(ruleset)
    mark = re.compile(r"\[REDACTED:([\w.-]+)\]")
    places: dict[str, list[str]] = {}
    for key, text in _fields(response):
        try:
            masked = redactor.text(text)
        except Exception:
            continue
        if masked == text:
            continue
        for number, line in enumerate(masked.split("\n"), 1):
            where = f"{key} line {number}" if key else f"line {number}"
            for rule in mark.findall(line):
                found = places.setdefault(rule, [])
                if where not in found:
                    found.append(where)
    return places


def _fields(value: Any) -> list[tuple[str, str]]:
    """(dotted path, text) of the strings of a JSON value, at most MAX_FIELDS of them."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [("", value)]
    while stack and len(found) < MAX_FIELDS:
        key, item = stack.pop()
        if isinstance(item, str):
            if item:
                found.append((key, item))
        elif isinstance(item, dict):
            stack += [(f"{key}.{k}" if key else str(k), v) for k, v in reversed(item.items())]
        elif isinstance(item, list):
            stack += [(f"{key}[{i}]", v) for i, v in reversed(list(enumerate(item)))]
    return found


def _subject(tool_input: Any) -> str | None:
    if isinstance(tool_input, dict):
        for key in ("command", "file_path", "path", "pattern", "url"):
            if isinstance(tool_input.get(key), str):
                return tool_input[key]
    return None


def _masked(text: str | None, ruleset: Any) -> str | None:
    """`text` with its secrets masked, on one line and short; None when it cannot be
    masked (a reason must never carry a secret)."""
    if not text or ruleset is None or len(text) > 65536:
        return None  # (masked whole, then cut: a secret cut in two could escape its rule)
    try:
        from wukong_lint.engine.masking.redactor import Redactor

        masked = Redactor(ruleset).text(text)
    except Exception:  # (withheld rather than risk printing what could not be masked)
        return None
    masked = " ".join(masked.split())
    return masked if len(masked) <= MAX_SUBJECT else masked[: MAX_SUBJECT - 1] + "…"
