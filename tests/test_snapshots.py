"""The hook's start-up snapshots (issues 26/28/32: the hook's median per event): the built-in
rules' records and `re`'s compiled code, kept inside the installed package (protected like
the code) and used only while what they were built from is unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from wukong_lint.engine import loader
from wukong_lint.util import package_snapshot
from wukong_lint.util.errors import RuleError

RULE = """rules:
  - id: team.frob
    category: dangerous-command
    severity: {severity}
    kind: command
    message: Frob
    applies_to: [transcript]
    match: [{{program: [frobnicate]}}]
    docs: A rule.
    examples: {{match: ['frobnicate'], no_match: ['ls']}}
"""


@pytest.fixture()
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A built-in pack of one rule file and a snapshot path, both in a temporary folder."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "frob.yaml").write_text(RULE.format(severity="high"), encoding="utf-8")
    monkeypatch.setattr(loader, "builtin_rules_dir", lambda: str(rules))
    monkeypatch.setattr(package_snapshot, "path", lambda name: str(tmp_path / name))
    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("WUKONG_LINT_NO_SNAPSHOT", raising=False)
    loader._VERIFIED.clear()
    loader._SNAPSHOTS.clear()
    return rules


def _severity(ruleset: object) -> str:
    (rule,) = [r for r in ruleset.rules if r.id == "team.frob"]  # type: ignore[attr-defined]
    from wukong_lint.model import Severity

    return Severity(rule.severity).label


def test_the_snapshot_serves_the_rules_without_reading_a_rule_file(
    pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = loader.load_rules(details=False)
    assert (pack.parent / loader.SNAPSHOT_NAME).is_file()

    def no_reading(states: object) -> list[bytes]:
        raise AssertionError("a rule file was read although the snapshot is current")

    monkeypatch.setattr(loader, "_read_files", no_reading)
    second = loader.load_rules(details=False)
    assert [r.id for r in second.rules] == [r.id for r in first.rules] == ["team.frob"]
    assert _severity(second) == "high"


def test_a_process_reads_the_snapshot_again_only_when_its_file_changes(
    pack: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loads in one process (the in-process hook of a test session) reuse the records of the
    snapshot file they read while it stays the same file; one rewritten since is read."""
    loader.load_rules(details=False)  # (written)
    loader.load_rules(details=False)  # (read, kept)
    real = package_snapshot.load

    def no_reading(name: str, key: object) -> object:
        raise AssertionError("the unchanged snapshot was read again")

    monkeypatch.setattr(package_snapshot, "load", no_reading)
    assert _severity(loader.load_rules(details=False)) == "high"
    monkeypatch.setattr(package_snapshot, "load", real)
    # the same key, other records (what another build of the package would hold)
    key = loader._snapshot_key(loader._rule_file_states(str(pack)))
    (row,) = real(loader.SNAPSHOT_NAME, key)
    package_snapshot.store(loader.SNAPSHOT_NAME, key, [(*row[:2], 1, *row[3:])])
    assert _severity(loader.load_rules(details=False)) == "low"


def test_an_edited_rule_file_is_never_served_from_a_stale_snapshot(pack: Path) -> None:
    loader.load_rules(details=False)
    path = pack / "frob.yaml"
    path.write_text(RULE.format(severity="low"), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert _severity(loader.load_rules(details=False)) == "low"


def test_a_damaged_snapshot_is_ignored(pack: Path) -> None:
    loader.load_rules(details=False)
    snap = pack.parent / loader.SNAPSHOT_NAME
    snap.write_bytes(b"WKSNAP1\n" + b"\x00garbage")
    assert [r.id for r in loader.load_rules(details=False).rules] == ["team.frob"]
    snap.write_bytes(b"not a snapshot")
    assert [r.id for r in loader.load_rules(details=False).rules] == ["team.frob"]


def test_extra_packs_beside_the_snapshot_keep_their_checks(pack: Path, tmp_path: Path) -> None:
    loader.load_rules(details=False)  # (the snapshot written)
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "dup.yaml").write_text(RULE.format(severity="low"), encoding="utf-8")
    with pytest.raises(RuleError, match="duplicate rule id"):
        loader.load_rules((str(extra),), details=False)
    (extra / "dup.yaml").write_text(
        RULE.format(severity="low").replace("team.frob", "team.other"), encoding="utf-8"
    )
    ids = sorted(r.id for r in loader.load_rules((str(extra),), details=False).rules)
    assert ids == ["team.frob", "team.other"]


SCRIPT = textwrap.dedent(
    """
    import re, sys
    from wukong_lint.util import re_snapshot as snap
    snap._path = lambda: sys.argv[1]
    snap.install()
    patterns = [r"(?i)a(?P<x>b)+c", r"^\\s*(?:rm|unlink)\\b", rb"\\x00{2,}"]
    compiled = [re.compile(p) for p in patterns]
    print(sum(1 for p in patterns if (type(p) is str, p, 0) in snap._table and snap._new == 0))
    print(bool(compiled[0].search("xxABbC")), compiled[0].search("xabbc").group("x"),
          bool(compiled[1].match("  rm -rf x")), bool(compiled[2].search(b"a\\x00\\x00")))
    snap.save()
    """
)


def _run(path: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(path)], capture_output=True, text=True, check=True,
        env={**os.environ, "WUKONG_LINT_NO_SNAPSHOT": ""},
    )  # fmt: skip
    return done.stdout.split("\n")


def test_re_snapshot_is_recorded_then_used_with_the_same_matches(tmp_path: Path) -> None:
    path = tmp_path / "re.bin"
    first = _run(path)
    assert first[0] == "0" and path.is_file()  # compiled the ordinary way, then recorded
    second = _run(path)
    assert second[0] == "3"  # every pattern from the snapshot, none compiled again
    assert first[1] == second[1] == "True b True True"


def test_a_re_snapshot_of_another_interpreter_or_damaged_is_ignored(tmp_path: Path) -> None:
    import marshal

    path = tmp_path / "re.bin"
    stale = marshal.dumps(("another python", {(True, "a", 0): marshal.dumps(("a",))}))
    path.write_bytes(package_snapshot._MAGIC + stale)
    assert _run(path)[0] == "0"
    path.write_bytes(b"WKRE1garbage")
    assert _run(path)[1] == "True b True True"


def test_the_decode_gate_from_its_snapshot_is_the_one_computed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from wukong_lint.decode import gate

    monkeypatch.setattr(package_snapshot, "path", lambda name: str(tmp_path / name))
    monkeypatch.delenv("WUKONG_LINT_NO_SNAPSHOT", raising=False)
    words = ("password", "ghp_", "secret")
    built = gate.EncodedKeywords(words)
    assert (tmp_path / gate.SNAPSHOT_NAME).is_file()

    def not_again(keywords: object) -> None:
        raise AssertionError("computed again although the snapshot holds them")

    monkeypatch.setattr(gate, "_forms", not_again)
    stored = gate.EncodedKeywords(words)
    pairs = sorted(zip(stored.patterns, stored.kinds, strict=True))
    assert pairs == sorted(zip(built.patterns, built.kinds, strict=True))
    text = "x = 'cGFzc3dvcmQ9aHVudGVyMg=='"  # base64 of a password assignment
    assert stored.hits(text) and stored.hits(text) == built.hits(text)


def test_a_pattern_compiled_at_the_top_of_a_script_is_compiled_as_usual(tmp_path: Path) -> None:
    """With the snapshot installed, a pattern compiled at the top of a script (the shallowest
    stack a compile can have) compiles and matches as usual."""
    code = (
        "import re, sys\nfrom wukong_lint.util import re_snapshot as snap\n"
        "snap._path = lambda: sys.argv[1]\nsnap.install()\n"
        "print(re.compile('top(x)').match('topx').group(1))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "re.bin")], capture_output=True, text=True,
        env={**os.environ, "WUKONG_LINT_NO_SNAPSHOT": ""}, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == "x", done.stderr
