"""Issue 26, "caches are never a source of policy": the compiled rule cache is keyed by the
rule files' content and checked against what the files declare on every load (a rewritten
cache with a valid key is rebuilt, with a note); a rule set with fewer rules than the files
declare is an error; command blocks never take their regexes from the compiled-code cache;
a cache folder moved elsewhere (WUKONG_LINT_CACHE_DIR) gets the same checks."""

from __future__ import annotations

import marshal
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from wukong_lint.engine import loader
from wukong_lint.engine.rule_declarations import check, declared_count, layout
from wukong_lint.engine.validate import compile_file
from wukong_lint.util.errors import RuleError

ENABLED = loader._ENABLED_AT


@pytest.fixture(autouse=True, scope="module")
def _compile_each_rule_pack_once() -> Iterator[None]:
    """The tests below poison the rule cache and watch the loader notice it and rebuild it
    from the rule files: each rebuild compiled every built-in YAML file again (~2 s of CPU,
    seven times in this file). The YAML compiler's output for the same files (by content) is
    kept for the module: the rebuilds still go through the loader's detection, rebuild and
    cache write, and the compiler itself is checked by the first test here and elsewhere."""
    real = loader.validate_files
    memo: dict[tuple[tuple[str, bytes], ...], list] = {}

    def validate_once(files: list[str]) -> list:
        key = tuple((path, Path(path).read_bytes()) for path in files)
        if key not in memo:
            memo[key] = real(files)
        return list(memo[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loader, "validate_files", validate_once)
        yield


def test_every_built_in_rule_file_is_read_as_the_compiler_reads_it() -> None:
    """The cheap reader agrees with the YAML compiler on each built-in file: a valid cache
    is never taken for a rewritten one (which would rebuild it on every run)."""
    states = loader._rule_file_states(loader.builtin_rules_dir())
    for (path, _, _), data in zip(states, loader._read_files(states), strict=True):
        rows = [rule.to_data() for rule in compile_file(path)]
        assert declared_count(data) == len(rows), path
        assert check(data, rows, ENABLED) == (len(rows), None), path


PACK = """rules:
  - id: team.one
    category: dangerous-command
    severity: high
    kind: command
    message: One
    applies_to: [transcript]
    match: [{program: [frobnicate]}]
    docs: |
      A rule.
        - id: not.a.rule
      severity: low
    examples: {match: ['frobnicate'], no_match: ['ls']}

  - id: team.two
    message: Two
    kind: command
    # keys in another order, a quoted value, a comment
    severity: 'medium'  # asks
    category: "dangerous-command"
    enabled: false
    match: [{program: [frob2]}]
    docs: Another.
    examples: {match: ['frob2'], no_match: ['ls']}
"""


def test_declarations_of_both_layouts_and_unknown_ones(tmp_path: Path) -> None:
    pack = tmp_path / "pack.yaml"
    pack.write_text(PACK)
    rows = [rule.to_data() for rule in compile_file(str(pack))]
    data = PACK.encode()
    assert check(data, rows, ENABLED) == (2, None)
    single = b"id: x.y\ncategory: secret\nseverity: low\nkind: regex\nregex: a\n"
    assert declared_count(single) == 1
    assert declared_count(b"rules:\n  - {id: a.b, category: secret}\n") == 0  # flow: not read
    assert layout(b"rules:\n  - message: x\n    id: a.b\n  - id: c.d\n") is None
    lowered = [(*row[:2], 1, *row[3:]) for row in rows]
    assert "severity" in (check(data, lowered, ENABLED)[1] or "")
    switched = [(*row[:ENABLED], True, *row[ENABLED + 1 :]) for row in rows]
    assert "enabled" in (check(data, switched, ENABLED)[1] or "")
    assert "1 rules cached, 2 declared" in (check(data, rows[:1], ENABLED)[1] or "")
    renamed = [("team.other", *rows[0][1:]), rows[1]]
    assert "not declared" in (check(data, renamed, ENABLED)[1] or "")


def _cache_files() -> list[Path]:
    return sorted(Path(os.environ["WUKONG_LINT_CACHE_DIR"]).glob("rules-*.bin"))


def _rewrite(path: Path, keep) -> None:  # type: ignore[no-untyped-def]
    """What the corpus's attack does: rewrite the records of a cache file, its key kept."""
    blob = path.read_bytes()
    size = int.from_bytes(blob[4:12], "little")
    key, rows = marshal.loads(blob[12 : 12 + size])
    _, extra = marshal.loads(blob[12 + size :])
    pairs = [keep(row, more) for row, more in zip(rows, extra, strict=True)]
    pairs = [p for p in pairs if p is not None]
    head = marshal.dumps((key, [p[0] for p in pairs]))
    tail = marshal.dumps((key, [p[1] for p in pairs]))
    path.write_bytes(blob[:4] + len(head).to_bytes(8, "little") + head + tail)


@pytest.mark.parametrize(
    "rewrite",
    [
        lambda row, more: None if row[1] in ("dangerous-command", "sensitive-path")
        else (row, more),
        lambda row, more: ((*row[:2], 1, *row[3:]), more),
        lambda row, more: ((*row[:ENABLED], False, *row[ENABLED + 1:]), more),
        lambda row, more: ((*row[:1], "anchor", *row[2:]), more),
        lambda row, more: ((row[0] + "-x", *row[1:]), more),
    ],
    ids=["rules-removed", "all-low", "all-off", "category-moved", "ids-renamed"],
)  # fmt: skip
def test_a_rewritten_rule_cache_is_rebuilt(rewrite) -> None:  # type: ignore[no-untyped-def]
    expected = {(r.id, r.severity, r.enabled, r.category) for r in loader.load_rules().rules}
    loader.INTEGRITY_NOTES.clear()
    for path in _cache_files():
        _rewrite(path, rewrite)
    rules = loader.load_rules().rules
    assert {(r.id, r.severity, r.enabled, r.category) for r in rules} == expected
    assert loader.INTEGRITY_NOTES and "rebuilt" in loader.INTEGRITY_NOTES[0]
    loader.INTEGRITY_NOTES.clear()
    loader.load_rules()  # the rebuilt file verifies
    assert loader.INTEGRITY_NOTES == []


def test_fewer_rules_than_declared_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "rules.yaml").write_text(PACK)
    real = loader.validate_files
    monkeypatch.setattr(loader, "validate_files", lambda files: real(files)[:-1])
    with pytest.raises(RuleError, match="rule files declare"):
        loader.load_rules((str(pack),), builtin=False)


def test_the_cache_key_is_the_content_not_the_times(tmp_path: Path) -> None:
    """A rule file changed in place with its size and times kept is never served stale."""
    pack = tmp_path / "pack"
    pack.mkdir()
    path = pack / "rules.yaml"
    path.write_text(PACK)
    assert loader.load_rules((str(pack),), builtin=False).rules[0].severity == 3
    st = path.stat()
    path.write_text(PACK.replace("severity: high", "severity: crit".replace("crit", "low ")))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size
    assert loader.load_rules((str(pack),), builtin=False).rules[0].severity == 1


def test_command_blocks_do_not_use_the_compiled_code_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A block regex comes from the (verified) rule alone: the `regex` module's compiled
    code, cached in a folder an agent can write, never decides a command's verdict."""
    from wukong_lint.engine import patterns
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model.events import Context, call_event, make_unit
    from wukong_lint.shell import commands

    def refuse(pattern: str) -> None:
        raise AssertionError(f"compiled from the cache: {pattern}")

    monkeypatch.setattr(patterns, "compile_pattern", refuse)
    monkeypatch.setattr(commands, "compile_pattern", refuse)
    monkeypatch.setattr(commands, "_COMPILED", {})
    ctx = Context("generic", False, {}, "/home/dev/acme")
    event, text = call_event(ctx, 1, "Bash", {"command": "rm -rf ~/"}, None, "main", None, True)
    rules = loader.load_rules(details=False)
    found = [f for f in scan_unit(rules, make_unit("<hook>", event, text))[0]
             if f.category == "dangerous-command"]  # fmt: skip
    assert [f.rule_id for f in found] == ["dangerous-command.rm-rf-root"]


def test_a_cache_folder_elsewhere_gets_the_same_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WUKONG_LINT_CACHE_DIR set by an agent's settings `env` to a folder it controls: the
    caches there are checked like any other."""
    folder = tmp_path / "agent-controlled"
    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", str(folder))
    count = len(loader.load_rules().rules)
    for path in folder.glob("rules-*.bin"):
        _rewrite(path, lambda row, more: (row, more) if row[1] == "anchor" else None)
    loader.INTEGRITY_NOTES.clear()
    assert len(loader.load_rules().rules) == count
    assert loader.INTEGRITY_NOTES
    loader.INTEGRITY_NOTES.clear()
