"""Bounded memory and time on adversarial inputs (issue 15): what one input can cost is
measured in a fresh process (`ru_maxrss`), with generous bounds; no timing asserts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).parent.parent

MB = 1 << 20


def run_python(code: str, *args: str, cwd: Path | None = None) -> dict:
    """Run `code` in a fresh interpreter; it prints one JSON object as its last line."""
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd or PROJECT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


PREFILTER_PEAK = """
import json, resource, sys
from wukong_lint.engine.loader import load_rules
rules = load_rules()
prefilter = rules.prefilter()
kind = sys.argv[1]
size = int(sys.argv[2])
unit = {"a": "A", "bracket": "[", "pass": "pass", "mixed": "pAsS[aA"}[kind]
text = unit * (size // len(unit))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
hits = prefilter.hits(text)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
stored = sum(len(v) for v in hits.values() if v)
print(json.dumps({"growth_kb": after - before, "stored": stored, "rules": len(hits)}))
"""


def test_prefilter_keeps_a_window_per_run_of_one_keyword():
    """A run of one character (base64 zeros) or of one keyword (`passpass…`) hits a keyword
    at every position: the hits of one run collapse to its first and last, so the prefilter's
    memory stays a small multiple of the text (one hit per character cost 2 GB for 10 MB)."""
    size = MB
    for kind in ("a", "mixed"):
        found = run_python(PREFILTER_PEAK, kind, str(size))
        # the lower-cased copy of the text is 1x; one 64K slice's raw hits ~25 MB at most
        assert found["growth_kb"] * 1024 < 2 * size + 40 * MB, (kind, found)
        assert found["stored"] < 1000, (kind, found)  # a few per 64K slice, or none: "search all"
        assert found["rules"] >= 1  # the keywords still reach their rules


TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"


def nested(root: Path, depth: int) -> Path:
    """`root` with `depth` folders nested in one another (one-letter names: the deepest path
    stays under PATH_MAX); the deepest one returned. Made level by level through folder
    descriptors (os.makedirs recurses, and long paths cost the kernel a lookup per level)."""
    os.mkdir(root)
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)
    return root.joinpath(*["d"] * depth)


def remove_tree(root: Path) -> None:
    """Delete a deeply nested tree (shutil.rmtree, and pytest's clean-up of old temporary
    folders with it, recurse once per level): the subtree under each top folder is moved up
    next to it, so that every step works on short paths."""
    stack = [root]
    while stack:
        folder = stack.pop()
        for entry in list(os.scandir(folder)):
            if entry.is_dir(follow_symlinks=False):
                moved = root.parent / f".{root.name}-{len(stack)}-{entry.name}-{id(entry)}"
                os.rename(entry.path, moved)
                stack.append(moved)
            else:
                os.unlink(entry.path)
        os.rmdir(folder)


@pytest.fixture
def deep_tmp(tmp_path):
    """A folder for deep trees: in memory when /dev/shm is there (deleting 2,000 nested
    folders costs seconds on a disk), removed at the end either way."""
    import tempfile

    shm = "/dev/shm"
    base = Path(tempfile.mkdtemp(dir=shm)) if os.access(shm, os.W_OK) else tmp_path / "deep-tmp"
    base.mkdir(exist_ok=True)
    yield base
    remove_tree(base)


def test_folder_walks_are_iterative(deep_tmp, monkeypatch, capsys):
    """2,000 nested folders: a recursive walk ends in a RecursionError (Python's limit is
    1,000 frames); the folder scan, the anchors file search and a rule pack's walk go on."""
    from wukong_lint.cli import main

    tmp_path = deep_tmp
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # a plain folder: walked
    root = tmp_path / "deep"
    deepest = nested(root, 2000)
    (deepest / "leak.env").write_text(f"GITHUB_TOKEN={TOKEN}\n")
    (deepest / "notes.md").write_text("# notes\n\n[D001] a decision that nobody defined\n")
    (root / "top.txt").write_text("nothing here\n")
    code = main(["check", "--jobs", "1", "--format", "json", "--select", "secret", str(root)])
    report = json.loads(capsys.readouterr().out)
    assert code == 1, report
    assert report["stats"]["files"] == 3
    assert [f["path"].split("/").count("d") for f in report["findings"]] == [2000]
    assert main(["anchors", "fmt", "--check", str(root)]) in (0, 1)
    assert "Traceback" not in capsys.readouterr().err
    pack = nested(tmp_path / "pack", 1500)
    (pack / "rule.yaml").write_text(
        "id: custom.deep\ncategory: secret\nseverity: high\nkind: regex\nmessage: deep\n"
        "keywords: [deep_]\nregex: 'deep_[0-9]{8}'\ndocs: A rule far down a pack.\n"
        "examples:\n  match: ['deep_12345678']\n  no_match: ['deep_1']\n"
    )
    assert main(["rules", "test", str(tmp_path / "pack")]) == 0
    assert "1 rule tested, 0 problem(s)." in capsys.readouterr().out


def write_rule(folder: Path, name: str, regex: str, keywords: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.yaml").write_text(
        f"id: custom.{name}\ncategory: secret\nseverity: high\nkind: regex\nmessage: {name}\n"
        f"keywords: [{keywords}]\nregex: '{regex}'\ndocs: A rule a repository brings along.\n"
        "examples:\n  match: ['aab']\n  no_match: ['b']\n"
    )
    return folder


def test_a_regex_bomb_in_a_rule_pack_is_refused_before_it_compiles(tmp_path, capsys):
    """`(?:a{60000}){60000}` from a repository's rule-dirs asked the regex compiler for 24 GB;
    it is measured first and refused with the usual one-line rule error (exit 2)."""
    from wukong_lint.cli import main

    pack = write_rule(tmp_path / "pack", "bomb", "(?:a{60000}){60000}", "aab")
    target = tmp_path / "a.txt"
    target.write_text("aab\n")
    (tmp_path / ".wukong-lint.yaml").write_text(f"rule-dirs: [{pack}]\n")
    code = main(["check", "--config", str(tmp_path / ".wukong-lint.yaml"), str(target)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "bomb.yaml" in err and "regex too large" in err and "internal error" not in err


def test_regex_size_estimate():
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.regex_budget import MAX_UNITS, expanded_size

    assert expanded_size("(?:a{60000}){60000}") > 10**9
    assert expanded_size("(?:a{1,600}){1,600}") < 10  # optional repeats are loops
    assert expanded_size("[{]{3}\\p{L}{2}x{") == 7  # 3 + 2 + x + a literal brace
    rules = load_rules().rules
    largest = max(expanded_size(p) for r in rules for p in (r.regex, r.after_keyword) if p)
    assert largest < MAX_UNITS // 20  # the built-in rules stay far below the limit


def test_a_rule_that_keeps_timing_out_is_disabled_and_fails_the_run(tmp_path, capsys, monkeypatch):
    """A pathological custom regex: after three time-outs the rule is not run again in the
    scan, and the run exits 2 (it is incomplete) unless --allow-rule-timeouts."""
    from wukong_lint.cli import main
    from wukong_lint.engine import matchers

    monkeypatch.setattr(matchers, "REGEX_TIMEOUT_BASE", 0.05)
    monkeypatch.setattr(matchers, "REGEX_TIMEOUT_PER_MB", 0.0)
    pack = write_rule(tmp_path / "pack", "slow", "(?:a|aa)+(?:a|aa)+b", "aaaa")
    files = tmp_path / "files"
    files.mkdir()
    for n in range(6):
        (files / f"f{n}.txt").write_text("a" * 30000 + "\n")
    argv = ["check", "--jobs", "1", "--rules", str(pack), "--select", "custom.slow", str(files)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("timed out") == 3, err
    assert "disabled for the rest of the scan" in err
    assert err.strip().splitlines()[-1].startswith("wukong-lint: error: 3 rule time-out(s)")
    assert main([*argv, "--allow-rule-timeouts"]) == 0
    assert capsys.readouterr().err.count("timed out") == 3  # still reported, as warnings


@pytest.mark.slow
def test_a_corrupted_regex_cache_is_detected_and_rebuilt(tmp_path):
    """The compiled-regex cache feeds code lists straight to the regex module's C engine
    (a changed byte crashed or hung it): each entry's checksum is checked first, a corrupt
    file is deleted and rebuilt by the next run, and the findings stay the same."""
    import marshal
    import os as _os

    cache = tmp_path / "cache"
    env = {**_os.environ, "WUKONG_LINT_CACHE_DIR": str(cache)}
    target = tmp_path / "app.py"
    target.write_text(f'TOKEN = "{TOKEN}"\nurl = "postgres://app:Hq2mZ7xK4pLw@db.acme.io/x"\n')

    def check() -> tuple[int, str]:
        proc = subprocess.run(
            [sys.executable, "-m", "wukong_lint", "check", "--format", "json", str(target)],
            capture_output=True, text=True, env=env, timeout=120, check=False,
        )  # fmt: skip
        assert proc.stderr == "", proc.stderr
        rules = [(f["rule_id"], f["line"]) for f in json.loads(proc.stdout)["findings"]]
        return proc.returncode, json.dumps(rules)

    clean = check()
    assert clean[0] == 1 and "secret.github-pat" in clean[1]
    (path,) = cache.glob("patterns-*.bin")
    key, stored = marshal.loads(path.read_bytes())
    for damage in ("flip", "truncate"):
        if damage == "flip":  # a byte of every entry's code list changed
            bad = {
                p: blob[:-3] + bytes([blob[-3] ^ 0x5A]) + blob[-2:] for p, blob in stored.items()
            }
            path.write_bytes(marshal.dumps((key, bad)))
        else:
            path.write_bytes(marshal.dumps((key, stored))[:5000])
        assert check() == clean, damage
        assert not path.exists() or damage == "truncate"  # a corrupt entry: the file goes
        assert check() == clean
        assert len(list(cache.glob("patterns-*.bin"))) == 1  # rebuilt
        path = next(cache.glob("patterns-*.bin"))


def anchors_file(count: int, seed: int = 3) -> str:
    """An anchors file of `count` full-form decisions in shuffled order (fmt sorts them, so
    the --check diff touches most of the file), with repeated boilerplate lines."""
    import random

    rng = random.Random(seed)
    numbers = list(range(1, count + 1))
    rng.shuffle(numbers)
    parts = ["# 锚点 (Anchors)\n\n## 决策 (Decisions)\n"]
    for n in numbers:
        parts.append(
            f"\n## [D{n:04d}] decision number {n} about module {rng.randrange(50)}\n\n"
            f"**Status**: 生效\n**Date**: 2024/1/{1 + n % 28}\n\n"
            "### Decision (决策)\nuse the shared client\n\n### Alternatives (备选)\n- none\n\n"
            f"### Why (为什么)\nreason {rng.randrange(1000)}\n\n### Impact (影响)\n- small\n\n"
            "### Verification (验证)\n- tests\n\n### Rollback (回滚)\n- revert\n"
        )
    return "".join(parts)


def test_anchors_fmt_check_diff_is_near_linear_and_applies(tmp_path, monkeypatch, capsys):
    """`anchors fmt --check` printed difflib's diff: quadratic (406 s for 5 MB). The diff of
    linediff.py on a ~1 MB file that fmt reorders throughout is a valid unified diff: applied
    to the file it gives exactly what `anchors fmt` writes."""
    import shutil

    from wukong_lint.anchors.linediff import opcodes
    from wukong_lint.cli import main

    monkeypatch.chdir(tmp_path)
    text = anchors_file(4000)
    assert len(text.encode()) > 1_000_000
    Path("anchors.md").write_text(text)
    assert main(["anchors", "fmt", "--check", "anchors.md"]) == 1
    diff = capsys.readouterr().out
    assert diff.startswith("--- a/anchors.md\n+++ b/anchors.md\n@@ ")
    assert Path("anchors.md").read_text() == text  # --check writes nothing
    assert main(["anchors", "fmt", "anchors.md"]) == 0
    formatted = Path("anchors.md").read_text()
    if shutil.which("patch"):
        Path("copy.md").write_text(text)
        Path("d.diff").write_text(diff)
        proc = subprocess.run(["patch", "-s", "copy.md", "d.diff"], capture_output=True)
        assert proc.returncode == 0, proc.stderr
        assert Path("copy.md").read_text() == formatted
    # the opcodes cover both sides in order, and equal stretches are equal
    a, b = text.splitlines(True), formatted.splitlines(True)
    i = j = 0
    for tag, i1, i2, j1, j2 in opcodes(a, b):
        assert (i1, j1) == (i, j)
        assert tag != "equal" or a[i1:i2] == b[j1:j2]
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))


def secrets_log(lines: int, seed: int = 11) -> str:
    """A log with secrets of several kinds every few hundred lines, a multi-line private key
    among them and a value on the line after its name (a two-line match)."""
    import random
    import string

    rng = random.Random(seed)

    def rand(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
        return "".join(rng.choice(alphabet) for _ in range(n))

    out = []
    for n in range(lines):
        kind = rng.randrange(60)
        if kind == 0:
            out.append(f"deploy token ghp_{rand(36)} used\n")
        elif kind == 1:
            body = "\n".join(rand(64, string.ascii_letters + "+/") for _ in range(6))
            out.append(f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\n")
        elif kind == 2:
            out.append(f"AKIA{rand(16, string.ascii_uppercase + '234567')} in request {n}\n")
        else:
            out.append(f"2024-05-01 12:00:{n % 60:02d} INFO served /api/items?id={n} in 3 ms\n")
    return "".join(out)


def test_big_files_are_read_in_parts_with_the_findings_of_a_whole_read(
    tmp_path, monkeypatch, capsys
):
    """A file over the limit is read in parts that overlap (sources/chunked.py). With tiny
    parts, so that many secrets and private keys straddle a boundary, the findings (rule,
    line, column, snippet) and the counted bytes are those of one whole read."""
    from wukong_lint.cli import main
    from wukong_lint.sources import chunked, dispatch

    path = tmp_path / "big.log"
    path.write_text(secrets_log(6000))
    argv = ["check", "--jobs", "1", "--format", "json", "--select", "secret", str(path)]

    def findings() -> tuple[list, dict]:
        assert main(argv) == 1
        report = json.loads(capsys.readouterr().out)
        keys = [(f["rule_id"], f["line"], f["column"], f["snippet"]) for f in report["findings"]]
        return keys, report["stats"]

    whole, whole_stats = findings()
    assert len(whole) > 150 and any(k[0] == "secret.private-key" for k in whole)
    monkeypatch.setattr(dispatch, "WHOLE_FILE_LIMIT", 20_000)
    monkeypatch.setattr(chunked, "CHUNK_BYTES", 16_384)
    monkeypatch.setattr(chunked, "CHUNK_OVERLAP", 4_096)
    parts, parts_stats = findings()
    assert parts == whole
    assert parts_stats["files"] == whole_stats["files"] == 1
    assert parts_stats["bytes"] == whole_stats["bytes"] == path.stat().st_size
    assert parts_stats["units"] > 20


def test_a_sparse_file_of_many_gigabytes_is_never_loaded_whole(tmp_path):
    """Text, then a hole of 4 GB: the first part is scanned (its secret found), the hole is
    binary data and ends the read with an error (exit 2 is the fail-closed contract of an
    unscanned input: the report says what was not read); memory stays that of a part."""
    path = tmp_path / "sparse.log"
    with open(path, "wb") as handle:
        handle.write(f"token = {TOKEN}\n".encode() + b"x = 1\n" * 2_000_000)
        handle.truncate(4 << 30)
    code = f"""
import json, resource, sys
from wukong_lint.cli import main
code = main(["check", "--jobs", "1", "--format", "json", "-o", "{tmp_path}/r.json", "{path}"])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"code": code, "peak_kb": peak}}))
"""
    found = run_python(code)
    report = json.loads((tmp_path / "r.json").read_text())
    assert found["code"] == 1
    assert [f["rule_id"] for f in report["findings"]] == ["secret.github-pat"]
    assert "binary data from byte" in report["errors"][0]["message"]
    assert found["peak_kb"] < 400 * 1024, found  # a part is 8 MB; the file 4 GB


def test_one_file_out_of_memory_never_aborts_the_others(tmp_path):
    """Under an address-space limit a 30 MB file cannot be read and indexed: it is reported
    as not scanned, and the file after it (with a secret) is still scanned."""
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "a.txt").write_text(("lorem ipsum dolor sit amet " * 4 + "\n") * 280_000)
    (folder / "z.py").write_text(f"t = '{TOKEN}'\n")
    code = f"""
import contextlib, io, json, resource
from wukong_lint.cli import main
with contextlib.redirect_stdout(io.StringIO()):  # warm up: rules loaded, caches built
    main(["check", "--jobs", "1", "--format", "json", "{folder}/z.py"])
status = open("/proc/self/status").read().split("VmSize:")[1].split()[0]
limit = int(status) * 1024 + 24 * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(["check", "--jobs", "1", "--format", "json", "{folder}"])
report = json.loads(out.getvalue())
print(json.dumps({{"code": code, "paths": [f["path"] for f in report["findings"]],
                  "errors": report["errors"]}}))
"""
    found = run_python(code)
    assert found["code"] == 2  # an input not scanned: fail closed (--allow-skipped: 1)
    assert found["paths"] == [f"{folder}/z.py"]
    assert found["errors"] == [
        {"path": f"{folder}/a.txt", "message": "out of memory: not scanned (or not to the end)"}
    ]
