"""Rule files: validation errors are one line naming file and rule (exit 2); the cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wukong_lint.cli import main

GOOD = """\
id: custom.internal-token
category: secret
severity: high
kind: regex
message: Internal token
keywords: [itk_]
regex: '\\b(itk_[a-z0-9]{20})\\b'
docs: Internal service token.
examples:
  match: ['x = "itk_a8d7f6g5h4j3k2l1m0n9"']
  no_match: ['x = "itk_short"']
"""


def write_rule(directory: Path, name: str, text: str) -> Path:
    directory.mkdir(exist_ok=True)
    path = directory / name
    path.write_text(text)
    return path


def run_check(tmp_path: Path, rules: Path, capsys) -> tuple[int, str]:
    target = tmp_path / "t.txt"
    target.write_text('x = "itk_a8d7f6g5h4j3k2l1m0n9"\n')
    code = main(["check", str(target), "--rules", str(rules), "--no-builtin-rules"])
    captured = capsys.readouterr()
    return code, captured.err


def test_custom_rule_dir_works(tmp_path: Path, capsys):
    rules = tmp_path / "rules"
    write_rule(rules, "a.yaml", GOOD)
    code, err = run_check(tmp_path, rules, capsys)
    assert code == 1 and err == ""


@pytest.mark.parametrize(
    ("mutation", "expected"),
    [
        (lambda t: t + "colour: blue\n", "unknown key 'colour'"),
        (lambda t: t.replace("[a-z0-9]{20}", "[a-z0-9{20"), "bad regex"),
        (lambda t: t.replace("message: Internal token\n", ""), "missing field 'message'"),
        (lambda t: t.replace("severity: high", "severity: severe"), "severity"),
        (lambda t: t.replace("kind: regex", "kind: magic"), "unknown kind 'magic'"),
        (lambda t: t.replace("category: secret", "category: vibes"), "category"),
        (lambda t: t.replace("  no_match: ['x = \"itk_short\"']\n", ""), "no_match"),
        (lambda t: t + "secret_group: 3\n", "secret_group 3"),
        (lambda t: t + "after_keyword: '[a-z'\n", "after_keyword"),
    ],
)
def test_invalid_rule_is_one_line_error_naming_file_and_rule(tmp_path, capsys, mutation, expected):
    rules = tmp_path / "rules"
    path = write_rule(rules, "bad.yaml", mutation(GOOD))
    code, err = run_check(tmp_path, rules, capsys)
    assert code == 2
    assert err.count("\n") == 1, err
    assert str(path) in err and "custom.internal-token" in err and expected in err


def test_invalid_yaml_and_yaml_aliases(tmp_path, capsys):
    rules = tmp_path / "rules"
    write_rule(rules, "broken.yaml", "id: [unclosed\n")
    code, err = run_check(tmp_path, rules, capsys)
    assert code == 2 and "broken.yaml:" in err and "invalid YAML" in err
    (rules / "broken.yaml").unlink()
    bomb = 'a: &a ["x", "x"]\nb: &b [*a, *a]\nc: &c [*b, *b]\n'
    write_rule(rules, "bomb.yaml", bomb)
    code, err = run_check(tmp_path, rules, capsys)
    assert code == 2 and "aliases are not allowed" in err


def test_duplicate_rule_id(tmp_path, capsys):
    rules = tmp_path / "rules"
    write_rule(rules, "a.yaml", GOOD)
    write_rule(rules, "b.yaml", GOOD)
    code, err = run_check(tmp_path, rules, capsys)
    assert code == 2 and "duplicate rule id" in err and "a.yaml" in err and "b.yaml" in err


def test_catastrophic_regex_is_bounded_and_reported(tmp_path, capsys, monkeypatch):
    from wukong_lint.engine import matchers

    monkeypatch.setattr(matchers, "REGEX_TIMEOUT_BASE", 0.2)
    rules = tmp_path / "rules"
    evil = GOOD.replace("'\\b(itk_[a-z0-9]{20})\\b'", "'itk_(x+x+)+y'").replace(
        "match: ['x = \"itk_a8d7f6g5h4j3k2l1m0n9\"']", "match: ['itk_xxy']"
    )
    write_rule(rules, "evil.yaml", evil)
    target = tmp_path / "t.txt"
    target.write_text("itk_" + "x" * 5000 + "\n")
    code = main(["check", str(target), "--rules", str(rules), "--no-builtin-rules",
                 "--format", "json"])  # fmt: skip
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert code == 2  # the scan is incomplete: fail closed (issue 15)
    assert "timed out" in report["errors"][0]["message"]
    assert "timed out" in captured.err
    code = main(["check", str(target), "--rules", str(rules), "--no-builtin-rules",
                 "--format", "json", "--allow-rule-timeouts"])  # fmt: skip
    assert code == 0 and "timed out" in capsys.readouterr().err


def test_compiled_rules_are_cached_and_hot_path_skips_pydantic(tmp_path):
    env = {**os.environ, "WUKONG_LINT_CACHE_DIR": str(tmp_path / "cache")}
    target = tmp_path / "app.py"
    target.write_text(
        'import os\nGITHUB_TOKEN = "ghp_' + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g" + '"\n'
    )
    probe = (
        "import sys; from wukong_lint.engine.loader import load_rules; "
        "from wukong_lint.engine.scan import scan_unit; "
        "from wukong_lint.sources.files import read_file; "
        "rules = load_rules(); found, _ = scan_unit(rules, read_file(sys.argv[1], 'app.py')); "
        "print(len(rules.rules), len(found), 'pydantic' in sys.modules, 'yaml' in sys.modules, "
        "'regex._regex_core' in sys.modules)"
    )
    command = [sys.executable, "-c", probe, str(target)]
    first = subprocess.run(command, env=env, capture_output=True, text=True)
    second = subprocess.run(command, env=env, capture_output=True, text=True)
    n1, found1, pyd1, _, _ = first.stdout.split()
    n2, found2, pyd2, yaml2, compiler2 = second.stdout.split()
    assert n1 == n2 and int(n1) > 0
    assert found1 == found2 == "1"
    assert pyd1 == "True"  # the first run validated the rules
    # the second one read the rule cache, and built its regexes from the pattern cache
    # without importing the regex compiler
    assert (pyd2, yaml2, compiler2) == ("False", "False", "False")
    names = sorted(p.name.split("-")[0] for p in (tmp_path / "cache").iterdir())
    assert names == ["patterns", "rules"]


def test_cache_is_invalidated_when_a_rule_changes(tmp_path, capsys):
    rules = tmp_path / "rules"
    path = write_rule(rules, "a.yaml", GOOD)
    assert run_check(tmp_path, rules, capsys)[0] == 1
    path.write_text(GOOD.replace("severity: high", "severity: low"))
    os.utime(path, ns=(1, 1))  # a different mtime even on coarse clocks
    assert run_check(tmp_path, rules, capsys)[0] == 0  # low < default fail-on high


def test_cache_is_invalidated_when_a_rule_file_is_added_or_removed(tmp_path, capsys):
    rules = tmp_path / "rules"
    write_rule(rules, "a.yaml", GOOD.replace("severity: high", "severity: low"))
    assert run_check(tmp_path, rules, capsys)[0] == 0
    sub = rules / "more"
    sub.mkdir()
    write_rule(sub, "b.yaml", GOOD.replace("custom.internal-token", "custom.other-token"))
    assert run_check(tmp_path, rules, capsys)[0] == 1  # the new high rule runs
    (sub / "b.yaml").unlink()
    assert run_check(tmp_path, rules, capsys)[0] == 0
    # hidden files and folders are not rule files
    write_rule(rules, ".hidden.yaml", GOOD.replace("custom.internal-token", "custom.x"))
    (rules / ".git").mkdir()
    write_rule(rules / ".git", "c.yaml", GOOD.replace("custom.internal-token", "custom.y"))
    assert run_check(tmp_path, rules, capsys)[0] == 0


def test_scan_reads_rules_without_docs_and_examples_from_one_cache_file(tmp_path, monkeypatch):
    from wukong_lint.engine import loader

    monkeypatch.setenv("WUKONG_LINT_CACHE_DIR", str(tmp_path / "cache"))
    rules = tmp_path / "rules"
    write_rule(rules, "a.yaml", GOOD)

    def load(details: bool):
        (rule,) = loader.load_rules((str(rules),), builtin=False, details=details).rules
        return rule

    # a cache miss: validated, yet a scan's records carry no docs or examples, as on a hit
    miss = load(details=False)
    assert (miss.docs, miss.examples_match, miss.examples_no_match) == ("", (), ())
    first = load(details=True)
    assert first.docs == "Internal service token." and first.examples_match
    slim, full = load(details=False), load(details=True)
    assert slim == miss
    assert (slim.docs, slim.examples_match, slim.examples_no_match) == ("", (), ())
    assert full == first and slim == full._replace(docs="", examples_match=(), examples_no_match=())
    (cache_file,) = (tmp_path / "cache").glob("rules-*.bin")
    data = cache_file.read_bytes()
    # a file cut short, or with another layout, is rebuilt (and rewritten whole)
    for broken in (data[: len(data) - 50], data[:100], b"", b"x" * 500, data[:4] + b"\xff" * 8):
        cache_file.write_bytes(broken)
        assert load(details=True) == first
        assert load(details=False) == slim
        assert cache_file.read_bytes() == data
    # a file of another key (same name, another content) does not count
    other = data.replace(str(rules / "a.yaml").encode(), str(rules / "b.yaml").encode())
    assert other != data
    cache_file.write_bytes(other)
    assert load(details=True) == first
    assert cache_file.read_bytes() == data


def test_rules_show_and_sarif_get_docs_after_a_scan_cached_them_without(tmp_path, capsys):
    rules = tmp_path / "rules"
    write_rule(rules, "a.yaml", GOOD)
    assert run_check(tmp_path, rules, capsys)[0] == 1
    assert run_check(tmp_path, rules, capsys)[0] == 1  # read from the cache, without docs
    assert main(["rules", "show", "custom.internal-token", "--rules", str(rules)]) == 0
    out = capsys.readouterr().out
    assert "Internal service token." in out and "itk_a8d7f6g5h4j3k2l1m0n9" in out
    target = tmp_path / "t.txt"
    code = main(["check", str(target), "--rules", str(rules), "--no-builtin-rules",
                 "--format", "sarif"])  # fmt: skip
    assert code == 1
    sarif = json.loads(capsys.readouterr().out)
    (rule,) = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert "Internal service token." in json.dumps(rule)


def test_rules_test_command_on_user_pack(tmp_path, capsys):
    rules = tmp_path / "rules"
    write_rule(rules, "a.yaml", GOOD)
    assert main(["rules", "test", str(rules)]) == 0
    assert "1 rule tested, 0 problem(s)" in capsys.readouterr().out
    broken = GOOD.replace("itk_short", "itk_b8d7f6g5h4j3k2l1m0n9")  # a no_match that matches
    write_rule(rules, "a.yaml", broken)
    assert main(["rules", "test", str(rules)]) == 1
    assert "should not match" in capsys.readouterr().out


def test_after_keyword_drops_keyword_occurrences_it_does_not_match(tmp_path, capsys):
    """`after_keyword` is matched right after each keyword hit: an occurrence it refuses is
    not searched, one it accepts is."""
    rules = tmp_path / "rules"
    rule = GOOD.replace("keywords: [itk_]", "keywords: ['key']").replace(
        "regex: '\\b(itk_[a-z0-9]{20})\\b'", "regex: 'key\\s*=\\s*\"(itk_[a-z0-9]{20})\"'"
    )
    rule = rule.replace('x = "itk_a8d7f6g5h4j3k2l1m0n9"', 'key = "itk_a8d7f6g5h4j3k2l1m0n9"')
    write_rule(rules, "a.yaml", rule + "after_keyword: '\\s*='\n")
    target = tmp_path / "t.txt"
    target.write_text('key = "itk_a8d7f6g5h4j3k2l1m0n9"\nkeys = "itk_a8d7f6g5h4j3k2l1m0n9"\n')
    args = ["check", str(target), "--rules", str(rules), "--no-builtin-rules", "--format", "json"]
    assert main(args) == 1
    found = json.loads(capsys.readouterr().out)["findings"]
    assert [f["line"] for f in found] == [1]
    write_rule(rules, "a.yaml", rule + "after_keyword: 's'\n")  # refuses `key =`: nothing
    assert main(args) == 0


PATTERN_PROBE = r"""
import sys
from wukong_lint.engine import patterns
wanted = [r"\bitk_[a-z0-9]{20}\b", r"ab+c"]
patterns.prepare(wanted, sys.argv[1])
first, second = (patterns.compile_pattern(p) for p in wanted)
assert first.search("x itk_a8d7f6g5h4j3k2l1m0n9 y") and not first.search("itk_short")
assert second.search("xabbbc") and not second.search("ac")
print("regex._regex_core" in sys.modules)
"""


def test_pattern_cache_entries_decode_on_use_and_a_bad_entry_is_recompiled(tmp_path):
    import marshal

    cache = tmp_path / "cache"
    command = [sys.executable, "-c", PATTERN_PROBE, str(cache)]

    def run() -> str:
        proc = subprocess.run(command, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    assert run() == "True"  # recorded with the compiler
    assert run() == "False"  # built from the cache, no compiler
    (path,) = cache.glob("patterns-*.bin")
    key, stored = marshal.loads(path.read_bytes())
    assert all(isinstance(v, bytes) for v in stored.values())
    stored[r"ab+c"] = b"not marshal data"
    path.write_bytes(marshal.dumps((key, stored)))
    assert run() == "True"  # the bad entry compiled the ordinary way, correctly
    path.write_bytes(b"garbage")
    assert run() == "True"
    assert run() == "False"  # and the file was written again


def test_cache_file_names_do_not_depend_on_the_hash_seed(tmp_path):
    """A cache file's name comes from a checksum of its key that must be the same in every
    process (str hashes are randomised per process; int hashes are not)."""
    key = "3:id,...\n" + "".join(f"/rules/r{i}.yaml|{i * 37}|{i * 10**9}\n" for i in range(300))
    probe = (
        "import sys; from wukong_lint.engine.patterns import checksum; "
        "print(checksum(sys.stdin.read()))"
    )
    names = set()
    for seed in ("0", "1", "12345", "random"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run([sys.executable, "-c", probe], input=key, env=env,
                              capture_output=True, text=True)  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        names.add(proc.stdout.strip())
    assert len(names) == 1 and len(names.pop()) == 8
    from wukong_lint.engine.patterns import checksum

    changed = {checksum(key.replace("|370|", f"|{n}|")) for n in range(371, 400)}
    assert len(changed) == 29 and checksum(key) not in changed  # a one-field change renames
