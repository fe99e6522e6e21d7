"""The held-out 戒 protocol cases, part 2b: compliant Claude Code look-alikes, one task each
(the multi-turn ones are in protocol_heldout_busy.py)."""

# ruff: noqa: E501  (transcript text and JSON records are data: kept on one line each)

from __future__ import annotations

from corpora.protocol.protocol_heldout_avatars import (
    CP_BODY,
    CP_BODY_EN,
    CP_EYE,
    CP_EYE_EN,
    CP_MIND,
    CP_NOSE,
    CP_TONGUE,
    TONGUE_OK,
    _delegate,
)
from corpora.protocol.protocol_heldout_cases import BODY_TESTS, EYE_OK, _body_work, _eye_work, case
from corpora.protocol.protocol_heldout_cases2 import _mb_session, _writer_session, web_repo
from corpora.protocol.protocol_heldout_formats import Claude, changed
from corpora.protocol.protocol_heldout_text import as_json, body_md, checkpoint, eye_md

# =========================================================================== compliant look-alikes (Claude Code)


@case("ok-eye-bg-then-verify", "L1-L3 compliant")
def _k1() -> Claude:
    s = Claude("9b5e4a7c-k1")
    s.user("订单取消偶尔把已支付订单改成 cancelled，帮我查查原因")
    s.assistant(CP_EYE + "\n\n召唤眼分身在后台定位相关代码。")
    s.spawn(
        "eye", "定位订单取消流程中支付状态校验的缺失点", EYE_OK, work=_eye_work, background=True
    )
    s.assistant("眼分身正在后台探索，完成后我来汇总。")
    s.read("src/orders/service.py", 30, text="结果回来了，核对一下眼分身给的位置。")
    s.assistant("确认：`cancel_order` 第 88 行没有检查支付状态。要我召唤 @身 修复吗？")
    return s


@case("ok-light-form-small-edit", "L1-L3 compliant")
def _k2() -> Claude:
    s = Claude("0c6f5b8d-k2")
    s.user("health 接口的 status 字段拼错了（stauts），改一下")
    s.assistant(checkpoint("light", q2=True, lines=1, decision="本体执行（单行修改）"))
    s.read("src/app/health.py", 25)
    s.edit("src/app/health.py", '"stauts": "ok"', '"status": "ok"')
    s.assistant("已修正拼写。")
    return s


@case("ok-body-foreground-contract-json", "contract compliant")
def _k3() -> Claude:
    out = as_json(
        {
            "files_changed": ["src/orders/service.py", "tests/orders/test_cancel.py"],
            "summary": "cancel_order rejects paid orders unless a refund is attached.",
            "tests_run": True,
        },
        "Implementation finished.\n\n",
    )
    return _delegate(
        "1d7a6c9e-k3",
        "Make cancel_order refuse paid orders",
        CP_BODY_EN,
        "body",
        "Guard cancel_order against paid orders; add tests",
        out,
        work=_body_work(18),
    )


@case("ok-parallel-three-eyes", "L2 compliant")
def _k4() -> Claude:
    s = Claude("2e8b7d0f-k4")
    s.user("Audit how api/, worker/ and cli/ each load configuration")
    s.assistant(
        checkpoint(
            "en-table", q1=True, q4=3, decision="summon three @eye in parallel, in the background"
        )
    )
    out = eye_md(
        ["src/api/config.py"],
        [("src/api/config.py:12", "reads env with os.environ directly")],
        "api loads env vars directly",
    )
    s.spawn_many(
        [
            ("eye", "How does src/api load config?", out, _eye_work, {}),
            (
                "eye",
                "How does src/worker load config?",
                out.replace("api", "worker"),
                _eye_work,
                {},
            ),
            ("eye", "How does src/cli load config?", out.replace("api", "cli"), _eye_work, {}),
        ],
        background=True,
    )
    s.assistant("Three explorers launched; I'll compare once they report.")
    return s


@case("ok-conversation-then-task", "L1 compliant")
def _k5() -> Claude:
    s = Claude("3f9c8e1a-k5")
    s.user("你觉得 outbox 模式和 CDC 哪个更适合我们？先聊聊")
    s.assistant("取决于团队对 Debezium 的运维能力。outbox 更简单，CDC 对业务代码零侵入……")
    s.user("那就 outbox。先让意分身出个设计")
    s.assistant(CP_MIND)
    out = "## Design\nOutbox table + relay.\n\n## Decisions\n- decision: transactional outbox\n  rationale: avoids dual writes\n\n## Tradeoffs\n- one more table and a relay process"
    s.spawn("mind", "Design the outbox", out)
    s.assistant("设计已出，见上。")
    return s


@case("ok-two-reads-one-grep", "L3 compliant")
def _k6() -> Claude:
    s = Claude("4a0d9f2b-k6")
    s.user("What does `settle()` return on a partial capture?")
    s.assistant(checkpoint("en-lines", decision="body executes: a quick look, 1-2 files"))
    s.call(
        "Grep",
        {"pattern": "def settle", "path": "src"},
        "src/payments/settle.py:20:def settle(payment):",
    )
    s.read("src/payments/settle.py", 60)
    s.read("src/payments/models.py", 40)
    s.assistant("It returns a `Settlement` with `partial=True` and the captured amount.")
    return s


@case("ok-ten-lines-two-edits", "L3 compliant")
def _k7() -> Claude:
    s = Claude("5b1e0a3d-k7")
    s.user("给 Money 加上 __eq__ 和 __hash__")
    s.assistant(checkpoint("zh-block", q2=True, lines=9, decision="本体执行"))
    s.read("src/money.py", 50)
    s.edit("src/money.py", "class Money:\n", "class Money:\n" + changed(5, "eq"))
    s.edit(
        "src/money.py", "    def __repr__(self):", changed(4, "hash") + "\n    def __repr__(self):"
    )
    s.assistant("加好了。")
    return s


@case("ok-lint-format-not-build", "L3 compliant")
def _k8() -> Claude:
    s = Claude("6c2f1b4e-k8")
    s.user("Format the files I touched and tell me if lint complains")
    s.assistant(checkpoint("en-table", decision="body executes (lint/format only)"))
    s.bash("npm run format -- src/components/Banner.tsx", "src/components/Banner.tsx 41ms")
    s.bash("npm run lint", "✔ No ESLint warnings or errors")
    s.assistant("Formatted; lint is clean.")
    return s


@case("ok-compose-detached-short-sleep", "L3 compliant")
def _k9() -> Claude:
    s = Claude("7d3a2c5f-k9")
    s.user("把本地的 db 和 redis 起起来")
    s.assistant(checkpoint("light", decision="本体执行（后台启动容器）"))
    s.bash(
        "docker compose up -d db redis",
        " ✔ Container web-db-1     Started\n ✔ Container web-redis-1  Started",
    )
    s.bash(
        "sleep 3 && docker compose ps --format json",
        '[{"Name":"web-db-1","State":"running"}]',
        timeout=20000,
    )
    s.assistant("db 和 redis 都在跑。")
    return s


@case("ok-tongue-tests-docs", "Do/Don't compliant")
def _k10() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s.read("src/coupons/validity.py", 30, agent=a)
        s.write(
            "tests/test_coupons.py",
            "def test_expired():\n    assert not valid(coupon(days=-1))\n",
            agent=a,
        )
        s.write("docs/coupons.md", "# Coupons\n\nExpired coupons are rejected.\n", agent=a)
        s.bash("pytest -q tests/test_coupons.py", "1 passed in 0.11s", agent=a)

    out = as_json(
        {
            "tests": ["tests/test_coupons.py"],
            "docs": ["docs/coupons.md"],
            "results": {"passed": 1, "failed": 0, "skipped": 0},
        }
    )
    return _delegate(
        "8e4b3d6a-k10",
        "给优惠券过期逻辑补测试和文档",
        CP_TONGUE,
        "tongue",
        "写测试 + 文档",
        out,
        work=work,
    )


@case("ok-mind-chinese-headings", "contract compliant")
def _k11() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s.read("docs/architecture.md", 80, agent=a)
        s.write("docs/adr/0008-tenant-isolation.md", "# ADR 0008 租户隔离\n\n状态：提议\n", agent=a)

    out = "## 设计\n按租户 schema 隔离，连接池按租户路由。\n\n## 决策\n- **决策**：schema 级隔离\n  - **理由**：隔离度与运维成本折中\n\n## 权衡\n- 迁移需要逐 schema 执行\n- 跨租户报表需要汇总库"
    return _delegate(
        "9f5c4e7b-k11",
        "多租户怎么隔离？出个方案",
        checkpoint("zh-block", q3=True, decision="召唤 @意"),
        "mind",
        "多租户隔离设计",
        out,
        work=work,
    )


@case("ok-ear-yaml", "contract compliant")
def _k12() -> Claude:
    out = "```yaml\ngoal: 门店可导出月度对账单\nAC:\n  - 选择月份后 10 秒内生成 CSV\n  - 只读账号可导出\nconstraints:\n  - 单次不超过 50k 行\nquestions:\n  - 是否包含已退款订单？\n```"
    return _delegate(
        "0a6d5f8c-k12",
        "门店要导出对账单，先把需求理清",
        checkpoint("zh-block", decision="召唤 @耳 (analyst)"),
        "ear",
        "澄清对账单需求",
        out,
    )


@case("ok-two-bodies-worktrees", "Max 1 compliant")
def _k13() -> Claude:
    s = Claude("1b7e6a9d-k13")
    s.user(
        "Implement the refund API and the refund email in parallel, they don't touch the same files"
    )
    s.assistant(
        checkpoint(
            "en-table",
            q2=True,
            lines=80,
            q4=2,
            decision="summon two @body in parallel, each in its own worktree",
        )
    )
    s.spawn_many(
        [
            (
                "body",
                "Implement POST /refunds",
                body_md(["src/api/refunds.py"], "Refund endpoint", BODY_TESTS),
                _body_work(20),
                {"isolation": "worktree"},
            ),
            (
                "body",
                "Implement refund email",
                body_md(["src/notify/refund_email.py"], "Refund email", BODY_TESTS),
                _body_work(15),
                {"isolation": "worktree"},
            ),
        ]
    )
    s.assistant("Both worktrees are ready to merge.")
    return s


@case("ok-nose-json-bg", "contract compliant")
def _k14() -> Claude:
    out = as_json(
        {
            "issues": [
                {
                    "severity": "HIGH",
                    "location": "src/api/upload.py:31",
                    "description": "filename is joined to the upload dir without normalisation",
                }
            ],
            "summary": "One path traversal risk in upload.",
            "recommendation": "Use secure_filename and check the resolved path stays under UPLOAD_DIR.",
        }
    )
    return _delegate(
        "2c8f7b0e-k14",
        "Review the upload endpoint for security problems",
        CP_NOSE,
        "nose",
        "Security review of src/api/upload.py",
        out,
        background=True,
    )


@case("ok-body-upstream-markdown", "contract compliant")
def _k15() -> Claude:
    out = (
        body_md(
            ["src/orders/service.py", "tests/orders/test_cancel.py"],
            "cancel_order 现在拒绝已支付订单。",
            BODY_TESTS,
        )
        + "\n\n## Build Status\n- [x] 构建成功\n- [x] Lint 通过 (ruff)"
    )
    return _delegate(
        "3d9a8c1f-k15",
        "修复取消订单不校验支付状态",
        CP_BODY,
        "body",
        "修复 cancel_order 并补测试",
        out,
        work=_body_work(18),
        tool="Task",
    )


@case("ok-eye-chinese-headings", "contract compliant")
def _k16() -> Claude:
    out = eye_md(
        ["src/flags/loader.py", "src/flags/defaults.py"],
        [
            ("src/flags/loader.py:22", "启动时从 FLAGS_URL 拉取"),
            ("src/flags/defaults.py:5", "拉取失败时用默认值"),
        ],
        "开关在启动时远程拉取，失败回退默认。",
        zh=True,
    )
    return _delegate(
        "4e0b9d2a-k16",
        "Feature flag 是怎么加载的？",
        CP_EYE,
        "explorer",
        "查 feature flag 加载流程",
        out,
        work=_eye_work,
        background=True,
    )


@case("ok-tongue-upstream-headings", "contract compliant")
def _k17() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s.write(
            "tests/test_pagination.py",
            "def test_last_page():\n    assert paginate(list(range(5)), 2, 3) == [3, 4]\n",
            agent=a,
        )
        s.bash("pytest -q tests/test_pagination.py", "3 passed in 0.05s", agent=a)

    out = "## Summary\n为分页补了 3 个边界测试。\n\n## Tests Created\n1. `tests/test_pagination.py` - 边界页\n\n## Test Results\n```\n3 passed in 0.05s\n```\n\n### Statistics\n| 指标 | 数量 |\n|------|------|\n| Passed | 3 |\n| Failed | 0 |\n| Skipped | 0 |\n\n## Docs Created\n- 无（本次不涉及文档）"
    return _delegate(
        "5f1c0e3b-k17", "分页加几个边界测试", CP_TONGUE, "tongue", "分页边界测试", out, work=work
    )


@case("ok-resumed-summary-then-task", "L1 compliant")
def _k18() -> Claude:
    s = Claude("6a2d1f4c-k18")
    s.raw(
        {
            "type": "summary",
            "summary": "Orders refactor: service split",
            "leafUuid": "00000000-leaf",
        }
    )
    s.user(
        "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis: the orders service was split into query/command modules...",
        isCompactSummary=True,
    )
    s.user(
        "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>"
    )
    s.user("接着把 command 模块的单测补上")
    s.assistant(CP_TONGUE)
    s.spawn(
        "tongue",
        "给 orders/command.py 补单测",
        TONGUE_OK,
        work=lambda s2, a: s2.bash("pytest -q tests/orders", "12 passed", agent=a),
    )
    s.assistant("单测补好了，12 个通过。")
    return s


@case("ok-checkpoint-confirm-then-go", "L1 compliant")
def _k19() -> Claude:
    s = Claude("7b3e2a5d-k19")
    s.user("Upgrade fastapi to 0.115 across the service")
    s.assistant(
        checkpoint("en-table", q2=True, lines=30, decision="delegate to @body (implementer)")
        + "\n\nThis touches the lock file. Shall I go ahead?"
    )
    s.user("yes go")
    s.spawn(
        "body",
        "Upgrade fastapi to 0.115, fix breakages, run tests",
        body_md(["pyproject.toml", "uv.lock"], "fastapi 0.115", BODY_TESTS),
        work=_body_work(12, test="uv run pytest -q"),
    )
    s.assistant("Upgraded; tests pass.")
    return s


@case("ok-error-strings-in-code", "error classes compliant")
def _k20() -> Claude:
    s = Claude("8c4f3b6e-k20")
    s.user("我们的 LLM 客户端遇到 prompt too long 会怎么处理？")
    s.assistant(checkpoint("zh-block", decision="本体执行（读一个文件）"))
    tid = "toolu_01readERRORS001"
    s.assistant(None, [(tid, "Read", {"file_path": f"{s.cwd}/src/llm/errors.py"})])
    s.result(
        tid,
        '     1\u2192RETRYABLE = ("overloaded_error",)\n     2\u2192def classify(msg: str) -> str:\n     3\u2192    if "prompt too long" in msg or "token limit" in msg:\n     4\u2192        return "context"\n     5\u2192    if "oldString and newString must be different" in msg:\n     6\u2192        return "noop-edit"\n     7\u2192    return "other"',
    )
    s.assistant("遇到 `prompt too long` / `token limit` 会归类为 context 错误并触发压缩。")
    return s


@case("ok-thinking-signed", "error classes compliant")
def _k21() -> Claude:
    s = Claude("9d5a4c7f-k21")
    s.user("这两个重试函数有什么区别？")
    s.assistant(
        "`retry()` 对所有异常重试，`retry_io()` 只对 IOError 重试。",
        thinking="Compare both helpers.",
    )
    return s


@case("ok-git-status-three-times", "repeated calls compliant")
def _k22() -> Claude:
    s = Claude("0e6b5d8a-k22")
    s.user("Check the tree is clean after the cherry-pick, then show the last commit")
    s.assistant(checkpoint("en-lines", decision="body executes (git status/log only)"))
    for _ in range(3):
        s.bash("git status --short", "")
    s.bash("git log -1 --stat", "commit 9c1e… Fix refund rounding\n src/money.py | 4 ++--")
    s.assistant("Clean; last commit is the refund rounding fix.")
    return s


@case("ok-mb-patterns-read", "memory bank compliant")
def _k23() -> Claude:
    return _mb_session(
        "1f7c6e9b-k23",
        ("memory-bank/MEMORY.md", "memory-bank/patterns.md"),
        "package.json",
        '"zod": "^3.22.4"',
        '"zod": "^3.23.8"',
    )


@case("ok-mb-writer-confirmed", "memory bank compliant")
def _k24() -> Claude:
    return _writer_session(
        "2a8d7f0c-k24",
        ["mb:write"],
        "<!-- MACHINE_BLOCK_END -->",
        "| 金额用整数分 | 2026-11-24 | 避免浮点误差 |\n<!-- MACHINE_BLOCK_END -->",
    )


@case("ok-memory-files-dont-count", "L3 compliant")
def _k25() -> Claude:
    s = Claude("3b9e8a1d-k25", cwd=web_repo())
    s.user("Before we start: load the project memory, then tell me what the checkout page does")
    s.assistant(checkpoint("en-lines", decision="body executes (memory bank + one file)"))
    for p in (
        "CLAUDE.md",
        "memory-bank/MEMORY.md",
        "memory-bank/patterns.md",
        ".wukong/context/anchors.md",
    ):
        s.read(p, 30)
    s.read("src/pages/checkout.tsx", 90)
    s.assistant("The checkout page validates the cart, then posts to /api/orders.")
    return s


@case("ok-continue-after-delegation", "L1 compliant")
def _k26() -> Claude:
    s = Claude("4c0f9b2e-k26")
    s.user("把导出功能做完：CSV 导出 + 测试")
    s.assistant(CP_BODY)
    s.spawn(
        "body",
        "实现 CSV 导出并补测试",
        body_md(["src/export/csv.py", "tests/test_csv.py"], "CSV 导出", BODY_TESTS),
        work=_body_work(20),
    )
    s.assistant("身分身已完成，测试通过。要不要再加 Excel？")
    s.user("谢谢，不用了")
    s.assistant("好的。")
    return s


@case("ok-verify-file-exists", "L3 compliant")
def _k27() -> Claude:
    s = Claude("5d1a0c3f-k27")
    s.user("身分身说它加了迁移文件，你确认一下真的有")
    s.assistant(checkpoint("light", decision="本体执行（验证文件存在）"))
    s.bash("test -f migrations/versions/0042_add_refunds.py && echo exists", "exists")
    s.bash("git diff --stat HEAD~1", " migrations/versions/0042_add_refunds.py | 18 ++++++++++")
    s.assistant("确认存在，18 行。")
    return s


@case("ok-eye-inline-sidechain", "contract compliant", fmt="claude-inline")
def _k28() -> Claude:
    return _delegate(
        "6e2b1d4a-k28",
        "legacy_pay 还有哪些调用方？",
        CP_EYE,
        "eye",
        "搜索 legacy_pay 调用点",
        EYE_OK,
        work=_eye_work,
        background=True,
        inline=True,
        tool="Task",
    )


@case("ok-body-inline-with-tests", "contract compliant", fmt="claude-inline")
def _k29() -> Claude:
    out = as_json(
        {"files_changed": ["src/orders/service.py"], "summary": "Guard added.", "tests_run": True}
    )
    return _delegate(
        "7f3c2e5b-k29",
        "Guard cancel_order against paid orders",
        CP_BODY_EN,
        "body",
        "Fix cancel_order",
        out,
        work=_body_work(16),
        inline=True,
        tool="Task",
    )


@case("ok-eye-reads-five-same-file", "repeated calls compliant")
def _k30() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        for i in range(5):
            s.call(
                "Read",
                {"file_path": f"{s.cwd}/src/orders/service.py", "offset": i * 200, "limit": 200},
                f"   {i * 200 + 1}\u2192chunk {i}",
                agent=a,
            )

    return _delegate(
        "8a4d3f6c-k30",
        "Walk me through orders/service.py",
        CP_EYE_EN,
        "eye",
        "Read through orders/service.py",
        EYE_OK,
        work=work,
        background=True,
    )


@case("ok-usage-compacted", "context compliant")
def _k31() -> Claude:
    s = Claude("9b5e4a7d-k31")
    s.user("Continue the billing cleanup")
    s.assistant(CP_BODY_EN)
    s.spawn(
        "body",
        "Finish billing cleanup",
        body_md(["src/billing/invoice.py"], "cleanup", BODY_TESTS),
        work=_body_work(14),
    )
    s.tokens = 120_000
    s.assistant("Checking the diff.", grow=2_000)
    s.compact("Billing cleanup done, tests green.")
    s.assistant("Resumed after compaction; nothing left to do.", grow=500)
    return s
