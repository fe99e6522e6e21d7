#!/usr/bin/env python3
# ruff: noqa: E501  (report strings read better unwrapped)
"""wukong-lint's injection and info-leak rules beside bandit, on the same Python trees.

    python bench/bandit_compare.py                      # generated samples: dev (seed 1) and held-out (seed 2, more variants)
    python bench/bandit_compare.py --tree PATH [--tree PATH ...]   # also real code (extra reports only)

bandit (pinned, BANDIT_VERSION) is installed into bench/out/bandit-venv, never into the
project's dependencies. Both tools scan the same tree: `bandit -r -f json` and `wukong-lint
check TREE --format json --select injection --select info-leak` (with a config that honours
`# nosec` as bandit does, `allow-comments: [bandit]`, and
GIT_CEILING_DIRECTORIES above the tree, so that a tree inside this repository's git-ignored
bench/out/ is walked as a plain folder).

What is compared (issue 5's verification point):

- recall: of bandit's reports with severity AND confidence medium or high whose test is in
  scope (MAPPING), the share that wukong-lint reports with a corresponding rule in the same
  file on a nearby line (bandit's line range, or up to 3 lines before it: bandit puts B608 on
  the line of the SQL string, wukong-lint on the line of the call that runs it).
- extra reports: wukong-lint's findings (.py files only, bandit reads nothing else) with no
  bandit report of a corresponding test, at any severity or confidence, in the same file
  from 15 lines before to 3 lines after (bandit reports a query built in one statement and run
  in the next at the string). Rules with no bandit counterpart (tracebacks, exception text,
  os.environ, file contents in responses, DEBUG = True, render_template_string) are all
  extra by construction and listed apart. On the generated samples each extra is classified
  with the labels (a labelled vulnerable line is a true report); on real code they are listed
  for a reader.

Scope (MAPPING): B608 (SQL built by formatting), B610/B611 (Django extra/RawSQL), B602/B604/B605/
B609 (shell), B307/B102 (eval/exec), B308/B703/B704 (mark_safe/Markup), B701 (Jinja2 autoescape),
B201 (Flask debug). Out of scope, by issue 5's definitions: B702 (Mako templates), B603/B606/
B607/B404 (processes without a shell, partial paths, imports), every non-injection test
(pickle, yaml.load, hashes, TLS, temp files, passwords, ...), and reports of eval/exec/
mark_safe/Markup whose argument is a literal string, or a variable the function binds only to
literals (issue 14's constant tracking) (nothing from outside reaches it; the issue
defines these rules for non-constant input).

Writes bench/out/bandit-compare.json (every figure, every miss and extra report).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
VENV = OUT / "bandit-venv"
BANDIT_VERSION = "1.9.4"

sys.path.insert(0, str(BENCH))
from corpora.code import vulnerable_samples  # noqa: E402

SHELL = ("injection.shell-command", "injection.shell-constant")
MARK = ("injection.mark-safe",)
MAPPING: dict[str, tuple[str, ...]] = {
    "B608": ("injection.sql-format",),
    "B610": ("injection.sql-format",),
    "B611": ("injection.sql-format",),
    "B602": SHELL,
    "B604": SHELL,
    "B605": SHELL,
    "B609": SHELL,
    "B307": ("injection.eval",),
    "B102": ("injection.eval",),
    "B308": MARK,
    "B703": MARK,
    "B704": MARK,
    "B701": ("injection.jinja2-autoescape",),
    "B201": ("info-leak.debug-server",),
}
# tests whose report on a call with a literal first argument is out of scope
LITERAL_OK = {
    "B307": {"eval"},
    "B102": {"exec"},
    "B308": {"mark_safe"},
    "B703": {"mark_safe"},
    "B704": {"Markup"},
}
# label checks (vulnerable_samples.py) -> rule ids
CHECK_RULES = {
    "sql": "injection.sql-format",
    "shell": "injection.shell-command",
    "shell-constant": "injection.shell-constant",
    "eval": "injection.eval",
    "mark-safe": "injection.mark-safe",
    "jinja2-autoescape": "injection.jinja2-autoescape",
    "template-string": "injection.template-string",
    "exception-text": "info-leak.exception-text",
    "traceback": "info-leak.traceback",
    "environment": "info-leak.environment",
    "file-contents": "info-leak.file-contents",
    "debug-setting": "info-leak.debug-setting",
    "debug-server": "info-leak.debug-server",
}
MEDIUM_UP = ("MEDIUM", "HIGH")
RECALL_WINDOW = 3
EXTRA_WINDOW = (15, 3)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def ensure_bandit() -> Path:
    exe = VENV / "bin" / "bandit"
    py = VENV / "bin" / "python"
    if exe.exists():
        version = subprocess.run([str(exe), "--version"], capture_output=True, text=True).stdout
        if BANDIT_VERSION in version:
            return exe
    log(f"[bandit] installing bandit=={BANDIT_VERSION} into {VENV.relative_to(ROOT)}")
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run(
        [str(py), "-m", "pip", "install", "--quiet", f"bandit=={BANDIT_VERSION}"], check=True
    )
    return exe


def tree_signature(tree: Path) -> list[int]:
    count = size = 0
    for path in tree.rglob("*.py"):
        if path.is_file() and not path.is_symlink():
            count += 1
            size += path.stat().st_size
    return [count, size]


def run_bandit(tree: Path, name: str, cache: bool) -> tuple[list[dict], float]:
    """bandit's results with paths relative to the tree (cached per tree for real code)."""
    cached = OUT / f"bandit-{name}.json"
    signature = tree_signature(tree)
    if cache and cached.exists():
        data = json.loads(cached.read_text())
        if data.get("signature") == signature and data.get("version") == BANDIT_VERSION:
            return data["results"], data["seconds"]
    exe = ensure_bandit()
    raw = OUT / f"bandit-{name}-raw.json"
    log(f"[bandit] scanning {tree} ({signature[0]} .py files, {signature[1] / 1e6:.1f} MB)")
    started = time.perf_counter()
    proc = subprocess.run(
        [str(exe), "-r", "-q", "-f", "json", "-o", str(raw), str(tree)],
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        raise SystemExit(f"bandit exited {proc.returncode}: {proc.stderr[-2000:]}")
    results = []
    for r in json.loads(raw.read_text())["results"]:
        rel = os.path.relpath(r["filename"], tree)
        results.append(
            {
                "path": rel.replace(os.sep, "/"),
                "line": r["line_number"],
                "range": [
                    min(r.get("line_range") or [r["line_number"]]),
                    max(r.get("line_range") or [r["line_number"]]),
                ],
                "test": r["test_id"],
                "name": r["test_name"],
                "severity": r["issue_severity"],
                "confidence": r["issue_confidence"],
                "text": r["issue_text"],
            }
        )
    cached.write_text(
        json.dumps(
            {
                "signature": signature,
                "version": BANDIT_VERSION,
                "seconds": seconds,
                "results": results,
            }
        )
    )
    return results, seconds


def run_wukong(tree: Path) -> tuple[list[dict], float]:
    config = OUT / "bandit-compare-config.yaml"
    config.write_text("allow-comments: [bandit]\n")  # bandit honours `# nosec`; so do we, here
    report = OUT / "bandit-compare-wukong.json"
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(tree.resolve().parent)}
    started = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "wukong_lint",
            "check",
            ".",
            "--format",
            "json",
            "-o",
            str(report),
            "--config",
            str(config),
            "--select",
            "injection",
            "--select",
            "info-leak",
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        raise SystemExit(f"wukong-lint exited {proc.returncode}: {proc.stderr[-2000:]}")
    findings = []
    for f in json.loads(report.read_text())["findings"]:
        path = f["path"].removeprefix("./")
        if not path.endswith(".py"):
            continue
        findings.append(
            {
                "path": path,
                "line": f["line"],
                "rule": f["rule_id"],
                "severity": f["severity"],
                "snippet": f["snippet"],
            }
        )
    return findings, seconds


def literal_call(tree: Path, result: dict, parsed: dict[str, ast.AST | None]) -> bool:
    """Whether every call of the test's function on the report's line has a literal argument."""
    names = LITERAL_OK.get(result["test"])
    if not names:
        return False
    path = result["path"]
    if path not in parsed:
        try:
            parsed[path] = ast.parse((tree / path).read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, ValueError):
            parsed[path] = None
    module = parsed[path]
    if module is None:
        return False
    calls = [
        node
        for node in ast.walk(module)
        if isinstance(node, ast.Call)
        and getattr(node, "lineno", 0) == result["line"]
        and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in names
    ]
    return bool(calls) and all(c.args and _constant(c.args[0], c, module) for c in calls)


def _scope_of(call: ast.Call, module: ast.AST) -> ast.AST:
    """The innermost function holding the call, or the module for module-level code."""
    functions = [
        f
        for f in ast.walk(module)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        and f.lineno <= call.lineno <= (f.end_lineno or 0)
    ]
    return min(functions, key=lambda f: (f.end_lineno or 0) - f.lineno) if functions else module


def _own_nodes(scope: ast.AST):
    """The nodes of a scope, not those of the functions (and classes) inside it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _constant(node: ast.AST, call: ast.AST, module: ast.AST, line: int | None = None) -> bool:
    """Issue 14's constant, told independently of the rules: a literal (string or number), a
    name that its scope (the function around the call, or the module for module-level code)
    has bound, before `line` (the call's), only to constants, and that is no parameter; and
    `+`, `%`, f-strings, `.format()`, `.join()`, `textwrap.dedent()`, `compile()` of constants
    (a list or tuple of them too)."""
    line = call.lineno if line is None else line

    def const(sub: ast.AST) -> bool:
        return _constant(sub, call, module, line)

    if isinstance(node, ast.Constant):
        return isinstance(node.value, (str, bytes, int, float)) or node.value is None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return const(node.left) and const(node.right)
    if isinstance(node, ast.IfExp):
        return const(node.body) and const(node.orelse)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(const(e) for e in node.elts)
    if isinstance(node, ast.JoinedStr):
        return all(const(v.value) for v in node.values if isinstance(v, ast.FormattedValue))
    if isinstance(node, ast.Call):
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        values = [*node.args, *(k.value for k in node.keywords)]
        if name == "compile":
            return bool(node.args) and const(node.args[0])
        if name in ("dedent", "cleandoc", "str"):
            return bool(values) and all(const(v) for v in values)
        if name in ("format", "join") and isinstance(node.func, ast.Attribute):
            return const(node.func.value) and all(const(v) for v in values)
        return False
    if not isinstance(node, ast.Name):
        return False
    scope = _scope_of(call, module)
    arguments = getattr(scope, "args", None)
    if arguments is not None and node.id in {
        a.arg for a in ast.walk(arguments) if isinstance(a, ast.arg)
    }:
        return False
    bindings: list[tuple[int, ast.AST | None]] = []
    for own in _own_nodes(scope):
        if isinstance(own, (ast.Global, ast.Nonlocal)) and node.id in own.names:
            return False
        if not isinstance(own, ast.stmt) and not isinstance(own, ast.NamedExpr):
            continue
        if own.lineno >= line or (own.end_lineno or own.lineno) >= line:
            continue  # bound after the use (or by the statement that holds it)
        if isinstance(own, ast.Assign):
            targets, value = own.targets, own.value
        elif isinstance(own, (ast.AnnAssign, ast.AugAssign)):
            targets, value = [own.target], own.value
        elif isinstance(own, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
            targets = [getattr(own, "target", None)] + [
                i.optional_vars for i in getattr(own, "items", [])
            ]
            value = None
        else:
            continue
        names = {
            n.id for t in targets if t is not None for n in ast.walk(t) if isinstance(n, ast.Name)
        }
        if node.id in names:
            bindings.append((own.lineno, value))
    return bool(bindings) and all(
        value is not None and _constant(value, call, module, at) for at, value in bindings
    )


def compare(tree: Path, name: str, labels: dict | None, cache: bool) -> dict:
    bandit, bandit_seconds = run_bandit(tree, name, cache)
    ours, our_seconds = run_wukong(tree)
    parsed: dict[str, ast.AST | None] = {}
    by_file: dict[str, list[dict]] = {}
    for f in ours:
        by_file.setdefault(f["path"], []).append(f)

    in_scope, out_scope = [], {}
    for r in bandit:
        if r["severity"] not in MEDIUM_UP or r["confidence"] not in MEDIUM_UP:
            continue
        if r["test"] not in MAPPING:
            out_scope[f"{r['test']} {r['name']}"] = out_scope.get(f"{r['test']} {r['name']}", 0) + 1
        elif literal_call(tree, r, parsed):
            key = f"{r['test']} {r['name']} (literal or constant argument)"
            out_scope[key] = out_scope.get(key, 0) + 1
        else:
            in_scope.append(r)
    found, missed = [], []
    for r in in_scope:
        rules = MAPPING[r["test"]]
        hit = any(
            f["rule"] in rules and r["range"][0] - RECALL_WINDOW <= f["line"] <= r["range"][1]
            for f in by_file.get(r["path"], [])
        )
        (found if hit else missed).append(r)

    bandit_by_file: dict[str, list[dict]] = {}
    for r in bandit:
        bandit_by_file.setdefault(r["path"], []).append(r)
    mapped_rules = {rule for rules in MAPPING.values() for rule in rules}
    extra, unmapped = [], []
    for f in ours:
        if f["rule"] not in mapped_rules:
            unmapped.append(f)
            continue
        before, after = EXTRA_WINDOW
        made = any(
            f["rule"] in MAPPING.get(r["test"], ())
            and r["line"] - after <= f["line"] <= r["range"][1] + before
            for r in bandit_by_file.get(f["path"], [])
        )
        if not made:
            extra.append(f)

    result = {
        "tree": str(tree),
        "python_files": tree_signature(tree)[0],
        "bandit_reports": len(bandit),
        "bandit_medium_up": sum(
            1 for r in bandit if r["severity"] in MEDIUM_UP and r["confidence"] in MEDIUM_UP
        ),
        "bandit_in_scope": len(in_scope),
        "bandit_out_of_scope": dict(sorted(out_scope.items(), key=lambda kv: -kv[1])),
        "found": len(found),
        "recall": round(len(found) / len(in_scope), 4) if in_scope else None,
        "missed": missed,
        "wukong_findings": len(ours),
        "extra_reports": extra,
        "no_bandit_counterpart": len(unmapped),
        "bandit_seconds": round(bandit_seconds, 2),
        "wukong_seconds": round(our_seconds, 2),
    }
    by_test: dict[str, list[int]] = {}
    for r in in_scope:
        by_test.setdefault(r["test"], [0, 0])[1] += 1
    for r in found:
        by_test[r["test"]][0] += 1
    result["recall_by_test"] = {t: f"{a}/{b}" for t, (a, b) in sorted(by_test.items())}
    if labels is not None:
        vulnerable = {
            (v["path"], v["line"], CHECK_RULES[check])
            for v in labels["vulnerable"]
            for check in v["check"].split("+")
        }
        safe = {(s["path"], s["line"]) for s in labels["safe"]}
        reported = {(f["path"], f["line"], f["rule"]) for f in ours}
        hits = vulnerable & reported
        false = [f for f in ours if (f["path"], f["line"], f["rule"]) not in vulnerable]
        result["labels"] = {
            "vulnerable": len(vulnerable),
            "found": len(hits),
            "recall": round(len(hits) / len(vulnerable), 4) if vulnerable else None,
            "false_reports": false,
            "false_on_safe_lines": sum(1 for f in false if (f["path"], f["line"]) in safe),
            "missed": [
                {"path": p, "line": n, "rule": r} for (p, n, r) in sorted(vulnerable - reported)
            ],
        }
        for f in extra:
            f["verdict"] = (
                "true (labelled vulnerable)"
                if (f["path"], f["line"], f["rule"]) in vulnerable
                else "false"
            )
        result["extra_false"] = sum(1 for f in extra if f["verdict"] == "false")
    return result


def show(name: str, r: dict) -> None:
    print(f"\n== {name}: {r['tree']} ({r['python_files']} .py files)")
    print(
        f"bandit: {r['bandit_reports']} reports, {r['bandit_medium_up']} medium+/medium+, {r['bandit_in_scope']} of them in scope ({r['bandit_seconds']} s); wukong-lint: {r['wukong_findings']} findings ({r['wukong_seconds']} s)"
    )
    if r["recall"] is not None:
        print(
            f"recall on bandit's in-scope medium+ reports: {r['found']}/{r['bandit_in_scope']} = {r['recall']:.1%}  by test: {r['recall_by_test']}"
        )
    for m in r["missed"][:40]:
        print(
            f"  missed {m['test']} {m['severity']}/{m['confidence']} {m['path']}:{m['line']}  {m['text']}"
        )
    if r["bandit_out_of_scope"]:
        print(
            "bandit medium+ out of scope: "
            + ", ".join(f"{k}: {v}" for k, v in list(r["bandit_out_of_scope"].items())[:12])
        )
    extra = r["extra_reports"]
    suffix = f", {r['extra_false']} of them false by the labels" if "extra_false" in r else ""
    print(
        f"extra reports (rules with a bandit counterpart, no bandit report near): {len(extra)}{suffix}"
    )
    for f in extra[:60]:
        verdict = f"  [{f['verdict']}]" if "verdict" in f else ""
        print(f"  {f['rule']} {f['path']}:{f['line']}  {f['snippet'][:110]}{verdict}")
    print(
        f"findings of rules bandit has no test for (tracebacks, exception text, environment, files, DEBUG, render_template_string): {r['no_bandit_counterpart']}"
    )
    if "labels" in r:
        lab = r["labels"]
        print(
            f"against the labels: recall {lab['found']}/{lab['vulnerable']} = {lab['recall']:.1%}, false reports {len(lab['false_reports'])} ({lab['false_on_safe_lines']} on planted safe look-alikes)"
        )
        for m in lab["missed"][:30]:
            print(f"  missed label {m['rule']} {m['path']}:{m['line']}")
        for f in lab["false_reports"][:30]:
            print(f"  false {f['rule']} {f['path']}:{f['line']}  {f['snippet'][:100]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--tree", action="append", type=Path, default=[], help="a real code tree (read only)"
    )
    parser.add_argument("--files", type=int, default=300, help="files per generated sample set")
    parser.add_argument("--only", choices=("dev", "holdout", "trees"), help="run one part")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    for name, seed in (("dev", 1), ("holdout", 2)):
        if args.only not in (None, name):
            continue
        out = OUT / f"vulnsamples-{name}"
        labels = vulnerable_samples.generate(seed, out, args.files, holdout=name == "holdout")
        results[name] = compare(out / "tree", f"samples-{name}", labels, cache=False)
        show(f"generated samples, {name} (seed {seed})", results[name])
    if args.only in (None, "trees"):
        for tree in args.tree:
            name = tree.resolve().name
            results[name] = compare(tree.resolve(), name, None, cache=True)
            show(f"real code {name}", results[name])
    (OUT / "bandit-compare.json").write_text(json.dumps(results, indent=1))
    log(f"written: {(OUT / 'bandit-compare.json').relative_to(ROOT)}")


if __name__ == "__main__":
    main()
