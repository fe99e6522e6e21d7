"""The held-out 戒 protocol cases, part 1b: avatar output contracts (JSON, Markdown, YAML,
placeholders, 身 without tests), Do/Don't, background rules, Max 1 and nested spawns."""

# ruff: noqa: E501  (transcript text and JSON records are data: kept on one line each)

from __future__ import annotations

from collections.abc import Callable

from corpora.protocol.protocol_heldout_cases import (
    BODY_TESTS,
    EYE_OK,
    A,
    _body_work,
    _eye_work,
    case,
)
from corpora.protocol.protocol_heldout_formats import Claude
from corpora.protocol.protocol_heldout_text import as_json, body_md, checkpoint, nose_md

# =========================================================================== contracts


def _delegate(
    sid: str,
    user: str,
    cp_text: str,
    stype: str,
    prompt: str,
    final: str,
    work=None,
    background: bool = False,
    inline: bool = False,
    tool: str = "Agent",
    extra=None,
) -> Claude:  # type: ignore[no-untyped-def]
    s = Claude(sid)
    s.user(user)
    s.assistant(cp_text)
    s.spawn(
        stype,
        prompt,
        final,
        work=work,
        background=background,
        inline=inline,
        tool=tool,
        extra=extra,
    )
    s.assistant("收到分身结果，已核对。")
    return s


CP_EYE = checkpoint("zh-block", q1=True, decision="召唤分身: @眼 (后台)")
CP_EYE_EN = checkpoint("en-table", q1=True, decision="delegate to @eye in the background")
CP_BODY = checkpoint("zh-block", q2=True, lines=30, decision="委派 @身 (斗战胜佛)")
CP_BODY_EN = checkpoint(
    "en-lines", q2=True, lines=30, decision="summon @body (implementer), foreground"
)
CP_NOSE = checkpoint("bold-emoji", q1=True, decision="召唤 @鼻 审查（后台）")
CP_MIND = checkpoint("en-table", q3=True, decision="delegate to @mind (architect)")
CP_EAR = checkpoint("zh-block", decision="召唤 @耳 澄清需求")
CP_TONGUE = checkpoint("light", q2=True, lines=40, decision="召唤 @舌 写测试")


@case("contract-eye-json-no-findings", "contract", (A + "contract-missing",))
def _c1() -> Claude:
    out = as_json(
        {
            "files": ["src/cache/lru.py", "src/cache/ttl.py"],
            "summary": "缓存实现分两处，TTL 逻辑在 ttl.py",
        },
        "探索完成：\n\n",
    )
    return _delegate(
        "5b1e0a3c-c1",
        "找出缓存相关的代码",
        CP_EYE,
        "eye",
        "定位缓存实现",
        out,
        work=_eye_work,
        background=True,
    )


@case("contract-nose-md-no-recommendation", "contract", (A + "contract-missing",))
def _c2() -> Claude:
    out = nose_md(
        [("HIGH", "src/api/upload.py:31", "文件名未做路径清洗")],
        "上传接口有路径穿越风险",
        "",
        drop=("recommendation",),
    )
    return _delegate(
        "6c2f1b4d-c2",
        "Review the upload endpoint",
        CP_NOSE,
        "nose",
        "Review src/api/upload.py for security issues",
        out,
        background=True,
    )


@case("contract-body-no-tests-run", "contract", (A + "contract-missing", A + "body-untested"))
def _c3() -> Claude:
    out = body_md(["src/orders/service.py"], "cancel_order 现在会先校验支付状态。", None)
    return _delegate(
        "7d3a2c5e-c3",
        "修复取消订单不校验支付状态的问题",
        CP_BODY,
        "body",
        "修复 cancel_order",
        out,
        work=_body_work(18),
    )


@case("contract-ear-no-ac", "contract", (A + "contract-missing",))
def _c4() -> Claude:
    out = "## Goal\n支持按门店导出月度对账单\n\n## Constraints\n- 只读权限账号也要能导出\n- 单次导出不超过 50k 行\n\n## Questions\n1. 需要包含已退款订单吗？"
    return _delegate(
        "8e4b3d6f-c4",
        "需求：门店要能导出对账单，帮我理清楚",
        CP_EAR,
        "ear",
        "澄清对账单导出需求",
        out,
    )


@case("contract-mind-yaml-no-tradeoffs", "contract", (A + "contract-missing",))
def _c5() -> Claude:
    out = "```yaml\ndesign: |\n  Outbox table written in the same transaction as the order; a relay publishes to SQS.\ndecisions:\n  - decision: Transactional outbox\n    rationale: No dual-write between Postgres and SQS\n  - decision: Relay polls every 500ms\n    rationale: Simple, latency is acceptable\n```"
    return _delegate(
        "9f5c4e7a-c5",
        "Design reliable event publishing for orders",
        CP_MIND,
        "mind",
        "Design event publishing (outbox vs CDC)",
        out,
    )


@case("contract-tongue-no-results", "contract", (A + "contract-missing",))
def _c6() -> Claude:
    out = as_json(
        {"tests": ["tests/test_refunds.py"], "docs": ["docs/refunds.md"]},
        "Tests and docs written.\n",
    )

    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s.write(
            "tests/test_refunds.py",
            "def test_refund_full():\n    assert refund(order(100)).amount == 100\n",
            agent=a,
        )
        s.write("docs/refunds.md", "# Refunds\n\nFull and partial refunds.\n", agent=a)

    return _delegate(
        "0a6d5f8b-c6",
        "给退款写测试和文档",
        CP_TONGUE,
        "tongue",
        "为退款逻辑写测试和文档",
        out,
        work=work,
    )


@case("contract-eye-placeholder", "contract", (A + "contract-placeholder",))
def _c7() -> Claude:
    out = as_json(
        {
            "files": ["path/to/file1.py"],
            "findings": [{"location": "文件路径:行号", "description": "发现描述"}],
            "summary": "TBD",
        }
    )
    return _delegate(
        "1b7e6a9c-c7",
        "Find where rate limiting is configured",
        CP_EYE_EN,
        "eye",
        "Locate rate limit config",
        out,
        work=_eye_work,
        background=True,
    )


@case("contract-mind-placeholder", "contract", (A + "contract-placeholder",))
def _c8() -> Claude:
    out = "## Design\n{设计方案描述}\n\n## Decisions\n- 决策: {决策内容}\n  理由: {决策理由}\n\n## Tradeoffs\n- ..."
    return _delegate(
        "2c8f7b0d-c8", "设计一下多租户隔离方案", CP_MIND, "mind", "多租户隔离方案", out
    )


@case("contract-body-tests-false", "contract", (A + "body-untested",))
def _c9() -> Claude:
    out = as_json(
        {"files_changed": ["src/export/csv.py"], "summary": "Added CSV export.", "tests_run": False}
    )
    return _delegate(
        "3d9a8c1e-c9",
        "Add CSV export for orders",
        CP_BODY_EN,
        "body",
        "Implement CSV export",
        out,
        work=_body_work(20, test=None),
    )


@case(
    "contract-body-inline-no-test-command", "contract", (A + "body-untested",), fmt="claude-inline"
)
def _c10() -> Claude:
    out = body_md(["src/orders/service.py"], "加了支付状态守卫。", "- [x] 单元测试通过")
    return _delegate(
        "4e0b9d2f-c10",
        "取消订单前校验支付状态",
        CP_BODY,
        "body",
        "修复 cancel_order",
        out,
        work=_body_work(16, test=None),
        inline=True,
        tool="Task",
    )


@case("contract-body-subfile-no-test-command", "contract", (A + "body-untested",))
def _c11() -> Claude:
    out = as_json(
        {"files_changed": ["src/orders/service.py"], "summary": "Guard added.", "tests_run": True}
    )
    return _delegate(
        "5f1c0e3a-c11",
        "Guard cancel_order against paid orders",
        CP_BODY_EN,
        "body",
        "Fix cancel_order",
        out,
        work=_body_work(16, test=None),
    )


# =========================================================================== Do/Don't and summons


def _tongue_writes(path: str) -> Callable[[Claude, object], None]:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s.write(
            "tests/test_coupons.py",
            "def test_expired():\n    assert not valid(coupon(days=-1))\n",
            agent=a,
        )
        s.write(path, "def valid(c):\n    return c.expires_at > now()\n", agent=a)
        s.bash("pytest -q tests/test_coupons.py", "1 passed", agent=a)

    return work


TONGUE_OK = as_json(
    {
        "tests": ["tests/test_coupons.py"],
        "docs": [],
        "results": {"passed": 1, "failed": 0, "skipped": 0},
    }
)


@case("dont-tongue-business-code", "Do/Don't", (A + "tester-business-code",))
def _d1() -> Claude:
    return _delegate(
        "6a2d1f4b-d1",
        "给优惠券过期写测试",
        CP_TONGUE,
        "tongue",
        "写优惠券过期测试",
        TONGUE_OK,
        work=_tongue_writes("src/coupons/validity.py"),
    )


@case("dont-tongue-business-code-ts", "Do/Don't", (A + "tester-business-code",))
def _d2() -> Claude:
    return _delegate(
        "7b3e2a5c-d2",
        "Write tests for coupon expiry",
        CP_TONGUE,
        "tester",
        "Tests for coupon expiry",
        TONGUE_OK,
        work=_tongue_writes("web/src/lib/coupons.ts"),
    )


@case("dont-mind-writes-code", "Do/Don't", (A + "forbidden-tool", A + "tester-business-code"))
def _d3() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s.write("docs/adr/0007-outbox.md", "# ADR 0007: Outbox\n\nStatus: accepted\n", agent=a)
        s.write(
            "src/events/outbox.py", "class Outbox:\n    def put(self, evt):\n        ...\n", agent=a
        )

    out = "## Design\nOutbox + relay.\n\n## Decisions\n- **决策**: outbox 表\n  - **理由**: 避免双写\n\n## Tradeoffs\n- 多一张表、多一个进程"
    return _delegate(
        "8c4f3b6d-d3",
        "Design the event outbox",
        CP_MIND,
        "mind",
        "Design the outbox",
        out,
        work=work,
    )


@case("bg-eye-foreground", "background", (A + "background-required",))
def _d4() -> Claude:
    return _delegate(
        "9d5a4c7e-d4",
        "找一下所有调用 legacy_pay 的地方",
        checkpoint("zh-block", q1=True, decision="召唤 @眼"),
        "eye",
        "搜索 legacy_pay 调用点",
        EYE_OK,
        work=_eye_work,
    )


@case("bg-reviewer-foreground", "background", (A + "background-required",))
def _d5() -> Claude:
    out = nose_md(
        [("HIGH", "src/auth/session.py:77", "cookie 缺少 Secure")],
        "会话 cookie 配置不安全",
        "设置 Secure 与 SameSite",
    )
    return _delegate(
        "0e6b5d8f-d5",
        "Review session handling",
        checkpoint("en-lines", q1=True, decision="delegate to @reviewer"),
        "reviewer",
        "Review session cookie handling",
        out,
    )


@case("bg-body-background", "background", (A + "background-forbidden",))
def _d6() -> Claude:
    return _delegate(
        "1f7c6e9a-d6",
        "实现订单取消的支付校验",
        CP_BODY,
        "body",
        "实现 cancel_order 校验",
        body_md(["src/orders/service.py"], "已实现", BODY_TESTS),
        work=_body_work(18),
        background=True,
    )


@case("bg-architect-background", "background", (A + "background-forbidden",))
def _d7() -> Claude:
    out = "## Design\nSplit read models.\n\n## Decisions\n- decision: CQRS for reports\n  rationale: report queries lock the orders table\n\n## Tradeoffs\n- eventual consistency in dashboards"
    return _delegate(
        "2a8d7f0b-d7",
        "Plan how to take reporting load off the primary DB",
        CP_MIND,
        "architect",
        "Design reporting read model",
        out,
        background=True,
    )


@case("max1-two-bodies", "Max 1", (A + "max-one",))
def _d8() -> Claude:
    s = Claude("3b9e8a1c-d8")
    s.user("Implement the refund API and the refund email in parallel")
    s.assistant(
        checkpoint("en-table", q2=True, lines=80, q4=2, decision="summon two @body in parallel")
    )
    s.spawn_many(
        [
            (
                "body",
                "Implement POST /refunds",
                body_md(["src/api/refunds.py"], "Refund endpoint", BODY_TESTS),
                _body_work(20),
                {},
            ),
            (
                "body",
                "Implement refund email",
                body_md(["src/notify/refund_email.py"], "Refund email", BODY_TESTS),
                _body_work(15),
                {},
            ),
        ]
    )
    s.assistant("Both parts are in.")
    return s


@case("max1-two-minds-one-isolated", "Max 1", (A + "max-one",))
def _d9() -> Claude:
    s = Claude("4c0f9b2d-d9")
    s.user("两个方向各出一份设计：按租户分库 vs 行级隔离")
    s.assistant(checkpoint("zh-block", q3=True, q4=2, decision="并行召唤 @意 ×2"))
    out = "## Design\n方案说明\n\n## Decisions\n- decision: 分库\n  rationale: 隔离强\n\n## Tradeoffs\n- 运维成本高"
    s.spawn_many(
        [
            ("mind", "设计：按租户分库", out, None, {"isolation": "worktree"}),
            ("mind", "设计：行级隔离", out.replace("分库", "行级隔离"), None, {}),
        ]
    )
    s.assistant("两份设计已返回。")
    return s


@case("nested-body-spawns-eye", "nested spawn", (A + "nested-spawn", A + "forbidden-tool"))
def _d10() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        tid = "toolu_01nestedEYE001"
        s.assistant(
            "先让眼分身找一下调用点。",
            [
                (
                    tid,
                    "Agent",
                    {
                        "description": "find callers",
                        "prompt": "find callers of cancel_order",
                        "subagent_type": "eye",
                        "run_in_background": True,
                    },
                )
            ],
            agent=a,
        )
        s.result(tid, "Async agent launched successfully.\nagentId: a0000000000000fee", agent=a)
        _body_work(8)(s, a)

    return _delegate(
        "5d1a0c3e-d10",
        "Fix cancel_order and its callers",
        CP_BODY_EN,
        "body",
        "Fix cancel_order and all callers",
        body_md(["src/orders/service.py"], "Fixed", BODY_TESTS),
        work=work,
    )


@case(
    "nested-inline-eye-task",
    "nested spawn",
    (A + "nested-spawn", A + "forbidden-tool"),
    fmt="claude-inline",
)
def _d11() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        tid = "toolu_01nestedTASK02"
        s.assistant(
            None,
            [
                (
                    tid,
                    "Task",
                    {
                        "description": "deeper search",
                        "prompt": "search vendor/ too",
                        "subagent_type": "explorer",
                    },
                )
            ],
            agent=a,
        )
        s.result(tid, [{"type": "text", "text": "vendor/ has no callers"}], agent=a)
        _eye_work(s, a)

    return _delegate(
        "6e2b1d4f-d11",
        "查一下 legacy_pay 还有谁在用",
        CP_EYE,
        "eye",
        "搜索 legacy_pay",
        EYE_OK,
        work=work,
        background=True,
        inline=True,
        tool="Task",
    )


@case("dont-eye-bash", "Do/Don't", (A + "forbidden-tool",))
def _d12() -> Claude:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s.bash("ls -R src | head -50", "src:\napi\norders", agent=a)
        _eye_work(s, a)

    return _delegate(
        "7f3c2e5a-d12",
        "Map the orders package",
        CP_EYE_EN,
        "eye",
        "Map src/orders",
        EYE_OK,
        work=work,
        background=True,
    )
