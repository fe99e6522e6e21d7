# ruff: noqa: E501  (report lines and result records are kept one literal each)
"""How wukong-lint does today on agent histories with planted secrets (issue 29's before
figures, tests/fixtures/history/BASELINE.md): planted secrets found by `check` and masked by
`redact`, by agent, field kind, encoding and file format; files and units read; files named
alone; the shapes of issue 29 one by one (probes); speed and memory.

    python bench/history_baseline.py --fixtures tests/fixtures/history
    python bench/history_baseline.py --corpus /tmp/history [--alone 5] [--repeat 3]
        [--redact-sample 0] [--out FILE]

`--fixtures` reads EXPECTED.yaml (bench/history_fixtures.py), `--corpus` MANIFEST.jsonl
(bench/history_corpus.py). A planted secret counts as found when `check --format json`
reports its rule id on its line, and as masked when, after `redact FILE -o OUT`, the line no
longer holds it (looked for in the line's decoded JSON strings and in its raw text, by the
SHA-256 prefix, first characters and length that the manifest keeps: the secrets themselves
are never read back or printed). The control scans each planted line's decoded text as a
plain `.txt` file: what a reader that understood the record would give the rules. Folder
scans are timed `--repeat` times (the fastest kept) with their CPU seconds and peak RSS
(/usr/bin/time). Prints Markdown tables, and writes the figures as JSON to `--out`.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any

AGENT_DIRS = ("claude", "codex", "gemini")


def load_expected(root: str) -> list[dict[str, Any]]:
    import yaml

    with open(os.path.join(root, "EXPECTED.yaml"), encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    entries = []
    for rel, info in data["files"].items():
        for s in info["secrets"]:
            entries.append({"file": rel, "agent": info["agent"], "format": info["format"],
                            "subagent": "subagent" in info["format"], **s})  # fmt: skip
    return entries


def load_manifest(root: str) -> list[dict[str, Any]]:
    merged: dict[tuple[str, int, int], dict[str, Any]] = {}
    with open(os.path.join(root, "MANIFEST.jsonl"), encoding="utf-8") as handle:
        for row in map(json.loads, handle):
            key = (row["file"], row["line"], row["id"])
            if key in merged:
                merged[key]["fields"] = merged[key]["fields"] + row["fields"]
            else:
                merged[key] = row
    return list(merged.values())


def wukong(*args: str) -> list[str]:
    return [sys.executable, "-m", "wukong_lint", *args]


CPU: list[float] = [0.0]  # CPU seconds (user + system) of the last timed command


def timed(command: list[str]) -> tuple[subprocess.CompletedProcess[str], float, int]:
    """Runs a command under /usr/bin/time -v: (result, seconds, peak RSS of its largest
    process in KB, 0 when unknown); its CPU seconds (all processes) go to CPU[0]."""
    timer = ["/usr/bin/time", "-v"] if os.path.exists("/usr/bin/time") else []
    started = time.perf_counter()
    proc = subprocess.run(timer + command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    rss = 0
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    if match:
        rss = int(match.group(1))
    CPU[0] = sum(
        float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", proc.stderr)
    )
    return proc, seconds, rss


def check(paths: list[str], *extra: str) -> tuple[dict[str, Any], float, int, int]:
    proc, seconds, rss = timed(wukong("check", "--format", "json", "--exit-zero", *extra, *paths))
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        report = {"findings": [], "stats": {}, "errors": [proc.stderr[-500:]]}
    return report, seconds, rss, proc.returncode


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(key)
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)


_UNICODE = re.compile(r"\\u([0-9a-fA-F]{4})")


def views(line: str) -> list[str]:
    """The raw line, its \\u escapes decoded, and (if it is JSON) its decoded strings."""
    found = [line, _UNICODE.sub(lambda m: chr(int(m.group(1), 16)), line)]
    try:
        parts: list[str] = []
        _strings(json.loads(line), parts)
        found.append("\n".join(parts))
    except (ValueError, RecursionError):
        pass
    return found


def holds(texts: list[str], entry: dict[str, Any]) -> bool:
    prefix, length, digest = entry["prefix"], entry["length"], entry["sha256"]
    for text in texts:
        at = text.find(prefix)
        while at >= 0:
            if hashlib.sha256(text[at : at + length].encode()).hexdigest()[:16] == digest:
                return True
            at = text.find(prefix, at + 1)
    return False


def _rel(path: str, root: str) -> str:
    return os.path.relpath(os.path.abspath(path), root)


def _parses(line: str) -> bool:
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


_IDS = re.compile(r'"(?:uuid|parentUuid|id|call_id|tool_use_id|sessionId|leafUuid)":"([^"]*)"')


def redact_file(root: str, rel: str, entries: list[dict[str, Any]], tmp: str) -> dict[str, Any]:
    source = os.path.join(root, rel)
    target = os.path.join(tmp, "out")
    if os.path.exists(target):
        os.remove(target)
    proc, seconds, rss = timed(wukong("redact", source, "-o", target))
    result: dict[str, Any] = {"rc": proc.returncode, "seconds": seconds, "rss_kb": rss,
                              "error": proc.stderr.strip().splitlines()[-1:] if proc.returncode else []}  # fmt: skip
    with open(source, encoding="utf-8") as handle:
        before = handle.read().split("\n")
    if not os.path.exists(target):
        result.update(masked=[False] * len(entries), tagged=[False] * len(entries), changed=[],
                      broken=0, ids_changed=0, lines_same=False)  # fmt: skip
        return result
    with open(target, encoding="utf-8", errors="replace") as handle:
        after = handle.read().split("\n")
    same = len(before) == len(after)
    masked, tagged = [], []
    for e in entries:
        if same:
            masked.append(not holds(views(after[e["line"] - 1]), e))
            # the redaction names the rule `check` should report for it
            tagged.append(f"[REDACTED:{e['rule']}]" in after[e["line"] - 1])
        else:
            masked.append(not any(holds(views(row), e) for row in after))
            tagged.append(False)
    changed = (
        [n for n, (a, b) in enumerate(zip(before, after, strict=False), 1) if a != b]
        if same
        else []
    )
    broken = sum(1 for n in changed if _parses(before[n - 1]) and not _parses(after[n - 1]))
    ids_changed = sum(
        1 for n in changed if _IDS.findall(before[n - 1]) != _IDS.findall(after[n - 1])
    )
    result.update(masked=masked, tagged=tagged, changed=changed, broken=broken,
                  ids_changed=ids_changed, lines_same=same)  # fmt: skip
    return result


def _units(paths: list[str], cwd: str | None = None) -> dict[str, Any]:
    proc = subprocess.run(
        wukong("check", "--format", "json", *paths),
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        return {"rc": proc.returncode, "error": proc.stderr.strip()[-300:]}
    stats = report.get("stats") or {}
    return {"rc": proc.returncode, "files": stats.get("files"), "units": stats.get("units"), "skipped": stats.get("skipped"),
            "secret_findings": sum(1 for f in report["findings"] if f["rule_id"].startswith("secret.")),
            "rules": sorted({f["rule_id"] for f in report["findings"]}), "errors": [str(e)[:200] for e in report.get("errors", [])][:3]}  # fmt: skip


def probes(root: str, rules_at: dict[tuple[str, int], set[str]]) -> dict[str, Any]:
    """Shapes of issue 29, each tried on its own: a session named in every way, a compressed
    Codex rollout, a record too long to read, `-o -`, parallel calls' orphan-result."""
    out: dict[str, Any] = {}
    claude_sessions = sorted(
        os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(root, "claude")) for f in fs
        if f.endswith(".jsonl") and os.path.isdir(os.path.join(dp, f[: -len(".jsonl")], "subagents"))
    )  # fmt: skip
    if claude_sessions:
        session = claude_sessions[0]
        folder = session[: -len(".jsonl")]
        subagents = os.path.join(folder, "subagents")
        agent = sorted(
            os.path.join(subagents, f) for f in os.listdir(subagents) if f.endswith(".jsonl")
        )[0]
        out["claude_session_file"] = _units([session])
        out["claude_subagent_file_alone"] = _units([agent])
        out["claude_subagents_folder"] = _units([subagents])
        out["claude_session_folder"] = _units([folder])
        out["claude_session_file_and_folder"] = _units([session, folder])
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "agent-" + os.path.basename(agent)[len("agent-") :])
            with open(agent, "rb") as src, open(copy, "wb") as dst:
                dst.write(src.read())
            out["claude_subagent_file_copied_elsewhere"] = _units([copy])
            # redact of the session file (redact takes one file)
            target = os.path.join(tmp, "out.jsonl")
            proc = subprocess.run(
                wukong("redact", session, "-o", target), capture_output=True, text=True, check=False
            )
            out["claude_redact_session"] = {
                "rc": proc.returncode,
                "stderr": proc.stderr.strip()[-200:],
            }
            proc = subprocess.run(
                wukong("redact", folder, "-o", target), capture_output=True, text=True, check=False
            )
            out["claude_redact_folder"] = {
                "rc": proc.returncode,
                "stderr": proc.stderr.strip()[-200:],
            }
            # a user record whose content is a string and whose toolUseResult holds a secret
            probe = os.path.join(tmp, "string-content.jsonl")
            token = "ghp_" + "Kq8Zr2Wm5Tn7Vb3Xc9Ld4Hf6Jp1Sg0Ay2Ue7"
            with open(probe, "w", encoding="utf-8") as handle:
                handle.write(json.dumps({"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s", "message": {"role": "user", "content": "x"},
                                         "toolUseResult": f"Error: TOKEN={token}"}) + "\n")  # fmt: skip
            out["claude_string_content_with_tool_use_result"] = _units([probe])
            # `-o -`
            proc = subprocess.run(
                wukong("check", "--format", "json", "-o", "-", session),
                capture_output=True,
                text=True,
                check=False,
                cwd=tmp,
            )
            out["check_o_dash"] = {
                "rc": proc.returncode,
                "stdout_bytes": len(proc.stdout),
                "file_named_dash": os.path.exists(os.path.join(tmp, "-")),
            }
    # a compressed Codex rollout (.jsonl.zst)
    rollouts = sorted(
        os.path.join(dp, f)
        for dp, _, fs in os.walk(os.path.join(root, "codex"))
        for f in fs
        if f.endswith(".jsonl")
    )
    if rollouts and os.path.exists("/usr/bin/zstd"):
        with tempfile.TemporaryDirectory() as tmp:
            target = os.path.join(tmp, os.path.basename(rollouts[0]) + ".zst")
            subprocess.run(["/usr/bin/zstd", "-q", "-o", target, rollouts[0]], check=True)
            out["codex_rollout_zst"] = _units([target])
            out["codex_rollout_zst_in_folder"] = _units([tmp])
    # parallel calls: results written before the line of their call, and orphan-result findings
    before = 0
    for dp, _, fs in os.walk(os.path.join(root, "claude")):
        for f in fs:
            if not f.endswith(".jsonl"):
                continue
            seen: set[str] = set()
            with open(os.path.join(dp, f), encoding="utf-8") as handle:
                rows = [json.loads(line) for line in handle if line.strip()]
            calls = {
                b["id"]
                for r in rows
                if r.get("type") == "assistant"
                for b in r["message"]["content"]
                if isinstance(b, dict) and b.get("type") == "tool_use"
            }
            for r in rows:
                content = (
                    r.get("message", {}).get("content")
                    if isinstance(r.get("message"), dict)
                    else None
                )
                if r.get("type") == "assistant":
                    seen |= {
                        b["id"]
                        for b in content
                        if isinstance(b, dict) and b.get("type") == "tool_use"
                    }
                elif r.get("type") == "user" and isinstance(content, list):
                    before += sum(
                        1
                        for b in content
                        if isinstance(b, dict)
                        and b.get("type") == "tool_result"
                        and b["tool_use_id"] in calls
                        and b["tool_use_id"] not in seen
                    )
    out["claude_results_before_their_call"] = before
    out["orphan_result_findings"] = sum(
        1 for rules in rules_at.values() if "transcript-integrity.orphan-result" in rules
    )
    return out


def ratio(hit: int, total: int) -> str:
    return f"{hit}/{total} ({100 * hit / total:.0f} %)" if total else "-"


COLUMNS = (("found", "found by check (its rule)"), ("control", "control: found in the decoded text"),
           ("masked", "masked by redact"), ("tagged", "redaction names that rule"))  # fmt: skip


def table(title: str, key: str, rows: list[dict[str, Any]]) -> list[str]:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[str(row[key])].append(row)
    out = [f"| {title} | planted lines | " + " | ".join(label for _, label in COLUMNS) + " |",
           "|---|---:|" + "---:|" * len(COLUMNS)]  # fmt: skip
    for name, g in [*sorted(groups.items()), ("**all**", rows)]:
        cells = [name, str(len(g))] + [ratio(sum(r[k] for r in g), len(g)) for k, _ in COLUMNS]
        out.append("| " + " | ".join(cells) + " |")
    return out


def decoded(line: str) -> str:
    """The text a reader that decodes the record (and JSON held in its strings, one level)
    would scan; for a line of pretty-printed JSON, the value on it."""
    value: Any = None
    for attempt in (line, "{" + line.strip().rstrip(",") + "}"):
        try:
            value = json.loads(attempt)
            break
        except (ValueError, RecursionError):
            continue
    if value is None:
        return _UNICODE.sub(lambda m: chr(int(m.group(1), 16)), line)
    parts: list[str] = []
    _strings(value, parts)
    more: list[str] = []
    for part in parts:
        if part[:1] in "[{":
            with contextlib.suppress(ValueError, RecursionError):
                _strings(json.loads(part), more)
    return "\n".join(parts + more)


def control(root: str, rows: list[dict[str, Any]]) -> None:
    """Whether each planted secret is found when the decoded text of its line is scanned as
    plain text: what a reader that understood the record would give the rules (a miss here
    is the rules' or filters', not the reader's)."""
    with tempfile.TemporaryDirectory() as tmp:
        lines: dict[str, list[str]] = {}
        for i, row in enumerate(rows):
            if row["file"] not in lines:
                with open(
                    os.path.join(root, row["file"]), encoding="utf-8", errors="replace"
                ) as handle:
                    lines[row["file"]] = handle.read().split("\n")
            with open(os.path.join(tmp, f"{i}.txt"), "w", encoding="utf-8") as handle:
                handle.write(decoded(lines[row["file"]][row["line"] - 1]) + "\n")
        report, _, _, _ = check([tmp])
        rules: dict[int, set[str]] = defaultdict(set)
        for f in report["findings"]:
            rules[int(os.path.basename(f["path"]).split(".")[0])].add(f["rule_id"])
    for i, row in enumerate(rows):
        row["control"] = row["rule"] in rules[i]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--fixtures", help="a folder with EXPECTED.yaml")
    which.add_argument("--corpus", help="a folder with MANIFEST.jsonl")
    parser.add_argument(
        "--redact-sample",
        type=int,
        default=0,
        help="redact only N files with planted secrets (0: all)",
    )
    parser.add_argument(
        "--alone",
        type=int,
        default=0,
        help="corpus: check N files of each format named alone (fixtures: all)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="time the folder scans this many times, keep the fastest",
    )
    parser.add_argument("--tool", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the checkout whose wukong_lint runs (default: the one holding this script)")  # fmt: skip
    parser.add_argument("--out", help="write the figures as JSON here")
    args = parser.parse_args()
    # every `python -m wukong_lint` below runs this checkout, whatever its working folder
    # (an editable install elsewhere would otherwise be imported from a temporary folder)
    tool = os.path.abspath(args.tool)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (tool, os.environ.get("PYTHONPATH")) if p)
    commit = subprocess.run(
        ["git", "-C", tool, "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    root = os.path.abspath(args.fixtures or args.corpus)
    out_path = os.path.abspath(args.out) if args.out else None
    os.chdir(tool)  # and `python -m` puts the working folder first on the path
    entries = load_expected(root) if args.fixtures else load_manifest(root)
    folders = [os.path.join(root, d) for d in AGENT_DIRS if os.path.isdir(os.path.join(root, d))]
    total_bytes = sum(
        os.path.getsize(os.path.join(dp, f))
        for d in folders
        for dp, _, fs in os.walk(d)
        for f in fs
    )
    figures: dict[str, Any] = {
        "root": root,
        "tool": tool,
        "commit": commit,
        "bytes": total_bytes,
        "planted_lines": len(entries),
    }

    # check: all agents at once (default --jobs, and --jobs 1; the fastest of --repeat runs,
    # as other work on the machine only adds time), then each agent's folder
    best: tuple[Any, ...] = ()
    for _ in range(args.repeat):
        run = check(folders)
        if not best or run[1] < best[1]:
            best = (*run, CPU[0])
    report, seconds, rss, rc, cpu = best
    figures["check_all"] = {"seconds": round(seconds, 2), "mb_per_s": round(total_bytes / 1e6 / seconds, 2), "peak_rss_mb": rss // 1024,
                            "cpu_seconds": round(cpu, 2), "rc": rc, "stats": report.get("stats"), "errors": len(report.get("errors", [])), "findings": len(report["findings"])}  # fmt: skip
    runs1 = []
    for _ in range(args.repeat):
        _, seconds1, rss1, _ = check(folders, "--jobs", "1")
        runs1.append((seconds1, rss1, CPU[0]))
    seconds1, rss1, cpu1 = min(runs1)
    figures["check_all_jobs1"] = {"seconds": round(seconds1, 2), "mb_per_s": round(total_bytes / 1e6 / seconds1, 2), "peak_rss_mb": rss1 // 1024,
                                  "cpu_seconds": round(cpu1, 2), "mb_per_cpu_s": round(total_bytes / 1e6 / cpu1, 2) if cpu1 else None}  # fmt: skip
    rules_at: dict[tuple[str, int], set[str]] = defaultdict(set)
    for f in report["findings"]:
        rules_at[(_rel(f["path"], root), f["line"])].add(f["rule_id"])
    figures["per_agent_dir"] = {}
    for folder in folders:
        rep, sec, peak, _ = check([folder])
        size = sum(
            os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(folder) for f in fs
        )
        figures["per_agent_dir"][os.path.basename(folder)] = {"files_on_disk": sum(len(fs) for _, _, fs in os.walk(folder)),
                                                              "bytes": size, "seconds": round(sec, 2), "peak_rss_mb": peak // 1024,
                                                              "stats": rep.get("stats"), "errors": rep.get("errors")[:5]}  # fmt: skip

    rows = []
    for e in entries:
        rules = rules_at.get((e["file"], e["line"]), set())
        rows.append(
            {
                **e,
                "found": e["rule"] in rules,
                "found_any": any(r.startswith("secret.") for r in rules),
                "masked": False,
                "tagged": False,
                # reported on another line of the file (within 3), by the rule it should be
                "found_elsewhere": e["rule"] not in rules
                and any(
                    e["rule"] in rules_at.get((e["file"], e["line"] + d), set())
                    for d in (-3, -2, -1, 1, 2, 3)
                ),
            }
        )
    control(root, rows)

    # files named alone: how many units each gives (0 from a non-empty file: skipped in silence)
    by_format: dict[str, list[str]] = defaultdict(list)
    listed = os.path.join(root, "MANIFEST.files.jsonl")
    known = {}
    if os.path.exists(listed):
        with open(listed, encoding="utf-8") as handle:
            known = {row["file"]: row["format"] for row in map(json.loads, handle)}
    for dp, _, fs in os.walk(root):
        for name in fs:
            rel = _rel(os.path.join(dp, name), root)
            if rel.split(os.sep)[0] in AGENT_DIRS:
                fmt = (
                    known.get(rel)
                    or next((e["format"] for e in entries if e["file"] == rel), None)
                    or _guess_format(rel)
                )
                by_format[fmt].append(rel)
    alone = []
    for fmt, files in sorted(by_format.items()):
        for rel in sorted(files)[: (args.alone or len(files)) if args.corpus else len(files)]:
            rep, _, _, rc = check([os.path.join(root, rel)])
            stats = rep.get("stats") or {}
            alone.append({"file": rel, "format": fmt, "bytes": os.path.getsize(os.path.join(root, rel)), "rc": rc,
                          "files": stats.get("files"), "units": stats.get("units"), "skipped": stats.get("skipped"),
                          "findings": len(rep["findings"]), "errors": [str(x)[:200] for x in rep.get("errors", [])][:3]})  # fmt: skip
    figures["named_alone"] = alone

    # redact, file by file
    planted_files: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        planted_files[row["file"]].append(i)
    files = sorted(planted_files)
    if args.redact_sample:
        files = files[: args.redact_sample]
    red = {"files": 0, "failed": 0, "seconds": 0.0, "bytes": 0, "lines_changed": 0, "changed_unplanted": 0,
           "changed_without_finding": 0, "finding_lines_unchanged": 0, "broken_lines": 0, "ids_changed": 0,
           "line_count_changed": 0, "errors": []}  # fmt: skip
    secret_lines = defaultdict(set)
    for (rel, line), rules in rules_at.items():
        if any(r.startswith("secret.") for r in rules):
            secret_lines[rel].add(line)
    with tempfile.TemporaryDirectory() as tmp:
        for rel in files:
            idx = planted_files[rel]
            result = redact_file(root, rel, [rows[i] for i in idx], tmp)
            red["files"] += 1
            red["seconds"] += result["seconds"]
            red["bytes"] += os.path.getsize(os.path.join(root, rel))
            if result["rc"] != 0:
                red["failed"] += 1
                red["errors"].append({"file": rel, "error": result["error"]})
            for i, ok, tag in zip(idx, result["masked"], result["tagged"], strict=True):
                rows[i]["masked"] = ok
                rows[i]["tagged"] = tag
            changed = set(result["changed"])
            planted = {rows[i]["line"] for i in idx}
            red["lines_changed"] += len(changed)
            red["changed_unplanted"] += len(changed - planted)
            red["changed_without_finding"] += len(changed - secret_lines[rel])
            if result["lines_same"]:
                red["finding_lines_unchanged"] += len(secret_lines[rel] - changed)
            red["broken_lines"] += result["broken"]
            red["ids_changed"] += result["ids_changed"]
            red["line_count_changed"] += 0 if result["lines_same"] else 1
    red["seconds"] = round(red["seconds"], 2)
    red["mb_per_s_incl_startup"] = (
        round(red["bytes"] / 1e6 / red["seconds"], 2) if red["seconds"] else None
    )
    red["errors"] = red["errors"][:10]
    figures["redact"] = red
    redacted = {rows[i]["file"] for f in files for i in planted_files[f]}
    scope = [r for r in rows if r["file"] in redacted]

    summary = {}
    for key in ("agent", "where", "encoding", "format", "subagent"):
        summary[key] = {}
        for row in rows:
            s = summary[key].setdefault(str(row[key]), dict.fromkeys(("planted", "found", "found_any", "found_elsewhere", "control", "masked", "tagged"), 0))  # fmt: skip
            s["planted"] += 1
            for k in ("found", "found_any", "found_elsewhere", "control", "masked", "tagged"):
                s[k] += row[k]
    figures["summary"] = summary
    # secret findings on lines where nothing was planted (false alarms: the corpus holds no
    # other secrets), by file format
    planted_at = {(r["file"], r["line"]) for r in rows}
    formats = {r["file"]: r["format"] for r in rows}
    unplanted: dict[str, Any] = defaultdict(lambda: defaultdict(int))
    for (rel, line), rules in rules_at.items():
        if (rel, line) not in planted_at:
            for rule in rules:
                if rule.startswith("secret."):
                    unplanted[formats.get(rel) or _guess_format(rel)][rule] += 1
    figures["secret_findings_on_unplanted_lines"] = {k: dict(v) for k, v in unplanted.items()}
    figures["probes"] = probes(root, rules_at)
    longest = 0
    for folder in folders:
        for dp, _, fs in os.walk(folder):
            for f in fs:
                with open(os.path.join(dp, f), "rb") as handle:
                    longest = max([longest, *(len(line) for line in handle)])
    figures["longest_line_bytes"] = longest
    figures["missed"] = [
        {
            k: r[k]
            for k in (
                "file",
                "line",
                "rule",
                "where",
                "encoding",
                "fields",
                "control",
                "found_elsewhere",
            )
        }
        for r in rows
        if not r["found"]
    ][:400]
    figures["unmasked"] = [
        {k: r[k] for k in ("file", "line", "rule", "where", "encoding", "fields")}
        for r in scope
        if not r["masked"]
    ][:400]

    out: list[str] = [
        f"Root: `{root}`, {total_bytes / 1e6:.1f} MB on disk in the agents' folders, {len(entries)} planted secret lines; wukong-lint of `{tool}` at {commit or '?'}.",
        "",
    ]
    ca = figures["check_all"]
    st = ca["stats"] or {}
    out.append(f"`check` of all agents' folders: {ca['seconds']} s ({ca['mb_per_s']} MB/s, default --jobs), "
               f"{figures['check_all_jobs1']['mb_per_s']} MB/s at --jobs 1; peak RSS of the largest process "
               f"{ca['peak_rss_mb']} MB (--jobs 1: {figures['check_all_jobs1']['peak_rss_mb']} MB); CPU {figures['check_all_jobs1']['cpu_seconds']} s at --jobs 1 "
               f"({figures['check_all_jobs1']['mb_per_cpu_s']} MB per CPU second); files {st.get('files')}, units {st.get('units')}, "
               f"skipped {st.get('skipped')}, errors {ca['errors']}, findings {ca['findings']}.")  # fmt: skip
    out.append("")
    out += [*table("agent", "agent", rows), ""]
    out += [*table("field kind", "where", rows), ""]
    out += [*table("encoding", "encoding", rows), ""]
    out += [*table("file format", "format", rows), ""]
    out.append("| agent folder | files on disk | files read | units | skipped | MB | s |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for name, d in figures["per_agent_dir"].items():
        s = d["stats"] or {}
        out.append(
            f"| {name} | {d['files_on_disk']} | {s.get('files')} | {s.get('units')} | {s.get('skipped')} | {d['bytes'] / 1e6:.2f} | {d['seconds']} |"
        )
    out.append("")
    out.append("| named alone: format | files | files with 0 units | rc != 0 | units (sum) |")
    out.append("|---|---:|---:|---:|---:|")
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for a in alone:
        groups[a["format"]].append(a)
    for fmt, g in sorted(groups.items()):
        zero = sum(1 for a in g if not a["units"] and a["bytes"] > 0)
        out.append(
            f"| {fmt} | {len(g)} | {zero} | {sum(1 for a in g if a['rc'] not in (0,))} | {sum(a['units'] or 0 for a in g)} |"
        )
    out.append("")
    out.append(f"`redact FILE -o OUT` on {red['files']} files ({red['bytes'] / 1e6:.1f} MB): {red['failed']} failed; "
               f"{red['seconds']} s in all ({red['mb_per_s_incl_startup']} MB/s, one process per file); lines changed {red['lines_changed']}, "
               f"of which not planted {red['changed_unplanted']}, without a `check` secret finding {red['changed_without_finding']}; "
               f"lines with a `check` secret finding that redact left unchanged {red['finding_lines_unchanged']}; "
               f"rewritten lines that no longer parse {red['broken_lines']}, with ids changed {red['ids_changed']}; "
               f"files whose line count changed {red['line_count_changed']}.")  # fmt: skip
    out.append("")
    out.append("Secret findings on lines where nothing is planted: "
               + (", ".join(f"{fmt} {sum(v.values())} ({', '.join(f'{r} {n}' for r, n in sorted(v.items()))})"
                            for fmt, v in sorted(figures["secret_findings_on_unplanted_lines"].items())) or "none") + ".")  # fmt: skip
    out.append("")
    out.append(f"Longest line: {longest / 1048576:.1f} MiB.")
    out.append("")
    out.append("Probes (each shape tried on its own):")
    out.append("")
    for name, value in figures["probes"].items():
        out.append(f"- `{name}`: {json.dumps(value)}")
    print("\n".join(out))
    if out_path:
        with open(out_path, "w", encoding="utf-8") as handle:
            json.dump(figures, handle, indent=1)


def _guess_format(rel: str) -> str:
    if rel.endswith(".meta.json"):
        return "claude-subagent-meta"
    if "/tool-results/" in rel:
        return "claude-tool-result-file"
    if "/subagents/" in rel:
        return "claude-subagent-jsonl"
    if rel.startswith("claude/"):
        return "claude-jsonl"
    if rel.startswith("codex/"):
        return "codex-rollout"
    if rel.endswith(".json"):
        return "gemini-json"
    return "gemini-jsonl"


if __name__ == "__main__":
    main()
