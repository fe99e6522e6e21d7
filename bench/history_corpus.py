# ruff: noqa: E501  (records are kept one literal each, as the agents write them)
"""A synthetic agent-history folder of a requested size, with planted fake secrets and a
manifest of them: the corpus of issue 29 (check and redact every agent's session history).

    python bench/history_corpus.py --out /tmp/history --mb 1000 [--seed 29]
        [--agents claude,codex,gemini] [--rate 0.02] [--huge] [--huge-mb 34]

Writes, under OUT, the three agents' default layouts (tests/fixtures/history/FORMATS.md
describes each shape and where it comes from):

    claude/projects/<cwd slug>/<session uuid>.jsonl
    claude/projects/<cwd slug>/<session uuid>/subagents/agent-<id>.jsonl + agent-<id>.meta.json
    claude/projects/<cwd slug>/<session uuid>/tool-results/<tool use id>.txt
    codex/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<thread uuid>.jsonl
        (the older `response_item` schema of 2025 and the 0.149 one of 2026: `ordinal`,
        `world_state`, unified exec, code-mode `exec`/`wait`, `item_completed`, ...)
    gemini/tmp/<project>/chats/session-<time>-<id8>.json    (before Gemini CLI 0.39)
    gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl   (0.39 on) + chats/<session>/<sub>.jsonl

and OUT/MANIFEST.jsonl: one line per line a planted secret stands on (file, line, the field
path(s), the kind of field, encoding, the rule id wukong-lint should report, the SHA-256
prefix, first 4 characters and length of the part a redaction must remove; never the
secret), OUT/MANIFEST.files.jsonl (every file: agent, format, size) and
OUT/MANIFEST.summary.json (counts by agent, field kind and encoding; sizes).

Sessions hold many small records and some large ones (Read results and Edit `originalFile`s
of up to ~200 KB, long Bash outputs), sub-agents, compactions (Claude `compact_boundary` and
its summary, Codex `compacted` with `replacement_history`), and parallel tool calls whose
result line is sometimes written before the line of its own call (the `parentUuid` chain
stays right). Secrets are planted in every kind of stored field, in four encodings: plain;
escaped (inside a string, between JSON-escaped quotes and newlines); nested-json (inside JSON
text held in a string: escaped twice or more); unicode-escape (one character of the secret
written as a `\\uXXXX` escape, which only a reader that decodes the JSON sees through).

`--huge` adds one Claude session whose single record is longer than 32 MiB (`--huge-mb`):
a Bash `toolUseResult.stdout` of a minified one-line dump, with secrets at 1 MiB, in the
middle and past 32 MiB; the same dump is the session's `tool-results/` file, one line of
plain text.

Seeded and deterministic: the same arguments write the same bytes (file mtimes are set to
each session's last record). Nothing secret is printed.
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import json
import math
import os
import random
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from history_secrets import MAKERS, Secret, in_context, make

MIB = 1 << 20
ENCODINGS = ("plain", "escaped", "nested-json", "unicode-escape")
KINDS = sorted(MAKERS)
# rare records get more of the plants, so that every kind of field is well covered
BOOST = {"hook-output": 8.0, "progress": 8.0, "system-record": 8.0, "compaction": 10.0,
         "summary": 5.0, "document": 8.0, "tool-results-file": 8.0, "context-state": 6.0, "inter-agent": 8.0}  # fmt: skip
EPOCH = 1756684800  # 2025-09-01T00:00:00Z: sessions spread over the year that follows

WORDS = [
    "the",
    "request",
    "handler",
    "returns",
    "a",
    "cached",
    "value",
    "when",
    "the",
    "key",
    "exists",
    "otherwise",
    "it",
    "loads",
    "the",
    "record",
    "from",
    "the",
    "database",
    "and",
    "stores",
    "it",
    "for",
    "later",
    "calls",
    "with",
    "a",
    "short",
    "expiry",
    "so",
    "that",
    "stale",
    "reads",
    "stay",
    "rare",
    "under",
    "load",
    "while",
    "the",
    "worker",
    "pool",
    "drains",
    "the",
    "queue",
    "in",
    "order",
    "and",
    "retries",
    "failed",
    "jobs",
    "with",
    "backoff",
    "until",
    "the",
    "deadline",
    "passes",
    "then",
    "marks",
    "them",
    "as",
    "dead",
    "letters",
    "for",
    "a",
    "human",
    "to",
    "inspect",
    "in",
    "the",
    "dashboard",
    "before",
    "the",
    "next",
    "deploy",
    "window",
    "opens",
]
IDENT = ("user", "order", "invoice", "session", "token", "cache", "queue", "worker", "client",
         "config", "report", "payment", "account", "event", "batch", "index", "schema")  # fmt: skip
PROJECTS = ("acme-api", "billing-service", "web-dashboard", "infra", "ml-pipeline", "mobile-app",
            "docs-site", "data-etl", "auth-gateway", "search", "notifications", "cli-tools")  # fmt: skip


def compact(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------------------------------
# Text pools: made once per corpus, picked from for every record (fast and realistic enough)


class Pool:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.sentences = [self._sentence() for _ in range(3000)]
        self.files = [self._file(i) for i in range(500)]
        self.out_lines = [self._out_line() for _ in range(4000)]

    def _sentence(self) -> str:
        r = self.rng
        words = [r.choice(WORDS) for _ in range(r.randint(6, 22))]
        return " ".join(words).capitalize() + r.choice((".", ".", ".", "?", ":"))

    def _file(self, i: int) -> tuple[str, str]:
        r = self.rng
        size = int(min(220_000, max(300, r.lognormvariate(8.6, 1.1))))
        ext = r.choice((".py", ".py", ".ts", ".go", ".yaml", ".md", ".sql"))
        name = f"src/{r.choice(IDENT)}/{r.choice(IDENT)}_{i}{ext}"
        rows: list[str] = []
        n = 0
        while n < size:
            a, b = r.choice(IDENT), r.choice(IDENT)
            if ext == ".py":
                row = r.choice((f"def {a}_{b}(self, {b}_id: int) -> dict:", f"    return self.{a}.get({b}_id)",
                                f"    # {r.choice(self.sentences) if hasattr(self, 'sentences') else a}",
                                f"class {a.title()}{b.title()}Service:", "", f"    {a} = {b}.load()"))  # fmt: skip
            elif ext == ".ts":
                row = r.choice((f"export function {a}{b.title()}({b}: {a.title()}): void {{", f"  const {a} = await fetch{b.title()}();",
                                "}", f"  // {a} {b}", f"import {{ {a} }} from './{b}';", ""))  # fmt: skip
            elif ext == ".go":
                row = r.choice(
                    (
                        f"func ({a[0]} *{a.title()}) {b.title()}() error {{",
                        f"\treturn {a}.{b}()",
                        "}",
                        f"\t// {a} {b}",
                    )
                )
            elif ext == ".yaml":
                row = r.choice(
                    (
                        f"{a}:",
                        f"  {b}: {r.randint(1, 900)}",
                        f"  {b}_url: https://{a}.internal/{b}",
                        f"  - {b}",
                    )
                )
            elif ext == ".md":
                row = r.choice(
                    (
                        f"## {a.title()} {b}",
                        r.choice(self.sentences) if hasattr(self, "sentences") else a,
                        "",
                    )
                )
            else:
                row = r.choice(
                    (
                        f"SELECT {a}_id, {b} FROM {a}s WHERE {b} > {r.randint(1, 99)};",
                        f"CREATE INDEX ix_{a}_{b} ON {a}s({b});",
                    )
                )
            rows.append(row)
            n += len(row) + 1
        return name, "\n".join(rows) + "\n"

    def _out_line(self) -> str:
        r = self.rng
        a, b = r.choice(IDENT), r.choice(IDENT)
        return r.choice((
            f"tests/test_{a}.py::test_{b}_{r.randint(1, 40)} PASSED",
            f"{r.randint(1, 9)}.{r.randint(0, 999):03d}s call     tests/test_{a}.py::test_{b}",
            f"src/{a}/{b}.py:{r.randint(1, 400)}:{r.randint(1, 80)}: E501 line too long",
            f"{uuid.UUID(int=r.getrandbits(128)).hex[:7]} fix({a}): handle empty {b}",
            f"-rw-r--r--  1 dev  staff  {r.randint(100, 90000):>6} Aug {r.randint(1, 28):>2} 10:{r.randint(10, 59)} {a}_{b}.py",
            f"[{a}] {b} took {r.randint(1, 900)}ms",
            f"npm warn deprecated {a}-{b}@{r.randint(1, 9)}.{r.randint(0, 20)}.0: use {b}-{a} instead",
        ))  # fmt: skip

    def prose(self, n: int = 2) -> str:
        return " ".join(self.rng.choice(self.sentences) for _ in range(n))

    def output(self, n: int) -> str:
        return "\n".join(self.rng.choice(self.out_lines) for _ in range(n))

    def file(self) -> tuple[str, str]:
        return self.rng.choice(self.files)


# ---------------------------------------------------------------------------------------------
# Planting


@dataclass
class Plant:
    sid: int
    secret: Secret
    provider: str
    where: str
    encoding: str
    fields: list[str] = field(default_factory=list)
    line: int = 0


class Planter:
    """Decides where secrets go, balancing field kinds and encodings per agent, and keeps
    the manifest."""

    def __init__(self, rng: random.Random, rate: float) -> None:
        self.rng = rng
        self.rate = rate
        self.count: Counter[tuple[str, str, str]] = Counter()
        self.next_id = 0
        self.kind_turn = 0

    def maybe(
        self, agent: str, where: str, pretty: bool = False, force: bool = False
    ) -> Plant | None:
        if not force and self.rng.random() >= min(1.0, self.rate * BOOST.get(where, 1.0)):
            return None
        allowed = ENCODINGS[:3] if pretty else ENCODINGS
        encoding = min(allowed, key=lambda e: (self.count[(agent, where, e)], allowed.index(e)))
        self.count[(agent, where, encoding)] += 1
        provider = KINDS[self.kind_turn % len(KINDS)]
        self.kind_turn += 1
        if encoding == "unicode-escape" and provider == "private-key":
            provider = "github-pat"
        self.next_id += 1
        return Plant(self.next_id, make(provider, self.rng), provider, where, encoding)


def view(plant: Plant | None, *fields: str, where: str | None = None) -> Plant | None:
    """The same planted secret in another field (another record, or another field kind)."""
    if plant is None:
        return None
    return Plant(
        plant.sid, plant.secret, plant.provider, where or plant.where, plant.encoding, list(fields)
    )


def carry(pool: Pool, plant: Plant | None, style: str = "prose") -> str:
    """Text for a field, holding the plant's secret in its encoding (or none)."""
    if plant is None:
        return pool.prose(2) if style == "prose" else pool.output(pool.rng.randint(2, 12))
    value = plant.secret.value
    shown = in_context(plant.provider, plant.secret)
    if plant.encoding == "escaped":
        body = f'settings:\n\t"{plant.provider.replace("-", "_")}": "{value}",\n\t"timeout": 30\n'
    elif plant.encoding == "nested-json":
        body = compact(
            {
                "service": pool.rng.choice(IDENT),
                "credentials": {plant.provider.replace("-", "_"): value},
                "retries": 3,
            }
        )
    elif style == "prose":
        body = f"{pool.prose(1)} {shown} {pool.prose(1)}"
    else:
        body = f"{pool.output(3)}\n{plant.provider.upper().replace('-', '_')}={shown}\n{pool.output(3)}"
    return body


def env_name(plant: Plant) -> str:
    return plant.provider.upper().replace("-", "_")


def assign(plant: Plant) -> str:
    """`NAME = "value"`: a line of code or config holding the secret."""
    return f'{env_name(plant)} = "{plant.secret.value}"'


def command(pool: Pool, plant: Plant | None, default: str) -> str:
    """A shell command holding the plant's secret (in its encoding), or `default`."""
    if plant is None:
        return default
    value = plant.secret.value
    if plant.encoding == "nested-json":
        return f"deploy --config '{compact({plant.provider.replace('-', '_'): value})}'"
    if plant.encoding == "escaped":
        return f'export {env_name(plant)}="{value}" && ./scripts/deploy.sh --env staging'
    return f"{env_name(plant)}='{value}' ./scripts/deploy.sh --env staging"


def unicode_escape(line: str, secret: Secret) -> str:
    """Writes one character of the secret's core as a JSON \\u escape in the raw line."""
    core = secret.core
    at = line.find(core)
    if at < 0:
        return line
    k = 5 if len(core) > 8 else 0
    return line[: at + k] + f"\\u{ord(core[k]):04x}" + line[at + k + 1 :]


class Out:
    """One file being written: its lines (or one whole document) and its plants."""

    def __init__(self, rel: str, agent: str, fmt: str, subagent: bool = False) -> None:
        self.rel, self.agent, self.fmt, self.subagent = rel, agent, fmt, subagent
        self.lines: list[str] = []
        self.size = 0
        self.plants: list[Plant] = []
        self.text: str | None = None
        self.mtime = EPOCH

    def add(self, record: Any, *plants: Plant | None) -> None:
        line = compact(record)
        for plant in plants:
            if plant is None:
                continue
            if plant.encoding == "unicode-escape":
                line = unicode_escape(line, plant.secret)
            self.plants.append(Plant(plant.sid, plant.secret, plant.provider, plant.where,
                                     plant.encoding, list(plant.fields), len(self.lines) + 1))  # fmt: skip
        self.lines.append(line)
        self.size += len(line.encode()) + 1

    def document(self, text: str, plants: list[Plant]) -> None:
        """A pretty-printed document: each plant (one per field, in document order) is
        found on the next line that holds its needle."""
        self.text = text
        self.size = len(text.encode())
        starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                starts.append(i + 1)
        after: dict[int, int] = {}
        for plant in plants:
            at = text.find(plant.secret.needle, after.get(plant.sid, 0))
            if at < 0:
                raise RuntimeError(f"{self.rel}: a planted secret is missing")
            after[plant.sid] = at + 1
            plant.line = bisect.bisect_right(starts, at)
            self.plants.append(plant)

    def body(self) -> str:
        return self.text if self.text is not None else "\n".join(self.lines) + "\n"


# ---------------------------------------------------------------------------------------------
# The corpus


class Corpus:
    def __init__(self, out: str, seed: int, rate: float) -> None:
        self.out = out
        self.rng = random.Random(seed)
        self.pool = Pool(random.Random(seed + 1))
        self.planter = Planter(random.Random(seed + 2), rate)
        self.manifest = open(os.path.join(out, "MANIFEST.jsonl"), "w", encoding="utf-8")  # noqa: SIM115
        self.file_list = open(os.path.join(out, "MANIFEST.files.jsonl"), "w", encoding="utf-8")  # noqa: SIM115
        self.files = 0
        self.bytes = 0
        self.by_agent: Counter[str] = Counter()
        self.files_by_format: Counter[str] = Counter()
        self.sessions: Counter[str] = Counter()
        self.entries = 0
        self.unregistered = 0
        self.by_where: Counter[tuple[str, str]] = Counter()
        self.by_encoding: Counter[tuple[str, str]] = Counter()

    def uid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def hexid(self, n: int) -> str:
        return f"{self.rng.getrandbits(4 * n):0{n}x}"

    def b62(self, n: int) -> str:
        return "".join(
            self.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
            for _ in range(n)
        )

    def write(self, out: Out) -> None:
        path = os.path.join(self.out, out.rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        body = out.body()
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(body)
        os.utime(path, (out.mtime, out.mtime))
        self.files += 1
        size = len(body.encode())
        self.bytes += size
        self.by_agent[out.agent] += size
        self.files_by_format[out.fmt] += 1
        self.file_list.write(
            compact(
                {
                    "file": out.rel,
                    "agent": out.agent,
                    "format": out.fmt,
                    "subagent": out.subagent,
                    "bytes": size,
                }
            )
            + "\n"
        )
        self._manifest(out, body)

    def _manifest(self, out: Out, body: str) -> None:
        if not out.plants:
            return
        starts = [0]
        at = body.find("\n")
        while at >= 0:
            starts.append(at + 1)
            at = body.find("\n", at + 1)
        planted: dict[int, set[int]] = {}
        for p in out.plants:
            planted.setdefault(p.sid, set()).add(p.line)
        for p in out.plants:
            self._entry(out, p, p.fields)
        # every line a secret stands on is listed (a value a record repeats elsewhere too)
        seen: set[int] = set()
        for p in out.plants:
            if p.sid in seen:
                continue
            seen.add(p.sid)
            at = body.find(p.secret.needle)
            lines = set()
            while at >= 0:
                lines.add(bisect.bisect_right(starts, at))
                at = body.find(p.secret.needle, at + 1)
            for line in sorted(lines - planted[p.sid]):
                self.unregistered += 1
                extra = Plant(
                    p.sid, p.secret, p.provider, p.where, p.encoding, ["(repeated)"], line
                )
                self._entry(out, extra, extra.fields)

    def _entry(self, out: Out, p: Plant, fields: list[str]) -> None:
        core = p.secret.core
        self.manifest.write(compact({
            "file": out.rel, "line": p.line, "fields": fields, "where": p.where, "encoding": p.encoding,
            "rule": p.secret.rule, "provider": p.provider, "agent": out.agent, "format": out.fmt,
            "subagent": out.subagent, "id": p.sid, "sha256": hashlib.sha256(core.encode()).hexdigest()[:16],
            "prefix": core[:4], "length": len(core),
        }) + "\n")  # fmt: skip
        self.entries += 1
        self.by_where[(out.agent, p.where)] += 1
        self.by_encoding[(out.agent, p.encoding)] += 1

    def session_size(self) -> int:
        """Bytes for the next session: lognormal, median ~120 KB, a long tail to ~24 MB."""
        return int(min(24 * MIB, max(4_000, self.rng.lognormvariate(11.7, 1.3))))

    def when(self) -> float:
        return EPOCH + self.rng.random() * 365 * 86400

    def close(self) -> None:
        self.manifest.close()
        self.file_list.close()


def stamp(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}Z"


# ---------------------------------------------------------------------------------------------
# Claude Code


class ClaudeSession:
    TOOLS = (("Bash", 30), ("Read", 24), ("Edit", 14), ("Grep", 8), ("Glob", 4), ("Write", 5),
             ("TodoWrite", 4), ("WebFetch", 2), ("mcp", 3), ("error", 4), ("Agent", 2))  # fmt: skip

    def __init__(self, c: Corpus, target: int) -> None:
        self.c, self.rng, self.pool, self.pl = c, c.rng, c.pool, c.planter
        self.project = self.rng.choice(PROJECTS)
        self.cwd = f"/home/dev/{self.project}"
        self.slug = self.cwd.replace("/", "-").replace(".", "-")
        self.sid = c.uid()
        self.t = c.when()
        self.version = self.rng.choice(
            ("2.0.14", "2.0.49", "2.1.12", "2.1.88", "2.1.205", "2.1.233")
        )
        self.target = target
        self.main = Out(
            f"claude/projects/{self.slug}/{self.sid}.jsonl", "claude-code", "claude-jsonl"
        )
        self.parent: str | None = None
        self.since_compact = 0
        self.extra: list[Out] = []

    def tick(self, seconds: float = 4.0) -> str:
        self.t += self.rng.expovariate(1 / seconds)
        return stamp(self.t)

    def env(self, kind: str, out: Out, sub: str | None = None, **extra: Any) -> dict[str, Any]:
        record: dict[str, Any] = {"parentUuid": self.parent, "isSidechain": sub is not None, "userType": "external",
                                  "cwd": self.cwd, "sessionId": self.sid, "version": self.version, "gitBranch": "main"}  # fmt: skip
        if sub is not None:
            record["agentId"] = sub
        record["type"] = kind
        record.update(extra)
        record["uuid"] = extra.get("uuid") or self.c.uid()
        record["timestamp"] = self.tick()
        return record

    def plant(self, where: str, *fields: str) -> Plant | None:
        p = self.pl.maybe("claude-code", where)
        if p is not None:
            p.fields = list(fields)
        return p

    def assistant(
        self, out: Out, blocks: list[dict[str, Any]], msg: str, sub: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        message = {"model": "claude-opus-4-8", "id": msg, "type": "message", "role": "assistant", "content": blocks,
                   "stop_reason": None, "stop_sequence": None,
                   "usage": {"input_tokens": self.rng.randint(1, 40), "cache_creation_input_tokens": self.rng.randint(0, 9000),
                             "cache_read_input_tokens": self.rng.randint(10000, 160000), "output_tokens": self.rng.randint(20, 2000)}}  # fmt: skip
        return self.env(
            "assistant", out, sub, message=message, requestId="req_011" + self.c.b62(21), **extra
        )

    def user(self, out: Out, content: Any, sub: str | None = None, **extra: Any) -> dict[str, Any]:
        return self.env("user", out, sub, message={"role": "user", "content": content}, **extra)

    def emit(
        self, out: Out, record: dict[str, Any], *plants: Plant | None, chain: bool = True
    ) -> None:
        out.add(record, *plants)
        if chain and "uuid" in record:
            self.parent = record["uuid"]

    # one tool call: (call block, result record builder, plants of the call)
    def tool(self, out: Out, sub: str | None) -> tuple[dict[str, Any], Any, list[Plant | None]]:
        r = self.rng
        name = r.choices([t for t, _ in self.TOOLS], [w for _, w in self.TOOLS])[0]
        if sub is not None and name == "Agent":
            name = "Bash"
        tid = "toolu_01" + self.c.b62(22)
        call_plants: list[Plant | None] = []
        if name == "Bash":
            p_in = self.plant("tool-input", "message.content[0].input.command")
            command_line = command(self.pool, p_in, r.choice(("pytest -q", "git status", "npm test", "make lint", "ls -la", "git log --oneline -20", "cat .env")))  # fmt: skip
            call = {
                "type": "tool_use",
                "id": tid,
                "name": "Bash",
                "input": {"command": command_line, "description": self.pool.prose(1)[:60]},
            }
            call_plants.append(p_in)
            long_run = r.random() < 0.08  # progress records, and an output stored aside
            p_out = (self.plant("tool-results-file", "toolUseResult.stdout") if long_run
                     else self.plant("tool-output", "message.content[0].content", "toolUseResult.stdout"))  # fmt: skip
            p_meta = None if p_out else self.plant("tool-result-metadata", "toolUseResult.stderr")
            if long_run:
                rows = self.pool.output(r.randint(300, 700)).split("\n")
                if p_out is not None:
                    rows.insert(len(rows) // 2, carry(self.pool, p_out, "output"))
                stdout = "\n".join(rows)
            else:
                stdout = (
                    carry(self.pool, p_out, "output")
                    if p_out
                    else self.pool.output(r.randint(1, 60))
                )
            stderr = carry(self.pool, p_meta, "output") if p_meta else ""

            def result() -> list[tuple[dict[str, Any], list[Plant | None]]]:
                records = []
                content = stdout + (("\n" + stderr) if stderr else "")
                plants = [p_out, p_meta]
                if long_run:
                    p_prog = self.plant("progress", "data.output", "data.fullOutput")
                    text = carry(self.pool, p_prog, "output") if p_prog else self.pool.output(5)
                    records.append((self.env("progress", out, sub, data={"type": "bash_progress", "output": text, "fullOutput": text,
                                                                         "elapsedTimeSeconds": r.randint(3, 300), "totalLines": 5},
                                             toolUseID="bash-progress-0", parentToolUseID=tid), [p_prog]))  # fmt: skip
                    # Claude Code keeps a large output in <session>/tool-results/ and gives the
                    # model a preview; the record's toolUseResult still holds all of it
                    aside = Out(
                        f"claude/projects/{self.slug}/{self.sid}/tool-results/{tid}.txt",
                        "claude-code",
                        "claude-tool-result-file",
                        subagent=sub is not None,
                    )
                    aside.document(
                        content,
                        [
                            q
                            for q in [view(p_out, "(file text)", where="tool-results-file")]
                            if q is not None
                        ],
                    )
                    aside.mtime = self.t
                    self.extra.append(aside)
                    preview = content[:2000]
                    content = (f"<persisted-output>\nOutput too large ({len(content) / 1024:.1f}KB). Full output saved to: "
                               f"/home/dev/.claude/projects/{self.slug}/{self.sid}/tool-results/{tid}.txt\n\nPreview (first 2KB):\n{preview}\n...\n</persisted-output>")  # fmt: skip
                    plants = [
                        view(p_out, "toolUseResult.stdout", where="tool-result-metadata"),
                        p_meta,
                    ]
                records.append((self.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": content, "is_error": False}], sub,
                                          toolUseResult={"stdout": stdout, "stderr": stderr, "interrupted": False, "isImage": False}), plants))  # fmt: skip
                return records

        elif name == "Read":
            path, text = self.pool.file()
            p = self.plant(
                "tool-output", "message.content[0].content", "toolUseResult.file.content"
            )
            if p is not None:
                rows = text.split("\n")
                k = r.randrange(len(rows))
                rows.insert(
                    k,
                    carry(self.pool, p, "output") if p.encoding != "plain" else assign(p),
                )
                text = "\n".join(rows)
            call = {
                "type": "tool_use",
                "id": tid,
                "name": "Read",
                "input": {"file_path": f"{self.cwd}/{path}"},
            }
            numbered = "\n".join(f"{n:>6}→{row}" for n, row in enumerate(text.split("\n"), 1))

            def result() -> list[tuple[dict[str, Any], list[Plant | None]]]:
                n = text.count("\n") + 1
                return [(self.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": numbered}], sub,
                                   toolUseResult={"type": "text", "file": {"filePath": f"{self.cwd}/{path}", "content": text,
                                                                           "numLines": n, "startLine": 1, "totalLines": n}}), [p])]  # fmt: skip

        elif name == "Edit":
            path, text = self.pool.file()
            rows = text.split("\n")
            k = r.randrange(len(rows))
            old = rows[k] or "pass"
            p_old = self.plant("tool-input", "message.content[0].input.old_string")
            if p_old is not None:
                old = (
                    carry(self.pool, p_old, "prose") if p_old.encoding != "plain" else assign(p_old)
                )
                rows[k] = old
            p_orig = (
                None if p_old else self.plant("tool-result-metadata", "toolUseResult.originalFile")
            )
            if p_orig is not None:
                rows.insert(
                    max(0, k - 3),
                    carry(self.pool, p_orig, "output")
                    if p_orig.encoding != "plain"
                    else assign(p_orig),
                )
            original = "\n".join(rows)
            new = old.replace("TOKEN", "token") + "  # edited"
            call = {
                "type": "tool_use",
                "id": tid,
                "name": "Edit",
                "input": {"file_path": f"{self.cwd}/{path}", "old_string": old, "new_string": new},
            }
            call_plants.append(p_old)

            def result() -> list[tuple[dict[str, Any], list[Plant | None]]]:
                return [(self.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": f"The file {self.cwd}/{path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n{k + 1:>6}→{new}"}], sub,
                                   toolUseResult={"filePath": f"{self.cwd}/{path}", "oldString": old, "newString": new, "originalFile": original,
                                                  "structuredPatch": [{"oldStart": k + 1, "oldLines": 1, "newStart": k + 1, "newLines": 1, "lines": [" ", "-" + old, "+" + new]}],
                                                  "userModified": False, "replaceAll": False}),
                         [view(p_old, "toolUseResult.oldString", "toolUseResult.originalFile", "toolUseResult.structuredPatch[0].lines[1]", where="tool-result-metadata"), p_orig])]  # fmt: skip

        elif name == "Write":
            path = f"src/{r.choice(IDENT)}/{r.choice(IDENT)}_{r.randint(1, 999)}.env"
            p = self.plant("tool-input", "message.content[0].input.content")
            content = carry(self.pool, p, "output")
            call = {
                "type": "tool_use",
                "id": tid,
                "name": "Write",
                "input": {"file_path": f"{self.cwd}/{path}", "content": content},
            }
            call_plants.append(p)

            def result() -> list[tuple[dict[str, Any], list[Plant | None]]]:
                return [(self.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": f"File created successfully at: {self.cwd}/{path}"}], sub,
                                   toolUseResult={"type": "create", "filePath": f"{self.cwd}/{path}", "content": content, "structuredPatch": [], "originalFile": None}),
                         [view(p, "toolUseResult.content", where="tool-result-metadata")])]  # fmt: skip

        elif name == "mcp":
            p = self.plant(
                "tool-output", "message.content[0].content[0].text", "toolUseResult[0].text"
            )
            data = {
                "issue": {
                    "id": str(r.randint(1000, 9999)),
                    "title": self.pool.prose(1)[:80],
                    "events": [self.pool.output(1) for _ in range(r.randint(1, 20))],
                }
            }
            if p is not None:
                data["issue"]["context"] = (
                    {"env": {env_name(p): p.secret.value}}
                    if p.encoding == "plain"
                    else {"env": carry(self.pool, p, "output")}
                )
            text = compact(data)
            call = {
                "type": "tool_use",
                "id": tid,
                "name": "mcp__sentry__get_issue",
                "input": {"issue_id": data["issue"]["id"]},
            }

            def result() -> list[tuple[dict[str, Any], list[Plant | None]]]:
                return [(self.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": [{"type": "text", "text": text}]}], sub,
                                   toolUseResult=[{"type": "text", "text": text}]), [p])]  # fmt: skip

        elif name == "error":
            p = self.plant("tool-result-metadata", "toolUseResult")
            call = {
                "type": "tool_use",
                "id": tid,
                "name": "Bash",
                "input": {
                    "command": "psql \"$DATABASE_URL\" -c 'select 1'",
                    "description": "Check the database",
                },
            }
            detail = carry(self.pool, p, "output") if p else "psql: error: connection refused"

            def result() -> list[tuple[dict[str, Any], list[Plant | None]]]:
                return [(self.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": "Exit code 2", "is_error": True}], sub,
                                   toolUseResult=f"Error: Exit code 2\n{detail}"), [p])]  # fmt: skip

        elif name == "WebFetch":
            p = self.plant("tool-result-metadata", "toolUseResult.result")
            body = carry(self.pool, p, "prose") if p else self.pool.prose(6)
            url = f"https://docs.{r.choice(IDENT)}.dev/guide"
            call = {
                "type": "tool_use",
                "id": tid,
                "name": "WebFetch",
                "input": {"url": url, "prompt": "Summarize the setup steps"},
            }

            def result() -> list[tuple[dict[str, Any], list[Plant | None]]]:
                return [(self.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": self.pool.prose(3)}], sub,
                                   toolUseResult={"bytes": 18211, "code": 200, "codeText": "OK", "result": body, "durationMs": 1322, "url": url}), [p])]  # fmt: skip

        elif name == "Agent":
            agent_id = "a" + self.c.hexid(16)
            p_prompt = self.plant("tool-input", "message.content[0].input.prompt")
            prompt = carry(self.pool, p_prompt, "prose") if p_prompt else self.pool.prose(3)
            call = {
                "type": "tool_use",
                "id": tid,
                "name": "Agent",
                "input": {
                    "description": "Investigate " + r.choice(IDENT),
                    "prompt": prompt,
                    "subagent_type": r.choice(("Explore", "general-purpose", "security-reviewer")),
                },
            }
            call_plants.append(p_prompt)
            sub_out = self.subagent(agent_id, prompt, p_prompt, tid, call["input"]["subagent_type"])
            p_rep = self.plant(
                "tool-output", "message.content[0].content[0].text", "toolUseResult.content[0].text"
            )
            report = (
                carry(self.pool, p_rep, "prose") if p_rep else self.pool.prose(4)
            ) + f"\n\nagentId: {agent_id}"

            def result() -> list[tuple[dict[str, Any], list[Plant | None]]]:
                return [(self.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": [{"type": "text", "text": report}]}], sub,
                                   toolUseResult={"status": "completed", "prompt": prompt, "agentId": agent_id, "content": [{"type": "text", "text": report}],
                                                  "totalDurationMs": r.randint(5000, 400000), "totalTokens": r.randint(3000, 90000), "totalToolUseCount": len(sub_out.lines) // 2}),
                         [view(p_prompt, "toolUseResult.prompt", where="tool-result-metadata"), p_rep])]  # fmt: skip

        else:  # Grep, Glob, TodoWrite: small
            call = {
                "type": "tool_use",
                "id": tid,
                "name": name,
                "input": {"pattern": r.choice(IDENT)}
                if name != "TodoWrite"
                else {
                    "todos": [
                        {
                            "content": self.pool.prose(1)[:50],
                            "status": "pending",
                            "activeForm": "Working",
                        }
                    ]
                },
            }
            listing = "\n".join(
                f"src/{r.choice(IDENT)}/{r.choice(IDENT)}.py" for _ in range(r.randint(1, 30))
            )

            def result() -> list[tuple[dict[str, Any], list[Plant | None]]]:
                return [(self.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": listing}], sub,
                                   toolUseResult={"filenames": listing.split("\n"), "durationMs": r.randint(5, 400), "numFiles": listing.count("\n") + 1, "truncated": False}), [])]  # fmt: skip

        return call, result, call_plants

    def turn(self, out: Out, sub: str | None = None) -> None:
        r = self.rng
        if sub is None:
            if r.random() < 0.08:
                p = self.plant("hook-output", "attachment.content", "attachment.stdout")
                text = carry(self.pool, p, "output") if p else self.pool.output(3)
                self.emit(out, self.env("attachment", out, attachment={"type": "hook_success", "hookName": "UserPromptSubmit", "toolUseID": "UserPromptSubmit",
                                                                       "hookEvent": "UserPromptSubmit", "content": text, "stdout": text, "stderr": "", "exitCode": 0,
                                                                       "command": "~/.claude/hooks/context.sh", "durationMs": r.randint(5, 900)}), p)  # fmt: skip
            p = self.plant("user-message", "message.content")
            if r.random() < 0.05:
                pd = self.plant("document", "message.content[0].source.data")
                self.emit(out, self.user(out, [{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": carry(self.pool, pd, "output")}, "title": "log.txt"},
                                               {"type": "text", "text": carry(self.pool, p)}]), pd, p)  # fmt: skip
            else:
                self.emit(out, self.user(out, carry(self.pool, p)), p)
        msg = "msg_01" + self.c.b62(22)
        p = self.plant("thinking", "message.content[0].thinking")
        self.emit(
            out,
            self.assistant(
                out,
                [
                    {
                        "type": "thinking",
                        "thinking": carry(self.pool, p),
                        "signature": "Eo8C" + self.c.b62(80),
                    }
                ],
                msg,
                sub,
            ),
            p,
        )
        for _ in range(r.randint(1, 5)):
            msg = "msg_01" + self.c.b62(22)
            calls = [self.tool(out, sub) for _ in range(r.choices((1, 2, 3, 4), (70, 18, 8, 4))[0])]
            records = []
            for call, _, _ in calls:  # one assistant record per tool_use block, chained
                record = self.assistant(out, [call], msg, sub)
                self.parent = record["uuid"]
                records.append(record)

            def results(
                i: int, records: list[dict[str, Any]] = records, calls: list[Any] = calls
            ) -> None:
                self.parent = records[i]["uuid"]  # a result's parent is the record of its call
                for rec, plants in calls[i][1]():
                    out.add(rec, *plants)
                    self.parent = rec["uuid"]

            n = len(calls)
            if n > 1 and r.random() < 0.3:
                # parallel calls: the last result is written before the line of its own call
                for i in range(n - 1):
                    out.add(records[i], *calls[i][2])
                results(n - 1)
                out.add(records[n - 1], *calls[n - 1][2])
                for i in range(n - 1):
                    results(i)
            else:
                for i in range(n):
                    out.add(records[i], *calls[i][2])
                for i in range(n):
                    results(i)
        p = self.plant("assistant-text", "message.content[0].text")
        self.emit(
            out,
            self.assistant(
                out, [{"type": "text", "text": carry(self.pool, p)}], "msg_01" + self.c.b62(22), sub
            ),
            p,
        )
        if sub is None and r.random() < 0.06:
            p = self.plant("system-record", "hookErrors[0]")
            self.emit(out, self.env("system", out, subtype="stop_hook_summary", hookCount=1, hookInfos=[{"command": "~/.claude/hooks/stop.sh"}],
                                    hookErrors=[carry(self.pool, p, "output") if p else "stop.sh: exit 1"], preventedContinuation=False, stopReason="",
                                    hasOutput=True, level="suggestion"), p)  # fmt: skip

    def compaction(self) -> None:
        out = self.main
        boundary = self.env("system", out, subtype="compact_boundary", content="Conversation compacted", isMeta=False, level="info",
                            compactMetadata={"trigger": "auto", "preTokens": self.rng.randint(150000, 990000)}, logicalParentUuid=self.parent)  # fmt: skip
        boundary["parentUuid"] = None
        self.emit(out, boundary)
        p = self.plant("compaction", "message.content")
        text = ("This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n"
                + carry(self.pool, p) + "\n" + self.pool.prose(8))  # fmt: skip
        self.emit(
            out, self.user(out, text, isCompactSummary=True, isVisibleInTranscriptOnly=True), p
        )

    def subagent(
        self, agent_id: str, prompt: str, p_prompt: Plant | None, tid: str, agent_type: str
    ) -> Out:
        out = Out(
            f"claude/projects/{self.slug}/{self.sid}/subagents/agent-{agent_id}.jsonl",
            "claude-code",
            "claude-subagent-jsonl",
            subagent=True,
        )
        saved = self.parent
        self.parent = None
        self.emit(
            out,
            self.user(out, prompt, agent_id),
            view(p_prompt, "message.content", where="user-message"),
        )
        for _ in range(self.rng.randint(1, 6)):
            self.turn(out, agent_id)
        self.parent = saved
        meta = Out(
            out.rel[: -len(".jsonl")] + ".meta.json",
            "claude-code",
            "claude-subagent-meta",
            subagent=True,
        )
        meta.document(
            compact({"agentType": agent_type, "description": "Investigate", "toolUseId": tid})
            + "\n",
            [],
        )
        out.mtime = meta.mtime = self.t
        self.extra += [out, meta]
        return out

    def write(self) -> None:
        c, out, r = self.c, self.main, self.rng
        out.add({"type": "permission-mode", "permissionMode": "default", "sessionId": self.sid})
        if r.random() < 0.5:
            out.add(
                {
                    "type": "queue-operation",
                    "operation": "dequeue",
                    "timestamp": self.tick(),
                    "sessionId": self.sid,
                }
            )
        while out.size < self.target:
            before = out.size
            self.turn(out)
            self.since_compact += out.size - before
            if self.since_compact > 700_000 and r.random() < 0.5:
                self.compaction()
                self.since_compact = 0
            if r.random() < 0.1:
                out.add(
                    {
                        "type": "file-history-snapshot",
                        "messageId": self.parent,
                        "snapshot": {
                            "messageId": self.parent,
                            "trackedFileBackups": {},
                            "timestamp": self.tick(),
                        },
                        "isSnapshotUpdate": False,
                    }
                )
        p = self.plant("summary", "summary")
        out.add(
            {
                "type": "summary",
                "summary": carry(self.pool, p)[:400]
                if p is None or p.encoding == "plain"
                else carry(self.pool, p),
                "leafUuid": self.parent,
            },
            p,
        )
        out.add({"type": "ai-title", "aiTitle": self.pool.prose(1)[:40], "sessionId": self.sid})
        out.mtime = self.t
        c.write(out)
        for extra in self.extra:
            c.write(extra)
        c.sessions["claude-code"] += 1


def huge_claude_session(c: Corpus, megabytes: int) -> None:
    """One session whose single record is longer than 32 MiB: a Bash result of a minified
    one-line dump, with secrets at 1 MiB, in the middle and past 32 MiB."""
    s = ClaudeSession(c, 0)
    out = s.main
    out.add({"type": "permission-mode", "permissionMode": "default", "sessionId": s.sid})
    s.emit(out, s.user(out, "Dump the prod config table so I can diff it."))
    tid = "toolu_01" + c.b62(22)
    s.emit(
        out,
        s.assistant(
            out,
            [
                {
                    "type": "tool_use",
                    "id": tid,
                    "name": "Bash",
                    "input": {
                        "command": 'psql -At -c "select json_agg(t) from config t"',
                        "description": "Dump config",
                    },
                }
            ],
            "msg_01" + c.b62(22),
        ),
    )
    size = megabytes * MIB
    plants = [c.planter.maybe("claude-code", "tool-result-metadata", force=True) for _ in range(3)]
    row = '{"key":"feature.%d","value":"%s","updated":"2026-08-01T00:00:00Z"},'
    pieces: list[str] = ["["]
    length = 1
    marks = [MIB, size // 2, 32 * MIB + (size - 32 * MIB) // 2]
    i = 0
    for plant, mark in zip(plants, marks, strict=True):
        assert plant is not None
        plant.encoding = "plain"
        plant.fields = ["toolUseResult.stdout"]
        while length < mark:
            piece = row % (i, c.hexid(24))
            pieces.append(piece)
            length += len(piece)
            i += 1
        value = plant.secret.value.replace("\n", "\\n")
        piece = f'{{"key":"{plant.provider}","value":"{value}"}},'
        pieces.append(piece)
        length += len(piece)
    while length < size:
        piece = row % (i, c.hexid(24))
        pieces.append(piece)
        length += len(piece)
        i += 1
    pieces.append('{"end":true}]')
    dump = "".join(pieces)
    # the output is also kept aside in <session>/tool-results/, a plain text file of one line
    aside = Out(
        f"claude/projects/{s.slug}/{s.sid}/tool-results/{tid}.txt",
        "claude-code",
        "claude-tool-result-file-huge",
    )
    aside.document(
        dump + "\n",
        [view(p, "(file text)", where="tool-results-file") for p in plants if p is not None],
    )
    preview = (
        f"<persisted-output>\nOutput too large ({len(dump) / 1048576:.1f}MB). Full output saved to: "
        f"/home/dev/.claude/projects/{s.slug}/{s.sid}/tool-results/{tid}.txt\n\nPreview (first 2KB):\n{dump[:2000]}\n...\n</persisted-output>"
    )
    s.emit(out, s.user(out, [{"tool_use_id": tid, "type": "tool_result", "content": preview}],
                       toolUseResult={"stdout": dump, "stderr": "", "interrupted": False, "isImage": False}), *plants)  # fmt: skip
    s.emit(
        out,
        s.assistant(
            out,
            [{"type": "text", "text": "The dump is one line of JSON; I will diff it with jq."}],
            "msg_01" + c.b62(22),
        ),
    )
    out.mtime = s.t
    out.fmt = "claude-jsonl-huge-record"
    c.write(out)
    aside.mtime = s.t
    c.write(aside)
    c.sessions["claude-code"] += 1


# ---------------------------------------------------------------------------------------------
# Codex CLI


class CodexSession:
    def __init__(self, c: Corpus, target: int) -> None:
        self.c, self.rng, self.pool, self.pl = c, c.rng, c.pool, c.planter
        self.target = target
        self.t = c.when()
        self.new = (
            self.t > EPOCH + 200 * 86400 and self.rng.random() < 0.8
        )  # 2026: the 0.14x schema
        self.thread = c.uid()
        local = time.gmtime(self.t + 7200)
        day = time.strftime("%Y/%m/%d", local)
        name = time.strftime("rollout-%Y-%m-%dT%H-%M-%S", local) + f"-{self.thread}.jsonl"
        fmt = "codex-rollout-0.149" if self.new else "codex-rollout-response-item"
        self.out = Out(f"codex/sessions/{day}/{name}", "codex", fmt)
        self.cwd = f"/home/dev/{self.rng.choice(PROJECTS)}"
        self.ordinal = 0

    def plant(self, where: str, *fields: str) -> Plant | None:
        p = self.pl.maybe("codex", where)
        if p is not None:
            p.fields = list(fields)
        return p

    def line(self, kind: str, payload: dict[str, Any], *plants: Plant | None, **extra: Any) -> None:
        self.t += self.rng.expovariate(1 / 3.0)
        record: dict[str, Any] = {"timestamp": stamp(self.t)}
        if self.new:
            record["ordinal"] = self.ordinal
            self.ordinal += 1
        record["type"] = kind
        record["payload"] = payload
        record.update(extra)
        self.out.add(record, *plants)

    def call(self, turn: str) -> None:
        r, c = self.rng, self.c
        call = "call_" + c.b62(24)
        meta = {"metadata": {"turn_id": turn}} if self.new else {}
        kind = r.choices(("shell", "patch", "mcp", "code"), (70, 18, 6, 6 if self.new else 0))[0]
        if kind == "shell":
            p_in = self.plant("tool-input", "payload.arguments<json>.cmd")
            cmd = command(self.pool, p_in, r.choice(("cat .env", "pytest -q", "git diff --stat", "rg -n TODO src", "ls -la", "npm run build")))  # fmt: skip
            p_out = self.plant("tool-output", "payload.output")
            text = (
                carry(self.pool, p_out, "output") if p_out else self.pool.output(r.randint(1, 120))
            )
            if self.new:
                self.line(
                    "response_item",
                    {
                        "type": "function_call",
                        "name": "exec_command",
                        "arguments": compact(
                            {"cmd": cmd, "workdir": self.cwd, "yield_time_ms": 10000}
                        ),
                        "call_id": call,
                    },
                    p_in,
                    **meta,
                )
                self.line("response_item", {"type": "function_call_output", "call_id": call,
                                            "output": f"Chunk ID: {c.hexid(6)}\nWall time: {r.random():.4f} seconds\nProcess exited with code 0\nOriginal token count: {len(text) // 4}\nOutput:\n{text}"}, p_out, **meta)  # fmt: skip
                if r.random() < 0.5:
                    p_meta = self.plant("tool-result-metadata", "payload.item.aggregated_output")
                    agg = carry(self.pool, p_meta, "output") if p_meta else text
                    self.line("event_msg", {"type": "item_completed", "thread_id": self.thread, "turn_id": turn,
                                            "item": {"type": "CommandExecution", "id": call, "command": ["/bin/zsh", "-lc", cmd], "cwd": self.cwd, "source": "unified_exec_startup",
                                                     "process_id": None, "aggregated_output": agg, "exit_code": 0}},
                              p_meta or view(p_out, "payload.item.aggregated_output", where="tool-result-metadata"),
                              view(p_in, "payload.item.command[2]", where="tool-result-metadata"))  # fmt: skip
            else:
                self.line(
                    "response_item",
                    {
                        "type": "function_call",
                        "name": "shell",
                        "arguments": compact(
                            {
                                "command": ["bash", "-lc", cmd],
                                "workdir": self.cwd,
                                "timeout_ms": 120000,
                            }
                        ),
                        "call_id": call,
                    },
                    p_in,
                )
                self.line(
                    "response_item",
                    {
                        "type": "function_call_output",
                        "call_id": call,
                        "output": compact(
                            {
                                "output": text,
                                "metadata": {
                                    "exit_code": 0,
                                    "duration_seconds": round(r.random(), 1),
                                },
                            }
                        ),
                    },
                    p_out,
                )
                if r.random() < 0.4:
                    p_meta = self.plant(
                        "tool-result-metadata",
                        "payload.aggregated_output",
                        "payload.formatted_output",
                    )
                    agg = carry(self.pool, p_meta, "output") if p_meta else text
                    self.line("event_msg", {"type": "exec_command_end", "call_id": call, "stdout": "", "stderr": "", "aggregated_output": agg, "exit_code": 0,
                                            "duration": {"secs": 0, "nanos": r.randint(1, 999999999)}, "formatted_output": agg},
                              p_meta or view(p_out, "payload.aggregated_output", "payload.formatted_output", where="tool-result-metadata"))  # fmt: skip
        elif kind == "patch":
            path, text = self.pool.file()
            p = self.plant("tool-input", "payload.input")
            added = carry(self.pool, p, "output") if p else self.pool.output(3)
            body = "\n".join("+" + row for row in added.split("\n"))
            patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n-{text.split(chr(10))[0]}\n{body}\n*** End Patch\n"
            self.line(
                "response_item",
                {
                    "type": "custom_tool_call",
                    "status": "completed",
                    "call_id": call,
                    "name": "apply_patch",
                    "input": patch,
                },
                p,
                **meta,
            )
            p2 = view(p, "payload.changes.*.update.unified_diff", where="tool-result-metadata")
            self.line("event_msg", {"type": "patch_apply_end", "call_id": call, "turn_id": turn, "stdout": f"Success. Updated the following files:\nM {path}\n", "stderr": "", "success": True,
                                    "changes": {f"{self.cwd}/{path}": {"update": {"unified_diff": f"@@ -1 +1,3 @@\n{body}\n", "move_path": None}}}}, p2)  # fmt: skip
            self.line(
                "response_item",
                {
                    "type": "custom_tool_call_output",
                    "call_id": call,
                    "output": compact(
                        {
                            "output": f"Success. Updated the following files:\nM {path}\n",
                            "metadata": {"exit_code": 0, "duration_seconds": 0.0},
                        }
                    ),
                },
                **meta,
            )
        elif kind == "mcp":
            p = self.plant("tool-result-metadata", "payload.result.Ok.content[0].text")
            text = compact(
                {
                    "path": "kv/app",
                    "data": carry(self.pool, p, "output") if p else self.pool.prose(1),
                }
            )
            self.line(
                "response_item",
                {
                    "type": "function_call",
                    "name": "vault__read_secret",
                    "arguments": compact({"path": "kv/app"}),
                    "call_id": call,
                },
                **meta,
            )
            self.line("event_msg", {"type": "mcp_tool_call_end", "call_id": call, "invocation": {"server": "vault", "tool": "read_secret", "arguments": {"path": "kv/app"}},
                                    "duration": {"secs": 0, "nanos": 220118004}, "result": {"Ok": {"content": [{"type": "text", "text": text}], "isError": False}}}, p)  # fmt: skip
            p2 = view(p, "payload.output<json>[0].text", where="tool-output")
            self.line(
                "response_item",
                {
                    "type": "function_call_output",
                    "call_id": call,
                    "output": compact([{"type": "text", "text": text}]),
                },
                p2,
                **meta,
            )
        else:  # code mode: exec (freeform JavaScript) then wait
            p_in = self.plant("tool-input", "payload.input")
            nested = compact(
                {"cmd": command(self.pool, p_in, "curl -sf https://api.acme.dev/v1/health")}
            )
            script = f"const r = await tools.exec_command({nested});\ntext(r.output);\n"
            self.line(
                "response_item",
                {
                    "type": "custom_tool_call",
                    "status": "completed",
                    "call_id": call,
                    "name": "exec",
                    "input": script,
                },
                p_in,
                **meta,
            )
            self.line(
                "response_item",
                {
                    "type": "custom_tool_call_output",
                    "call_id": call,
                    "output": "Script running with cell ID 7. Call wait to continue.",
                },
                **meta,
            )
            wait = "call_" + c.b62(24)
            p_out = self.plant("tool-output", "payload.output[0].text")
            self.line(
                "response_item",
                {
                    "type": "function_call",
                    "name": "wait",
                    "arguments": compact({"cell_id": "7", "yield_time_ms": 10000}),
                    "call_id": wait,
                },
                **meta,
            )
            self.line(
                "response_item",
                {
                    "type": "function_call_output",
                    "call_id": wait,
                    "output": [
                        {
                            "type": "input_text",
                            "text": "Script completed\n"
                            + (carry(self.pool, p_out, "output") if p_out else self.pool.output(4)),
                        }
                    ],
                },
                p_out,
                **meta,
            )

    def write(self) -> None:
        r, c, out = self.rng, self.c, self.out
        self.line("session_meta", {"id": self.thread, "timestamp": stamp(self.t), "cwd": self.cwd, "originator": "codex_cli_rs",
                                   "cli_version": "0.149.0" if self.new else r.choice(("0.46.0", "0.58.0", "0.63.0")), "source": "cli", "model_provider": "openai",
                                   **({"history_mode": "paginated"} if self.new else {"instructions": None}),
                                   "git": {"commit_hash": c.hexid(40), "branch": "main", "repository_url": "git@github.com:acme/app.git"}})  # fmt: skip
        if self.new:
            p = self.plant("context-state", "payload.state.agents_md.*")
            self.line("world_state", {"full": True, "state": {"agents_md": {f"{self.cwd}/AGENTS.md": "# AGENTS.md\n" + (carry(self.pool, p) if p else self.pool.prose(4))},
                                                              "permissions": {"approval_policy": "on-request", "sandbox": "workspace-write"}}}, p)  # fmt: skip
        while out.size < self.target:
            turn = c.uid()
            self.line("turn_context", {"turn_id": turn, "cwd": self.cwd, "approval_policy": "on-request", "sandbox_policy": {"type": "workspace-write", "network_access": False},
                                       "model": "gpt-5.6-codex" if self.new else "gpt-5-codex", "effort": "medium", "summary": "auto"})  # fmt: skip
            p = self.plant("user-message", "payload.content[0].text")
            ask = carry(self.pool, p)
            self.line(
                "response_item",
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": ask}],
                },
                p,
            )
            p2 = view(p, "payload.message")
            self.line("event_msg", {"type": "user_message", "message": ask, "images": []}, p2)
            p = self.plant("thinking", "payload.summary[0].text")
            self.line(
                "response_item",
                {
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": carry(self.pool, p)}],
                    "content": None,
                    "encrypted_content": "gAAAAAB" + c.b62(200),
                },
                p,
            )
            for _ in range(r.randint(1, 8)):
                self.call(turn)
            if self.new and r.random() < 0.1:
                p = self.plant("inter-agent", "payload.content[0].text")
                self.line(
                    "inter_agent_communication",
                    {
                        "author": "/root",
                        "recipient": "/root/reviewer",
                        "content": [{"type": "input_text", "text": carry(self.pool, p)}],
                        "trigger_turn": True,
                    },
                    p,
                )
            if r.random() < 0.05:
                p = self.plant("system-record", "payload.message")
                self.line(
                    "event_msg",
                    {
                        "type": "error",
                        "message": carry(self.pool, p, "output")
                        if p
                        else "stream disconnected before completion",
                    },
                    p,
                )
            p = self.plant("assistant-text", "payload.content[0].text")
            answer = carry(self.pool, p)
            self.line(
                "response_item",
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": answer}],
                },
                p,
            )
            p2 = view(p, "payload.message")
            self.line("event_msg", {"type": "agent_message", "message": answer}, p2)
            self.line("event_msg", {"type": "token_count", "info": {"total_token_usage": {"input_tokens": r.randint(1000, 300000), "output_tokens": r.randint(100, 9000)},
                                                                    "last_token_usage": {"input_tokens": r.randint(1000, 90000), "output_tokens": r.randint(10, 3000)},
                                                                    "model_context_window": 272000}})  # fmt: skip
            if r.random() < 0.04:
                p = self.plant(
                    "compaction",
                    "payload.replacement_history[0].content[0].text"
                    if self.new
                    else "payload.message",
                )
                text = carry(self.pool, p)
                if self.new:
                    self.line(
                        "compacted",
                        {
                            "message": "",
                            "replacement_history": [
                                {
                                    "type": "message",
                                    "role": "user",
                                    "content": [{"type": "input_text", "text": text}],
                                }
                            ],
                        },
                        p,
                    )
                else:
                    self.line("compacted", {"message": text}, p)
        out.mtime = self.t
        c.write(out)
        c.sessions["codex"] += 1


# ---------------------------------------------------------------------------------------------
# Gemini CLI


class GeminiSession:
    def __init__(self, c: Corpus, target: int) -> None:
        self.c, self.rng, self.pool, self.pl = c, c.rng, c.pool, c.planter
        self.target = target
        self.t = c.when()
        self.jsonl = self.t > EPOCH + 220 * 86400  # 0.39 on (April 2026): JSON Lines
        self.project = self.rng.choice(PROJECTS)
        self.cwd = f"/home/dev/{self.project}"
        self.hash = hashlib.sha256(self.cwd.encode()).hexdigest()
        self.sid = c.uid()
        name = time.strftime("session-%Y-%m-%dT%H-%M", time.gmtime(self.t)) + f"-{self.sid[:8]}"
        # ~/.gemini/tmp/<sha256 of the project root> until 0.29 (February 2026), then the
        # project's short id (its folder name) from ~/.gemini/projects.json
        folder = self.project if self.t > EPOCH + 158 * 86400 else self.hash
        self.chats = f"gemini/tmp/{folder}/chats"
        self.out = Out(f"{self.chats}/{name}.{'jsonl' if self.jsonl else 'json'}", "gemini",
                       "gemini-session-jsonl" if self.jsonl else "gemini-session-json")  # fmt: skip

    def plant(self, where: str, *fields: str) -> Plant | None:
        p = self.pl.maybe("gemini", where, pretty=not self.jsonl)
        if p is not None:
            p.fields = list(fields)
        return p

    def tick(self) -> str:
        self.t += self.rng.expovariate(1 / 5.0)
        return stamp(self.t)

    def tool_call(self) -> tuple[dict[str, Any], list[Plant]]:
        r, c = self.rng, self.c
        name = r.choice(
            (
                "run_shell_command",
                "run_shell_command",
                "read_file",
                "replace",
                "write_file",
                "grep_search",
            )
        )
        cid = f"{name}-{int(self.t * 1000)}-{c.hexid(12)}"
        plants: list[Plant] = []
        display: Any
        if name == "run_shell_command":
            p_in = self.plant("tool-input", "args.command")
            cmd = command(
                self.pool, p_in, r.choice(("npm test", "ls -la", "git status", "cat .env"))
            )
            args = {"command": cmd, "description": "Run a command"}
            p_out = self.plant("tool-output", "result[0].functionResponse.response.output")
            text = (
                carry(self.pool, p_out, "output") if p_out else self.pool.output(r.randint(1, 80))
            )
            output = (
                f"Command: {cmd}\nDirectory: (root)\nOutput: {text}\nError: (none)\nExit Code: 0"
            )
            p_meta = self.plant("tool-result-metadata", "resultDisplay") if p_out is None else None
            display = carry(self.pool, p_meta, "output") if p_meta else text
            plants += [p for p in (p_in, p_out, p_meta) if p]
            if p_in is not None:  # the output repeats the command
                plants.append(view(p_in, "result[0].functionResponse.response.output", where="tool-output"))  # fmt: skip
            if p_out is not None and p_meta is None:
                plants.append(
                    Plant(
                        p_out.sid,
                        p_out.secret,
                        p_out.provider,
                        "tool-result-metadata",
                        p_out.encoding,
                        ["resultDisplay"],
                    )
                )
        elif name in ("read_file", "grep_search"):
            path, text = self.pool.file()
            args = (
                {"file_path": f"{self.cwd}/{path}"}
                if name == "read_file"
                else {"pattern": r.choice(IDENT)}
            )
            p_out = self.plant("tool-output", "result[0].functionResponse.response.output")
            output = (
                (carry(self.pool, p_out, "output") + "\n" + text[:4000]) if p_out else text[:20000]
            )
            display = ""
            plants += [p for p in (p_out,) if p]
        else:
            path, text = self.pool.file()
            p_in = self.plant(
                "tool-input", "args.content" if name == "write_file" else "args.old_string"
            )
            new = carry(self.pool, p_in, "output") if p_in else self.pool.output(3)
            args = (
                {"file_path": f"{self.cwd}/{path}", "content": new}
                if name == "write_file"
                else {
                    "file_path": f"{self.cwd}/{path}",
                    "old_string": new,
                    "new_string": "x = 1",
                    "instruction": "Simplify",
                }
            )
            output = f"Successfully modified file: {self.cwd}/{path} (1 replacements)."
            p_orig = self.plant("tool-result-metadata", "resultDisplay.originalContent")
            original = (
                (carry(self.pool, p_orig, "output") + "\n" + text[:6000]) if p_orig else text[:6000]
            )
            diff = "\n".join("+" + row for row in new.split("\n"))
            display = {"fileDiff": f"Index: {path}\n===================================================================\n@@ -1 +1 @@\n{diff}\n", "fileName": os.path.basename(path),
                       "filePath": f"{self.cwd}/{path}", "originalContent": original, "newContent": new, "isNewFile": False}  # fmt: skip
            plants += [p for p in (p_in, p_orig) if p]
            if p_in is not None:
                plants.append(
                    Plant(
                        p_in.sid,
                        p_in.secret,
                        p_in.provider,
                        "tool-result-metadata",
                        p_in.encoding,
                        ["resultDisplay.fileDiff"],
                    )
                )
                plants.append(
                    Plant(
                        p_in.sid,
                        p_in.secret,
                        p_in.provider,
                        "tool-result-metadata",
                        p_in.encoding,
                        ["resultDisplay.newContent"],
                    )
                )
        return {"id": cid, "name": name, "args": args, "result": [{"functionResponse": {"id": cid, "name": name, "response": {"output": output}}}],
                "status": "success", "timestamp": self.tick(), "resultDisplay": display, "displayName": name, "description": "", "renderOutputAsMarkdown": False}, plants  # fmt: skip

    def messages(self) -> list[tuple[dict[str, Any], list[Plant]]]:
        r = self.rng
        turn: list[tuple[dict[str, Any], list[Plant]]] = []
        p = self.plant("user-message", "content[0].text")
        turn.append(
            (
                {
                    "id": self.c.uid(),
                    "timestamp": self.tick(),
                    "type": "user",
                    "content": [{"text": carry(self.pool, p)}],
                },
                [p] if p else [],
            )
        )
        for _ in range(r.randint(1, 4)):
            calls, plants = [], []
            for _ in range(r.choices((1, 2, 3), (75, 18, 7))[0]):
                call, cp = self.tool_call()
                calls.append(call)
                plants += cp
            pt = self.plant("thinking", "thoughts[0].description")
            if pt:
                plants.insert(0, pt)
            msg = {"id": self.c.uid(), "timestamp": self.tick(), "type": "gemini", "content": "",
                   "thoughts": [{"subject": "Working", "description": carry(self.pool, pt), "timestamp": self.tick()}],
                   "tokens": {"input": r.randint(1000, 90000), "output": r.randint(10, 900), "cached": 0, "thoughts": 0, "tool": 0, "total": 0},
                   "model": "gemini-2.5-pro", "toolCalls": calls}  # fmt: skip
            turn.append((msg, plants))
        p = self.plant("assistant-text", "content")
        turn.append(
            (
                {
                    "id": self.c.uid(),
                    "timestamp": self.tick(),
                    "type": "gemini",
                    "content": carry(self.pool, p),
                    "thoughts": [],
                    "model": "gemini-2.5-pro",
                },
                [p] if p else [],
            )
        )
        if r.random() < 0.05:
            p = self.plant("system-record", "content")
            turn.append(
                (
                    {
                        "id": self.c.uid(),
                        "timestamp": self.tick(),
                        "type": "error",
                        "content": carry(self.pool, p, "output") if p else "[API Error: 429]",
                    },
                    [p] if p else [],
                )
            )
        return turn

    def write(self) -> None:
        c, out = self.c, self.out
        meta = {
            "sessionId": self.sid,
            "projectHash": self.hash,
            "startTime": stamp(self.t),
            "lastUpdated": stamp(self.t),
        }
        if self.jsonl:
            out.add({**meta, "kind": "main"})
            while out.size < self.target:
                for msg, plants in self.messages():
                    calls = msg.pop("toolCalls", None)
                    if calls is None:
                        out.add(msg, *plants)
                    else:
                        # appended as it changes: before the calls, with them, with the tokens
                        thoughts = [p for p in plants if p.where == "thinking"]
                        out.add(msg, *thoughts)
                        out.add({**msg, "toolCalls": calls}, *plants)
                        if self.rng.random() < 0.5:
                            out.add(
                                {
                                    **msg,
                                    "toolCalls": calls,
                                    "tokens": {**msg["tokens"], "total": 1},
                                },
                                *plants,
                            )
                    out.add({"$set": {"lastUpdated": self.tick()}})
                if self.rng.random() < 0.05:
                    out.add({"$rewindTo": c.uid()})
            p = self.plant("summary", "$set.summary")
            out.add({"$set": {"summary": carry(self.pool, p)}}, p)
        else:
            messages: list[dict[str, Any]] = []
            ordered: list[Plant] = []
            size = 0
            while size < self.target:
                for msg, plants in self.messages():
                    messages.append(msg)
                    for p in plants:
                        ordered.append(p)
                    size += len(compact(msg))
            p = self.plant("summary", "summary")
            doc = {
                **meta,
                "messages": messages,
                "summary": carry(self.pool, p)[:300] if p is None else carry(self.pool, p),
            }
            if p:
                ordered.append(p)
            text = json.dumps(doc, ensure_ascii=False, indent=2)
            out.document(text, self._document_order(text, ordered))
        out.mtime = self.t
        c.write(out)
        if self.jsonl and self.rng.random() < 0.15:
            self.subagent()
        c.sessions["gemini"] += 1

    def _document_order(self, text: str, plants: list[Plant]) -> list[Plant]:
        """Plants sorted by where their secret first stands (the document's order)."""
        return sorted(plants, key=lambda p: (text.find(p.secret.needle), p.sid))

    def subagent(self) -> None:
        sub_sid = self.c.uid()
        out = Out(
            f"{self.chats}/{self.sid}/{sub_sid}.jsonl",
            "gemini",
            "gemini-subagent-jsonl",
            subagent=True,
        )
        out.add(
            {
                "sessionId": sub_sid,
                "projectHash": self.hash,
                "startTime": self.tick(),
                "lastUpdated": self.tick(),
                "kind": "subagent",
                "directories": [self.cwd],
            }
        )
        for msg, plants in self.messages():
            out.add(msg, *plants)
        out.mtime = self.t
        self.c.write(out)


# ---------------------------------------------------------------------------------------------


def generate(out: str, megabytes: float, seed: int, agents: list[str], rate: float, huge: bool, huge_mb: int,
             split: dict[str, float] | None = None) -> dict[str, Any]:  # fmt: skip
    os.makedirs(out, exist_ok=True)
    c = Corpus(out, seed, rate)
    split = split or {"claude": 0.5, "codex": 0.3, "gemini": 0.2}
    shares = {a: split[a] for a in agents}
    total = sum(shares.values())
    budget = {a: megabytes * MIB * s / total for a, s in shares.items()}
    started = time.time()
    makers = {"claude": ClaudeSession, "codex": CodexSession, "gemini": GeminiSession}
    done = dict.fromkeys(agents, 0)
    while True:
        left = [a for a in agents if done[a] < budget[a]]
        if not left:
            break
        agent = c.rng.choice(left)
        before = c.bytes
        target = min(c.session_size(), int(budget[agent] - done[agent]) + 4000)
        makers[agent](c, target).write()
        done[agent] += c.bytes - before
    if huge:
        huge_claude_session(c, huge_mb)
    c.close()
    summary = {
        "seed": seed, "megabytes_requested": megabytes, "rate": rate, "files": c.files, "bytes": c.bytes,
        "sessions": dict(c.sessions), "bytes_by_agent": dict(c.by_agent), "files_by_format": dict(c.files_by_format),
        "manifest_entries": c.entries, "unregistered_repeats": c.unregistered,
        "by_where": {f"{a}/{w}": n for (a, w), n in sorted(c.by_where.items())},
        "by_encoding": {f"{a}/{e}": n for (a, e), n in sorted(c.by_encoding.items())},
        "seconds": round(time.time() - started, 1),
    }  # fmt: skip
    with open(os.path.join(out, "MANIFEST.summary.json"), "w", encoding="utf-8") as handle:
        json.dump(summary, handle, indent=1, sort_keys=True)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="folder to write (created)")
    parser.add_argument("--mb", type=float, default=100, help="total size of the sessions (MB)")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--agents", default="claude,codex,gemini")
    parser.add_argument(
        "--rate", type=float, default=0.06, help="chance that a plantable field holds a secret"
    )
    parser.add_argument(
        "--huge", action="store_true", help="add a session with one record over 32 MiB"
    )
    parser.add_argument("--huge-mb", type=int, default=34)
    args = parser.parse_args()
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    unknown = set(agents) - {"claude", "codex", "gemini"}
    if unknown or (args.huge and args.huge_mb <= 32):
        parser.error(
            f"unknown agents {sorted(unknown)}" if unknown else "--huge-mb must be over 32"
        )
    summary = generate(args.out, args.mb, args.seed, agents, args.rate, args.huge, args.huge_mb)
    mb = summary["bytes"] / MIB
    print(f"{summary['files']} files, {mb:.1f} MiB, {sum(summary['sessions'].values())} sessions "
          f"{summary['sessions']}, {summary['manifest_entries']} planted secret lines "
          f"in {summary['seconds']} s -> {args.out}")  # fmt: skip
    if not math.isfinite(mb):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
