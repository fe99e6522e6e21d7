"""Compliant look-alikes of the held-out 戒 corpus that read like a team's day: multi-turn
sessions mixing conversation, small fixes by the main agent, and delegations to every avatar
(background explorers and reviewers, foreground implementers and architects, parallel summons),
each turn with its CHECKPOINT in a rotating wording and each avatar returning its contract in a
rotating form. Generated from a fixed seed, so the corpus is the same on every run."""

# ruff: noqa: E501  (transcript text and JSON records are data: kept on one line each)

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from corpora.protocol.protocol_heldout_cases import BODY_TESTS, CASES, Case, _body_work, _eye_work
from corpora.protocol.protocol_heldout_formats import Claude, Codex, OpenAIChat, ReactText, changed
from corpora.protocol.protocol_heldout_text import as_json, body_md, checkpoint, eye_md, nose_md

STYLES = ("zh-block", "light", "en-table", "bold-emoji", "en-lines")
DECIDE = {
    "eye": (
        "召唤分身: @眼 (后台)",
        "delegate to @eye in the background",
        "委派 👁️ 眼分身（后台运行）",
        "summon eye (explorer), background",
    ),
    "body": (
        "委派 @身 (斗战胜佛)",
        "summon @body (implementer)",
        "召唤 ⚔️ 斗战胜佛",
        "delegate to body",
    ),
    "nose": ("召唤 @鼻 审查（后台）", "delegate review to @nose, background", "委派 👃 鼻分身"),
    "tongue": ("召唤 @舌 写测试", "delegate to @tongue (tester)"),
    "mind": ("召唤 @意 出设计", "delegate to @mind (architect)", "委派 🧠 意分身"),
    "ear": ("召唤 @耳 澄清需求", "delegate to @ear (analyst)"),
    "self": ("本体执行", "body executes", "本体执行（单行修改）", "handle directly (本体)"),
}
ALIASES = {
    "eye": ("eye", "explorer"),
    "body": ("body", "implementer"),
    "nose": ("nose", "reviewer"),
    "tongue": ("tongue", "tester"),
    "mind": ("mind", "architect"),
    "ear": ("ear", "analyst"),
}
AREAS = ("orders", "billing", "shipping", "auth", "catalog", "search", "notify", "export")


class Day:
    def __init__(self, rng: random.Random, s: Claude, inline: bool) -> None:
        self.rng = rng
        self.s = s
        self.inline = inline
        self.tool = "Task" if inline else rng.choice(("Agent", "Agent", "Task"))

    def cp(self, who: str, **kw: object) -> str:
        return checkpoint(self.rng.choice(STYLES), decision=self.rng.choice(DECIDE[who]), **kw)  # type: ignore[arg-type]

    def atype(self, who: str) -> str:
        return self.rng.choice(ALIASES[who])

    # turn kinds --------------------------------------------------------------------------
    def chat(self, area: str) -> None:
        self.s.user(
            self.rng.choice(
                (
                    f"{area} 模块现在谁在维护？",
                    f"Quick question: is {area} still on the old ORM?",
                    f"你觉得 {area} 值得拆成独立服务吗？",
                )
            )
        )
        self.s.assistant(
            self.rng.choice(
                (
                    "目前没有足够的理由拆分：调用量小，和 orders 共享事务。",
                    "Yes, it still uses the old ORM; the migration is planned for next sprint.",
                    "按 CODEOWNERS 是 payments 组。",
                )
            )
        )

    def small_fix(self, area: str) -> None:
        s = self.s
        s.user(
            self.rng.choice(
                (
                    f"{area}/views.py 里有个拼写错误 recieve，改一下",
                    f"Typo in src/{area}/views.py: 'recieve' → 'receive'",
                )
            )
        )
        s.assistant(self.cp("self", q2=True, lines=1))
        s.read(f"src/{area}/views.py", self.rng.randint(20, 90))
        s.edit(f"src/{area}/views.py", "def recieve(self, msg):", "def receive(self, msg):")
        s.assistant(self.rng.choice(("已修正。", "Fixed the typo.")))

    def explore(self, area: str) -> None:
        s = self.s
        s.user(
            self.rng.choice(
                (f"{area} 的重试逻辑在哪？帮我摸清楚", f"Map out how {area} handles retries")
            )
        )
        s.assistant(self.cp("eye", q1=True))
        out = self._eye_out(area)
        s.spawn(
            self.atype("eye"),
            f"定位 {area} 的重试逻辑",
            out,
            work=_eye_work,
            background=True,
            inline=self.inline,
            tool=self.tool,
        )
        s.assistant(
            self.rng.choice(
                (
                    "眼分身在后台探索中。",
                    "Explorer launched in the background; I'll summarise when it reports.",
                )
            )
        )

    def _eye_out(self, area: str) -> str:
        form = self.rng.randrange(3)
        files = [f"src/{area}/retry.py", f"src/{area}/client.py"]
        finds = [
            (f"src/{area}/retry.py:21", "指数退避，最多 5 次"),
            (f"src/{area}/client.py:64", "超时后不重试 POST"),
        ]
        if form == 0:
            return as_json(
                {
                    "files": files,
                    "findings": [{"location": loc, "description": d} for loc, d in finds],
                    "summary": f"{area} 的重试集中在 retry.py。",
                }
            )
        return eye_md(
            files, finds, f"{area} 的重试集中在 retry.py，client 对 POST 不重试。", zh=form == 2
        )

    def implement(self, area: str) -> None:
        s = self.s
        n = self.rng.randint(20, 70)
        s.user(
            self.rng.choice(
                (f"给 {area} 加上幂等键支持", f"Add idempotency keys to the {area} endpoints")
            )
        )
        s.assistant(self.cp("body", q2=True, lines=n))
        files = [f"src/{area}/api.py", f"tests/{area}/test_idempotency.py"]
        if self.rng.random() < 0.5:
            out = as_json(
                {
                    "files_changed": files,
                    "summary": f"{area} endpoints accept Idempotency-Key.",
                    "tests_run": True,
                }
            )
        else:
            out = body_md(files, f"{area} 接口支持 Idempotency-Key。", BODY_TESTS)
        s.spawn(
            self.atype("body"),
            f"Implement idempotency keys in {area}",
            out,
            work=_body_work(
                self.rng.randint(12, 30),
                test=self.rng.choice(
                    ("pytest -q", "make test", "uv run pytest -q tests", "npm test")
                ),
            ),
            inline=self.inline,
            tool=self.tool,
        )
        s.bash(
            "git diff --stat",
            f" src/{area}/api.py | 34 ++++++++--",
            text=self.rng.choice(("核对一下改动。", "Verifying the change.")),
        )
        s.assistant(self.rng.choice(("实现完成，测试通过。", "Done; tests pass.")))

    def review(self, area: str) -> None:
        s = self.s
        s.user(
            self.rng.choice((f"审查一下 {area} 最近的改动", f"Review the latest {area} changes"))
        )
        s.assistant(self.cp("nose", q1=True))
        if self.rng.random() < 0.5:
            out = as_json(
                {
                    "issues": [
                        {
                            "severity": "MEDIUM",
                            "location": f"src/{area}/api.py:40",
                            "description": "missing input length check",
                        }
                    ],
                    "summary": "One medium issue.",
                    "recommendation": "Validate lengths in the request model.",
                }
            )
        else:
            out = nose_md(
                [("MEDIUM", f"src/{area}/api.py:40", "缺少长度校验")],
                "一处中等问题",
                "在请求模型里加长度校验",
            )
        s.spawn(
            self.atype("nose"),
            f"Review recent changes in src/{area}",
            out,
            background=True,
            inline=self.inline,
            tool=self.tool,
        )
        s.assistant(self.rng.choice(("审查在后台进行。", "Review running in the background.")))

    def tests(self, area: str) -> None:
        s = self.s
        s.user(self.rng.choice((f"给 {area} 补几个边界测试", f"Add edge-case tests for {area}")))
        s.assistant(self.cp("tongue", q2=True, lines=30))

        def work(s2: Claude, a) -> None:  # type: ignore[no-untyped-def]
            s2.write(
                f"tests/{area}/test_edges.py",
                "def test_empty():\n    assert handle([]) == []\n",
                agent=a,
            )
            s2.bash(f"pytest -q tests/{area}/test_edges.py", "4 passed in 0.21s", agent=a)

        out = as_json(
            {
                "tests": [f"tests/{area}/test_edges.py"],
                "docs": [],
                "results": {"passed": 4, "failed": 0, "skipped": 0},
            }
        )
        s.spawn(
            self.atype("tongue"),
            f"Edge-case tests for {area}",
            out,
            work=work,
            inline=self.inline,
            tool=self.tool,
        )
        s.assistant(self.rng.choice(("测试补好了。", "Tests added, 4 passing.")))

    def design(self, area: str) -> None:
        s = self.s
        s.user(
            self.rng.choice(
                (f"{area} 要支持多币种，出个方案", f"Design multi-currency support for {area}")
            )
        )
        s.assistant(self.cp("mind", q3=True))

        def work(s2: Claude, a) -> None:  # type: ignore[no-untyped-def]
            s2.read("docs/architecture.md", 60, agent=a)
            s2.write(
                f"docs/adr/{area}-multi-currency.md",
                f"# {area}: multi-currency\n\nStatus: proposed\n",
                agent=a,
            )

        out = "## Design\nAmounts carry a currency; conversion at the edge.\n\n## Decisions\n- decision: store ISO 4217 code with every amount\n  rationale: no implicit currency\n\n## Tradeoffs\n- wider rows\n- every report must group by currency"
        s.spawn(
            self.atype("mind"),
            f"Multi-currency design for {area}",
            out,
            work=work,
            inline=self.inline,
            tool=self.tool,
        )
        s.assistant(self.rng.choice(("方案见上。", "Design is above.")))

    def parallel(self, area: str) -> None:
        s = self.s
        k = self.rng.randint(2, 3)
        s.user(f"Compare how {', '.join(AREAS[:k])} validate input")
        s.assistant(
            checkpoint(
                self.rng.choice(STYLES),
                q1=True,
                q4=k,
                decision=self.rng.choice(
                    (f"并行召唤 @眼 ×{k}（后台）", f"summon {k} @eye in parallel, background")
                ),
            )
        )
        specs = [
            (self.atype("eye"), f"How does {a} validate input?", self._eye_out(a), _eye_work, {})
            for a in AREAS[:k]
        ]
        s.spawn_many(specs, background=True, inline=self.inline, tool=self.tool)
        s.assistant("Explorers launched.")

    def status(self, area: str) -> None:
        s = self.s
        s.user(self.rng.choice(("分支状态怎么样？", "Where are we on this branch?")))
        s.assistant(self.cp("self"))
        s.bash("git status --short", f" M src/{area}/api.py")
        s.bash("git log --oneline -5", "9c1e2f3 idempotency keys\n7a1b2c3 retry fix")
        s.assistant(
            self.rng.choice(
                ("一个未提交改动，最近 5 个提交如上。", "One modified file; last commits listed.")
            )
        )

    def requirement(self, area: str) -> None:
        s = self.s
        s.user(f"产品说 {area} 要支持批量操作，先把需求理清楚")
        s.assistant(self.cp("ear"))
        out = f"## Goal\n{area} 支持批量操作\n\n## Acceptance Criteria\n1. [ ] 单次最多 100 条\n2. [ ] 部分失败时返回逐条结果\n\n## Constraints\n- 不改现有单条接口\n\n## Questions\n1. 需要异步执行吗？"
        s.spawn(
            self.atype("ear"), f"澄清 {area} 批量操作需求", out, inline=self.inline, tool=self.tool
        )
        s.assistant("需求整理好了，有一个问题需要你确认。")


KINDS = (
    "chat",
    "small_fix",
    "explore",
    "implement",
    "review",
    "tests",
    "design",
    "parallel",
    "status",
    "requirement",
)


def _claude_day(i: int) -> Callable[[Path], list[Path]]:
    def build(root: Path) -> list[Path]:
        rng = random.Random(1600 + i)
        s = Claude(
            f"{rng.getrandbits(32):08x}-busy{i:02d}",
            cwd=f"/home/dev/src/{rng.choice(('shop-api', 'ledger', 'crm'))}",
        )
        day = Day(rng, s, inline=i % 4 == 3)
        kinds = rng.sample(KINDS, rng.randint(3, 5))
        for k in kinds:
            getattr(day, k)(rng.choice(AREAS))
        return s.write_to(root, f"ok-busy-{i:02d}")

    return build


def _codex_day(i: int) -> Callable[[Path], list[Path]]:
    def build(root: Path) -> list[Path]:
        rng = random.Random(2600 + i)
        s = Codex(f"0199b{i:03d}-busy")
        s.user("Is the main branch green locally?")
        s.say(checkpoint(rng.choice(STYLES), decision=rng.choice(DECIDE["self"])))
        s.shell("git status --short", "")
        s.tokens(rng.randint(20_000, 60_000))
        s.say("Clean.")
        s.user("Fix the log message typo 'recieved' in ledger/ingest.py")
        s.say(checkpoint(rng.choice(STYLES), q2=True, lines=1, decision=rng.choice(DECIDE["self"])))
        s.shell("rg -n recieved ledger/ingest.py", "57:    log.info('recieved %d rows', n)")
        s.patch(
            "*** Begin Patch\n*** Update File: ledger/ingest.py\n@@\n-    log.info('recieved %d rows', n)\n+    log.info('received %d rows', n)\n*** End Patch"
        )
        s.tokens(rng.randint(60_000, 120_000))
        s.say("Fixed.")
        s.user(rng.choice(("thanks!", "好的，谢谢")))
        s.say(rng.choice(("Anytime.", "不客气。")))
        return s.write_to(root, f"ok-busy-codex-{i:02d}")

    return build


def _openai_day(i: int) -> Callable[[Path], list[Path]]:
    def build(root: Path) -> list[Path]:
        rng = random.Random(3600 + i)
        s = OpenAIChat()
        s.user("What's our default page size?")
        s.say(checkpoint(rng.choice(STYLES), decision=rng.choice(DECIDE["self"])))
        s.call(
            rng.choice(("read_file", "Read", "view_file")),
            {"path": "app/settings.py"},
            "PAGE_SIZE = 50\n",
        )
        s.say("50.")
        s.user("Make it 25")
        s.say(checkpoint(rng.choice(STYLES), q2=True, lines=1, decision=rng.choice(DECIDE["self"])))
        s.call(
            rng.choice(("edit_file", "Edit", "str_replace")),
            {"path": "app/settings.py", "old_str": "PAGE_SIZE = 50", "new_str": "PAGE_SIZE = 25"},
            "ok",
        )
        s.say("Now 25.")
        return s.write_to(root, f"ok-busy-openai-{i:02d}")

    return build


def _react_day(i: int) -> Callable[[Path], list[Path]]:
    def build(root: Path) -> list[Path]:
        rng = random.Random(4600 + i)
        s = ReactText("seed" if i % 2 == 0 else "plain")
        s.user("Where is the currency formatter and does it round half-even?")
        s.step(
            "Search for the formatter.",
            "Grep",
            {"pattern": "def format_money", "path": "src"},
            {
                "status": "success",
                "data": {
                    "pattern": "def format_money",
                    "matches": ["src/money/fmt.py:12: def format_money(amount, currency):"],
                    "total": 1,
                },
            },
        )
        n = rng.randint(20, 90)  # (A3 and the 2,000-character cap of any kept output)
        s.step(
            "Read the function.",
            "Read",
            {"file_path": "src/money/fmt.py", "offset": 1, "limit": n},
            {
                "status": "success",
                "data": {
                    "path": "src/money/fmt.py",
                    "range": [1, n],
                    "content": "\n".join(f"{k}: line {k}" for k in range(1, n + 1)),
                },
            },
        )
        s.step(
            "Run its tests.",
            "Bash",
            {"command": "pytest -q tests/test_fmt.py"},
            {"status": "success", "data": {"summary": "6 passed", "exit_code": 0}},
        )
        s.finish("It uses ROUND_HALF_EVEN.", "src/money/fmt.py; yes, half-even.")
        return s.write_to(root, f"ok-busy-react-{i:02d}")

    return build


for _i in range(40):
    CASES.append(
        Case(
            f"ok-busy-{_i:02d}",
            "busy compliant",
            "claude-inline" if _i % 4 == 3 else "claude",
            (),
            (),
            _claude_day(_i),
        )
    )
for _i in range(6):
    CASES.append(Case(f"ok-busy-codex-{_i:02d}", "busy compliant", "codex", (), (), _codex_day(_i)))
for _i in range(4):
    CASES.append(
        Case(f"ok-busy-openai-{_i:02d}", "busy compliant", "openai", (), (), _openai_day(_i))
    )
for _i in range(4):
    CASES.append(Case(f"ok-busy-react-{_i:02d}", "busy compliant", "react", (), (), _react_day(_i)))

_ = changed  # shared helper kept importable from here
