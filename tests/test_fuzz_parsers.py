"""Hypothesis fuzzing of the transcript reader, the shell-command parser, the hook's event
reader and the anchors parser/formatter on arbitrary (often broken) input: no exception
escapes. (Well-formed anchors files are covered by tests/test_anchors_properties.py.)"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wukong_lint.anchors.fmt import fmt_text
from wukong_lint.anchors.parse import parse as parse_anchors
from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.hook.judge import HookInputError, event_units, parse_event
from wukong_lint.model import ScanError
from wukong_lint.shell.parse import parse_script, unwrap
from wukong_lint.sources import transcripts
from wukong_lint.util.text import Skipped

FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
RULES = load_rules()

# -- shell ---------------------------------------------------------------------------------------

SHELL_PIECES = [
    "rm", "-rf", "/", "~", "sudo", "su -c", "bash -c", "sh -c", "env A=1", "xargs", "find . -exec",
    "\\;", "|", "||", "&&", ";", "&", "\n", "$(", ")", "`", "'", '"', "\\", "<<EOF", "<<'EOF'",
    "EOF", ">", ">>", "2>&1", "<(", "{", "}", "(", "[[", "]]", "if", "then", "fi", "for x in",
    "do", "done", "case", "esac", "function f", "f()", ":(){ :|:& };:", "git push --force",
    "curl -s https://x.sh", "chmod 777", "dd if=/dev/zero of=/dev/sda", "${A:-b}", "$((1+2))",
    "#", "eval", "exec", "nohup", "timeout 5", "time", "watch", "*", "?", "~/.bashrc", "\t",
    "中文", "\x00", "\udcff",
]  # fmt: skip
shell_text = st.one_of(
    st.lists(st.sampled_from(SHELL_PIECES), max_size=30).map(" ".join),
    st.lists(st.sampled_from(SHELL_PIECES), max_size=30).map("".join),
    # every plane (tree-sitter-bash crashed on some characters outside the BMP until
    # shell/model.py's parse_source; tests/test_shell_crash.py keeps those inputs)
    st.text(st.characters(), max_size=200),
    st.lists(
        st.sampled_from([*SHELL_PIECES[:12], "'", "\x0c", "\U000f0000", "\U0001f600"]), max_size=12
    ).map("".join),
)


@FUZZ
@given(shell_text)
def test_shell_parser_never_raises(text):
    script = parse_script(text)
    for command in script.commands:
        assert all(isinstance(word, str) for word in command.argv)
        for argv in unwrap(command.argv):
            assert isinstance(argv, tuple)


@FUZZ
@given(shell_text)
def test_statement_selection_never_raises_and_selects_a_subset(text):
    from wukong_lint.shell.commands import _selector

    rules = [r for r in load_rules().rules if r.kind == "command" and "file" in r.applies_to]
    selected = parse_script(text, select=_selector(rules))
    every = parse_script(text)
    assert set(selected.commands) <= set(every.commands)


PYTHON_PIECES = [
    "def f(x):\n", "    os.system(x)\n", "class A(View):\n", "    def get(self, request):\n",
    "        cursor.execute('SELECT ' + request.GET['q'])\n", '"""\n', "'''\n",
    "@app.route('/')\n", "x = (\n", ")\n", "\tpass\n", "# comment\n", "\n", "async def g():\n",
    "  eval(y)\n", "if True:\n", "else:\n", "\r\n", "\x0c", "中文 = 1\n", "\\\n",
]  # fmt: skip


@FUZZ
@given(st.lists(st.sampled_from(PYTHON_PIECES), max_size=40).map("".join))
def test_python_skeleton_never_raises_and_keeps_lines(text):
    from wukong_lint.code.python.analysis import _line_starts
    from wukong_lint.code.python.skeleton import skeleton
    from wukong_lint.model import Source, Unit

    offsets = sorted(i for i in range(len(text)) if text.startswith(("system", "execute"), i))
    shape = skeleton(text, offsets, _line_starts(text))
    assert shape.text.count("\n") == text.count("\n")
    _, errors = scan_unit(load_rules(), Unit("app.py", text, Source(kind="file")))
    assert errors == []


def test_shell_parser_deep_nesting():
    for text in ["bash -c " * 300 + "'rm -rf /'", "$(" * 2000 + "ls" + ")" * 2000,
                 "(" * 3000 + "ls" + ")" * 3000, "{ " * 2000 + "ls;" + " }" * 2000]:  # fmt: skip
        parse_script(text)


# -- transcripts -----------------------------------------------------------------------------------

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.text(max_size=12),
    st.sampled_from(SHELL_PIECES),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
call_ids = st.sampled_from(["toolu_1", "toolu_2", "toolu_3", "", None, 7])
tools = st.sampled_from(["Bash", "Edit", "MultiEdit", "Write", "Read", "Task", "Grep", "", None])
tool_input = st.one_of(
    st.fixed_dictionaries({"command": shell_text}),
    st.fixed_dictionaries(
        {
            "file_path": st.sampled_from(["/etc/passwd", "a.py", "", "~/.ssh/id"]),
            "old_string": st.text(max_size=20),
            "new_string": st.text(max_size=80),
            "content": st.text(max_size=40),
        }
    ),
    st.fixed_dictionaries(
        {"subagent_type": st.sampled_from(["explorer", "眼", "x"]), "prompt": st.text(max_size=20)}
    ),
    json_value,
)


def _without_none(block: dict) -> dict:
    return {k: v for k, v in block.items() if v is not None}


tool_use = st.builds(
    lambda i, n, inp: _without_none({"type": "tool_use", "id": i, "name": n, "input": inp}),
    call_ids,
    tools,
    tool_input,
)
tool_result = st.builds(
    lambda i, c, e: _without_none(
        {"type": "tool_result", "tool_use_id": i, "content": c, "is_error": e}
    ),
    call_ids,
    st.one_of(
        st.text(max_size=40),
        json_value,
        st.sampled_from(
            [
                "<tool_use_error>String to replace not found in file.</tool_use_error>",
                "Prompt is too long",
                "Permission denied",
                "No such file or directory",
                "token ghp_Zq7Lm2Rx9Tb4Wc8Nd1Vf6Hk3Jp5Ys0Ga2Qe7",
            ]
        ),
    ),
    st.one_of(st.none(), st.booleans()),
)
block = st.one_of(
    tool_use,
    tool_result,
    st.builds(lambda t: {"type": "text", "text": t}, st.text(max_size=30)),
    st.builds(lambda t: {"type": "thinking", "thinking": t}, st.text(max_size=30)),
    json_value,
)
content = st.one_of(st.text(max_size=40), st.lists(block, max_size=4), json_value)
record = st.builds(
    lambda kind, c, side, agent, parent, extra, error: _without_none({
        "type": kind, "uuid": "u", "sessionId": "s", "message": {"role": kind, "content": c},
        "isSidechain": side, "agentId": agent, "parentUuid": parent, "toolUseResult": extra,
        "isApiErrorMessage": error,
    }),
    st.sampled_from(["user", "assistant", "summary", "system", "progress", "x", None]),
    content,
    st.one_of(st.none(), st.booleans()),
    st.one_of(st.none(), st.sampled_from(["a1", "a2"]), json_value),
    st.one_of(st.none(), st.sampled_from(["u", "p"])),
    st.one_of(st.none(), json_value, st.fixed_dictionaries({"type": st.just("create")})),
    st.one_of(st.none(), st.booleans()),
)  # fmt: skip
line = st.one_of(
    record.map(json.dumps),
    record.map(json.dumps).map(lambda s: s[: len(s) // 2]),  # truncated
    json_value.map(json.dumps),  # any JSON value, often not an object
    st.text(max_size=30),
    st.just("[" * 3000),
)


@FUZZ
@given(
    st.lists(line, min_size=1, max_size=12),
    st.sampled_from(["claude", "codex", "openai", "react", None]),
    st.sampled_from(["generic", "wukong"]),
)
def test_transcript_reader_and_checks_never_raise(lines, fmt, profile):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "session.jsonl"
        path.write_text("\n".join(lines), encoding="utf-8", errors="surrogatepass")
        transcripts.configure(profile=profile, fmt=fmt)
        try:
            for unit in transcripts.open_transcript(str(path), "session.jsonl"):
                if isinstance(unit, (ScanError, Skipped)):  # a binary transcript is skipped
                    continue
                scan_unit(RULES, unit)
        finally:
            transcripts.configure()


hook_event = st.builds(
    lambda name, tool, inp, resp: _without_none({
        "hook_event_name": name, "tool_name": tool, "tool_input": inp, "tool_response": resp,
        "session_id": "s", "cwd": "/nonexistent",
    }),
    st.sampled_from(["PreToolUse", "PostToolUse", "Stop", None]),
    tools,
    tool_input,
    st.one_of(st.none(), json_value),
)  # fmt: skip


@FUZZ
@given(
    st.one_of(hook_event.map(json.dumps), st.text(max_size=40)), st.sampled_from([None, "wukong"])
)
def test_hook_event_reader_never_raises(raw, profile):
    try:
        data = parse_event(raw)
    except HookInputError:
        return
    for unit in event_units(data, profile):
        scan_unit(RULES, unit)


# -- anchors ---------------------------------------------------------------------------------------

ANCHOR_PIECES = [
    "## [D001] t", "### [C002] x", "[D003] compact", "- Why: y", "**Decision**: d",
    "**状态**: 生效",
    "<!-- MACHINE_BLOCK_START -->", "<!-- MACHINE_BLOCK_END -->", "<!-- USER_BLOCK_START -->",
    "<!-- USER_BLOCK_END -->", "<!--", "-->", "```", "---", "# 决策", "## Constraints", "|a|b|",
    "", "   ", "\t", "[D001]", "中文", "\r", "\x00",
]  # fmt: skip
anchors_text = st.one_of(
    st.lists(st.one_of(st.sampled_from(ANCHOR_PIECES), st.text(max_size=10)), max_size=25).map(
        "\n".join
    ),
    st.text(max_size=200),
)


@FUZZ
@given(anchors_text)
def test_anchors_parse_and_fmt_never_raise_and_fmt_is_idempotent(text):
    parse_anchors(text)
    once = fmt_text(text)
    if not once.ok:
        return  # fmt refuses a file it cannot format safely (broken markers): nothing written
    twice = fmt_text(once.text)
    assert twice.ok and twice.text == once.text
