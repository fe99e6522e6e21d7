"""Where a command runs and what its words name (issue 31, the core classes of the long tail):
cd in every form (builtin/command, `cd -`, pushd/popd's stack, a wrapper's -C, an
interpreter's chdir), temporary-folder variables (quoted, set by a prefix, set outside temp)
and xargs's option forms; and the core classes of the long-tail corpus judged as a whole."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.command_corpus import Case, verdicts
from wukong_lint.shell import dirs
from wukong_lint.shell.parse import parse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))


def _cwd_of(line: str, program: str = "rm") -> str:
    return next(c.cwd for c in parse(line).commands if c.name == program)


@pytest.mark.parametrize(
    ("line", "cwd"),
    [
        ("builtin cd / && rm -rf etc", "/"),
        ("command cd /var; rm -rf log", "/var"),
        ("builtin cd -- /etc && rm x", "/etc"),
        ("command -p cd /usr && rm x", "/usr"),
        ("command -v cd && rm x", "."),  # a lookup: no move
        ("cd /etc && cd /tmp && cd - && rm x", "/etc"),
        ("cd - && rm x", "?"),  # the folder before the line is not known
        ("pushd /etc && pushd /tmp && popd && rm x", "/etc"),
        ("pushd /usr && pushd /tmp && pushd && rm x", "/usr"),  # swaps the top two
        ("popd && rm x", "?"),
        ("(cd /etc); rm x", "."),  # a subshell's cd stays in it
        ("(pushd /etc); popd; rm x", "?"),  # and so does its stack
        ("{ builtin cd /var; rm x; }", "/var"),
    ],
)
def test_the_folder_follows_every_way_to_change_it(line: str, cwd: str) -> None:
    assert _cwd_of(line) == cwd


@pytest.mark.parametrize(
    ("line", "path"),
    [
        ("rm -rf '$TMPDIR/foo'", "./$TMPDIR/foo"),
        ('rm -rf "\\$TMPDIR/x"', "./$TMPDIR/x"),
        ("rm -rf \\$HOME", "./$HOME"),
        ("rm -rf '${TMPDIR}'/cache", "./${TMPDIR}/cache"),
        ('rm -rf "$TMPDIR/x"', "$TMPDIR/x"),  # expanded: the variable
        ("echo '$TMPDIR/x'", "$TMPDIR/x"),  # not a path program: printed as written
        ('TMPDIR=/etc rm -rf "$TMPDIR"/x', dirs.CALLERS_VALUE + "/x"),
        ('TMPDIR=/tmp/wk rm -rf "$TMPDIR"/x', "$TMPDIR/x"),  # a temporary value: still temp
        ('TMPDIR=/srv; rm -rf "$TMPDIR"/x', "/srv/x"),  # set first: the new value
        ("rd /s /q C:\\Users\\dev", "C:\\Users\\dev"),  # a drive path keeps its backslashes
    ],
)
def test_what_a_path_word_names(line: str, path: str) -> None:
    assert parse(line).commands[-1].argv[-1] == path


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("xargs --arg-file=<(echo ~) rm -rf", ("rm", "-rf", "~")),
        ("xargs -0 -a <(printf '/etc\\0') rm -rf", ("rm", "-rf", "/etc")),
        ("find ~ -type f | xargs rm -f", ("rm", "-r", "-f", "~")),  # every file below
        ("env -C / rm -rf etc", ("rm", "-rf", "etc")),
    ],
)
def test_what_xargs_and_wrappers_run(line: str, argv: tuple[str, ...]) -> None:
    assert argv in [c.argv for c in parse(line).commands]


def test_env_chdir_moves_what_it_runs() -> None:
    assert _cwd_of("env -C / rm -rf etc") == "/"
    assert _cwd_of("env --chdir=/usr rm -rf lib") == "/usr"
    assert _cwd_of("env -C / ls; rm -rf etc") == "."  # only what it runs


@pytest.mark.parametrize(
    ("line", "tier"),
    [
        ("builtin cd / && rm -rf etc", "deny"),
        ("cd / && cd /tmp && cd - && rm -rf etc", "deny"),
        ("env -C ~ rm -rf Documents", "deny"),
        ("python3 -c \"import os, shutil; os.chdir('/var'); shutil.rmtree('lib')\"", "deny"),
        ("find ~ -type f -print0 | xargs -0 -P8 shred -u", "deny"),
        ("taskset -c 0 rm -rf /opt", "deny"),
        ('php -r \'array_map("unlink", glob("/etc/*"));\'', "deny"),
        ("python3 -c \"import os, glob; list(map(os.remove, glob.glob('/etc/*')))\"", "deny"),
        ('php -r \'array_map("unlink", glob("build/*.o"));\'', "allow"),
        ("rm -rf '$TMPDIR/foo'", "ask"),
        ("git clean --dry-run --no-dry-run -f", "ask"),
        ("cd /tmp && cd - && rm -rf node_modules", "allow"),
        ("pushd /tmp >/dev/null && rm -rf wk-build && popd", "allow"),
        ('TMPDIR=/tmp/wk rm -rf "$TMPDIR"/cache', "allow"),
        ("rm -rf **/__pycache__", "allow"),
        ("git clean -fdX -- build/", "allow"),
        ("git push -n --mirror backup", "allow"),
        (
            "python3 -c \"import pathlib; [p.unlink() for p in pathlib.Path('.').rglob('*.pyc')]\"",
            "allow",
        ),
    ],
)
def test_verdicts(line: str, tier: str) -> None:
    case = Case(tier, "x", line, 0)
    assert verdicts([case])[case][0] == tier


@pytest.mark.slow
def test_the_core_classes_of_the_long_tail_corpus() -> None:
    from commands_longtail import load  # bench/commands_longtail.py

    cases = load()
    judged = verdicts(cases)
    packs = {c.cls.removeprefix("pack.") for c in cases if c.cls.startswith("pack.")}
    core = [
        c
        for c in cases
        if not c.cls.startswith("pack.")
        and c.cls.removeprefix("safe.").removesuffix("-read") not in packs
    ]
    bad = [c for c in core if c.tier != "allow"]
    safe = [c for c in core if c.tier == "allow"]
    stopped = sum(judged[c][0] != "allow" for c in bad)
    false_stops = sum(judged[c][0] != "allow" for c in safe)
    assert len(bad) > 340 and len(safe) > 300
    assert stopped / len(bad) >= 0.98, f"{stopped}/{len(bad)} destructive commands stopped"
    assert false_stops / len(safe) <= 0.03, f"{false_stops}/{len(safe)} look-alikes stopped"
