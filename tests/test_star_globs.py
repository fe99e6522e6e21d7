"""star_globs.py answers globs of literal text and `*` without regexes: it must agree with
fnmatch.fnmatchcase on every glob and text, including the path rules' own globs, `/` and
newlines under `*`, overlapping prefix and suffix, and globs it hands to fnmatch (`?`, `[`)."""

from __future__ import annotations

import fnmatch
import random

import pytest

from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.rules import _glob
from wukong_lint.util.star_globs import any_glob, star_match

ALPHABET = "ab/.*~\n"


def _reference(patterns, text):
    return any(fnmatch.fnmatchcase(text, p) for p in patterns)


def test_random_star_globs_agree_with_fnmatch():
    rng = random.Random(20261125)
    for _ in range(4000):
        patterns = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 6)))
                    for _ in range(rng.randint(1, 4))]  # fmt: skip
        test = any_glob(patterns)
        for _ in range(6):
            text = "".join(rng.choice("ab/.~\n") for _ in range(rng.randint(0, 8)))
            assert test(text) == _reference(patterns, text), (patterns, text)


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("ab*ba", "aba", False),  # prefix and suffix must not overlap
        ("ab*ba", "abba", True),
        ("a*b*c", "acb", False),
        ("a*b*c", "a/x/b\nc", True),  # `*` crosses `/` and newlines
        ("*", "", True),
        ("", "", True),
        ("", "x", False),
        ("**", "x", True),
        ("~/.ssh/*.pub", "~/.ssh/id.pub", True),
        ("~/.ssh/*.pub", "~/.ssh/id_rsa", False),
        ("*.PEM", "key.pem", False),  # case-sensitive, as fnmatchcase
        ("id_[rd]sa", "id_rsa", True),  # through fnmatch's regex
        ("id_?sa", "id_dsa", True),
        ("[", "[", True),
    ],
)
def test_edge_cases(pattern, text, expected):
    assert any_glob([pattern])(text) is expected
    assert fnmatch.fnmatchcase(text, pattern) is expected
    if "?" not in pattern and "[" not in pattern and "*" in pattern:
        assert star_match(tuple(pattern.split("*")), text) is expected


def test_the_built_in_path_globs_agree_with_fnmatch_on_real_paths():
    rules = load_rules((), details=False).rules
    patterns = sorted(
        {p for r in rules if r.kind == "path" for p in r.params["targets"] + r.params["except"]}
        | {g for r in rules for g in (*r.paths, *r.exclude_paths)}
    )
    assert len(patterns) > 100
    paths = ["~/.ssh/id_rsa", "~/.ssh/id_ed25519.pub", "~/.ssh", "/etc/passwd", "/etc/os-release",
             "~/.aws/credentials", "src/app.py", "tests/fixtures/key.pem", "a/b/.env",
             ".env.example", "service-account-prod.json", "config/service-account.json",
             "node_modules/x/index.js", "docs/guide.md", "/var/log/syslog", "~/.kube/config",
             "Dockerfile", ".github/workflows/ci.yml", "package-lock.json", ""]  # fmt: skip
    for pattern in patterns:
        test = any_glob([pattern])
        for path in [*paths, pattern, pattern.replace("*", "x/y"), pattern.replace("*", "")]:
            assert test(path) == fnmatch.fnmatchcase(path, pattern), (pattern, path)
            base = path.rsplit("/", 1)[-1]
            want = fnmatch.fnmatchcase(path, pattern) or (
                "/" not in pattern and fnmatch.fnmatchcase(base, pattern)
            )
            assert _glob(path, pattern) == want, (pattern, path)


def test_remembered_reach_answers_as_computed_and_stays_bounded():
    """The path rules' glob reasoning is remembered (a session asks the same searches again):
    a remembered answer is the computed one, and the memo never grows past its limit."""
    from wukong_lint.shell import paths

    rules = load_rules((), details=False).rules
    targets = [r.params["targets"] for r in rules if r.kind == "path"]
    accesses = ["~/infra/**/*", "~/**/id_*", "/**/credentials", "src/**/*.py", "~/.ss*/id_*",
                "./**/*.pyc", "~/.aws/*", "*", "/*/**/.env"]  # fmt: skip
    paths._REACHED.clear()
    for _ in range(2):  # the second round is answered from the memo
        for patterns in targets:
            for access in accesses:
                assert paths._reaches(patterns, access) == paths._reached(patterns, access)
    assert 0 < len(paths._REACHED) <= paths._REACHED_LIMIT
    limit = paths._REACHED_LIMIT
    try:
        paths._REACHED_LIMIT = 3
        for n in range(10):
            paths._reaches(["~/.ssh/*"], f"~/p{n}/**/*")
        assert len(paths._REACHED) <= 3
    finally:
        paths._REACHED_LIMIT = limit
        paths._REACHED.clear()
