#!/usr/bin/env python3
"""The GitHub Action's step (action.yml runs this file; tests run it with a simulated
GITHUB_* environment and event file). Standard library only.

What is scanned, by event:

- pull_request / pull_request_target: every commit of the pull request (`--diff
  BASE...HEAD`: the commits reachable from its head and not from its base), fetching what a
  shallow checkout lacks (both commits, then deeper history until the merge base is found).
  The configuration, its `rule-dirs` and the baseline are read from the BASE commit (a
  checkout of it in a temporary git worktree, where the scan runs): a pull request cannot
  turn its own scan off. What it changes in them is reported by the scan itself
  (`dangerous-command.weakened-scanning`).
- push: every commit the push brings. An existing branch: `BEFORE..AFTER`. A new branch
  (`before` all zeros) or a force push whose old commit is gone: the commits of AFTER that
  are not on the default branch (`DEFAULT...AFTER`); the first push of the default branch
  itself: its whole history. A deleted branch: nothing (no commit was pushed).
- merge_group (a merge queue): the commits the queue adds on top of its base, `--diff
  BASE_SHA..HEAD_SHA` from the event's `merge_group`, like a push; the configuration is read
  from BASE_SHA, as for a pull request (a queued pull request cannot turn its scan off).
- schedule, workflow_dispatch: the checked-out tree (every tracked and untracked file),
  once; the `scan: tree` input does the same on any event.
- any other event (release, workflow_run, issue_comment...), no event name, or an event file
  without what its event must hold: an error (exit 2), never a guess at what to scan.

Each scan runs twice (JSON for the exit code, annotations and job summary; SARIF for code
scanning), both writing outside the workspace, so a tree scan never reads a report of this
step; the SARIF file is moved to INPUT_SARIF_FILE at the end. INPUT_ARGS goes to
`wukong-lint check` as it is: a misspelt option or rule name is exit 2, and the step fails.

Annotations stay within GitHub's limits (10 error, 10 warning and 10 notice annotations per
step, 50 per job): the most severe findings first, and a notice saying how many more there
are. The job summary (GITHUB_STEP_SUMMARY, at most 1 MiB per step) has the counts by
severity and the top findings, masked as in every report.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

# git's argv and environment are built where the tool builds its own (the action's source
# is beside this script): the checked-out repository's config and the job's GIT_* variables
# can make no git command here run a program; only `git fetch` may use the network.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from wukong_lint.util import gitproc

ZERO = "0" * 40
PER_KIND = 10  # annotations GitHub shows per step, per kind (error, warning, notice)
TOP = 30  # findings listed in the job summary
SUMMARY_LIMIT = 900_000  # bytes: GitHub refuses a step summary over 1 MiB
SEVERITIES = ("critical", "high", "medium", "low")
KIND = {"critical": "error", "high": "error", "medium": "warning", "low": "notice"}
# git of this script never runs repository-controlled programs (gitproc's hardening: no
# hooks, which worktree add would run as post-checkout, no fsmonitor...), no LFS downloads
# or prompts while checking out the base
GIT_ENV = {"GIT_LFS_SKIP_SMUDGE": "1", "GIT_TERMINAL_PROMPT": "0"}
# events without commits of their own: the checked-out tree is scanned
TREE_EVENTS = ("schedule", "workflow_dispatch")
MERGE_GROUP_DEPTH = 10  # history first fetched for a merge group (deepened until it meets)


def git(*args: str, check: bool = True, cwd: str | None = None) -> subprocess.CompletedProcess:
    fetch = args[0] == "fetch"
    if args[0] == "worktree":  # a checkout: no smudge/process filter the config names
        args = (*gitproc.filter_overrides(cwd), *args)
    return subprocess.run(
        gitproc.argv(args, fetch=fetch),
        capture_output=True,
        text=True,
        check=check,
        cwd=cwd,
        env={**gitproc.environment(fetch=fetch), **GIT_ENV},
    )


def object_id(value: object, what: str) -> str:
    """A commit id from the event file, checked: it goes on git's command lines (`git fetch
    origin SHA`), where `--upload-pack=CMD` would be an option that runs a program."""
    text = value if isinstance(value, str) else ""
    if len(text) not in (40, 64) or text.strip("0123456789abcdef"):
        raise ValueError(f"the event's {what} is not a commit id: {str(value)[:80]!r}")
    return text


def has_commit(sha: str) -> bool:
    return git("cat-file", "-e", f"{sha}^{{commit}}", check=False).returncode == 0


def fetch(*refs: str, depth: int | None = None, deepen: int | None = None) -> None:
    args = ["fetch", "--no-tags", "--quiet"]
    if depth:
        args.append(f"--depth={depth}")
    if deepen:
        args.append(f"--deepen={deepen}")
    git(*args, "origin", *refs, check=False)


def is_shallow() -> bool:
    return git("rev-parse", "--is-shallow-repository", check=False).stdout.strip() == "true"


def unshallow() -> None:
    if is_shallow():
        git("fetch", "--no-tags", "--quiet", "--unshallow", "origin", check=False)


def find_merge_base(base: str, head: str, hint: int) -> bool:
    """Deepen a shallow clone until `base` and `head` have a merge base."""
    deepen = max(hint + 1, 10)
    for _ in range(8):
        if git("merge-base", base, head, check=False).returncode == 0:
            return True
        if not is_shallow():
            return False
        fetch(base, head, deepen=deepen)
        deepen *= 2
    return git("merge-base", base, head, check=False).returncode == 0


def pull_request_range(base: str, head: str, commits: int) -> str:
    for sha, depth in ((head, commits + 1), (base, 1)):
        if not has_commit(sha):
            fetch(sha, depth=depth)
    if find_merge_base(base, head, commits):
        return f"{base}...{head}"
    unshallow()  # unrelated histories: every commit of head that base lacks
    print("::warning title=wukong-lint::no merge base found; scanning base..head")
    return f"{base}..{head}"


def new_branch_target(after: str, event: dict) -> list[str]:
    """The commits of a new branch that are not on the default branch."""
    default = (event.get("repository") or {}).get("default_branch") or ""
    if not has_commit(after):
        fetch(after, depth=2)
    if not default or event.get("ref") == f"refs/heads/{default}":
        unshallow()  # the default branch itself is new: all of its history
        return ["--history"]
    tracking = f"refs/remotes/origin/{default}"
    fetch(f"+refs/heads/{default}:{tracking}", depth=1)
    tip = git("rev-parse", "--verify", "--quiet", f"{tracking}^{{commit}}", check=False)
    if tip.returncode != 0:
        unshallow()
        print(f"::warning title=wukong-lint::cannot fetch {default}; scanning all history")
        return ["--history"]
    default_sha = tip.stdout.strip()
    commits = len(event.get("commits") or ()) or 1
    if find_merge_base(default_sha, after, commits):
        return ["--diff", f"{default_sha}...{after}", "--allow-empty-range"]
    unshallow()
    return ["--diff", f"{default_sha}..{after}", "--allow-empty-range"]


def push_target(event: dict) -> list[str] | None:
    before = object_id(event.get("before") or ZERO, "before")
    after = object_id(event.get("after") or ZERO, "after")
    if event.get("deleted") or after == ZERO:
        return None
    if before != ZERO:
        if not has_commit(before):
            fetch(before, depth=1)
        if has_commit(before):
            if not has_commit(after):
                fetch(after, depth=len(event.get("commits") or ()) + 1)
            # a fast-forward: the commits between; a force push: those of the new history
            find_merge_base(before, after, len(event.get("commits") or ()) or 1)
            return ["--diff", f"{before}..{after}"]
    return new_branch_target(after, event)


def merge_group_range(base: str, head: str) -> str:
    """The commits of a merge group: those of HEAD_SHA that BASE_SHA lacks (actions/checkout
    fetches only the group's head: its base and the history between are fetched here)."""
    for sha in (head, base):
        if not has_commit(sha):
            fetch(sha, depth=MERGE_GROUP_DEPTH)
    if not find_merge_base(base, head, MERGE_GROUP_DEPTH):
        unshallow()  # no common history found: every commit of head that base lacks
    return f"{base}..{head}"


def read_event() -> tuple[str, dict]:
    name = os.environ.get("GITHUB_EVENT_NAME", "")
    path = os.environ.get("GITHUB_EVENT_PATH")
    event: dict = {}
    if path and os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            event = json.load(handle)
    if not isinstance(event, dict):
        raise ValueError(f"the event file {path} holds no JSON object")
    return name, event


class Plan:
    def __init__(self, target: list[str] | None, trusted: str | None = None) -> None:
        self.target = target  # `check` arguments; None: nothing to scan
        self.trusted = trusted  # the commit whose configuration is used (pull requests)


def plan() -> Plan:
    name, event = read_event()
    if name in ("pull_request", "pull_request_target"):
        # without its pull request the event cannot say what to scan, nor which config to
        # trust: an error, never a scan of the tree with the pull request's own config
        pr = event.get("pull_request")
        if not isinstance(pr, dict):
            raise ValueError(f"the {name} event has no pull_request object")
        base = object_id((pr.get("base") or {}).get("sha"), "pull_request.base.sha")
        head = object_id((pr.get("head") or {}).get("sha"), "pull_request.head.sha")
        spec = pull_request_range(base, head, int(pr.get("commits") or 1))
        return Plan(["--diff", spec], trusted=base)
    if name == "merge_group":
        group = event.get("merge_group")
        if not isinstance(group, dict):
            raise ValueError("the merge_group event has no merge_group object")
        base = object_id(group.get("base_sha"), "merge_group.base_sha")
        head = object_id(group.get("head_sha"), "merge_group.head_sha")
        return Plan(["--diff", merge_group_range(base, head)], trusted=base)
    if name == "push":
        if not event.get("after"):
            raise ValueError("the push event has no 'after' commit")
        return Plan(push_target(event))
    if name in TREE_EVENTS:
        return Plan(["."])
    raise UnsupportedEvent(name)


class UnsupportedEvent(Exception):
    """An event whose commits the Action cannot tell: it says so rather than guess."""

    def __init__(self, name: str) -> None:
        what = f"the event {name!r}" if name else "no event (GITHUB_EVENT_NAME is not set)"
        known = ", ".join(
            ("pull_request", "pull_request_target", "push", "merge_group", *TREE_EVENTS)
        )
        super().__init__(
            f"{what} is not supported: wukong-lint scans {known}; set the input "
            "`scan: tree` to scan the checked-out tree on it"
        )


def base_worktree(sha: str, folder: str) -> str:
    """A checkout of the trusted commit, where the scan runs: its config, rule-dirs and
    baseline are found there (the objects, and so the range, are the same repository's)."""
    path = os.path.join(folder, "base")
    proc = git("worktree", "add", "--detach", "--force", path, sha, check=False)
    if proc.returncode != 0:
        reason = (proc.stderr.strip().splitlines() or ["git worktree add failed"])[-1]
        raise RuntimeError(f"cannot check out the base commit {sha[:12]}: {reason}")
    return path


def tracked(path: str) -> bool:
    return git("ls-files", "--error-unmatch", "--", path, check=False).returncode == 0


def set_output(name: str, value: str) -> None:
    target = os.environ.get("GITHUB_OUTPUT")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(f"{name}={value}\n")


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(kind: str, message: str, **props: object) -> str:
    fields = ",".join(f"{k}={escape_property(str(v))}" for k, v in props.items() if v is not None)
    return f"::{kind}{' ' + fields if fields else ''}::{escape_data(message)}"


def active(report: dict) -> list[dict]:
    """Findings that are not suppressed, most severe first (then as the report orders them)."""
    found = [f for f in report.get("findings", []) if not f.get("suppressed")]
    return sorted(found, key=lambda f: SEVERITIES.index(f.get("severity", "low")))


def annotations(report: dict) -> list[str]:
    lines, shown, hidden = [], {"error": 0, "warning": 0, "notice": 0}, 0
    items = [(KIND[f["severity"]], f) for f in active(report)]
    items += [("warning", {"error": e}) for e in report.get("errors", [])]
    for kind, finding in items:
        if shown[kind] >= PER_KIND:
            hidden += 1
            continue
        shown[kind] += 1
        if "error" in finding:
            error = finding["error"]
            lines.append(
                annotation("warning", error["message"], file=error["path"], title="wukong-lint")
            )
            continue
        message = f"{finding['message']} [{finding['severity']}]"
        commit = (finding.get("source") or {}).get("commit")
        if commit:  # a range scan: the line may be gone from the head since
            message += f" in commit {commit[:12]}"
        if finding.get("snippet"):
            message += f"\n{finding['snippet']}"
        props: dict[str, object] = {}
        if finding["path"] != ".":  # the change as a whole: no file
            props = {
                "file": finding["path"],
                "line": finding["line"],
                "endLine": max(finding["line"], finding.get("end_line") or 0),
                "col": finding["column"],
            }
        lines.append(annotation(kind, message, **props, title=finding["rule_id"]))
    if hidden:
        if shown["notice"] >= PER_KIND:  # room for the note: one notice less
            lines.pop(max(i for i, line in enumerate(lines) if line.startswith("::notice")))
            hidden += 1
        lines.append(
            annotation(
                "notice",
                f"{hidden} more finding(s) are not annotated (GitHub shows {PER_KIND} per "
                "kind per step): see the job summary and the SARIF report",
                title="wukong-lint",
            )
        )
    return lines


def _cell(text: str, limit: int = 160) -> str:
    """Text for a Markdown table cell: one line, no pipes or HTML."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _code(text: str) -> str:
    text = _cell(text).replace("`", "'")
    return f"`{text}`" if text else ""


def summary(report: dict, what: str, code: int, fail_on: str) -> str:
    findings = active(report)
    stats = report.get("stats", {})
    verdict = {0: "passed", 1: "failed"}.get(code, "error")
    out = [
        f"## wukong-lint: {verdict}",
        "",
        f"Scanned {_code(what)}: {stats.get('files', 0)} file(s), "
        f"{stats.get('suppressed', 0)} suppressed finding(s); fails on {fail_on or 'the config'}.",
        "",
        "| severity | findings |",
        "|---|---|",
    ]
    for severity in SEVERITIES:
        out.append(f"| {severity} | {sum(1 for f in findings if f['severity'] == severity)} |")
    if findings:
        out += ["", f"### Top findings ({min(TOP, len(findings))} of {len(findings)})", ""]
        out += ["| severity | rule | location | commit | snippet |", "|---|---|---|---|---|"]
        for f in findings[:TOP]:
            where = f["path"] if f["path"] == "." else f"{f['path']}:{f['line']}"
            commit = ((f.get("source") or {}).get("commit") or "")[:12]
            out.append(
                f"| {f['severity']} | {_code(f['rule_id'])} {_cell(f['message'], 100)} | "
                f"{_code(where)} | {_code(commit)} | {_code(f.get('snippet') or '')} |"
            )
    if report.get("errors"):
        out += ["", f"### Not scanned ({len(report['errors'])})", ""]
        out += [f"- {_code(e['path'])}: {_cell(e['message'])}" for e in report["errors"][:TOP]]
    text = "\n".join(out) + "\n"
    if len(text.encode("utf-8")) > SUMMARY_LIMIT:
        text = text.encode("utf-8")[:SUMMARY_LIMIT].decode("utf-8", "ignore") + "\n…\n"
    return text


def write_summary(text: str) -> None:
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(text)


def jie_report(report: dict, fail_on: str) -> tuple[str, str] | None:
    """With INPUT_JIE (en | zh): the 戒关检查 report of the scan (seed 004's 输出格式) as
    Markdown, and the file it was written to (INPUT_JIE_FILE, default in RUNNER_TEMP) for a
    pull-request comment body. Rendered from the JSON report by the action's own source."""
    lang = os.environ.get("INPUT_JIE", "").strip().lower()
    if lang in ("", "off", "false", "no"):
        return None
    if lang not in ("en", "zh"):
        raise ValueError(f"jie: expected off, en or zh, got {lang!r}")
    from wukong_lint.report.jie import from_json, render

    text = render(from_json(report), lang=lang, fail_on=fail_on or "high")
    target = os.environ.get("INPUT_JIE_FILE", "").strip() or os.path.join(
        os.environ.get("RUNNER_TEMP") or tempfile.gettempdir(), "wukong-lint-jie.md"
    )
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(text)
    return text, target


def run_tool(tool: list[str], args: list[str], cwd: str) -> tuple[int, str]:
    proc = subprocess.run([*tool, *args], cwd=cwd, capture_output=True, text=True)
    sys.stderr.write(proc.stderr)  # warnings and errors, for the log
    return proc.returncode, proc.stderr


def fail(message: str, stderr: str = "") -> int:
    last = (stderr.strip().splitlines() or [message])[-1]
    print(f"::error title=wukong-lint::{escape_data(last)}")
    write_summary(f"## wukong-lint: error\n\n{_cell(last, 2000)}\n\nNothing was reported.\n")
    set_output("exit-code", "2")
    return 2


def main() -> int:
    tool = shlex.split(os.environ.get("WUKONG_LINT", "wukong-lint"))
    try:
        extra = shlex.split(os.environ.get("INPUT_ARGS", ""))
    except ValueError as err:
        return fail(f"args: {err}")
    fail_on = os.environ.get("INPUT_FAIL_ON", "").strip()
    sarif = os.environ.get("INPUT_SARIF_FILE", "").strip() or "wukong-lint.sarif"
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if workspace:
        os.chdir(workspace)
    sarif = os.path.abspath(sarif)
    mode = os.environ.get("INPUT_SCAN", "").strip() or "auto"
    if mode not in ("auto", "tree"):
        return fail(f"scan: {mode!r} is not auto or tree")
    try:
        todo = Plan(["."]) if mode == "tree" else plan()
    except UnsupportedEvent as err:
        return fail(str(err))
    if todo.target is None:
        print("wukong-lint: the push deleted a branch: no commit to scan")
        write_summary("## wukong-lint: nothing to scan\n\nThe push deleted a branch.\n")
        set_output("exit-code", "0")
        return 0
    if "." in todo.target and os.path.isfile(sarif) and not tracked(sarif):
        os.remove(sarif)  # an earlier run's report (a kept workspace): rewritten below
    print(f"wukong-lint: scanning {' '.join(todo.target)}", flush=True)
    scratch = tempfile.mkdtemp(prefix="wukong-lint-", dir=os.environ.get("RUNNER_TEMP"))
    cwd = os.getcwd()
    try:
        if todo.trusted:
            try:
                cwd = base_worktree(todo.trusted, scratch)
            except RuntimeError as err:
                return fail(str(err))
            print(f"wukong-lint: configuration from the base commit {todo.trusted[:12]}")
        report_path = os.path.join(scratch, "report.json")
        common = ["check", *todo.target, *extra]
        fail_args = ["--fail-on", fail_on] if fail_on else []
        code, err = run_tool(
            tool, [*common, "--format", "json", "-o", report_path, *fail_args], cwd
        )
        if code not in (0, 1):
            return fail("wukong-lint could not scan", err)
        with open(report_path, encoding="utf-8") as handle:
            report = json.load(handle)
        sarif_tmp = os.path.join(scratch, "report.sarif")
        second, err = run_tool(tool, [*common, "--format", "sarif", "-o", sarif_tmp], cwd)
        if second not in (0, 1):
            return fail("wukong-lint could not write SARIF", err)
        os.makedirs(os.path.dirname(sarif), exist_ok=True)
        shutil.move(sarif_tmp, sarif)
        for line in annotations(report):
            print(line)
        found = len(active(report))
        print(f"wukong-lint: {found} finding(s); exit code {code}")
        text = summary(report, " ".join(todo.target), code, fail_on)
        jie = jie_report(report, fail_on)
        if jie is not None:
            text += "\n" + jie[0]
            set_output("jie-file", jie[1])
        write_summary(text)
        rel = os.path.relpath(sarif, workspace) if workspace else sarif
        set_output("sarif-file", rel)
        set_output("exit-code", str(code))
        return code
    finally:
        if cwd != os.getcwd():
            git("worktree", "remove", "--force", cwd, check=False)
        shutil.rmtree(scratch, ignore_errors=True)


def run() -> int:
    """main(), with a broken event file or environment as one error line, never a traceback."""
    try:
        return main()
    except (AttributeError, KeyError, TypeError, ValueError, OSError) as err:
        return fail(f"cannot run the scan: {type(err).__name__}: {err}")


if __name__ == "__main__":
    sys.exit(run())
