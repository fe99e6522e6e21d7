"""The skeleton of a Python file (only the functions holding a trigger keyword are parsed) keeps
line numbers, and the Python rules find the same things on it as on the whole file."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wukong_lint.code.python import matcher as code_python
from wukong_lint.code.python.matcher import _line_starts, match_python
from wukong_lint.code.python.skeleton import skeleton
from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Source, Unit

from .python_fixtures import top_level_statements

FIXTURES = Path(__file__).parent / "fixtures" / "code"

MODULE = textwrap.dedent(
    '''\
    """Module docstring."""
    import os
    from subprocess import call as run_it

    QUERY = "SELECT * FROM t WHERE id = "


    @decorator
    def quiet_one(a):
        return a + 1


    def loud(cmd):
        os.system("ls " + cmd)


    class Service(Base):
        name = "svc"

        def idle(self):
            doc = """
    text at column 0 inside a string
    def not_a_function():
    """
            return doc

        @property
        def busy(self, uid):
            cursor.execute(QUERY + uid)


    if __name__ == "__main__":
        loud("x")
    '''
)


def _keyword_ends(text: str, *words: str) -> list[int]:
    ends = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            ends.append(at + len(word) - 1)
            at = text.find(word, at + 1)
    return sorted(ends)


def test_skeleton_keeps_lines_and_only_triggered_functions():
    offsets = _keyword_ends(MODULE, "os.system", "execute")
    shape = skeleton(MODULE, offsets, _line_starts(MODULE))
    kept = shape.text.splitlines()
    original = MODULE.splitlines()
    assert len(kept) == len(original)
    for number, line in enumerate(kept):
        assert line in ("", original[number]), (number, line)  # kept as is or blanked
    assert "def quiet_one" not in shape.text and "@decorator" not in shape.text
    assert "def loud" in shape.text and "def busy" in shape.text and "@property" in shape.text
    assert "def idle" not in shape.text  # a method without a keyword, string and all
    assert "class Service(Base):" in shape.text and 'name = "svc"' in shape.text
    assert "import os" in shape.text and "QUERY =" in shape.text and "__main__" in shape.text
    ast.parse(shape.text)


def test_a_string_at_column_zero_stays_inside_its_function():
    text = 'def f():\n    x = """\ndef g():\n"""\n    return x\n\n\ndef h():\n    eval(y)\n'
    shape = skeleton(text, _keyword_ends(text, "eval("), _line_starts(text))
    ast.parse(shape.text)
    assert "def g" not in shape.text and "eval(y)" in shape.text
    assert shape.text.count("\n") == text.count("\n")


def test_no_keyword_in_a_class_blanks_it_whole():
    text = "class A:\n    def f(self):\n        pass\n\nx = 1\n"
    shape = skeleton(text, [], _line_starts(text))
    assert shape.text == "\n\n\n\nx = 1\n"


def _findings_by_rule(ruleset, relative: str, text: str) -> set[tuple[str, int]]:
    findings, errors = scan_unit(ruleset, Unit(relative, text, Source(kind="file")))
    assert not errors
    return {(f.rule_id, f.line) for f in findings}


def _whole_file_findings(ruleset, relative: str, text: str) -> set[tuple[str, int]]:
    """The same rules with the whole text parsed (no keyword offsets, no skeleton)."""
    unit = Unit(relative, text, Source(kind="file"))
    lowered = text.lower()
    found = set()
    for rule in ruleset.rules:
        if not rule.applies_to_path(relative) or not any(k in lowered for k in rule.keywords):
            continue
        code_python._cache[0] = None
        for hit in match_python(rule, unit, None):
            found.add((rule.id, text.count("\n", 0, hit.start) + 1))
    return found


@pytest.mark.parametrize("path", sorted(p for p in FIXTURES.rglob("*.py")), ids=lambda p: p.name)
def test_rules_find_the_same_on_the_skeleton_as_on_the_whole_file(path: Path):
    ruleset = load_rules().select(lambda r: r.kind == "python")
    relative = path.relative_to(FIXTURES).as_posix()
    text = path.read_text(encoding="utf-8")
    code_python._cache[0] = None
    assert _findings_by_rule(ruleset, relative, text) == _whole_file_findings(
        ruleset, relative, text
    )


def test_the_module_example_finds_the_same_both_ways():
    ruleset = load_rules().select(lambda r: r.kind == "python")
    code_python._cache[0] = None
    with_skeleton = _findings_by_rule(ruleset, "svc.py", MODULE)
    assert ("injection.shell-command", 14) in with_skeleton
    assert ("injection.sql-format", 29) in with_skeleton
    assert with_skeleton == _whole_file_findings(ruleset, "svc.py", MODULE)


SNIPPETS = top_level_statements()
ODD = [
    'HELP = """\nusage: tool [options]\ndef not_code():\n"""\n',
    "class Empty:\n    pass\n",
    "if True:\n    def nested(cmd):\n        os.system(cmd)\n",
    "# a comment at column 0\n",
    "x = (\n1 +\n2)\n",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS + ODD), min_size=1, max_size=12))
def test_random_modules_find_the_same_on_the_skeleton(parts: list[str]):
    ruleset = load_rules().select(lambda r: r.kind == "python")
    text = "import os\nimport subprocess\nfrom flask import Flask, request, jsonify\n\n" + (
        "\n\n".join(parts)
    )
    code_python._cache[0] = None
    assert _findings_by_rule(ruleset, "app.py", text) == _whole_file_findings(
        ruleset, "app.py", text
    )


def test_an_indented_fragment_still_gets_the_line_rules():
    ruleset = load_rules().select(lambda r: r.kind == "python")
    code_python._cache[0] = None
    text = "        cmd = 'ls ' + name\n        os.system(cmd)\n"
    found = _findings_by_rule(ruleset, "fragment.py", text)
    assert ("injection.shell-command", 2) in found


def test_docstrings_are_blanked_but_code_next_to_a_string_is_kept():
    text = '"""Module doc\nwith execute in it."""\nimport os\nQ = """SELECT 1"""\nos.system(x)\n'
    shape = skeleton(text, _keyword_ends(text, "system"), _line_starts(text))
    assert shape.text.startswith("\n\nimport os\n")  # the docstring's two lines, blanked
    assert 'Q = """SELECT 1"""' in shape.text and "os.system(x)" in shape.text
    assert shape.text.count("\n") == text.count("\n")
