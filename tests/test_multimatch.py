"""The Hyperscan path (engine/multimatch.py) finds exactly what the pure path finds.

Hyperscan only tells which regex rules cannot match a text, so that they are not run: the
translation of a rule's pattern must match at least what `regex` matches. Checked on the
translation itself, on every rule's own examples, and by scanning every secret fixture and
generated corpus the suite has with the database forced on and off.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from wukong_lint.engine import multimatch
from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import tally
from wukong_lint.sources.dispatch import units_for_files

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"(?|a(b)|c(d))", ("(?:a(b)|c(d))", "")),
        (r"(?P<q>['\"])x(?P=q)", (r"(?:['\"])x(?:['\"])", "")),
        (r"[A-Z]{20,40}", ("[A-Z]{8,}", "")),
        (r"x{,5}y{3}z{2,}?", ("x{0,}y{3,}z{2,}?", "")),
        (r"a{b}", (r"a\{b\}", "")),
        (r"(?i)key=(?s:.)", ("key=(?s:.)", "i")),
        (r"[\]{}(]x", (r"[\]{}(]x", "")),
        (r"\(?|x", (r"\(?|x", "")),
        ("(?x) a [ #]+ # note\n b{1,60}+ (?<k>c)(?>d)", ("a[ #]+b{1,}(?:c)(?:d)", "")),
    ],
)
def test_translation_widens_and_keeps_the_syntax(pattern: str, expected: tuple[str, str]):
    assert multimatch.translate(pattern) == expected


@pytest.mark.parametrize(
    "pattern", [r"\Atoken", r"token\Z", r"(a)\1", r"a(?x) b", r"(?(1)a|b)", r"\p{L}", r"(a"]
)
def test_patterns_whose_meaning_could_differ_stay_on_regex(pattern: str):
    assert multimatch.translate(pattern) is None


# (hyperscan is no dependency: engine/multimatch.py's DEFAULT_ON says why; with it installed
# these run, and the translation tests above always do)
needs_hyperscan = pytest.mark.skipif(
    importlib.util.find_spec("hyperscan") is None, reason="the hyperscan package is not installed"
)


@pytest.fixture
def forced(monkeypatch, tmp_path):
    """Rule sets made now use the database from their first text (its own cache folder)."""
    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", str(tmp_path / "cache"))

    def make(on: bool):
        monkeypatch.setenv(multimatch.ENV, "1" if on else "0")
        rules = load_rules(details=False)
        return rules.select(lambda r: r.enabled and r.category == "secret")

    return make


@needs_hyperscan
def test_every_rule_example_the_regex_matches_is_reported_by_the_database(forced):
    ruleset = forced(True)
    details = load_rules()
    database = ruleset.multimatch()
    assert database is not None
    # most secret regex rules run on Hyperscan (the rest: rules.list says which)
    assert len(database.covered) >= 0.9 * sum(1 for r in ruleset.rules if r.kind == "regex")
    checked = 0
    for index in database.covered:
        rule = ruleset.rules[index]
        pattern = rule.pattern()
        for example in details.by_id[rule.id].examples_match:
            if not example.isascii() or pattern.search(example) is None:
                continue
            assert index in database.matching(example.encode()), (rule.id, "example")
            checked += 1
    assert checked >= 150


def _files(root: Path) -> list[tuple[str, str]]:
    return [
        (str(p), str(p.relative_to(root)))
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    ]


def _findings(ruleset, files: list[tuple[str, str]]) -> list[tuple]:
    result = tally(ruleset, units_for_files(files))
    assert not [e for e in result.errors if "timed out" in e.message]
    return sorted(
        (f.path, f.line, f.column, f.rule_id, f.fingerprint, f.snippet, f.message, f.severity)
        for f in result.findings
    )


def _corpora(tmp_path: Path) -> list[Path]:
    """Every tree of secrets the suite has: its fixtures and the generated corpora."""
    sys.path.insert(0, str(BENCH))
    try:
        from corpora.secrets import corpus, dotfiles, provider_shapes
    finally:
        sys.path.remove(str(BENCH))
    corpus.generate(str(tmp_path / "corpus"), 7, files=150, mb=1.5)
    dotfiles.generate(5, str(tmp_path / "dotfiles"), copies=1)
    shapes = tmp_path / "shapes"
    shapes.mkdir()
    import random

    rng = random.Random(3)
    for rule, make in sorted(provider_shapes.POS.items()):
        lines = [make(rng) for _ in range(5)]
        if rule in provider_shapes.NEG:
            lines += [provider_shapes.NEG[rule](rng) for _ in range(5)]
        (shapes / f"{rule}.txt").write_text("\n".join(lines) + "\n")
    return [ROOT / "tests" / "fixtures", ROOT / "examples", tmp_path]


@needs_hyperscan
@pytest.mark.slow
def test_the_hyperscan_path_finds_what_the_pure_path_finds(forced, tmp_path):
    trees = _corpora(tmp_path / "gen")
    files = [f for tree in trees for f in _files(tree)]
    on = forced(True)
    assert on.multimatch() is not None
    with_db = _findings(on, files)
    off = forced(False)
    without = _findings(off, files)
    assert off.multimatch() is None
    assert len(without) > 300
    assert with_db == without


@needs_hyperscan
def test_a_corrupt_cache_file_is_rebuilt_not_used(forced, tmp_path):
    ruleset = forced(True)
    assert ruleset.multimatch() is not None
    cache = tmp_path / "cache"
    (path,) = cache.glob("hyperscan-*.bin")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    again = forced(True)
    database = again.multimatch()  # (compiled again: the file did not verify)
    assert database is not None
    assert database.matching(b"token = ghp_" + b"a1B2" * 9) is not None
    assert path.read_bytes() != bytes(data)


def test_off_and_unavailable_say_why(monkeypatch):
    monkeypatch.setenv(multimatch.ENV, "0")
    assert multimatch.engine_status().startswith("regex (off")
    monkeypatch.setenv(multimatch.ENV, "")
    if not multimatch.DEFAULT_ON:
        assert multimatch.engine_status().startswith("regex (hyperscan off by default")
    monkeypatch.setenv(multimatch.ENV, "1")
    installed = importlib.util.find_spec("hyperscan") is not None
    assert multimatch.engine_status().startswith("hyperscan " if installed else "regex (hyper")
    monkeypatch.setitem(sys.modules, "hyperscan", None)  # an import that fails
    assert multimatch.engine_status().startswith("regex (hyperscan unavailable")
    assert os.environ.get(multimatch.ENV) == "1"
