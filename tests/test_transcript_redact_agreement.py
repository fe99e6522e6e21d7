"""`check` and `redact` agree on transcripts (issues 15 and 17): every line in which `redact`
masks a secret is a line where `check` reports one, over generated hostile sessions (system
and summary records, string toolUseResult, a truncated last record, lone surrogate escapes,
invalid UTF-8, a byte-order mark on the first line, secrets in every kind of field). Both run
for real on real JSONL files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from wukong_lint.cli import main

# Secrets built at run time (the test file holds none), each a different provider's shape.
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def secret(rng: random.Random) -> str:
    kind = rng.randrange(3)
    if kind == 0:
        return "ghp_" + "".join(rng.choice(ALNUM) for _ in range(36))
    if kind == 1:
        return "AKIA" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(16))
    return (
        "xoxb-"
        + "-".join("".join(rng.choice("0123456789") for _ in range(12)) for _ in range(2))
        + "-"
        + "".join(rng.choice(ALNUM) for _ in range(24))
    )


def envelope(n: int, **extra: object) -> dict:
    return {"uuid": f"u{n}", "sessionId": "s1", "timestamp": "2026-01-01T00:00:00Z", **extra}


def user_text(n: int, text: str) -> dict:
    return {"type": "user", "message": {"role": "user", "content": text}, **envelope(n)}


def call(n: int, tool: str, data: dict) -> dict:
    block = {"type": "tool_use", "id": f"t{n}", "name": tool, "input": data}
    return {
        "type": "assistant",
        "message": {"role": "assistant", "content": [block]},
        **envelope(n),
    }


def result(n: int, content: object, extra: object = None) -> dict:
    block = {"type": "tool_result", "tool_use_id": f"t{n - 1}", "content": content}
    record = {"type": "user", "message": {"role": "user", "content": [block]}, **envelope(n)}
    if extra is not None:
        record["toolUseResult"] = extra
    return record


# Where a secret can sit: each returns one JSONL line (as text) holding `s`.
PLACES = {
    "prompt": lambda n, s: json.dumps(user_text(n, f"please use {s} for the deploy")),
    "assistant": lambda n, s: json.dumps(
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [{"type": "text", "text": f"I will set {s}"}],
            },
            **envelope(n),
        }
    ),
    "thinking": lambda n, s: json.dumps(
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": f"the key {s} works", "signature": "x"}
                ],
            },
            **envelope(n),
        }
    ),
    "bash": lambda n, s: json.dumps(call(n, "Bash", {"command": f"export TOKEN={s} && make"})),
    "write": lambda n, s: json.dumps(
        call(n, "Write", {"file_path": "/p/a.py", "content": f"K = '{s}'\n"})
    ),
    "nested-input": lambda n, s: json.dumps(call(n, "mcp__x__y", {"a": [{"b": {"c": f"v={s}"}}]})),
    "result-text": lambda n, s: json.dumps(result(n, f"output: {s}")),
    "result-list": lambda n, s: json.dumps(result(n, [{"type": "text", "text": f"got {s}"}])),
    "tool-use-result-string": lambda n, s: json.dumps(result(n, "ok", f"Error: bad {s}")),
    "tool-use-result-dict": lambda n, s: json.dumps(
        result(n, "ok", {"stdout": f"T={s}", "stderr": ""})
    ),
    # a toolUseResult no tool_result block carries (issue 25: `check` read none of these)
    "tool-use-result-beside-text": lambda n, s: json.dumps(
        {**user_text(n, "x"), "toolUseResult": f"Error: TOKEN={s}"}
    ),
    "tool-use-result-beside-blocks": lambda n, s: json.dumps(
        {
            "type": "user",
            "message": {"role": "user", "content": [{"type": "text", "text": "[interrupted]"}]},
            "toolUseResult": {"stdout": "", "stderr": f"fatal: auth {s}", "interrupted": True},
            **envelope(n),
        }
    ),
    "system": lambda n, s: json.dumps(
        {"type": "system", "subtype": "informational", "content": f"hook said {s}", **envelope(n)}
    ),
    "summary": lambda n, s: json.dumps(
        {"type": "summary", "summary": f"Set up CI with token {s}", "leafUuid": "u1"}
    ),
    "progress": lambda n, s: json.dumps(
        {
            "type": "progress",
            "data": {"type": "bash_progress", "output": f"echo {s}"},
            **envelope(n),
        }
    ),
    "queue": lambda n, s: json.dumps(
        {
            "type": "queue-operation",
            "operation": "enqueue",
            "content": f"also use {s}",
            **envelope(n),
        }
    ),
    "lone-surrogate": lambda n, s: json.dumps(user_text(n, "x")).replace(
        '"x"', f'"bad \\ud800 then {s}"'
    ),
    "invalid-utf8": lambda n, s: json.dumps(user_text(n, "x")).replace('"x"', f'"caf\udcff {s}"'),
    "not-json": lambda n, s: f"garbage line {{ with {s} in it",
}
CLEAN = [
    lambda n: json.dumps(user_text(n, "run the tests")),
    lambda n: json.dumps(call(n, "Bash", {"command": "pytest -q"})),
    lambda n: json.dumps(result(n, "3 passed")),
    lambda n: json.dumps({"type": "system", "content": "compacted", **envelope(n)}),
]


def session(seed: int) -> tuple[bytes, set[int]]:
    """A hostile session: its bytes and the lines where a secret was planted."""
    rng = random.Random(seed)
    lines: list[str] = []
    planted: set[int] = set()
    places = sorted(PLACES)
    rng.shuffle(places)
    for place in places:
        for _ in range(rng.randrange(2)):
            lines.append(rng.choice(CLEAN)(len(lines) + 1))
        lines.append(PLACES[place](len(lines) + 1, secret(rng)))
        planted.add(len(lines))
    # the last record cut short right after its secret (a crash while writing)
    token = secret(rng)
    tail = json.dumps(call(len(lines) + 1, "Bash", {"command": f"curl -H 'auth: {token}' x"}))
    lines.append(tail[: tail.index(token) + len(token) + rng.randrange(3)])
    planted.add(len(lines))
    data = "\n".join(lines).encode("utf-8", "surrogateescape")
    if seed % 2:
        data = b"\xef\xbb\xbf" + data  # a byte-order mark on the first line
    return data, planted


def changed_lines(before: bytes, after: bytes) -> set[int]:
    old, new = before.split(b"\n"), after.split(b"\n")
    assert len(old) == len(new)  # redact keeps the lines
    return {i for i, (a, b) in enumerate(zip(old, new, strict=True), 1) if a != b}


@pytest.mark.parametrize("seed", range(6))
def test_check_reports_every_secret_redact_masks(seed: int, tmp_path: Path, capsys) -> None:
    data, planted = session(seed)
    path = tmp_path / "session.jsonl"
    path.write_bytes(data)
    clean = tmp_path / "clean.jsonl"
    assert main(["redact", str(path), "-o", str(clean)]) == 0
    masked = changed_lines(data, clean.read_bytes())
    report = tmp_path / "report.json"
    code = main(["check", "--select", "secret", "--format", "json", "-o", str(report), str(path)])
    capsys.readouterr()
    assert code == 1
    found = {f["line"] for f in json.loads(report.read_text())["findings"]}
    assert planted <= masked, f"redact missed lines {sorted(planted - masked)}"
    assert masked <= found, f"check missed lines redact masks: {sorted(masked - found)}"
    assert planted <= found
    # the redacted copy holds no secret for check either
    assert (
        main(["check", "--select", "secret", "--format", "json", "-o", str(report), str(clean)])
        == 0
    )
    capsys.readouterr()


def test_the_truncated_last_record_is_scanned_for_commands_too(tmp_path: Path, capsys) -> None:
    lines = [json.dumps(user_text(1, "clean up")), json.dumps(call(2, "Bash", {"command": "ls"}))]
    tail = json.dumps(call(3, "Bash", {"command": "rm -rf / --no-preserve-root && echo done"}))
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(lines) + "\n" + tail[: tail.index("&&") + 2])  # no newline
    report = tmp_path / "report.json"
    assert main(["check", "--format", "json", "-o", str(report), str(path)]) == 1
    capsys.readouterr()
    found = {(f["line"], f["rule_id"]) for f in json.loads(report.read_text())["findings"]}
    assert (3, "dangerous-command.rm-rf-root") in found
    assert (3, "transcript-integrity.malformed-record") in found


def test_redact_keeps_a_lone_surrogate_escape_and_masks(tmp_path: Path, capsys) -> None:
    token = "ghp_" + "Zx9" * 12
    path = tmp_path / "s.jsonl"
    path.write_text('{"type":"user","message":{"role":"user","content":"\\ud800 ' + token + '"}}\n')
    out = tmp_path / "o.jsonl"
    assert main(["redact", str(path), "-o", str(out)]) == 0
    capsys.readouterr()
    text = out.read_text()
    assert token not in text and "\\ud800" in text
    assert json.loads(text)["message"]["content"].startswith("\ud800")


# -- the other JSONL formats: every field kind of Codex rollouts and OpenAI chat --------------

CODEX = [
    lambda s: {"type": "session_meta", "payload": {"id": "s", "instructions": f"use {s}"}},
    lambda s: {
        "type": "response_item",
        "payload": {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": f"k {s}"}],
        },
    },
    lambda s: {
        "type": "response_item",
        "payload": {
            "type": "function_call",
            "name": "shell",
            "arguments": json.dumps({"command": ["bash", "-lc", f"echo {s}"]}),
            "call_id": "c1",
        },
    },
    lambda s: {
        "type": "response_item",
        "payload": {
            "type": "function_call_output",
            "call_id": "c1",
            "output": json.dumps({"output": s}),
        },
    },
    lambda s: {"type": "event_msg", "payload": {"type": "agent_reasoning", "text": f"r {s}"}},
    lambda s: {"type": "turn_context", "payload": {"cwd": "/p", "user_instructions": s}},
    lambda s: {
        "type": "response_item",
        "payload": {"type": "reasoning", "summary": [{"type": "summary_text", "text": s}]},
    },
    lambda s: {
        "type": "response_item",
        "payload": {"type": "web_search_call", "action": {"query": s}},
    },
    lambda s: {"type": "compacted", "payload": {"message": f"m {s}"}},
]
OPENAI = [
    lambda s: {"role": "system", "content": f"sys {s}"},
    lambda s: {"role": "user", "content": [{"type": "text", "text": f"u {s}"}]},
    lambda s: {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c",
                "type": "function",
                "function": {"name": "f", "arguments": json.dumps({"x": s})},
            }
        ],
    },
    lambda s: {"role": "tool", "tool_call_id": "c", "content": f"o {s}"},
    lambda s: {"role": "assistant", "content": "a", "refusal": f"r {s}"},
    lambda s: {"role": "assistant", "content": "b", "reasoning_content": f"t {s}"},
]


@pytest.mark.parametrize(("name", "kinds"), [("codex", CODEX), ("openai", OPENAI)])
def test_other_formats_agree(name: str, kinds: list, tmp_path: Path, capsys) -> None:
    rng = random.Random(name)
    lines = []
    for kind in kinds:
        record = kind(secret(rng))
        if name == "codex":
            record = {"timestamp": "2026-01-01T00:00:00Z", **record}
        lines.append(json.dumps(record))
    token = secret(rng)
    tail = json.dumps(kinds[0](token))
    lines.append(tail[: tail.index(token) + len(token)])  # cut short after its secret
    data = "\n".join(lines).encode()
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(data)
    clean = tmp_path / "clean.jsonl"
    assert main(["redact", str(path), "-o", str(clean)]) == 0
    masked = changed_lines(data, clean.read_bytes())
    report = tmp_path / "report.json"
    args = ["check", "--select", "secret", "--format", "json", "-o", str(report), str(path)]
    assert main(["check", "--transcript-format", name, *args[1:]]) == 1
    capsys.readouterr()
    found = {f["line"] for f in json.loads(report.read_text())["findings"]}
    assert masked == set(range(1, len(lines) + 1))
    assert masked <= found, f"check missed lines redact masks: {sorted(masked - found)}"


def test_a_secret_only_in_a_string_tool_use_result_is_reported(tmp_path: Path, capsys) -> None:
    """The docs' claim, held to: `check` reads a string `toolUseResult` even when the
    record's content is a plain string (a failed call's error)."""
    token = "ghp_" + "Qm7" * 12
    record = {**user_text(1, "x"), "toolUseResult": f"Error: TOKEN={token}"}
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(record) + "\n")
    report = tmp_path / "report.json"
    assert main(["check", "--format", "json", "-o", str(report), str(path)]) == 1
    capsys.readouterr()
    findings = json.loads(report.read_text())["findings"]
    assert [(f["line"], f["rule_id"]) for f in findings] == [(1, "secret.github-pat")]
    assert token not in report.read_text()
