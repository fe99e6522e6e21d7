"""Independent labelled 戒 protocol sessions (issue 16), run by bench/protocol_validation.py.

Written from the issue's text, seed 004 (CHECKPOINT Q0-Q4, decision rules, Layer 3 behaviour,
the avatar table and output contracts) and the upstream protocol's own templates, without
reading the engine's checks: it stands in for the held-out set the issue is verified on. Each
case is one Claude Code session (its own `.jsonl`, sub-agents under `<session>/subagents/`);
a violation names the rules of which at least one must be reported, a compliant case expects no
protocol finding at all.

Cases vary the wording (Chinese / English CHECKPOINTs, the lighter Q1-Q4 form, JSON and Markdown
contracts, Chinese labels), the tools (Task and Agent spawns) and the shape of the turn.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

PROTOCOL_CATEGORIES = ("body-boundary", "avatar-boundary", "context", "transcript-integrity")


@dataclass
class Case:
    name: str
    kind: str  # "violation" | "compliant"
    # violation: any of these rule ids must be reported; compliant: none of these may be (empty:
    # no finding of a protocol category at all)
    expect: tuple[str, ...]
    session: Session


@dataclass
class Session:
    """Builds the records of one Claude Code session in thread order."""

    sid: str
    cwd: str = "/home/dev/shop"
    records: list[dict] = field(default_factory=list)
    subagents: dict[str, tuple[str, list[dict]]] = field(default_factory=dict)
    # files of the repository the session ran in (cwd "@proj"), e.g. its memory-bank/
    project: dict[str, str] = field(default_factory=dict)
    _n: int = 0
    _last: str | None = None

    def _uuid(self) -> str:
        self._n += 1
        return f"{self.sid}-{self._n:04d}"

    def _add(self, rec: dict) -> dict:
        uid = self._uuid()
        base = {
            "uuid": uid,
            "parentUuid": self._last,
            "sessionId": self.sid,
            "cwd": self.cwd,
            "isSidechain": False,
            "timestamp": f"2026-11-20T10:{self._n // 60:02d}:{self._n % 60:02d}Z",
            "version": "2.0.14",
            "gitBranch": "main",
        }
        base.update(rec)
        self.records.append(base)
        self._last = uid
        return base

    def user(self, text: str) -> Session:
        self._add({"type": "user", "message": {"role": "user", "content": text}})
        return self

    def say(self, text: str, usage: int | None = None) -> Session:
        msg: dict = {
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": text}],
        }
        if usage is not None:
            msg["usage"] = {
                "input_tokens": 12,
                "cache_creation_input_tokens": 2000,
                "cache_read_input_tokens": usage - 2012,
                "output_tokens": 400,
            }
        self._add({"type": "assistant", "message": msg})
        return self

    def tools(self, *calls: tuple[str, dict, object], text: str | None = None) -> Session:
        """One assistant message with several tool calls, then their results."""
        ids = []
        content: list[dict] = [{"type": "text", "text": text}] if text else []
        for name, data, _ in calls:
            cid = f"toolu_{self.sid}_{self._n + len(ids):04d}"
            ids.append(cid)
            content.append({"type": "tool_use", "id": cid, "name": name, "input": data})
        self._add(
            {
                "type": "assistant",
                "message": {"role": "assistant", "model": "claude-sonnet-4-5", "content": content},
            }
        )
        for cid, (_, _, result) in zip(ids, calls, strict=True):
            is_error = isinstance(result, Err)
            body = result.text if is_error else result
            block = {
                "type": "tool_result",
                "tool_use_id": cid,
                "content": body if isinstance(body, str) else json.dumps(body),
            }
            if is_error:
                block["is_error"] = True
            self._add({"type": "user", "message": {"role": "user", "content": [block]}})
        return self

    def tool(
        self, name: str, data: dict, result: object = "ok", text: str | None = None
    ) -> Session:
        return self.tools((name, data, result), text=text)

    def spawn(
        self,
        avatar: str,
        prompt: str,
        output: str,
        *,
        background: bool | None = None,
        tool: str = "Agent",
        isolation: str | None = None,
        inner: list[tuple[str, dict, object]] | None = None,
    ) -> Session:
        return self.spawns([(avatar, prompt, output, background, isolation, inner)], tool=tool)

    inline: bool = False  # older Claude Code: sub-agent records inline (isSidechain, no files)

    def spawns(self, items: list[tuple], tool: str = "Agent", text: str | None = None) -> Session:
        calls = []
        for avatar, prompt, output, background, isolation, _inner in items:
            data: dict = {"description": prompt[:40], "prompt": prompt, "subagent_type": avatar}
            if background is not None:
                data["run_in_background"] = background
            if isolation:
                data["isolation"] = isolation
            calls.append((tool, data, output))
        start = self._n
        self.tools(*calls, text=text)
        # sub-agent files: newer Claude Code keeps each avatar's own records beside the session;
        # older versions wrote them inline, between the spawn and its result, without agentId
        at = len(self.records) - len(items)
        for k, (_avatar, prompt, output, _b, _i, inner) in enumerate(items):
            cid = f"toolu_{self.sid}_{start + k:04d}"
            agent_id = f"a{self.sid[-4:]}{start + k:03d}"
            records = _agent_records(self, agent_id, prompt, inner or [], output)
            if self.inline:
                for record in records:
                    del record["agentId"]
                self.records[at:at] = records
                at += len(records)
            else:
                self.subagents[agent_id] = (cid, records)
        return self

    def compact(self, summary: str) -> Session:
        self._add(
            {
                "type": "system",
                "subtype": "compact_boundary",
                "content": "Conversation compacted",
                "compactMetadata": {"trigger": "auto", "preTokens": 171000},
            }
        )
        self._add(
            {
                "type": "user",
                "isCompactSummary": True,
                "message": {"role": "user", "content": summary},
            }
        )
        return self

    def write(self, folder: Path) -> Path:
        root = folder / f"{self.sid}-project"
        for rel, text in self.project.items():  # the repository the session worked in
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, "utf-8")

        def jsonl(records: list[dict]) -> str:
            text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
            return text.replace("@proj", str(root)) if self.project else text

        path = folder / f"{self.sid}.jsonl"
        path.write_text(jsonl(self.records), "utf-8")
        for agent_id, (cid, recs) in self.subagents.items():
            sub = folder / self.sid / "subagents"
            sub.mkdir(parents=True, exist_ok=True)
            (sub / f"agent-{agent_id}.jsonl").write_text(jsonl(recs), "utf-8")
            (sub / f"agent-{agent_id}.meta.json").write_text(
                json.dumps({"toolUseId": cid}), "utf-8"
            )
        return path


@dataclass
class Err:
    text: str


def _agent_records(s: Session, agent_id: str, prompt: str, inner: list, output: str) -> list[dict]:
    recs: list[dict] = []
    last = None
    n = 0

    def add(rec: dict) -> None:
        nonlocal last, n
        n += 1
        uid = f"{agent_id}-{n:03d}"
        base = {
            "uuid": uid,
            "parentUuid": last,
            "sessionId": s.sid,
            "cwd": s.cwd,
            "isSidechain": True,
            "agentId": agent_id,
            "timestamp": f"2026-11-20T11:00:{n:02d}Z",
            "version": "2.0.14",
        }
        base.update(rec)
        recs.append(base)
        last = uid

    add({"type": "user", "message": {"role": "user", "content": prompt}})
    for k, (name, data, result) in enumerate(inner):
        cid = f"toolu_{agent_id}_{k:03d}"
        add(
            {
                "type": "assistant",
                "message": {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": cid, "name": name, "input": data}],
                },
            }
        )
        add(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": cid,
                            "content": result if isinstance(result, str) else json.dumps(result),
                        }
                    ],
                },
            }
        )
    add(
        {
            "type": "assistant",
            "message": {"role": "assistant", "content": [{"type": "text", "text": output}]},
        }
    )
    return recs


# --- wording --------------------------------------------------------------------------------


def cp_zh(
    q1: str = "否",
    q2: str = "否",
    lines: int = 0,
    q3: str = "否",
    files: int = 1,
    decision: str = "本体执行",
    q0: bool = True,
    reason: str = "简单修改",
) -> str:
    rows = ["📋 TASK CHECKPOINT", "─" * 30]
    if q0:
        rows.append("Q0. Skill 匹配？     否")
    rows += [
        f"Q1. 探索/研究？      {q1}",
        f"Q2. 代码修改？       {q2} 预估 {lines} 行",
        f"Q3. 设计/架构？      {q3}",
        f"Q4. 独立文件数？     {files} 个",
        "─" * 30,
    ]
    if decision:
        rows.append(f"⚡ 决策: {decision}")
    rows.append(f"📝 理由: {reason}")
    return "\n".join(rows)


def cp_en(
    explore: str = "no",
    code: str = "no",
    lines: int = 0,
    design: str = "no",
    files: int = 1,
    decision: str = "execute directly (body)",
    q0: bool = True,
) -> str:
    rows = ["**CHECKPOINT**"]
    if q0:
        rows.append("- Q0 Skill match? No")
    rows += [
        f"- Q1 Exploration / research? {explore.capitalize()}",
        f"- Q2 Code change? {code.capitalize()}, about {lines} lines",
        f"- Q3 Design / architecture? {design.capitalize()}",
        f"- Q4 Independent files? {files}",
    ]
    if decision:
        rows.append(f"- Decision: {decision}")
    return "\n".join(rows)


def edit(path: str, n_old: int, n_new: int, tag: str = "x") -> tuple[str, dict, object]:
    old = "\n".join(f"    value_{tag}_{i} = compute_old({i})" for i in range(n_old))
    new = "\n".join(f"    value_{tag}_{i} = compute_new({i}, scale)" for i in range(n_new))
    return (
        "Edit",
        {"file_path": path, "old_string": old, "new_string": new},
        "The file has been updated.",
    )


def read(path: str) -> tuple[str, dict, object]:
    return (
        "Read",
        {"file_path": path},
        "     1\timport os\n     2\t\n     3\tdef main():\n     4\t    pass\n",
    )


EYE_JSON = json.dumps(
    {
        "files": ["src/cart.py", "src/pricing.py"],
        "findings": [{"location": "src/cart.py:41", "description": "discount applied twice"}],
        "summary": "The discount is applied in cart and again in pricing.",
    },
    ensure_ascii=False,
)
EYE_MD = (
    "## Files\n- src/auth/session.py\n- src/auth/tokens.py\n\n## Findings\n"
    "- src/auth/session.py:88 — session expiry compared in local time\n\n"
    "## Summary\nExpiry uses naive datetimes; tokens.py is correct."
)
EYE_ZH = (
    "**文件**: src/db/pool.py, src/db/retry.py\n\n**发现**:\n"
    "- src/db/pool.py:17 — 连接池大小硬编码为 5\n\n"
    "**总结**: 连接池配置不可调，重试逻辑正常。"
)
NOSE_JSON = json.dumps(
    {
        "issues": [
            {
                "severity": "HIGH",
                "location": "api/views.py:120",
                "description": "SQL built with f-string",
            }
        ],
        "summary": "One injection risk.",
        "recommendation": "Use parameterised queries.",
    }
)
BODY_JSON = json.dumps(
    {
        "files_changed": ["src/cart.py"],
        "summary": "Removed the duplicate discount.",
        "tests_run": True,
    }
)
BODY_MD = (
    "### files_changed\n- src/pricing.py\n\n### summary\nRounded totals to cents.\n\n"
    "### tests_run\ntrue (pytest -q: 48 passed)"
)
MIND_MD = (
    "## Design\nSplit the pricing engine into rules and a pipeline.\n\n## Decisions\n"
    "- Decision: rules as data; Rationale: product owners edit them\n\n## Tradeoffs\n"
    "- one more indirection\n- YAML loading cost at start-up"
)
TONGUE_JSON = json.dumps(
    {
        "tests": ["tests/test_cart.py"],
        "docs": ["docs/cart.md"],
        "results": {"passed": 12, "failed": 0, "skipped": 1},
    }
)
EAR_MD = (
    "## Goal\nLet users export invoices as PDF.\n\n## AC\n- export button on invoice page\n"
    "- PDF matches the HTML totals\n\n## Constraints\n- no new paid services\n\n## Questions\n"
    "- A4 or Letter?"
)
PYTEST_RUN = ("Bash", {"command": "python -m pytest -q tests/test_cart.py"}, "12 passed in 0.41s")


def cases(inline: bool = False) -> list[Case]:
    out: list[Case] = []

    def v(name: str, expect: str | tuple[str, ...], s: Session) -> None:
        out.append(Case(name, "violation", (expect,) if isinstance(expect, str) else expect, s))

    def ok(name: str, s: Session) -> None:
        out.append(Case(name, "compliant", (), s))

    def S(name: str) -> Session:
        return Session(sid=f"pv{'i' if inline else ''}-{len(out):03d}-{name}", inline=inline)

    # ---- Layer 1: CHECKPOINT missing / incomplete ----
    v(
        "l1-missing-read",
        "body-boundary.checkpoint-missing",
        S("a").user("Fix the rounding bug in src/pricing.py").tool(*read("src/pricing.py")),
    )
    v(
        "l1-missing-bash-zh",
        "body-boundary.checkpoint-missing",
        S("b")
        .user("帮我看看为什么构建失败了")
        .say("好的，我来检查。")
        .tool("Bash", {"command": "git log --oneline -5"}, "a1b2c3 fix\n"),
    )
    v(
        "l1-missing-edit",
        "body-boundary.checkpoint-missing",
        S("c").user("rename the variable tmp to total in cart.py").tool(*edit("src/cart.py", 1, 1)),
    )
    v(
        "l1-missing-second-turn",
        "body-boundary.checkpoint-missing",
        S("d")
        .user("what does this repo do?")
        .say("It is a shop backend.")
        .user("Add a docstring to main() in app.py")
        .tool(*read("app.py")),
    )
    v(
        "l1-missing-grep",
        "body-boundary.checkpoint-missing",
        S("e")
        .user("Where is the session timeout configured?")
        .tool("Grep", {"pattern": "SESSION_TIMEOUT"}, "settings.py:12"),
    )
    v(
        "l1-incomplete-no-q3q4",
        ("body-boundary.checkpoint-incomplete",),
        S("f")
        .user("把 README 的拼写错误改掉")
        .say(
            "📋 TASK CHECKPOINT\nQ0. Skill 匹配？ 否\nQ1. 探索/研究？ 否\n"
            "Q2. 代码修改？ 是 预估 1 行\n⚡ 决策: 本体执行"
        )
        .tool(*edit("README.md", 1, 1)),
    )
    v(
        "l1-incomplete-no-decision-zh",
        "body-boundary.checkpoint-incomplete",
        S("g")
        .user("修复登录页的按钮颜色")
        .say(cp_zh(q2="是", lines=2, decision=""))
        .tool(*read("web/login.css")),
    )
    v(
        "l1-incomplete-no-decision-en",
        "body-boundary.checkpoint-incomplete",
        S("h")
        .user("Bump the version to 1.4.2")
        .say(cp_en(code="yes", lines=1, decision=""))
        .tool(*edit("pyproject.toml", 1, 1)),
    )
    v(
        "l1-checkpoint-after-tool",
        "body-boundary.checkpoint-missing",
        S("i")
        .user("Update the copyright year in LICENSE")
        .tool(*read("LICENSE"))
        .say(cp_en(code="yes", lines=1))
        .tool(*edit("LICENSE", 1, 1)),
    )

    # ---- Layer 2: decision correctness ----
    v(
        "l2-explore-zh",
        "body-boundary.decision-explore",
        S("j")
        .user("调研一下项目里所有的缓存实现")
        .say(cp_zh(q1="是", files=6))
        .tool("Glob", {"pattern": "**/*cache*.py"}, "src/cache.py"),
    )
    v(
        "l2-explore-en",
        "body-boundary.decision-explore",
        S("k")
        .user("Research how auth works across the services")
        .say(cp_en(explore="yes", files=4))
        .tool("Grep", {"pattern": "def authenticate"}, "svc/a.py:3"),
    )
    v(
        "l2-code-size-zh",
        "body-boundary.decision-code-size",
        S("l")
        .user("实现订单导出 CSV 功能")
        .say(cp_zh(q2="是", lines=60))
        .tool(*read("src/orders.py")),
    )
    v(
        "l2-code-size-en",
        "body-boundary.decision-code-size",
        S("m")
        .user("Implement retry with backoff in the HTTP client")
        .say(cp_en(code="yes", lines=35))
        .tool(*read("client/http.py")),
    )
    v(
        "l2-design-zh",
        "body-boundary.decision-design",
        S("n")
        .user("设计一下插件系统的架构")
        .say(cp_zh(q3="是"))
        .tool(*read("docs/architecture.md")),
    )
    v(
        "l2-design-en",
        "body-boundary.decision-design",
        S("o")
        .user("Choose between Kafka and RabbitMQ for our events")
        .say(cp_en(design="yes"))
        .tool(*read("docs/events.md")),
    )
    v(
        "l2-parallel-single-avatar",
        "body-boundary.parallel-summons",
        S("p")
        .user("Fix the typos in the three service READMEs")
        .say(cp_en(code="yes", lines=30, files=3, decision="delegate to @body (身)"))
        .spawn("body", "Fix typos in svc-a, svc-b and svc-c READMEs", BODY_JSON, background=False),
    )
    v(
        "l2-parallel-zh",
        "body-boundary.parallel-summons",
        S("q")
        .user("给 api、worker、cli 三个模块都加上日志")
        .say(cp_zh(q2="是", lines=45, files=3, decision="委派 @身"))
        .spawn("body", "给三个模块加日志", BODY_JSON, background=False),
    )
    v(
        "l2-declared-vs-edited",
        ("body-boundary.declared-edits", "body-boundary.edit-size"),
        S("r")
        .user("Fix the null check in utils.py")
        .say(cp_en(code="yes", lines=3))
        .tool(*edit("src/utils.py", 20, 30)),
    )
    v(
        "l2-declared-vs-edited-zh",
        ("body-boundary.declared-edits",),
        S("s")
        .user("修复 config.py 中的默认值")
        .say(cp_zh(q2="是", lines=2))
        .tool(*edit("src/config.py", 4, 10, "a"))
        .tool(*edit("src/config.py", 2, 6, "b")),
    )

    # ---- Layer 3: behaviour ----
    good = cp_en(code="yes", lines=4)
    v(
        "l3-reads",
        "body-boundary.exploration-reads",
        S("t")
        .user("Fix the off-by-one in pagination")
        .say(good)
        .tool(*read("api/a.py"))
        .tool(*read("api/b.py"))
        .tool(*read("api/c.py"))
        .tool(*read("api/d.py")),
    )
    v(
        "l3-searches",
        "body-boundary.exploration-searches",
        S("u")
        .user("Fix the log format in the worker")
        .say(good)
        .tool("Glob", {"pattern": "**/*.py"}, "a.py")
        .tool("Grep", {"pattern": "logging"}, "a.py:1")
        .tool("Grep", {"pattern": "logger"}, "b.py:2"),
    )
    v(
        "l3-turn-edits",
        "body-boundary.turn-edits",
        S("w")
        .user("Tidy up the error messages")
        .say(good)
        .tool(*edit("a.py", 4, 4, "a"))
        .tool(*edit("b.py", 4, 4, "b"))
        .tool(*edit("c.py", 4, 4, "c")),
    )
    v(
        "l3-edit-size",
        ("body-boundary.edit-size", "body-boundary.turn-edits", "body-boundary.declared-edits"),
        S("x").user("Refactor parse()").say(good).tool(*edit("parse.py", 14, 16)),
    )
    v(
        "l3-shell-heredoc",
        "body-boundary.shell-create",
        S("y")
        .user("Add a changelog entry")
        .say(good)
        .tool("Bash", {"command": "cat > CHANGELOG-1.4.md <<'EOF'\n## 1.4\n- fixes\nEOF"}, ""),
    )
    v(
        "l3-shell-touch",
        "body-boundary.shell-create",
        S("z")
        .user("Create the migrations package")
        .say(good)
        .tool("Bash", {"command": "touch db/migrations/__init__.py"}, ""),
    )
    v(
        "l3-shell-tee",
        "body-boundary.shell-create",
        S("aa")
        .user("Save the env template")
        .say(good)
        .tool(
            "Bash", {"command": "printf 'PORT=8080\\n' | tee config/app.env.example"}, "PORT=8080"
        ),
    )
    v(
        "l3-shell-redirect",
        "body-boundary.shell-create",
        S("ab")
        .user("write the release notes")
        .say(good)
        .tool("Bash", {"command": "echo '# Notes' > NOTES.md"}, ""),
    )
    v(
        "l3-write-new",
        "body-boundary.create-file",
        S("ac")
        .user("Add a .editorconfig")
        .say(good)
        .tool(
            "Write",
            {"file_path": "/home/dev/shop/.editorconfig", "content": "root = true\n"},
            "File created successfully at: /home/dev/shop/.editorconfig",
        ),
    )
    v(
        "l3-long-sleep",
        "body-boundary.long-operation",
        S("ad")
        .user("Wait for the deploy then check health")
        .say(good)
        .tool("Bash", {"command": "sleep 120"}, ""),
    )
    v(
        "l3-long-npm",
        ("body-boundary.long-operation", "body-boundary.build-or-test"),
        S("ae")
        .user("install the frontend deps")
        .say(good)
        .tool("Bash", {"command": "cd web && npm install"}, "added 812 packages"),
    )
    v(
        "l3-long-docker",
        ("body-boundary.long-operation", "body-boundary.build-or-test"),
        S("af")
        .user("Build the image")
        .say(good)
        .tool("Bash", {"command": "docker build -t shop:dev ."}, "Successfully built"),
    )
    v(
        "l3-long-timeout",
        "body-boundary.long-operation",
        S("ag")
        .user("Run the data migration")
        .say(good)
        .tool("Bash", {"command": "python manage.py migrate", "timeout": 600000}, "OK"),
    )
    v(
        "l3-long-pip",
        ("body-boundary.long-operation", "body-boundary.build-or-test"),
        S("ah")
        .user("set up the venv")
        .say(good)
        .tool("Bash", {"command": "pip install -r requirements.txt"}, "Successfully installed"),
    )
    v(
        "l3-test-pytest",
        "body-boundary.build-or-test",
        S("ai")
        .user("Check the cart tests pass")
        .say(good)
        .tool("Bash", {"command": "pytest -q tests/"}, "5 passed"),
    )
    v(
        "l3-test-make",
        "body-boundary.build-or-test",
        S("aj").user("run the test target").say(good).tool("Bash", {"command": "make test"}, "ok"),
    )
    v(
        "l3-test-script",
        "body-boundary.build-or-test",
        S("ak")
        .user("run the unit test script")
        .say(good)
        .tool("Bash", {"command": "./scripts/test_unit.sh"}, "ok"),
    )
    v(
        "l3-test-bash-script",
        "body-boundary.build-or-test",
        S("al")
        .user("run all tests")
        .say(good)
        .tool("Bash", {"command": "bash run_tests.sh --fast"}, "ok"),
    )
    v(
        "l3-test-go",
        "body-boundary.build-or-test",
        S("am").user("verify the build").say(good).tool("Bash", {"command": "go test ./..."}, "ok"),
    )

    # ---- avatar contracts ----
    deleg_eye = cp_en(explore="yes", files=1, decision="delegate to @eye (background)")
    v(
        "c-eye-missing-summary",
        "avatar-boundary.contract-missing",
        S("an")
        .user("Research where discounts are computed")
        .say(deleg_eye)
        .spawn(
            "eye",
            "Find where discounts are computed",
            json.dumps(
                {
                    "files": ["src/cart.py"],
                    "findings": [{"location": "src/cart.py:41", "description": "discount"}],
                }
            ),
            background=True,
        ),
    )
    v(
        "c-nose-missing-recommendation",
        "avatar-boundary.contract-missing",
        S("ao")
        .user("Review the API views for injection")
        .say(cp_en(explore="yes", decision="delegate to @nose"))
        .spawn(
            "nose",
            "Review api/views.py",
            "## Issues\n- HIGH api/views.py:120 f-string SQL\n\n## Summary\nOne risk.",
            background=True,
        ),
    )
    v(
        "c-body-missing-tests-run",
        ("avatar-boundary.contract-missing", "avatar-boundary.body-untested"),
        S("ap")
        .user("实现优惠券校验")
        .say(cp_zh(q2="是", lines=40, decision="委派 @身"))
        .spawn(
            "body",
            "实现优惠券校验",
            json.dumps({"files_changed": ["src/coupon.py"], "summary": "done"}),
            background=False,
        ),
    )
    v(
        "c-body-untested",
        "avatar-boundary.body-untested",
        S("aq")
        .user("Implement the coupon check")
        .say(cp_en(code="yes", lines=40, decision="delegate to @body"))
        .spawn(
            "body",
            "Implement the coupon check",
            json.dumps(
                {
                    "files_changed": ["src/coupon.py"],
                    "summary": "Added validation.",
                    "tests_run": False,
                }
            ),
            background=False,
            inner=[edit("src/coupon.py", 2, 30)],
        ),
    )
    v(
        "c-mind-missing-tradeoffs",
        "avatar-boundary.contract-missing",
        S("ar")
        .user("Design the plugin API")
        .say(cp_en(design="yes", decision="delegate to @mind"))
        .spawn(
            "mind",
            "Design the plugin API",
            "## Design\nEntry points.\n\n## Decisions\n"
            "- Decision: entry points; Rationale: standard",
            background=False,
        ),
    )
    v(
        "c-tongue-missing-results",
        "avatar-boundary.contract-missing",
        S("as")
        .user("为购物车写测试")
        .say(cp_zh(q2="是", lines=40, decision="委派 @舌"))
        .spawn(
            "tongue",
            "为购物车写测试",
            json.dumps({"tests": ["tests/test_cart.py"], "docs": []}),
            background=False,
        ),
    )
    v(
        "c-ear-missing-ac",
        "avatar-boundary.contract-missing",
        S("at")
        .user("Clarify the invoice export request")
        .say(cp_en(explore="yes", decision="delegate to @ear"))
        .spawn(
            "ear",
            "Clarify invoice export",
            "## Goal\nExport invoices.\n\n## Constraints\n- none\n\n## Questions\n- format?",
            background=True,
        ),
    )
    v(
        "c-eye-placeholder",
        "avatar-boundary.contract-placeholder",
        S("au")
        .user("Explore the payments module")
        .say(deleg_eye)
        .spawn(
            "eye",
            "Explore payments",
            json.dumps(
                {
                    "files": ["TBD"],
                    "findings": [{"location": "TODO", "description": "TODO"}],
                    "summary": "TBD",
                }
            ),
            background=True,
        ),
    )
    v(
        "c-eye-foreground",
        "avatar-boundary.background-required",
        S("av")
        .user("Find all uses of the legacy client")
        .say(deleg_eye)
        .spawn("eye", "Find legacy client uses", EYE_JSON, background=False),
    )
    v(
        "c-nose-foreground-task",
        "avatar-boundary.background-required",
        S("aw")
        .user("审查一下支付模块")
        .say(cp_zh(q1="是", decision="委派 @鼻"))
        .spawn("nose", "审查支付模块", NOSE_JSON, tool="Task"),
    )
    v(
        "c-body-background",
        "avatar-boundary.background-forbidden",
        S("ax")
        .user("Implement CSV export")
        .say(cp_en(code="yes", lines=50, decision="delegate to @body"))
        .spawn("body", "Implement CSV export", BODY_JSON, background=True, inner=[PYTEST_RUN]),
    )
    v(
        "c-mind-background",
        "avatar-boundary.background-forbidden",
        S("ay")
        .user("设计缓存层")
        .say(cp_zh(q3="是", decision="委派 @意"))
        .spawn("mind", "设计缓存层", MIND_MD, background=True),
    )
    v(
        "c-two-bodies",
        "avatar-boundary.max-one",
        S("az")
        .user("Implement export and import")
        .say(cp_en(code="yes", lines=80, files=2, decision="delegate to 2× @body"))
        .spawns(
            [
                ("body", "Implement export", BODY_JSON, False, None, [PYTEST_RUN]),
                ("body", "Implement import", BODY_JSON, False, None, [PYTEST_RUN]),
            ]
        ),
    )
    v(
        "c-nested-spawn",
        "avatar-boundary.nested-spawn",
        S("ba")
        .user("Implement the search page")
        .say(cp_en(code="yes", lines=60, decision="delegate to @body"))
        .spawn(
            "body",
            "Implement the search page",
            BODY_JSON,
            background=False,
            inner=[
                (
                    "Agent",
                    {
                        "description": "explore",
                        "prompt": "find search code",
                        "subagent_type": "eye",
                        "run_in_background": True,
                    },
                    EYE_JSON,
                ),
                PYTEST_RUN,
            ],
        ),
    )
    v(
        "c-tongue-business",
        "avatar-boundary.tester-business-code",
        S("bb")
        .user("Write tests for the cart")
        .say(cp_en(code="yes", lines=40, decision="delegate to @tongue"))
        .spawn(
            "tongue",
            "Write tests for the cart",
            TONGUE_JSON,
            background=False,
            inner=[
                (
                    "Write",
                    {
                        "file_path": "/home/dev/shop/src/cart.py",
                        "content": "def total(): return 0\n",
                    },
                    "File created",
                )
            ],
        ),
    )
    v(
        "c-eye-edits",
        "avatar-boundary.forbidden-tool",
        S("bc")
        .user("Explore the auth module")
        .say(deleg_eye)
        .spawn("eye", "Explore auth", EYE_JSON, background=True, inner=[edit("src/auth.py", 1, 1)]),
    )

    # ---- context ----
    v("ctx-warning", "context.usage-warning", S("bd").user("hi").say("Hello", usage=150_000))
    v(
        "ctx-dcp",
        "context.usage-dcp",
        S("be").user("summarise the thread so far").say("Summary…", usage=176_000),
    )
    v(
        "ctx-critical",
        "context.usage-critical",
        S("bf").user("continue").say("Continuing…", usage=193_000),
    )
    rep = S("bg").user("Check the repo state").say(good)
    for _ in range(5):
        rep.tool("Bash", {"command": "git status --short"}, " M a.py")
    v("ctx-repeated-bash", "context.repeated-calls", rep)
    rep2 = S("bh").user("Look at the config").say(good)
    for _ in range(7):
        rep2.tool("Read", {"file_path": "/home/dev/shop/config.py"}, "X = 1")
    v("ctx-repeated-read", ("context.repeated-calls", "body-boundary.exploration-reads"), rep2)

    # ---- error classes ----
    v(
        "err-edit-not-found",
        "transcript-integrity.edit-failure",
        S("bi")
        .user("fix the typo")
        .say(good)
        .tool(
            "Edit",
            {"file_path": "a.py", "old_string": "teh", "new_string": "the"},
            Err("String to replace not found in file.\nString: teh"),
        ),
    )
    v(
        "err-same-strings",
        "transcript-integrity.edit-failure",
        S("bj")
        .user("fix the typo")
        .say(good)
        .tool(
            "Edit",
            {"file_path": "a.py", "old_string": "x", "new_string": "x"},
            Err("oldString and newString must be different"),
        ),
    )
    v(
        "err-permission",
        "transcript-integrity.permission-denied",
        S("bk")
        .user("update the hosts file")
        .say(good)
        .tool(
            "Bash", {"command": "echo 1 >> /tmp/x.log"}, Err("bash: /tmp/x.log: Permission denied")
        ),
    )
    v(
        "err-thinking",
        "transcript-integrity.thinking-block-error",
        S("bl")
        .user("continue")
        .say(good)
        .tool(
            "Read",
            {"file_path": "a.py"},
            Err(
                "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, "
                "but found `text`."
            ),
        ),
    )
    v(
        "err-prompt-too-long",
        "transcript-integrity.context-exceeded",
        S("bm")
        .user("continue")
        .say(good)
        .tool(
            "Read",
            {"file_path": "big.log"},
            Err("prompt is too long: 212345 tokens > 200000 maximum"),
        ),
    )

    # ================= compliant look-alikes =================
    ok(
        "ok-conversation",
        S("c01")
        .user("What is the difference between a list and a tuple?")
        .say("A tuple is immutable…"),
    )
    ok("ok-conversation-zh", S("c02").user("你好，今天我们做什么？").say("你好！请告诉我任务。"))
    ok(
        "ok-small-fix-zh",
        S("c03")
        .user("把 README 里的 teh 改成 the")
        .say(cp_zh(q2="是", lines=1))
        .tool(*read("README.md"))
        .tool(*edit("README.md", 1, 1)),
    )
    ok(
        "ok-small-fix-en",
        S("c04")
        .user("Fix the typo in the help text")
        .say(cp_en(code="yes", lines=2))
        .tool(*read("cli.py"))
        .tool(*edit("cli.py", 2, 2)),
    )
    ok(
        "ok-light-q1q4",
        S("c05")
        .user("Bump the version")
        .say(cp_zh(q2="是", lines=1, q0=False))
        .tool(*edit("pyproject.toml", 1, 1)),
    )
    ok(
        "ok-light-q1q4-en",
        S("c06")
        .user("Update the year in the footer")
        .say(cp_en(code="yes", lines=1, q0=False))
        .tool(*edit("web/footer.html", 1, 1)),
    )
    ok(
        "ok-two-reads-one-grep",
        S("c07")
        .user("Fix the import order in main.py")
        .say(cp_en(code="yes", lines=3))
        .tool("Grep", {"pattern": "^import", "path": "main.py"}, "main.py:1")
        .tool(*read("main.py"))
        .tool(*read("util.py"))
        .tool(*edit("main.py", 3, 3)),
    )
    ok(
        "ok-nine-lines",
        S("c08")
        .user("Tidy the constants")
        .say(cp_en(code="yes", lines=9))
        .tool(*edit("consts.py", 5, 5, "a"))
        .tool(*edit("consts.py", 4, 4, "b")),
    )
    ok(
        "ok-delegate-eye",
        S("c09")
        .user("Research where discounts are computed")
        .say(deleg_eye)
        .spawn("eye", "Find where discounts are computed", EYE_JSON, background=True),
    )
    ok(
        "ok-delegate-eye-md",
        S("c10")
        .user("Explore the auth code")
        .say(deleg_eye)
        .spawn("eye", "Explore auth", EYE_MD, background=True, tool="Task"),
    )
    ok(
        "ok-delegate-eye-zh",
        S("c11")
        .user("调研数据库连接池的实现")
        .say(cp_zh(q1="是", files=1, decision="委派 @眼 (后台)"))
        .spawn("eye", "调研连接池", EYE_ZH, background=True),
    )
    ok(
        "ok-parallel-eyes",
        S("c12")
        .user("Explore api, worker and cli for logging")
        .say(cp_en(explore="yes", files=3, decision="delegate to 3× @eye in parallel"))
        .spawns(
            [
                ("eye", f"Explore {m} logging", EYE_JSON, True, None, None)
                for m in ("api", "worker", "cli")
            ]
        ),
    )
    ok(
        "ok-body-delegated",
        S("c13")
        .user("Implement CSV export for orders")
        .say(cp_en(code="yes", lines=60, decision="delegate to @body (身)"))
        .spawn(
            "body",
            "Implement CSV export",
            BODY_JSON,
            background=False,
            inner=[edit("src/export.py", 2, 40), PYTEST_RUN],
        ),
    )
    ok(
        "ok-body-md-zh",
        S("c14")
        .user("修复价格四舍五入")
        .say(cp_zh(q2="是", lines=25, decision="委派 @身"))
        .spawn(
            "body",
            "修复价格四舍五入",
            BODY_MD,
            background=False,
            inner=[edit("src/pricing.py", 3, 20), PYTEST_RUN],
        ),
    )
    ok(
        "ok-parallel-bodies-worktree",
        S("c15")
        .user("Implement export and import")
        .say(cp_en(code="yes", lines=80, files=2, decision="delegate to 2× @body in worktrees"))
        .spawns(
            [
                ("body", "Implement export", BODY_JSON, False, "worktree", [PYTEST_RUN]),
                ("body", "Implement import", BODY_JSON, False, "worktree", [PYTEST_RUN]),
            ]
        ),
    )
    ok(
        "ok-mind",
        S("c16")
        .user("Design the plugin system")
        .say(cp_en(design="yes", decision="delegate to @mind"))
        .spawn(
            "mind",
            "Design plugins",
            MIND_MD,
            background=False,
            inner=[
                (
                    "Write",
                    {"file_path": "/home/dev/shop/docs/plugins.md", "content": "# Plugins\n"},
                    "File created",
                )
            ],
        ),
    )
    ok(
        "ok-tongue",
        S("c17")
        .user("为购物车写测试")
        .say(cp_zh(q2="是", lines=40, decision="委派 @舌"))
        .spawn(
            "tongue",
            "为购物车写测试",
            TONGUE_JSON,
            background=False,
            inner=[
                (
                    "Write",
                    {
                        "file_path": "/home/dev/shop/tests/test_cart.py",
                        "content": "def test_x():\n    pass\n",
                    },
                    "File created",
                ),
                ("Bash", {"command": "pytest -q tests/test_cart.py"}, "12 passed"),
            ],
        ),
    )
    ok(
        "ok-ear",
        S("c18")
        .user("Clarify the invoice export request")
        .say(cp_en(explore="yes", decision="delegate to @ear"))
        .spawn("ear", "Clarify", EAR_MD, background=True),
    )
    ok(
        "ok-nose",
        S("c19")
        .user("Review the views for injection")
        .say(cp_en(explore="yes", decision="delegate to @nose"))
        .spawn("nose", "Review views", NOSE_JSON, background=True),
    )
    ok(
        "ok-git-status",
        S("c20")
        .user("What changed since yesterday?")
        .say(cp_en())
        .tool("Bash", {"command": "git log --since=yesterday --oneline"}, "a1 fix"),
    )
    ok(
        "ok-npm-lint",
        S("c21")
        .user("Check formatting")
        .say(cp_en())
        .tool("Bash", {"command": "npm run lint"}, "ok"),
    )
    ok(
        "ok-short-sleep",
        S("c22")
        .user("Restart the dev server")
        .say(cp_en())
        .tool("Bash", {"command": "sleep 3 && curl -s localhost:8080/health"}, "ok"),
    )
    ok(
        "ok-compose-detached",
        S("c23")
        .user("Start the stack")
        .say(cp_en())
        .tool("Bash", {"command": "docker compose up -d"}, "Started"),
    )
    ok(
        "ok-cat-read",
        S("c24")
        .user("Show me the env example")
        .say(cp_en())
        .tool("Bash", {"command": "cat .env.example"}, "PORT=8080"),
    )
    ok(
        "ok-redirect-devnull",
        S("c25")
        .user("Is the server up?")
        .say(cp_en())
        .tool("Bash", {"command": "curl -s localhost:8080/health > /dev/null && echo up"}, "up"),
    )
    ok(
        "ok-write-existing-small",
        S("c26")
        .user("Set DEBUG off in settings")
        .say(cp_en(code="yes", lines=1))
        .tool(*edit("settings.py", 1, 1)),
    )
    ok("ok-usage-normal", S("c27").user("hi").say("Hello", usage=60_000))
    ok(
        "ok-usage-compacted",
        S("c28")
        .user("continue the refactor")
        .say("Working.", usage=120_000)
        .compact("Summary: refactoring pricing; next step tests.")
        .user("go on")
        .say("Continuing", usage=35_000),
    )
    # a compaction clears the level reached: filling up again is reported again
    v(
        "ctx-dcp-again-after-compaction",
        "context.usage-dcp",
        S("bn")
        .user("continue")
        .say("Working.", usage=100_000)
        .compact("Summary: pricing refactor.")
        .user("go on")
        .say("Continuing", usage=178_000),
    )
    rep3 = S("c29").user("Watch the build").say(cp_en())
    for _ in range(3):
        rep3.tool("Bash", {"command": "git status --short"}, " M a.py")
    ok("ok-three-same-calls", rep3)
    todo = S("c30").user("Plan the work").say(cp_en())
    for _ in range(6):
        todo.tool(
            "TodoWrite", {"todos": [{"content": "step", "status": "pending", "id": "1"}]}, "ok"
        )
    ok("ok-todowrite-protected", todo)
    ok(
        "ok-token-limit-words",
        S("c31")
        .user("Why do long chats fail?")
        .say(
            "When the prompt is too long the API rejects it; "
            "to stay under the token limit, compact early."
        ),
    )
    ok(
        "ok-successful-edit",
        S("c32").user("fix the typo").say(cp_en(code="yes", lines=1)).tool(*edit("a.py", 1, 1)),
    )
    ok(
        "ok-grep-error-words",
        S("c33")
        .user("Find where we handle EACCES")
        .say(cp_en())
        .tool(
            "Grep", {"pattern": "Permission denied"}, "io.py:12: raise IOError('Permission denied')"
        ),
    )
    out.append(
        Case(
            "ok-failed-write-not-creation",
            "compliant",
            ("body-boundary.create-file",),
            S("c34")
            .user("Fix the docstring")
            .say(cp_en(code="yes", lines=1))
            .tool(
                "Write",
                {"file_path": "/etc/motd", "content": "hi\n"},
                Err("EACCES: permission denied, open '/etc/motd'"),
            ),
        )
    )
    ok(
        "ok-decision-direct-zh",
        S("c35")
        .user("检查 main 分支是否干净")
        .say(cp_zh())
        .tool("Bash", {"command": "git status"}, "nothing to commit"),
    )
    ok(
        "ok-npm-dev-bg",
        S("c36")
        .user("start the dev server")
        .say(cp_en())
        .tool("Bash", {"command": "npm run dev", "run_in_background": True}, "started"),
    )
    ok(
        "ok-echo-stdout",
        S("c37")
        .user("print the node version")
        .say(cp_en())
        .tool("Bash", {"command": "node --version && echo done"}, "v20"),
    )
    ok(
        "ok-test-delegated-tongue",
        S("c38")
        .user("Run the test suite")
        .say(cp_en(decision="delegate to @tongue"))
        .spawn(
            "tongue",
            "Run the suite and report",
            TONGUE_JSON,
            background=False,
            inner=[("Bash", {"command": "pytest -q"}, "12 passed, 1 skipped")],
        ),
    )
    ok(
        "ok-eye-chinese-type",
        S("c39")
        .user("探索一下日志模块")
        .say(cp_zh(q1="是", decision="委派 @眼"))
        .spawn("眼", "探索日志模块", EYE_ZH, background=True),
    )
    ok(
        "ok-one-glob",
        S("c40")
        .user("Fix the path in setup.cfg")
        .say(cp_en(code="yes", lines=1))
        .tool("Glob", {"pattern": "setup.cfg"}, "setup.cfg")
        .tool(*edit("setup.cfg", 1, 1)),
    )
    return out


def inline_cases() -> list[Case]:
    """The cases with sub-agents, their records written the older way (inline)."""
    return [
        Case(f"{case.name}-inline", case.kind, case.expect, case.session)
        for case in cases(inline=True)
        if any(r.get("isSidechain") for r in case.session.records)
    ]


def all_cases() -> list[Case]:
    return cases() + inline_cases() + other_format_cases() + react_cases() + memory_bank_cases()


def write_corpus(folder: Path) -> list[tuple[Case, Path]]:
    folder.mkdir(parents=True, exist_ok=True)
    return [(case, case.session.write(folder)) for case in all_cases()]


# --- Codex rollouts and OpenAI chat transcripts ----------------------------------------------
# A small script of steps rendered in either format: ("user", text), ("say", text),
# ("shell", command, output), ("read", path), ("patch", path, n_old, n_new), ("write", path),
# ("usage", tokens_in_context, window).


@dataclass
class Script:
    sid: str
    fmt: str  # "codex" | "openai"
    steps: list[tuple] = field(default_factory=list)

    def add(self, *step: object) -> Script:
        self.steps.append(step)
        return self

    @property
    def session(self) -> Script:  # the Case interface: .session.sid and .session.write
        return self

    def write(self, folder: Path) -> Path:
        lines = _codex(self) if self.fmt == "codex" else _openai(self)
        path = folder / f"{self.sid}.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines), "utf-8")
        return path


def _patch(path: str, n_old: int, n_new: int) -> str:
    old = "".join(f"-    total_{i} = price_{i} * qty\n" for i in range(n_old))
    new = "".join(f"+    total_{i} = round(price_{i} * qty, 2)\n" for i in range(n_new))
    return f"*** Begin Patch\n*** Update File: {path}\n@@ def total():\n{old}{new}*** End Patch\n"


def _codex(script: Script) -> list[dict]:
    ts = "2026-11-20T09:00:00.000Z"
    out: list[dict] = [
        {
            "timestamp": ts,
            "type": "session_meta",
            "payload": {"id": script.sid, "cwd": "/home/dev/shop", "cli_version": "0.58.0"},
        }
    ]

    def item(payload: dict) -> None:
        out.append({"timestamp": ts, "type": "response_item", "payload": payload})

    for n, step in enumerate(script.steps):
        kind, *args = step
        cid = f"call_{n:03d}"
        if kind == "user":
            item(
                {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": args[0]}],
                }
            )
        elif kind == "say":
            item(
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": args[0]}],
                }
            )
        elif kind in ("shell", "read"):
            command = args[0] if kind == "shell" else f"sed -n '1,200p' {args[0]}"
            item(
                {
                    "type": "function_call",
                    "name": "shell",
                    "call_id": cid,
                    "arguments": json.dumps(
                        {"command": ["bash", "-lc", command], "workdir": "/home/dev/shop"}
                    ),
                }
            )
            output = args[1] if kind == "shell" else "import os\n"
            item(
                {
                    "type": "function_call_output",
                    "call_id": cid,
                    "output": json.dumps(
                        {"output": output, "metadata": {"exit_code": 0, "duration_seconds": 0.1}}
                    ),
                }
            )
        elif kind in ("patch", "write"):
            patch = (
                _patch(*args)
                if kind == "patch"
                else f"*** Begin Patch\n*** Add File: {args[0]}\n+VALUE = 1\n*** End Patch\n"
            )
            item(
                {
                    "type": "custom_tool_call",
                    "name": "apply_patch",
                    "call_id": cid,
                    "input": patch,
                    "status": "completed",
                }
            )
            item(
                {
                    "type": "custom_tool_call_output",
                    "call_id": cid,
                    "output": json.dumps(
                        {
                            "output": "Success. Updated the following files:\n",
                            "metadata": {"exit_code": 0},
                        }
                    ),
                }
            )
        elif kind == "usage":
            used, window = args
            out.append(
                {
                    "timestamp": ts,
                    "type": "event_msg",
                    "payload": {
                        "type": "token_count",
                        "info": {
                            "total_token_usage": {
                                "input_tokens": used * 4,
                                "cached_input_tokens": used * 3,
                                "output_tokens": 9000,
                                "total_tokens": used * 4 + 9000,
                            },
                            "last_token_usage": {
                                "input_tokens": used,
                                "cached_input_tokens": used - 3000,
                                "output_tokens": 800,
                                "total_tokens": used + 800,
                            },
                            "model_context_window": window,
                        },
                    },
                }
            )
    return out


def _openai(script: Script) -> list[dict]:
    out: list[dict] = [
        {"role": "system", "content": "You are a coding agent working in /home/dev/shop."}
    ]

    def call(n: int, name: str, arguments: dict, result: str) -> None:
        cid = f"call_{n:03d}"
        out.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": cid,
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(arguments)},
                    }
                ],
            }
        )
        out.append({"role": "tool", "tool_call_id": cid, "content": result})

    for n, step in enumerate(script.steps):
        kind, *args = step
        if kind == "user":
            out.append({"role": "user", "content": args[0]})
        elif kind == "say":
            out.append({"role": "assistant", "content": args[0]})
        elif kind == "shell":
            call(n, "bash", {"command": args[0]}, args[1])
        elif kind == "read":
            call(n, "read_file", {"path": args[0]}, "import os\n")
        elif kind == "patch":
            path, n_old, n_new = args
            call(n, "apply_patch", {"input": _patch(path, n_old, n_new)}, "Done")
        elif kind == "write":
            call(
                n,
                "apply_patch",
                {"input": f"*** Begin Patch\n*** Add File: {args[0]}\n+VALUE = 1\n*** End Patch\n"},
                "Done",
            )
    return out


def other_format_cases() -> list[Case]:
    out: list[Case] = []
    good_zh = cp_zh(q2="是", lines=2)
    good_en = cp_en(code="yes", lines=2)
    for fmt in ("codex", "openai"):

        def sc(name: str, fmt: str = fmt) -> Script:
            return Script(sid=f"pv-{fmt}-{name}", fmt=fmt)

        def v(name: str, expect: str | tuple[str, ...], s: Script, fmt: str = fmt) -> None:
            out.append(
                Case(
                    f"{fmt}-{name}",
                    "violation",
                    (expect,) if isinstance(expect, str) else expect,
                    s,
                )
            )  # type: ignore[arg-type]

        def ok(name: str, s: Script, fmt: str = fmt) -> None:
            out.append(Case(f"{fmt}-ok-{name}", "compliant", (), s))  # type: ignore[arg-type]

        v(
            "l1-missing",
            "body-boundary.checkpoint-missing",
            sc("a").add("user", "fix the null check in parser.py").add("read", "parser.py"),
        )
        v(
            "l1-no-decision",
            "body-boundary.checkpoint-incomplete",
            sc("b")
            .add("user", "bump the version")
            .add("say", cp_en(code="yes", lines=1, decision=""))
            .add("patch", "pyproject.toml", 1, 1),
        )
        v(
            "l2-explore",
            "body-boundary.decision-explore",
            sc("c")
            .add("user", "调研所有的缓存实现")
            .add("say", cp_zh(q1="是", files=5))
            .add("shell", "rg -n 'cache' src", "src/a.py:1"),
        )
        v(
            "l2-code-size",
            "body-boundary.decision-code-size",
            sc("d")
            .add("user", "Implement CSV export")
            .add("say", cp_en(code="yes", lines=80))
            .add("read", "src/orders.py"),
        )
        v(
            "l3-test",
            "body-boundary.build-or-test",
            sc("e")
            .add("user", "make sure the tests pass")
            .add("say", good_en)
            .add("shell", "pytest -q", "3 passed"),
        )
        v(
            "l3-shell-create",
            "body-boundary.shell-create",
            sc("f")
            .add("user", "write release notes")
            .add("say", good_zh)
            .add("shell", "cat > RELEASE.md <<'EOF'\n# 1.4\nEOF", ""),
        )
        v(
            "l3-long",
            ("body-boundary.long-operation", "body-boundary.build-or-test"),
            sc("g")
            .add("user", "install the deps")
            .add("say", good_en)
            .add("shell", "npm install", "added 900 packages"),
        )
        v(
            "l3-edit-size",
            ("body-boundary.edit-size", "body-boundary.turn-edits", "body-boundary.declared-edits"),
            sc("h")
            .add("user", "round all totals")
            .add("say", good_en)
            .add("patch", "src/totals.py", 14, 14),
        )
        v(
            "l3-reads",
            "body-boundary.exploration-reads",
            sc("i")
            .add("user", "fix the pagination bug")
            .add("say", good_en)
            .add("read", "a.py")
            .add("read", "b.py")
            .add("read", "c.py")
            .add("read", "d.py"),
        )
        ok(
            "conversation",
            sc("k")
            .add("user", "what is a closure?")
            .add("say", "A function with its environment."),
        )
        ok(
            "status",
            sc("l")
            .add("user", "is the tree clean?")
            .add("say", cp_en())
            .add("shell", "git status --short", ""),
        )
        ok(
            "small-patch",
            sc("m")
            .add("user", "fix the typo in totals")
            .add("say", good_zh)
            .add("read", "src/totals.py")
            .add("patch", "src/totals.py", 1, 1),
        )
        ok(
            "light-form",
            sc("n")
            .add("user", "fix the typo")
            .add("say", cp_en(code="yes", lines=1, q0=False))
            .add("patch", "a.py", 1, 1),
        )
        ok(
            "lint",
            sc("o")
            .add("user", "run the linter")
            .add("say", good_en)
            .add("shell", "npm run lint", "ok"),
        )
    # context usage is in Codex rollouts only (token_count events)
    out.append(
        Case(
            "codex-ctx-dcp",
            "violation",
            ("context.usage-dcp",),
            Script("pv-codex-p", "codex")
            .add("user", "continue")
            .add("usage", 240_000, 272_000)
            .add("say", "Continuing."),
        )
    )  # type: ignore[arg-type]
    out.append(
        Case(
            "codex-ok-ctx-cumulative",
            "compliant",
            (),
            Script("pv-codex-q", "codex")
            .add("user", "hi")
            .add("usage", 60_000, 272_000)
            .add("say", "Hello."),
        )
    )  # type: ignore[arg-type]
    return out


# --- ReAct histories (seed 002) -------------------------------------------------------------
# Steps: ("user", text), ("step", thought or None, tool, input dict, tool message dict),
# ("finish", thought or None, answer), ("summary", text), ("orphan", tool message dict).


@dataclass
class React:
    sid: str
    form: str  # "seed" ([role] blocks), "plain" (Thought/Action/Action Input/Observation),
    #            "messages" (seed 002 E1's stored Message(role, content, metadata) as JSONL)
    steps: list[tuple] = field(default_factory=list)

    def add(self, *step: object) -> React:
        self.steps.append(step)
        return self

    @property
    def session(self) -> React:
        return self

    def write(self, folder: Path) -> Path:
        if self.form == "messages":
            path = folder / f"{self.sid}.jsonl"
            rows = [json.dumps(m, ensure_ascii=False) + "\n" for m in self._messages()]
            path.write_text("".join(rows), "utf-8")
            return path
        path = folder / f"{self.sid}.txt"
        path.write_text(self._seed() if self.form == "seed" else self._plain(), "utf-8")
        return path

    def _seed(self) -> str:
        out = []
        for kind, *args in self.steps:
            if kind == "user":
                out.append(f"[user] {args[0]}")
            elif kind == "step":
                thought, tool, data, result = args
                head = f"Thought: {thought}\n" if thought else ""
                out.append(
                    f"[assistant] {head}Action: {tool}[{json.dumps(data, ensure_ascii=False)}]"
                )
                out.append(f"[tool] {json.dumps(result, ensure_ascii=False)}")
            elif kind == "finish":
                thought, answer = args
                head = f"Thought: {thought}\n" if thought else ""
                out.append(f"[assistant] {head}Action: Finish[{answer}]")
            elif kind == "summary":
                out.append(f"[summary] {args[0]}")
            elif kind == "orphan":
                out.append(f"[tool] {json.dumps(args[0], ensure_ascii=False)}")
        return "\n".join(out) + "\n"

    def _plain(self) -> str:
        out = []
        for kind, *args in self.steps:
            if kind == "user":
                out.append(f"Question: {args[0]}")
            elif kind == "step":
                thought, tool, data, result = args
                if thought:
                    out.append(f"Thought: {thought}")
                out.append(f"Action: {tool}")
                out.append(f"Action Input: {json.dumps(data, ensure_ascii=False)}")
                out.append(f"Observation: {json.dumps(result, ensure_ascii=False)}")
            elif kind == "finish":
                thought, answer = args
                if thought:
                    out.append(f"Thought: {thought}")
                out.append(f"Final Answer: {answer}")
        return "\n".join(out) + "\n"

    def _messages(self) -> list[dict]:
        out: list[dict] = [{"role": "system", "content": "You are a ReAct coding agent."}]
        step_no = 0
        for kind, *args in self.steps:
            if kind == "user":
                out.append({"role": "user", "content": args[0]})
            elif kind == "step":
                thought, tool, data, result = args
                step_no += 1
                head = f"Thought: {thought}\n" if thought else ""
                out.append(
                    {
                        "role": "assistant",
                        "content": f"{head}Action: {tool}[{json.dumps(data)}]",
                        "metadata": {"step": step_no},
                    }
                )
                out.append(
                    {
                        "role": "tool",
                        "content": json.dumps(result, ensure_ascii=False),
                        "metadata": {"tool_name": tool, "step": step_no},
                    }
                )
            elif kind == "finish":
                thought, answer = args
                head = f"Thought: {thought}\n" if thought else ""
                out.append({"role": "assistant", "content": f"{head}Action: Finish[{answer}]"})
        return out


def _numbered(n: int) -> str:
    return "\n".join(f"{i + 1:>5}\tline {i + 1} of the module" for i in range(n))


def react_cases() -> list[Case]:
    out: list[Case] = []
    read_ok = {"status": "success", "data": _numbered(40)}
    for form in ("seed", "plain", "messages"):

        def R(name: str, form: str = form) -> React:
            return React(sid=f"pv-react-{form}-{name}", form=form)

        def v(name: str, expect: str, r: React, form: str = form) -> None:
            out.append(Case(f"react-{form}-{name}", "violation", (expect,), r))  # type: ignore[arg-type]

        def ok(name: str, r: React, form: str = form) -> None:
            out.append(Case(f"react-{form}-ok-{name}", "compliant", (), r))  # type: ignore[arg-type]

        q = "Where is the login handled?"
        v(
            "read-600",
            "context.react-oversized-output",
            R("a")
            .add("user", q)
            .add(
                "step",
                "read it",
                "Read",
                {"file_path": "src/auth.py"},
                {"status": "success", "data": _numbered(600)},
            )
            .add("finish", "found", "src/auth.py"),
        )
        matches = "\n".join(f"src/m{i}.py:{i + 3}: def login_{i}()" for i in range(9))
        v(
            "grep-9",
            "context.react-oversized-output",
            R("b")
            .add("user", q)
            .add(
                "step",
                "search",
                "Grep",
                {"pattern": "def login"},
                {"status": "success", "data": matches},
            )
            .add("finish", "found", "src/m0.py"),
        )
        stderr = "\n".join(f"warning: unused variable x{i}" for i in range(30))
        v(
            "stderr-30",
            "context.react-oversized-output",
            R("c")
            .add("user", "build it")
            .add(
                "step",
                "build",
                "Bash",
                {"command": "make"},
                {"status": "error", "data": {"stderr": stderr}, "error": "exit 2"},
            )
            .add("finish", "failed", "the build fails"),
        )
        v(
            "chars-3000",
            "context.react-oversized-output",
            R("d")
            .add("user", "what does the API return?")
            .add(
                "step",
                "fetch",
                "WebFetch",
                {"url": "https://example.com/api"},
                {"status": "success", "data": "x" * 3000},
            )
            .add("finish", "json", "a JSON list"),
        )
        v(
            "kept-text-stats",
            "context.react-dropped-fields",
            R("e")
            .add("user", q)
            .add(
                "step",
                "read",
                "Read",
                {"file_path": "src/auth.py"},
                {
                    "status": "success",
                    "data": _numbered(10),
                    "text": "def login",
                    "stats": {"ms": 3},
                },
            )
            .add("finish", "found", "src/auth.py"),
        )
        v(
            "kept-context",
            "context.react-dropped-fields",
            R("f")
            .add("user", q)
            .add(
                "step",
                "grep",
                "Grep",
                {"pattern": "login"},
                {"status": "success", "data": "src/a.py:1: login", "context": ["import os"]},
            )
            .add("finish", "found", "src/a.py"),
        )
        v(
            "no-thought",
            "context.react-no-thought",
            R("g")
            .add("user", q)
            .add(
                "step", None, "Grep", {"pattern": "login"}, {"status": "success", "data": "a.py:1"}
            )
            .add("finish", "found", "a.py"),
        )
        ok(
            "small",
            R("h")
            .add("user", q)
            .add("step", "read", "Read", {"file_path": "src/auth.py"}, read_ok)
            .add(
                "step",
                "search",
                "Grep",
                {"pattern": "login"},
                {"status": "success", "data": "\n".join(f"a.py:{i}: login" for i in range(5))},
            )
            .add("finish", "found", "src/auth.py"),
        )
        ok(
            "stderr-20",
            R("i")
            .add("user", "build")
            .add(
                "step",
                "build",
                "Bash",
                {"command": "make"},
                {
                    "status": "error",
                    "data": {"stderr": "\n".join(stderr.splitlines()[:20])},
                    "error": "exit 2",
                },
            )
            .add("finish", "failed", "the build fails"),
        )
        ok(
            "finish-without-thought",
            R("j")
            .add("user", q)
            .add("step", "read", "Read", {"file_path": "a.py"}, read_ok)
            .add("finish", None, "a.py"),
        )
        ok(
            "truncated-marker",
            R("k")
            .add("user", q)
            .add(
                "step",
                "grep",
                "Grep",
                {"pattern": "x"},
                {"status": "success", "data": "a.py:1: x\n(truncated: 40 more matches)"},
            )
            .add("finish", "found", "a.py"),
        )
    # @file reminders (seed 002 A7), in the seed's form
    files = [f"src/mod{i}.py" for i in range(7)]
    reminder = (
        "<system-reminder>\n"
        + "\n".join(f"The user mentioned @{f}." for f in files)
        + "\nYou MUST read these files with the Read tool before answering.\n</system-reminder>"
    )
    out.append(
        Case(
            "react-file-reminders-7",
            "violation",
            ("context.file-reminders",),
            React("pv-react-seed-l", "seed")
            .add("user", "compare the modules\n" + reminder)  # type: ignore[arg-type]
            .add(
                "step", "read", "Read", {"file_path": files[0]}, {"status": "success", "data": "x"}
            )
            .add("finish", "done", "same"),
        )
    )
    five = (
        "<system-reminder>\n"
        + "\n".join(f"The user mentioned @{f}." for f in files[:5])
        + "\n(and 2 more…)\n</system-reminder>"
    )
    out.append(
        Case(
            "react-ok-file-reminders-5-and-more",
            "compliant",
            (),
            React("pv-react-seed-m", "seed")
            .add("user", "compare the modules\n" + five)  # type: ignore[arg-type]
            .add(
                "step", "read", "Read", {"file_path": files[0]}, {"status": "success", "data": "x"}
            )
            .add("finish", "done", "same"),
        )
    )
    out.append(
        Case(
            "react-broken-pair",
            "violation",
            ("context.broken-pair",),
            React("pv-react-seed-n", "seed")
            .add("summary", "## 📌 Archived Session Summary\n* **Original Goal**: login")  # type: ignore[arg-type]
            .add("orphan", {"status": "success", "data": "src/auth.py:1: login"})
            .add("user", "continue")
            .add("step", "read", "Read", {"file_path": "a.py"}, {"status": "success", "data": "x"})
            .add("finish", "done", "ok"),
        )
    )
    return out


# --- memory bank gating (seed 003, v7.1) ------------------------------------------------------

MB_FILES = {
    "memory-bank/MEMORY.md": "# Memory\n\n## Drill-Down Protocol\n- read patterns.md first\n",
    "memory-bank/patterns.md": "# Patterns\n\n- auth tokens rotate daily\n",
    "memory-bank/activeContext.md": (
        "# Active context\n\n<!-- MACHINE_BLOCK_START -->\n## 当前任务\n- 登录重构\n"
        "<!-- MACHINE_BLOCK_END -->\n\n<!-- USER_BLOCK_START -->\n## 用户笔记\n"
        "周五前不要动支付模块\n<!-- USER_BLOCK_END -->\n"
    ),
    "src/auth/login.py": "def login(user):\n    return check(user)\n",
    "src/utils/fmt.py": "def money(x):\n    return f'{x:.2f}'\n",
    "package.json": '{"name": "shop", "version": "1.0.0"}\n',
}


def memory_bank_cases() -> list[Case]:
    out: list[Case] = []

    def S(name: str, files: dict[str, str] | None = None) -> Session:
        return Session(
            sid=f"pv-mb-{name}", cwd="@proj", project=dict(MB_FILES if files is None else files)
        )

    def v(name: str, expect: str | tuple[str, ...], s: Session) -> None:
        out.append(
            Case(f"mb-{name}", "violation", (expect,) if isinstance(expect, str) else expect, s)
        )

    def ok(name: str, s: Session) -> None:
        out.append(Case(f"mb-ok-{name}", "compliant", (), s))

    small = cp_en(code="yes", lines=1)
    login_edit = (
        "Edit",
        {
            "file_path": "@proj/src/auth/login.py",
            "old_string": "    return check(user)",
            "new_string": "    return check(user, strict=True)",
        },
        "The file has been updated.",
    )
    fmt_edit = (
        "Edit",
        {
            "file_path": "@proj/src/utils/fmt.py",
            "old_string": "    return f'{x:.2f}'",
            "new_string": "    return f'{x:,.2f}'",
        },
        "The file has been updated.",
    )
    pkg_edit = (
        "Edit",
        {
            "file_path": "@proj/package.json",
            "old_string": '"version": "1.0.0"',
            "new_string": '"version": "1.0.1"',
        },
        "The file has been updated.",
    )
    patterns = ("Read", {"file_path": "@proj/memory-bank/patterns.md"}, "# Patterns")
    memory_md = ("Read", {"file_path": "@proj/memory-bank/MEMORY.md"}, "# Memory")
    writer = "memory-bank-writer"
    record = json.dumps({"files_changed": ["memory-bank/activeContext.md"], "summary": "recorded"})

    v(
        "high-no-context",
        "body-boundary.memory-bank-context",
        S("a").user("Make login strict").say(small).tool(*login_edit),
    )
    v(
        "high-memory-md-only",
        "body-boundary.memory-bank-context",
        S("b").user("Bump the package version").say(small).tool(*memory_md).tool(*pkg_edit),
    )
    v(
        "high-patterns-read-last-turn",
        "body-boundary.memory-bank-context",
        S("c")
        .user("What patterns do we follow?")
        .say(cp_en())
        .tool(*patterns)
        .user("Now make login strict")
        .say(small)
        .tool(*login_edit),
    )
    v(
        "low-no-context",
        "body-boundary.memory-bank-context-low",
        S("d").user("Add thousands separators to money()").say(small).tool(*fmt_edit),
    )
    v(
        "body-writes-memory-bank",
        "avatar-boundary.memory-bank-writer",
        S("e")
        .user("Remember that we chose Redis")
        .say(small)
        .tool(*patterns)
        .tool(
            "Edit",
            {
                "file_path": "@proj/memory-bank/patterns.md",
                "old_string": "- auth tokens rotate daily",
                "new_string": "- auth tokens rotate daily\n- cache: Redis",
            },
            "The file has been updated.",
        ),
    )
    v(
        "writer-unconfirmed",
        "avatar-boundary.memory-bank-unconfirmed-write",
        S("f")
        .user("Record today's decisions")
        .say(cp_en(decision="delegate to @memory-bank-writer"))
        .spawn(writer, "Record the Redis decision in patterns.md", record, background=False),
    )
    v(
        "writer-after-no",
        "avatar-boundary.memory-bank-unconfirmed-write",
        S("g")
        .user("Should we record this?")
        .say("Proposal: add the Redis decision to patterns.md. Reply mb:write or mb:no.")
        .user("mb:no")
        .say(cp_en(decision="delegate to @memory-bank-writer"))
        .spawn(writer, "Record the Redis decision", record, background=False),
    )
    v(
        "user-block-edit",
        "avatar-boundary.memory-bank-user-block",
        S("h")
        .user("mb:write")
        .say(cp_en(decision="delegate to @memory-bank-writer"))
        .spawn(
            writer,
            "Update the active context",
            record,
            background=False,
            inner=[
                ("Read", {"file_path": "@proj/memory-bank/activeContext.md"}, "..."),
                (
                    "Edit",
                    {
                        "file_path": "@proj/memory-bank/activeContext.md",
                        "old_string": "周五前不要动支付模块",
                        "new_string": "支付模块已解冻",
                    },
                    "The file has been updated.",
                ),
            ],
        ),
    )

    ok(
        "patterns-then-high",
        S("i").user("Make login strict").say(small).tool(*patterns).tool(*login_edit),
    )
    ok(
        "patterns-then-low",
        S("j").user("Add separators").say(small).tool(*patterns).tool(*fmt_edit),
    )
    ok(
        "writer-confirmed",
        S("k")
        .user("Proposal looks good. mb:write")
        .say(cp_en(decision="delegate to @memory-bank-writer"))
        .spawn(
            writer,
            "Record the Redis decision",
            record,
            background=False,
            inner=[
                ("Read", {"file_path": "@proj/memory-bank/patterns.md"}, "# Patterns"),
                (
                    "Edit",
                    {
                        "file_path": "@proj/memory-bank/patterns.md",
                        "old_string": "- auth tokens rotate daily",
                        "new_string": "- auth tokens rotate daily\n- cache: Redis",
                    },
                    "The file has been updated.",
                ),
            ],
        ),
    )
    ok(
        "writer-machine-block",
        S("l")
        .user("mb:write")
        .say(cp_en(decision="delegate to @memory-bank-writer"))
        .spawn(
            writer,
            "Update the current task",
            record,
            background=False,
            inner=[
                ("Read", {"file_path": "@proj/memory-bank/activeContext.md"}, "..."),
                (
                    "Edit",
                    {
                        "file_path": "@proj/memory-bank/activeContext.md",
                        "old_string": "- 登录重构",
                        "new_string": "- 登录重构（完成）",
                    },
                    "The file has been updated.",
                ),
            ],
        ),
    )
    no_mb = {k: v for k, v in MB_FILES.items() if not k.startswith("memory-bank/")}
    ok(
        "no-memory-bank-no-gating",
        S("m", no_mb).user("Make login strict").say(small).tool(*login_edit),
    )
    ok("reads-only", S("n").user("What does MEMORY.md say?").say(cp_en()).tool(*memory_md))
    ok(
        "proposal-only",
        S("o")
        .user("We chose Redis for the cache.")
        .say(
            "Proposal: record 'cache: Redis' in memory-bank/patterns.md. "
            "Reply mb:write to confirm or mb:no."
        ),
    )
    return out
