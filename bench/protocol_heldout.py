"""A second held-out 戒 protocol corpus (issue 16), written from the seeds and the upstream
protocol's templates without reading the checks or the other protocol corpora.

`python bench/protocol_heldout.py [--show] [--keep DIR]` writes every case (one session each:
Claude Code with `subagents/` files or inline sidechains, Codex rollouts, OpenAI chats, the
three ReAct forms, plus two repository folders for dcp-config.yaml), runs the real CLI
(`wukong-lint check FILES --profile wukong --format json`, one run for all transcripts, one per
agent-definition case and one for the folders) and prints recall on the planted violations and
the false alarms on the compliant look-alikes. A violation is found when one of its `expect`
rule ids is reported on its files; a compliant session must get no finding at all; `forbid`
ids must not be reported on any case."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# each case module registers its cases in CASES when it is imported
from corpora.protocol import (
    protocol_heldout_avatars,  # noqa: F401
    protocol_heldout_busy,  # noqa: F401
    protocol_heldout_cases2,  # noqa: F401
    protocol_heldout_cases3,  # noqa: F401
    protocol_heldout_ok,  # noqa: F401
)
from corpora.protocol.protocol_heldout_cases import CASES, Case


@dataclass
class Outcome:
    case: Case
    rules: Counter[str] = field(default_factory=Counter)
    error: str = ""

    @property
    def found(self) -> bool:
        return any(r in self.rules for r in self.case.expect)

    @property
    def forbidden(self) -> list[str]:
        return [r for r in self.case.forbid if r in self.rules]

    @property
    def ok(self) -> bool:
        if self.error:
            return False
        if self.case.violation:
            return self.found and not self.forbidden
        return not self.rules


def cases() -> list[Case]:
    names = [c.name for c in CASES]
    dup = [n for n, k in Counter(names).items() if k > 1]
    if dup:
        raise SystemExit(f"duplicate case names: {dup}")
    return list(CASES)


def _cli(args: list[str]) -> tuple[list[dict], str]:
    cmd = [
        sys.executable,
        "-m",
        "wukong_lint",
        "check",
        *args,
        "--profile",
        "wukong",
        "--format",
        "json",
        "--jobs",
        "1",
    ]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"}, timeout=600
    )
    if proc.returncode not in (0, 1):
        return [], f"exit {proc.returncode}: {proc.stderr.strip()[:400]}"
    try:
        return json.loads(proc.stdout)["findings"], ""
    except (ValueError, KeyError) as exc:
        return [], f"unreadable report: {exc}"


def run(root: Path) -> list[Outcome]:
    """Write every case under `root`, scan them, return one outcome per case."""
    outcomes = {c.name: Outcome(c) for c in cases()}
    owned: list[tuple[str, str]] = []  # (path prefix, case name)
    plain: list[str] = []
    batches: list[tuple[list[str], list[str]]] = []  # (extra args, paths)
    folders: list[str] = []
    by_agents: dict[tuple[tuple[str, str], ...], tuple[list[str], list[str]]] = {}
    for c in cases():
        paths = [str(p) for p in c.build(root)]
        for p in paths:
            owned.append((p, c.name))
        owned.append((str(root / c.name) + os.sep, c.name))
        if c.folder:
            folders.extend(paths)
        elif c.agents:  # one run per set of agent definitions
            d = root / f"agents-{len(by_agents)}"
            if c.agents not in by_agents:
                d.mkdir(exist_ok=True)
                for fname, text in c.agents:
                    (d / fname).write_text(text, encoding="utf-8")
                by_agents[c.agents] = (["--agents", str(d)], [])
            by_agents[c.agents][1].extend(paths)
        else:
            plain.extend(paths)
    batches.insert(0, ([], plain))
    batches.extend(by_agents.values())
    if folders:
        batches.append(([], folders))
    for extra, paths in batches:
        findings, error = _cli([*paths, *extra])
        if error:
            for p in paths:
                for prefix, name in owned:
                    if p == prefix:
                        outcomes[name].error = error
            continue
        for f in findings:
            path = str(f.get("path", ""))
            name = _owner(path, owned)
            if name is None:
                continue
            outcomes[name].rules[f["rule_id"]] += 1
    return [outcomes[c.name] for c in cases()]


def _owner(path: str, owned: list[tuple[str, str]]) -> str | None:
    best: tuple[int, str] | None = None
    for prefix, name in owned:
        inside = (
            path == prefix
            or (prefix.endswith(os.sep) and path.startswith(prefix))
            or path.startswith(prefix + os.sep)
        )
        if inside and (best is None or len(prefix) > best[0]):
            best = (len(prefix), name)
    return best[1] if best else None


def summary(outs: list[Outcome]) -> dict[str, object]:
    viol = [o for o in outs if o.case.violation]
    comp = [o for o in outs if not o.case.violation]
    found = [o for o in viol if o.found]
    return {
        "violations": len(viol),
        "found": len(found),
        "recall": len(found) / len(viol) if viol else 1.0,
        "compliant": len(comp),
        "false_alarms": sum(1 for o in comp if o.rules or o.error),
        "forbidden_hits": sum(1 for o in outs if o.forbidden),
        "errors": sum(1 for o in outs if o.error),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--show", action="store_true", help="list misses and false alarms with what was reported"
    )
    ap.add_argument(
        "--keep", metavar="DIR", help="write the corpus to DIR (kept) instead of a temporary folder"
    )
    ns = ap.parse_args(argv)
    if ns.keep:
        root = Path(ns.keep).resolve()
        root.mkdir(parents=True, exist_ok=True)
        outs = run(root)
    else:
        with tempfile.TemporaryDirectory(prefix="jie-heldout-") as tmp:
            outs = run(Path(tmp))
    s = summary(outs)
    errors = sorted({o.error for o in outs if o.error})
    for error in errors[:3]:
        print(f"scan error: {error}", file=sys.stderr)
    points = defaultdict(lambda: [0, 0])
    for o in outs:
        if o.case.violation:
            points[o.case.point][0] += 1
            points[o.case.point][1] += int(o.found)
    print(f"violations found: {s['found']}/{s['violations']} ({100 * float(s['recall']):.1f} %)")  # type: ignore[arg-type]
    print(
        f"false alarms: {s['false_alarms']} of {s['compliant']} compliant sessions; "
        f"forbidden ids reported: {s['forbidden_hits']}; scan errors: {s['errors']}"
    )
    if ns.show:
        print("\nper point (found/planted):")
        for point, (n, k) in sorted(points.items()):
            print(f"  {point:28} {k}/{n}")
        for o in outs:
            if o.ok:
                continue
            kind = (
                "MISS"
                if o.case.violation and not o.found
                else ("FORBIDDEN" if o.forbidden else ("ERROR" if o.error else "FALSE ALARM"))
            )
            want = ",".join(o.case.expect) or "nothing"
            got = ", ".join(f"{r}×{n}" for r, n in sorted(o.rules.items())) or "nothing"
            err = f" {o.error}" if o.error else ""
            print(f"\n{kind:11} {o.case.name} [{o.case.fmt}] want {want}")
            print(f"            got {got}{err}")
    return 0 if all(o.ok for o in outs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
