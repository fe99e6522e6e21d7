"""The live hook against its adversarial corpus (issue 26): how many attacks it stops and how
many everyday calls it gets in the way of.

    python bench/guard_measure.py [--jobs 2] [--mode json|exit] [--profile generic|wukong]
        [--code DIR] [--only CLASS] [--show] [--json OUT]

Every event of tests/fixtures/guard/ goes through the real hook (`python -m wukong_lint hook`,
one process per event, as Claude Code starts it) in a temporary home holding a small project
(tests/guard_corpus.py). Prints per class: attacks stopped (deny or ask) and, of those
labelled "deny", how many were denied; everyday calls asked and denied; the sequences whose
last step was stopped after the earlier steps were carried out. The ids that fail follow
each table (`--show`: with the hook's answer). `--code DIR` measures the wukong_lint of
another checkout (put first on PYTHONPATH). Exit mode shows what the default set-up does:
its ask tier lets the call run, so an ask there counts as allowed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import guard_corpus as gc  # noqa: E402


def _options(args: argparse.Namespace) -> dict[str, Any]:
    extra = ("--profile", args.profile) if args.profile else ()
    return {"mode": args.mode, "args": extra, "pythonpath": args.code}


def _judge(task: tuple[dict[str, Any], gc.Sandbox, dict[str, Any]]) -> gc.Verdict:
    row, sandbox, options = task
    return gc.run_hook(row["event"], sandbox, ident=row["id"], **options)


def _sequence(task: tuple[dict[str, Any], gc.Sandbox, dict[str, Any]]) -> Any:
    row, master, options = task
    sandbox = master.copy()
    try:
        return gc.run_sequence(row, sandbox, **options)
    except (ValueError, OSError) as err:  # a step the corpus cannot carry out
        return f"setup failed: {err}"
    finally:
        sandbox.cleanup()


def _ids(ids: list[str], width: int = 96) -> str:
    return textwrap.fill(
        " ".join(ids),
        width,
        initial_indent="    ",
        subsequent_indent="    ",
        break_on_hyphens=False,
    )


def _short(verdict: gc.Verdict) -> str:
    reason = " ".join(verdict.reason.split())
    return f"{verdict.decision}: {reason[:150]}" if reason else verdict.decision


def report_attacks(rows: list[dict], verdicts: list[gc.Verdict], show: bool) -> dict:
    by_class: dict[str, list[tuple[dict, gc.Verdict]]] = defaultdict(list)
    for row, verdict in zip(rows, verdicts, strict=True):
        by_class[row["class"]].append((row, verdict))
    print("\nAttacks: stopped = deny or ask (target 100 %); denied = of those labelled deny")
    print(f"  {'class':<14} {'n':>4} {'stopped':>13} {'deny-labelled':>14} {'denied':>13}")
    summary = {}
    total = Counter()
    for name in sorted(by_class):
        pairs = by_class[name]
        stopped = sum(v.stopped for _, v in pairs)
        labelled = [(r, v) for r, v in pairs if r["expect"] == "deny"]
        denied = sum(v.decision == "deny" for _, v in labelled)
        total.update(n=len(pairs), stopped=stopped, labelled=len(labelled), denied=denied)
        share, denied_share = 100 * stopped / len(pairs), 100 * denied / max(1, len(labelled))
        print(
            f"  {name:<14} {len(pairs):>4} {stopped:>6} ({share:3.0f} %)"
            f" {len(labelled):>14} {denied:>6} ({denied_share:3.0f} %)"
        )
        summary[name] = {
            "n": len(pairs),
            "stopped": stopped,
            "deny_labelled": len(labelled),
            "denied": denied,
        }
    n, s, lab, d = total["n"], total["stopped"], total["labelled"], total["denied"]
    print(f"  {'all':<14} {n:>4} {s:>6} ({100 * s / n:3.0f} %) {lab:>14} "
          f"{d:>6} ({100 * d / max(1, lab):3.0f} %)")  # fmt: skip
    print("  Not stopped:")
    for name in sorted(by_class):
        missed = [(r, v) for r, v in by_class[name] if not v.stopped]
        if missed:
            print(f"  {name} ({len(missed)}):")
            print(_ids([r["id"] for r, _ in missed]))
            if show:
                for r, v in missed:
                    print(f"      {r['id']}: {_short(v)}")
    asked = [(r, v) for r, v in zip(rows, verdicts, strict=True)
             if r["expect"] == "deny" and v.decision == "ask"]  # fmt: skip
    if asked:
        print(f"  Labelled deny, only asked ({len(asked)}):")
        print(_ids([r["id"] for r, _ in asked]))
    return summary


def report_everyday(rows: list[dict], verdicts: list[gc.Verdict], show: bool) -> dict:
    by_class: dict[str, list[tuple[dict, gc.Verdict]]] = defaultdict(list)
    for row, verdict in zip(rows, verdicts, strict=True):
        by_class[row["class"]].append((row, verdict))
    print("\nEveryday calls: asked (target <= 1 %) and denied (target 0)")
    print(f"  {'class':<14} {'n':>4} {'asked':>6} {'denied':>7} {'error':>6}")
    summary = {}
    total = Counter()
    for name in sorted(by_class):
        pairs = by_class[name]
        count = Counter(v.decision for _, v in pairs)
        errors = count["error"] + count["timeout"]
        total.update(n=len(pairs), ask=count["ask"], deny=count["deny"], error=errors)
        print(f"  {name:<14} {len(pairs):>4} {count['ask']:>6} {count['deny']:>7} {errors:>6}")
        summary[name] = {"n": len(pairs), "asked": count["ask"], "denied": count["deny"],
                         "errors": errors}  # fmt: skip
    n = total["n"]
    print(
        f"  {'all':<14} {n:>4} {total['ask']:>6} {total['deny']:>7} {total['error']:>6}"
        f"   ({100 * total['ask'] / n:.1f} % asked, {100 * total['deny'] / n:.1f} % denied)"
    )
    for label, wanted in (("Denied", ("deny",)), ("Asked", ("ask",)),
                          ("Errors", ("error", "timeout"))):  # fmt: skip
        bad = [(r, v) for r, v in zip(rows, verdicts, strict=True) if v.decision in wanted]
        if bad:
            print(f"  {label} ({len(bad)}):")
            print(_ids([r["id"] for r, _ in bad]))
            if show:
                for r, v in bad:
                    print(f"      {r['id']}: {_short(v)}")
    return summary


def report_sequences(rows: list[dict], results: list[Any], show: bool) -> dict:
    print("\nSequences: last step stopped after the earlier steps were carried out")
    print(f"  {'class':<18} {'n':>3} {'last held':>10} {'every step as labelled':>23}")
    by_class: dict[str, list[tuple[dict, Any]]] = defaultdict(list)
    for row, result in zip(rows, results, strict=True):
        by_class[row["class"]].append((row, result))
    summary = {}
    failing = []
    for name in sorted(by_class):
        held = steps_ok = 0
        for row, result in by_class[name]:
            if isinstance(result, str):
                failing.append((row["id"], result))
                continue
            last = gc.meets(row["expect_last"], result[-1])
            held += last
            expects = row.get("expect_steps") or [None] * (len(result) - 1) + [row["expect_last"]]
            every = last and all(gc.meets(e, v) for e, v in zip(expects[:-1], result, strict=False))
            steps_ok += every
            if not every:
                failing.append((row["id"], " | ".join(_short(v)[:70] for v in result)))
        n = len(by_class[name])
        print(f"  {name:<18} {n:>3} {held:>10} {steps_ok:>23}")
        summary[name] = {"n": n, "last_held": held, "all_steps": steps_ok}
    if failing:
        print("  Failing (a step not as labelled):")
        print(_ids([ident for ident, _ in failing]))
        if show:
            for ident, text in failing:
                print(f"      {ident}: {text}")
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--mode", choices=("json", "exit"), default="json")
    parser.add_argument("--profile", choices=("generic", "wukong"))
    parser.add_argument("--code", help="a checkout whose wukong_lint is measured")
    parser.add_argument("--only", help="one class (attacks, everyday or sequences)")
    parser.add_argument("--show", action="store_true", help="print the hook's answer to each miss")
    parser.add_argument("--json", metavar="OUT", help="write the figures and verdicts as JSON")
    args = parser.parse_args()
    if args.code:
        args.code = os.path.abspath(args.code)
    options = _options(args)

    problems = gc.validate()
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    attacks, everyday, sequences = gc.load_attacks(), gc.load_everyday(), gc.load_sequences()
    if args.only:
        attacks = [r for r in attacks if r["class"] == args.only]
        everyday = [r for r in everyday if r["class"] == args.only]
        sequences = [r for r in sequences if r["class"] == args.only]
    master = gc.make_sandbox()
    start = time.perf_counter()
    try:
        print(f"sandbox: home {master.home}, project {master.project}")
        if not gc.is_home_like(master):
            print(
                "  (the home is not under /home: absolute {HOME} paths look like temporary "
                "files to a hook that tells homes by their path; WUKONG_GUARD_BASE=/home)"
            )
        warm = gc.run_hook(
            {"tool_name": "Bash", "tool_input": {"command": "ls"}}, master, **options
        )  # (builds the rule cache the sandbox copies share)
        print(f"hook: {' '.join(gc.hook_command(args.mode, options['args'])[1:])}"
              f"{' with PYTHONPATH=' + args.code if args.code else ''}; first run {warm.decision} "
              f"in {warm.seconds:.1f} s")  # fmt: skip
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            single = [(r, master, options) for r in attacks + everyday]
            verdicts = list(pool.map(_judge, single, chunksize=4))
            results = list(pool.map(_sequence, [(r, master, options) for r in sequences]))
    finally:
        master.cleanup()
    attack_verdicts, everyday_verdicts = verdicts[: len(attacks)], verdicts[len(attacks) :]
    out: dict[str, Any] = {"mode": args.mode, "profile": args.profile or "default"}
    if attacks:
        out["attacks"] = report_attacks(attacks, attack_verdicts, args.show)
    if everyday:
        out["everyday"] = report_everyday(everyday, everyday_verdicts, args.show)
    if sequences:
        out["sequences"] = report_sequences(sequences, results, args.show)
    seconds = [v.seconds for v in verdicts]
    if seconds:
        seconds.sort()
        print(f"\n{len(verdicts)} events and {len(sequences)} sequences in "
              f"{time.perf_counter() - start:.0f} s; median hook run "
              f"{1000 * seconds[len(seconds) // 2]:.0f} ms (pool of {args.jobs})")  # fmt: skip
    if args.json:
        names = [f"attacks/{r['id']}" for r in attacks] + [f"everyday/{r['id']}" for r in everyday]
        out["verdicts"] = {name: v._asdict() for name, v in zip(names, verdicts, strict=True)}
        out["sequence_verdicts"] = {
            r["id"]: res if isinstance(res, str) else [v._asdict() for v in res]
            for r, res in zip(sequences, results, strict=True)
        }
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
