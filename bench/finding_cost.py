"""What a finding costs, stage by stage, on one transcript (one process, `--jobs 1` path).

    python bench/finding_cost.py FILE [--profile wukong] [--repeat 3]

Stages (CPU seconds, the minimum of the repeats): reading the units alone; the scan
(`tally`) as it is; the scan with everything after a unit's candidates are known left out
(so the difference is what turning candidates into findings costs); the scan with the
matchers' hits dropped as they come (the difference: making and sorting the candidates);
the worker's pickling of its Tally (and the parent's unpickling); the report: sort, masking
of paths, JSON bytes.
Each is printed per finding in microseconds too. On a shared machine take several runs.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from functools import partial

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def _cpu() -> float:
    return time.process_time()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--profile")
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()

    from wukong_lint.cli import _build_parser, common
    from wukong_lint.engine import scan
    from wukong_lint.engine.masking.masker import mask_report, masker_for
    from wukong_lint.report import json_report
    from wukong_lint.sources import transcripts
    from wukong_lint.sources.dispatch import units_for_files

    argv = ["check", "--format", "json", opts.file]
    argv += ["--profile", opts.profile] if opts.profile else []
    args = _build_parser().parse_args(argv)
    config = common.load_config(args)
    transcripts.configure(args.profile, None, None)
    ruleset = common.build_ruleset(args, config, details=False)
    files = [(opts.file, opts.file)]

    real_scan_unit = scan.scan_unit
    best: dict[str, float] = {}

    def keep(name: str, seconds: float) -> None:
        best[name] = min(best.get(name, seconds), seconds)

    result = None
    for _ in range(opts.repeat):
        started = _cpu()
        for _item in units_for_files(files):
            pass
        keep("units", _cpu() - started)

        started = _cpu()
        result = scan.tally(ruleset, units_for_files(files))
        keep("scan", _cpu() - started)

        # candidates only: scan_unit's post-processing replaced by a count
        scan.scan_unit = _candidates_only
        try:
            started = _cpu()
            scan.tally(ruleset, units_for_files(files))
            keep("scan-candidates", _cpu() - started)
            real_gather = scan._gather
            scan._gather = partial(_hits_only, real_gather)
            try:
                started = _cpu()
                scan.tally(ruleset, units_for_files(files))
                keep("scan-hits", _cpu() - started)
            finally:
                scan._gather = real_gather
        finally:
            scan.scan_unit = real_scan_unit

        started = _cpu()
        data = pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
        keep("pickle", _cpu() - started)
        started = _cpu()
        pickle.loads(data)
        keep("unpickle", _cpu() - started)

        scanner = scan.Scanner(ruleset)
        scanner.add(result)
        started = _cpu()
        report = scanner.report()
        keep("report-sort", _cpu() - started)
        started = _cpu()
        report = mask_report(report, masker_for(ruleset))
        keep("mask-report", _cpu() - started)
        started = _cpu()
        with open(os.devnull, "wb") as handle:
            for chunk in json_report.chunks(report):
                handle.write(chunk.encode("utf-8"))
        keep("json", _cpu() - started)

    assert result is not None
    count = len(result.findings)
    print(f"{opts.file} profile={opts.profile or 'default'}: {count} findings, "
          f"{len(data)} pickled bytes")  # fmt: skip
    post = best["scan"] - best["scan-candidates"]
    made = best["scan-candidates"] - best["scan-hits"]
    rows = [(name, best[name]) for name in best] + [
        ("candidates (- hits)", made),
        ("post (scan - candidates)", post),
    ]
    for name, seconds in rows:
        print(
            f"  {name:26} {seconds * 1000:8.1f} ms  {seconds / max(count, 1) * 1e6:7.2f} us/finding"
        )
    total = made + post + best["pickle"] + best["unpickle"] + best["report-sort"]
    total += best["mask-report"] + best["json"]
    print(f"  {'per finding, all in':26} {total * 1000:8.1f} ms  "
          f"{total / max(count, 1) * 1e6:7.2f} us/finding")  # fmt: skip
    return 0


def _hits_only(gather, rule, run, unit, lines, pinned, found, errors) -> None:
    """scan._gather that runs the matcher to its last hit and keeps none but secrets' (the
    generic secret rules skip what specific ones found: without those they would work more)."""
    if rule.category == "secret":
        gather(rule, run, unit, lines, pinned, found, errors)
        return
    for _hit in run():
        pass


def _candidates_only(ruleset, unit, occurrences=None):
    """scan_unit's first half (matchers, overlap and context filters) and no findings: a
    copy of engine/scan.py's code up to the candidates (keep it in step with it)."""
    from wukong_lint.engine import scan

    if True:
        found: list = []
        errors: list = []
        pinned = unit.source.kind == "transcript"
        lines = scan._Lines(unit.text) if not pinned or unit.added_lines is not None else None
        from functools import partial

        from wukong_lint.engine.matchers import match_regex

        deferred = []
        for rule, matcher, offsets in ruleset.runnable(unit):
            if matcher is match_regex and rule.category == "secret" and "generic" in rule.tags:
                deferred.append((rule, offsets))
                continue
            scan._gather(rule, partial(matcher, rule, unit, offsets), unit, lines, pinned,
                         found, errors)  # fmt: skip
        if deferred:
            covered = [(c.hit.secret_start, c.hit.secret_end) for c in scan._kept_specific(found)]
            for rule, offsets in deferred:
                run_ = partial(match_regex, rule, unit, offsets, covered)
                scan._gather(rule, run_, unit, lines, pinned, found, errors)
        if found:
            found = scan._drop_overlaps(found)
            found = scan._drop_superseded(found)
            found = scan._in_context(unit, found)
            if len(found) > 1:
                found.sort(key=lambda c: (c.anchor, c.rule.id))
        return [], errors


if __name__ == "__main__":
    raise SystemExit(main())
