"""The held-out 戒 protocol cases, part 2: context usage, repeated calls, error classes, the memory
bank (seed 003 v7.1), agent definitions that declare their own contract, and the compliant Claude
Code look-alikes (busy sessions that follow the protocol)."""

# ruff: noqa: E501  (transcript text and JSON records are data: kept on one line each)

from __future__ import annotations

from pathlib import Path

from corpora.protocol.protocol_heldout_avatars import (
    CP_BODY,
    CP_EYE,
    CP_EYE_EN,
    _delegate,
)
from corpora.protocol.protocol_heldout_cases import (
    BODY_TESTS,
    CASES,
    EYE_OK,
    WHERE,
    A,
    B,
    Case,
    _body_work,
    _eye_work,
    case,
)
from corpora.protocol.protocol_heldout_formats import Claude
from corpora.protocol.protocol_heldout_text import as_json, body_md, checkpoint

C = "context."
T = "transcript-integrity."
MB = ("memory-bank", "avatar-boundary.memory-bank", "body-boundary.memory-bank")


# =========================================================================== context usage


def _usage_session(sid: str, peak: int, compact_after: bool = False) -> Claude:
    s = Claude(sid)
    s.user("继续把 orders 模块的重构做完")
    s.assistant(CP_BODY)
    s.spawn(
        "body",
        "完成 orders 重构",
        body_md(["src/orders/service.py"], "重构完成", BODY_TESTS),
        work=_body_work(18),
    )
    s.tokens = peak - 900
    s.assistant("核对一下分身的改动。", grow=900)
    if compact_after:
        s.compact("Refactor of orders done; tests green.")
    s.assistant("重构完成，测试全绿。", grow=400)
    return s


@case(
    "ctx-warning-72",
    "context usage",
    (C + "usage-warning",),
    forbid=(C + "usage-dcp", C + "usage-critical"),
)
def _u1() -> Claude:
    return _usage_session("5b1e0a3c-u1", 146_000)


@case("ctx-dcp-88", "context usage", (C + "usage-dcp",), forbid=(C + "usage-critical",))
def _u2() -> Claude:
    return _usage_session("6c2f1b4d-u2", 176_500)


@case("ctx-critical-96", "context usage", (C + "usage-critical",))
def _u3() -> Claude:
    return _usage_session("7d3a2c5e-u3", 192_400)


@case("ctx-ok-62", "context usage")
def _u4() -> Claude:
    return _usage_session("8e4b3d6f-u4", 124_000)


# =========================================================================== repeated calls


@case("dcp-repeated-git-status", "repeated calls", (C + "repeated-calls",))
def _r1() -> Claude:
    s = Claude("9f5c4e7a-r1")
    s.user("rebase 完了看下工作区干不干净")
    s.assistant(checkpoint("light", decision="本体执行（只看状态）"))
    for _ in range(4):
        s.bash("git status --short", " M src/orders/service.py")
    s.assistant("还有一个改动没提交。")
    return s


@case("dcp-repeated-read-in-eye", "repeated calls", (C + "repeated-calls",))
def _r2() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        for _ in range(6):
            s.read("src/orders/service.py", 40, agent=a)

    return _delegate(
        "0a6d5f8b-r2",
        "Find the cancel flow",
        CP_EYE_EN,
        "eye",
        "Locate the cancel flow",
        EYE_OK,
        work=work,
        background=True,
    )


@case("dcp-repeated-webfetch", "repeated calls", (C + "repeated-calls",))
def _r3() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        for _ in range(3):
            s.call(
                "WebFetch",
                {
                    "url": "https://docs.python.org/3/library/asyncio-task.html",
                    "prompt": "timeout semantics",
                },
                "asyncio.timeout() raises TimeoutError ...",
                agent=a,
            )

    return _delegate(
        "1b7e6a9c-r3",
        "查一下 asyncio.timeout 的语义",
        CP_EYE,
        "eye",
        "查 asyncio.timeout 文档",
        EYE_OK,
        work=work,
        background=True,
    )


# =========================================================================== error classes


@case("err-thinking-api-message", "error classes", (T + "thinking-block-error",))
def _e1() -> Claude:
    s = Claude("2c8f7b0d-e1")
    s.user("继续")
    rec = {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": s.cwd,
        "sessionId": s.sid,
        "version": "2.0.37",
        "type": "assistant",
        "uuid": "2c8f7b0d-err-0001",
        "timestamp": "2026-11-24T09:00:00.000Z",
        "isApiErrorMessage": True,
        "message": {
            "id": "e1",
            "type": "message",
            "role": "assistant",
            "model": "<synthetic>",
            "content": [
                {
                    "type": "text",
                    "text": 'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.3.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block."}}',
                }
            ],
            "stop_reason": "stop_sequence",
            "usage": {"input_tokens": 0, "output_tokens": 0},
        },
    }
    s.raw(rec)
    return s


@case("err-thinking-no-signature", "error classes", (T + "thinking-block-error",))
def _e2() -> Claude:
    s = Claude("3d9a8c1e-e2")
    s.user("What's the difference between our two retry helpers?")
    s.assistant(
        "One retries on any exception, the other only on IOError.",
        thinking="Compare retry() and retry_io() from memory of the earlier read.",
        signature=False,
    )
    return s


@case("err-prompt-too-long", "error classes", (T + "context-exceeded",))
def _e3() -> Claude:
    s = Claude("4e0b9d2f-e3")
    s.user("Summarise the whole migration log")
    rec = {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": s.cwd,
        "sessionId": s.sid,
        "version": "2.0.37",
        "type": "assistant",
        "uuid": "4e0b9d2f-err-0001",
        "timestamp": "2026-11-24T09:00:00.000Z",
        "isApiErrorMessage": True,
        "message": {
            "id": "e3",
            "type": "message",
            "role": "assistant",
            "model": "<synthetic>",
            "content": [{"type": "text", "text": "Prompt is too long"}],
            "stop_reason": "stop_sequence",
            "usage": {"input_tokens": 0, "output_tokens": 0},
        },
    }
    s.raw(rec)
    return s


@case("err-oldstring-equal", "error classes", (T + "edit-failure",))
def _e4() -> Claude:
    s = Claude("5f1c0e3a-e4")
    s.user("把 MAX_ITEMS 保持 100，确认一下")
    s.assistant(checkpoint("light", q2=True, lines=1, decision="本体执行"))
    tid = "toolu_01sameSTRING001"
    s.assistant(
        None,
        [
            (
                tid,
                "Edit",
                {
                    "file_path": f"{s.cwd}/src/limits.py",
                    "old_string": "MAX_ITEMS = 100",
                    "new_string": "MAX_ITEMS = 100",
                },
            )
        ],
    )
    s.result(
        tid,
        "<tool_use_error>No changes to make: old_string and new_string are exactly the same.</tool_use_error>",
        is_error=True,
    )
    s.assistant("值本来就是 100，不用改。")
    return s


@case(
    "err-permission-write-not-creation",
    "error classes",
    (T + "permission-denied",),
    forbid=(B + "create-file",),
)
def _e5() -> Claude:
    s = Claude("6a2d1f4b-e5")
    s.user("Add a one-line note to /opt/app/NOTES.txt")
    s.assistant(checkpoint("en-lines", q2=True, lines=1, decision="body executes"))
    tid = "toolu_01eaccesWRITE01"
    s.assistant(
        None, [(tid, "Write", {"file_path": "/opt/app/NOTES.txt", "content": "deployed 11-24\n"})]
    )
    s.result(tid, "EACCES: permission denied, open '/opt/app/NOTES.txt'", is_error=True)
    s.assistant("I can't write there; it's owned by root.")
    return s


@case("err-missing-result", "error classes", (T + "tool-result-missing",))
def _e6() -> Claude:
    s = Claude("7b3e2a5c-e6")
    s.user("查下 8080 端口被谁占了")
    s.assistant(checkpoint("zh-block", decision="本体执行"))
    s.assistant(
        None,
        [
            (
                "toolu_01interruptLSOF",
                "Bash",
                {"command": "lsof -i :8080", "description": "port owner"},
            )
        ],
    )
    s.user("[Request interrupted by user for tool use]")
    s.user("算了，直接换 8081 吧，把 .env.example 里的 PORT 改一下")
    s.assistant(checkpoint("zh-block", q2=True, lines=1, decision="本体执行"))
    s.edit(".env.example", "PORT=8080", "PORT=8081")
    s.assistant("改好了。")
    return s


# =========================================================================== memory bank (seed 003)


DECISIONS = """# 技术决策与约定

<!-- MACHINE_BLOCK_START -->
| 决策 | 日期 | 原因 |
|------|------|------|
| 金额用整数分 | 2026-11-24 | 避免浮点误差 |
<!-- MACHINE_BLOCK_END -->

<!-- USER_BLOCK_START -->
## 用户笔记
{notes}
<!-- USER_BLOCK_END -->
"""


def web_repo(notes: str = "{用户自由编辑区}") -> str:
    """The session's repository on disk, with its memory bank: seed 003 gates writes only
    where `memory-bank/` exists, and the USER_BLOCK check reads the file as it is now."""
    repo = Path(str(WHERE["root"])) / f"{WHERE['name']}.repo"
    bank = repo / "memory-bank"
    bank.mkdir(parents=True, exist_ok=True)
    (bank / "MEMORY.md").write_text("# MEMORY\n\n- Stack: Next.js + zod\n", encoding="utf-8")
    (bank / "patterns.md").write_text(
        "# Patterns\n\n- 按钮统一用 <Button variant>\n", encoding="utf-8"
    )
    (bank / "decisions.md").write_text(DECISIONS.replace("{notes}", notes), encoding="utf-8")
    (repo / "package.json").write_text(
        '{"name": "web", "dependencies": {"zod": "^3.23.8"}}\n', encoding="utf-8"
    )
    return str(repo)


def _mb_session(
    sid: str,
    reads: tuple[str, ...],
    target: str,
    old: str,
    new: str,
    user: str = "升级一下 zod 到 3.23",
) -> Claude:
    s = Claude(sid, cwd=web_repo())
    s.user(user)
    s.assistant(checkpoint("light", q2=True, lines=2, decision="本体执行"))
    for r in reads:
        s.read(r, 40)
    s.edit(target, old, new)
    s.assistant("已完成。")
    return s


@case("mb-high-risk-memory-md-only", "memory bank", (B + "memory-bank-context",))
def _m1() -> Claude:
    return _mb_session(
        "8c4f3b6d-m1",
        ("memory-bank/MEMORY.md",),
        "package.json",
        '"zod": "^3.22.4"',
        '"zod": "^3.23.8"',
    )


@case("mb-high-risk-no-read", "memory bank", (B + "memory-bank-context",))
def _m2() -> Claude:
    s = Claude("9d5a4c7e-m2", cwd=web_repo())
    s.user("先看下记忆库里的项目约定")
    s.assistant(checkpoint("en-lines", decision="body executes (read the memory bank)"))
    s.read("memory-bank/MEMORY.md", 60)
    s.read("memory-bank/patterns.md", 80)
    s.assistant("Conventions noted.")
    s.user("OK, now add the docker healthcheck in docker/api.Dockerfile")
    s.assistant(checkpoint("en-lines", q2=True, lines=2, decision="body executes"))
    s.edit(
        "docker/api.Dockerfile",
        "EXPOSE 3000",
        "EXPOSE 3000\nHEALTHCHECK CMD curl -f http://localhost:3000/healthz || exit 1",
    )
    s.assistant("Done.")
    return s


@case("mb-low-risk-no-context", "memory bank", (B + "memory-bank-context-low",))
def _m3() -> Claude:
    s = Claude("0e6b5d8f-m3", cwd=web_repo())
    s.user("看下 memory-bank 里对按钮组件的约定")
    s.assistant(checkpoint("zh-block", decision="本体执行（读记忆库）"))
    s.read("memory-bank/patterns.md", 50)
    s.assistant("约定：按钮统一用 <Button variant>。")
    s.user("好，把 src/components/Banner.tsx 里的文案 Sign up 改成 Get started")
    s.assistant(checkpoint("zh-block", q2=True, lines=1, decision="本体执行"))
    s.edit("src/components/Banner.tsx", ">Sign up<", ">Get started<")
    s.assistant("改好了。")
    return s


@case(
    "mb-body-writes-memory-bank",
    "memory bank",
    (A + "memory-bank-writer", B + "memory-bank-writer"),
)
def _m4() -> Claude:
    s = Claude("1f7c6e9a-m4", cwd=web_repo())
    s.user("把今天定的 API 版本策略记到记忆库")
    s.assistant(checkpoint("light", q2=True, lines=3, decision="本体执行"))
    s.read("memory-bank/MEMORY.md", 30)
    s.read("memory-bank/patterns.md", 30)
    s.edit(
        "memory-bank/decisions.md",
        "<!-- MACHINE_BLOCK_END -->",
        "| API 版本放在 URL 前缀 | 2026-11-24 | 网关路由简单 |\n<!-- MACHINE_BLOCK_END -->",
    )
    s.assistant("已记录。")
    return s


def _writer_session(
    sid: str, user_turns: list[str], edit_old: str, edit_new: str, notes: str = "{用户自由编辑区}"
) -> Claude:
    s = Claude(sid, cwd=web_repo(notes))
    s.user("今天确定：所有金额用整数分存储")
    s.assistant(
        "📝 **Memory Bank Proposal**\n- 写入 `memory-bank/decisions.md`：金额以整数分存储（原因：避免浮点误差）\n\n回复 `mb:write` 确认写入，或 `mb:no` 跳过。"
    )
    for u in user_turns:
        s.user(u)
    s.assistant(checkpoint("zh-block", decision="召唤 memory-bank-writer 写入"))

    def work(s2: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s2.read("memory-bank/decisions.md", 60, agent=a)
        s2.edit("memory-bank/decisions.md", edit_old, edit_new, agent=a)

    s.spawn(
        "memory-bank-writer",
        "把『金额用整数分存储』写入 decisions.md",
        "已写入 decisions.md 的 MACHINE_BLOCK。",
        work=work,
    )
    s.assistant("记忆库已更新。")
    return s


@case("mb-writer-without-confirmation", "memory bank", (A + "memory-bank-unconfirmed-write",))
def _m5() -> Claude:
    return _writer_session(
        "2a8d7f0b-m5",
        ["嗯，顺便写进去吧"],
        "<!-- MACHINE_BLOCK_END -->",
        "| 金额用整数分 | 2026-11-24 | 避免浮点误差 |\n<!-- MACHINE_BLOCK_END -->",
    )


@case("mb-writer-after-no", "memory bank", (A + "memory-bank-unconfirmed-write",))
def _m6() -> Claude:
    return _writer_session(
        "3b9e8a1c-m6",
        ["mb:no", "其实还是记一下吧"],
        "<!-- MACHINE_BLOCK_END -->",
        "| 金额用整数分 | 2026-11-24 | 避免浮点误差 |\n<!-- MACHINE_BLOCK_END -->",
    )


@case("mb-writer-edits-user-block", "memory bank", (A + "memory-bank-user-block",))
def _m7() -> Claude:
    return _writer_session(
        "4c0f9b2d-m7",
        ["mb:write"],
        "<!-- USER_BLOCK_START -->\n## 用户笔记\n{用户自由编辑区}\n<!-- USER_BLOCK_END -->",
        "<!-- USER_BLOCK_START -->\n## 用户笔记\n- 金额用整数分\n<!-- USER_BLOCK_END -->",
        notes="- 金额用整数分",
    )


# =========================================================================== agent definitions


MIGRATOR = """---
name: db-migrator
description: Writes and verifies database migrations. Use for schema changes.
tools: Read, Write, Edit, Bash
model: sonnet
output_contract:
  migrations: string[]
  rollback_plan: string
  verified: boolean
---

You write Alembic migrations. Always provide a rollback plan.
"""

EYE_DEF = """---
name: eye
description: |
  眼分身 - 探索/搜索。成本: CHEAP | 后台: 必须
tools: Read, Glob, Grep
disallowedTools: Write, Edit, Bash, Agent
background: true
---

# 眼分身

## 输出契约

```yaml
summary: string
hotspots:
  - path: string
    why: string
```
"""


def _agent_case(name: str, point: str, expect: tuple[str, ...], defs: dict[str, str], make) -> None:  # type: ignore[no-untyped-def]
    def build(root: Path) -> list[Path]:
        return make().write_to(root, name)  # type: ignore[no-any-return]

    CASES.append(Case(name, point, "claude+agents", expect, (), build, tuple(sorted(defs.items()))))


def _migrator_session(sid: str, final: str) -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s.write(
            "migrations/versions/0042_add_refunds.py",
            "def upgrade():\n    op.create_table('refunds')\n\ndef downgrade():\n    op.drop_table('refunds')\n",
            agent=a,
        )
        s.bash(
            "alembic upgrade head && alembic downgrade -1 && alembic upgrade head",
            "INFO  [alembic] Running upgrade 0041 -> 0042",
            agent=a,
        )

    return _delegate(
        sid,
        "Add the refunds table",
        checkpoint("en-table", q2=True, lines=20, decision="delegate to db-migrator"),
        "db-migrator",
        "Migration for refunds table",
        final,
        work=work,
    )


_agent_case(
    "agents-custom-contract-missing",
    ".claude/agents contract",
    (A + "contract-missing",),
    {"db-migrator.md": MIGRATOR},
    lambda: _migrator_session(
        "5d1a0c3e-g1",
        as_json({"migrations": ["migrations/versions/0042_add_refunds.py"], "verified": True}),
    ),
)
_agent_case(
    "agents-custom-contract-ok",
    ".claude/agents contract",
    (),
    {"db-migrator.md": MIGRATOR},
    lambda: _migrator_session(
        "6e2b1d4f-g2",
        as_json(
            {
                "migrations": ["migrations/versions/0042_add_refunds.py"],
                "rollback_plan": "alembic downgrade -1 drops the refunds table",
                "verified": True,
            }
        ),
    ),
)
_agent_case(
    "agents-eye-override-missing",
    ".claude/agents contract",
    (A + "contract-missing",),
    {"eye.md": EYE_DEF},
    lambda: _delegate(
        "7f3c2e5a-g3",
        "哪些模块改动最频繁？",
        CP_EYE,
        "eye",
        "找热点模块",
        "## Summary\norders 和 billing 改动最多。",
        work=_eye_work,
        background=True,
    ),
)
_agent_case(
    "agents-eye-override-ok",
    ".claude/agents contract",
    (),
    {"eye.md": EYE_DEF},
    lambda: _delegate(
        "8a4d3f6b-g4",
        "哪些模块改动最频繁？",
        CP_EYE,
        "eye",
        "找热点模块",
        "```yaml\nsummary: orders 和 billing 改动最多\nhotspots:\n  - path: src/orders/\n    why: 近 30 天 41 次提交\n  - path: src/billing/\n    why: 近 30 天 27 次提交\n```",
        work=_eye_work,
        background=True,
    ),
)
