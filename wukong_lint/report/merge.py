"""`wukong-lint merge`: the JSON or SARIF reports of a scan's shards (`check --shard K/N`)
read back into one Report, which the JSON and SARIF writers of this package then write.

- Findings are de-duplicated by fingerprint (with the commit: a history scan reports the
  same value at the same path in two commits under one fingerprint): a finding that several
  reports hold is kept as many times as the report that holds it most often, so merging the
  same report twice, or a shard with the whole scan, counts nothing twice, and the N disjoint
  shards of a scan give back exactly its findings.
- Stats are summed (files, bytes, units, seconds of the shards' runs, suppressed, skipped);
  errors are kept (the same de-duplication).
- Fail closed: a file that cannot be read or is no wukong-lint report, JSON mixed with
  SARIF, reports of different splits (K/3 with K/4), a shard given twice, sharded reports
  mixed with whole ones: MergeError (exit 2). Shards missing from a complete split are
  said by the merged report (`shard.missing`); the command decides the exit code.

Layer: `report` (may import `engine`, `model`, `util`).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote_to_bytes

from wukong_lint.model import Finding, Report, ScanError, Severity, ShardInfo, Source, Stats
from wukong_lint.util.errors import InputError

MAX_REPORT_BYTES = 2 << 30  # (a report bigger than this is not one of ours)


class MergeError(InputError):
    """A report that cannot be merged (exit 2)."""


@dataclass(frozen=True)
class RuleInfo:
    """A rule as a SARIF report describes it: what the SARIF writer needs to describe it
    again (the writer's `rules`)."""

    id: str
    message: str
    docs: str
    severity: int
    category: str
    kind: str
    enabled: bool
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Loaded:
    """One report read back: its format (json, sarif), the Report, its rules (SARIF)."""

    path: str
    format: str
    report: Report
    rules: tuple[RuleInfo, ...] = field(default=())


def load(path: str) -> Loaded:
    """A JSON or SARIF report of wukong-lint, read back."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_REPORT_BYTES + 1)
    except OSError as err:
        raise MergeError(f"merge: cannot read {path}: {err.strerror or err}") from None
    if len(data) > MAX_REPORT_BYTES:
        raise MergeError(f"merge: {path}: larger than {MAX_REPORT_BYTES >> 30} GiB")
    try:
        document = json.loads(data.decode("utf-8", "surrogateescape"))
    except (ValueError, RecursionError):
        raise MergeError(f"merge: {path}: not a JSON document (expected a JSON or SARIF "
                         "report of wukong-lint)") from None  # fmt: skip
    try:
        if isinstance(document, dict) and "runs" in document and "version" in document:
            report, rules = _from_sarif(document)
            return Loaded(path, "sarif", report, rules)
        if isinstance(document, dict) and document.get("tool") == "wukong-lint":
            if document.get("version") != 1:
                raise ValueError(f"JSON report version {document.get('version')!r} (expected 1)")
            return Loaded(path, "json", _from_json(document))
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        why = f"{type(err).__name__}: {err}" if isinstance(err, (KeyError,)) else str(err)
        raise MergeError(f"merge: {path}: not a readable wukong-lint report ({why})") from None
    raise MergeError(f"merge: {path}: not a JSON or SARIF report of wukong-lint")


def _source(data: dict[str, Any]) -> Source:
    record = data.get("record")
    return Source(
        kind=str(data.get("kind") or "file"),
        tool=_opt_str(data.get("tool")),
        agent=_opt_str(data.get("agent")),
        record=None if record is None else int(record),
        commit=_opt_str(data.get("commit")),
    )


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _shard(data: Any) -> ShardInfo | None:
    if data is None:
        return None
    count = int(data["count"])
    indexes = tuple(int(k) for k in data["indexes"]) if "indexes" in data else (int(data["index"]),)
    if count < 1 or not indexes or any(not 1 <= k <= count for k in indexes):
        raise ValueError(f"shard {data!r}: each shard must be 1 to its count")
    return ShardInfo(count, tuple(sorted(set(indexes))))


def _from_json(document: dict[str, Any]) -> Report:
    findings = tuple(
        Finding(
            rule_id=str(f["rule_id"]),
            category=str(f["category"]),
            severity=Severity.parse(f["severity"]),
            message=str(f["message"]),
            path=str(f["path"]),
            line=int(f["line"]),
            column=int(f["column"]),
            end_line=int(f["end_line"]),
            snippet=str(f.get("snippet") or ""),
            fingerprint=str(f["fingerprint"]),
            source=_source(f.get("source") or {}),
        )
        for f in document["findings"]
    )
    stats = document.get("stats") or {}
    errors = tuple(ScanError(str(e["path"]), str(e["message"])) for e in document.get("errors", ()))
    return Report(findings, _stats(stats), errors, _shard(document.get("shard")))


def _stats(data: dict[str, Any]) -> Stats:
    return Stats(
        files=int(data.get("files", 0)),
        bytes=int(data.get("bytes", 0)),
        units=int(data.get("units", 0)),
        seconds=float(data.get("seconds", 0.0)),
        suppressed=int(data.get("suppressed", 0)),
        skipped=int(data.get("skipped", 0)),
    )


def _path_of(uri: str) -> str:
    """A report path from a SARIF artifact URI (the writer's `to_uri` undone)."""
    if uri.startswith("file://"):
        uri = uri[len("file://") :]
    return os.fsdecode(unquote_to_bytes(uri)) if "%" in uri else uri


def _from_sarif(document: dict[str, Any]) -> tuple[Report, tuple[RuleInfo, ...]]:
    findings: list[Finding] = []
    errors: list[ScanError] = []
    rules: dict[str, RuleInfo] = {}
    totals = Stats()
    shard: ShardInfo | None = None
    for run in document["runs"]:
        driver = run["tool"]["driver"]
        if driver.get("name") != "wukong-lint":
            raise ValueError(f"a SARIF run of {driver.get('name')!r}, not of wukong-lint")
        for descriptor in driver.get("rules", ()):
            props = descriptor.get("properties", {})
            rules[descriptor["id"]] = RuleInfo(
                id=descriptor["id"],
                message=descriptor.get("shortDescription", {}).get("text", ""),
                docs=descriptor.get("help", {}).get("text", ""),
                severity=int(Severity.parse(props.get("severity", "medium"))),
                category=props.get("category", ""),
                kind=props.get("kind", ""),
                enabled=bool(descriptor.get("defaultConfiguration", {}).get("enabled", True)),
                tags=tuple(props.get("tags", ())),
            )
        for result in run.get("results", ()):
            findings.append(_sarif_finding(result))
        for invocation in run.get("invocations", ()):
            for note in invocation.get("toolExecutionNotifications", ()):
                location = note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                errors.append(ScanError(_path_of(location), note["message"]["text"]))
        props = run.get("properties") or {}
        if "shard" in props:
            shard = _shard(props["shard"])
        stats = _stats(props.get("stats") or {})
        totals = Stats(*(a + b for a, b in zip(totals, stats, strict=True)))
    return Report(tuple(findings), totals, tuple(errors), shard), tuple(rules.values())


def _sarif_finding(result: dict[str, Any]) -> Finding:
    props = result.get("properties", {})
    location = result["locations"][0]["physicalLocation"]
    region = location.get("region", {})
    suppressed_by = ""
    if result.get("suppressions"):
        why = result["suppressions"][0].get("justification", "")
        suppressed_by = why.removeprefix("suppressed by ") or "inline"
    from wukong_lint.report.sarif import FINGERPRINT_KEY

    return Finding(
        rule_id=str(result["ruleId"]),
        category=str(props["category"]),
        severity=Severity.parse(props["severity"]),
        message=str(result["message"]["text"]),
        path=_path_of(location["artifactLocation"]["uri"]),
        line=int(region.get("startLine", 1)),
        column=int(region.get("startColumn", 1)),
        end_line=int(region.get("endLine", region.get("startLine", 1))),
        snippet=str(region.get("snippet", {}).get("text", "")),
        fingerprint=str(result["partialFingerprints"][FINGERPRINT_KEY]),
        source=_source({**props, "kind": props.get("source")}),
        suppressed=bool(suppressed_by),
        suppressed_by=suppressed_by,
    )


@dataclass(frozen=True)
class Merged:
    """The merged report, the rules the SARIF reports described, and their format."""

    report: Report
    rules: tuple[RuleInfo, ...]
    format: str


def merge(loaded: Sequence[Loaded]) -> Merged:
    """One report of several (see the module's docstring for what is refused)."""
    if not loaded:
        raise MergeError("merge: no report given")
    formats = sorted({item.format for item in loaded})
    if len(formats) > 1:
        kinds = ", ".join(f"{item.path} ({item.format})" for item in loaded)
        raise MergeError(f"merge: reports of one format only (JSON or SARIF), got: {kinds}")
    shard = _coverage(loaded)
    findings = _union(
        [item.report.findings for item in loaded],
        lambda f: (f.fingerprint, f.source.commit),
    )
    findings.sort(key=lambda f: (f.path, f.line, f.column, f.rule_id, f.source.commit or ""))
    errors = _union([item.report.errors for item in loaded], lambda e: e)
    stats = Stats(*(sum(values) for values in zip(*(i.report.stats for i in loaded), strict=True)))
    stats = stats._replace(seconds=round(stats.seconds, 4))
    rules: dict[str, RuleInfo] = {}
    for item in loaded:
        for rule in item.rules:
            rules.setdefault(rule.id, rule)
    report = Report(tuple(findings), stats, tuple(errors), shard)
    return Merged(report, tuple(rules.values()), formats[0])


def _union(groups: Iterable[Sequence[Any]], key: Any) -> list[Any]:
    """The items of every group, each key as many times as the group that has it most."""
    out: list[Any] = []
    kept: Counter[Any] = Counter()
    for group in groups:
        here: Counter[Any] = Counter()
        for item in group:
            k = key(item)
            here[k] += 1
            if here[k] > kept[k]:
                kept[k] += 1
                out.append(item)
    return out


def _coverage(loaded: Sequence[Loaded]) -> ShardInfo | None:
    """The shards the reports cover (None: whole scans merged); MergeError for splits that
    do not fit together."""
    sharded = [item for item in loaded if item.report.shard is not None]
    if not sharded:
        return None
    if len(sharded) != len(loaded):
        whole = next(item.path for item in loaded if item.report.shard is None)
        raise MergeError(
            f"merge: {whole} is no shard's report (no `shard`): the others are shards of a "
            "split scan; merge the shards of one split only"
        )
    counts = {item.report.shard.count for item in sharded if item.report.shard}
    if len(counts) > 1:
        raise MergeError(
            "merge: reports of different splits: "
            + ", ".join(f"{item.path} ({_label(item)})" for item in sharded)
        )
    owner: dict[int, str] = {}
    for item in sharded:
        assert item.report.shard is not None
        for index in item.report.shard.indexes:
            if index in owner:
                raise MergeError(
                    f"merge: shard {index}/{counts.pop()} is in two reports: {owner[index]} "
                    f"and {item.path}"
                )
            owner[index] = item.path
    return ShardInfo(counts.pop(), tuple(sorted(owner)))


def _label(item: Loaded) -> str:
    return item.report.shard.label if item.report.shard else "whole"
