"""The held-out 戒 protocol cases, part 1: Claude Code sessions (Layers 1–3, avatar contracts,
Do/Don't, background rules, Max 1, nested spawns). Each case writes one session; `expect` names
the rule ids of which one must be reported (a planted violation), an empty `expect` means a
compliant look-alike on which no finding may be reported. `forbid` lists ids that must not be
reported even on a violation (the look-alike inside it)."""

# ruff: noqa: E501  (transcript text and JSON records are data: kept on one line each)

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from protocol_heldout_formats import Claude, changed
from protocol_heldout_text import as_json, body_md, checkpoint, eye_md, nose_md


@dataclass(frozen=True)
class Case:
    name: str
    point: str
    fmt: str
    expect: tuple[str, ...]
    forbid: tuple[str, ...]
    build: Callable[[Path], list[Path]]
    agents: tuple[tuple[str, str], ...] = ()  # agent definitions scanned with --agents
    folder: bool = False  # scanned as a repository folder (its .wukong/ files), not a transcript

    @property
    def violation(self) -> bool:
        return bool(self.expect)


CASES: list[Case] = []
WHERE: dict[str, object] = {}  # the folder and name of the case being written


def case(
    name: str,
    point: str,
    expect: tuple[str, ...] = (),
    forbid: tuple[str, ...] = (),
    fmt: str = "claude",
    folder: bool = False,
) -> Callable[[Callable[[], object]], Callable[[], object]]:
    def deco(fn: Callable[[], object]) -> Callable[[], object]:
        def build(root: Path) -> list[Path]:
            WHERE.update(root=root, name=name)  # for cases that need their repository on disk
            session = fn()
            return session.write_to(root, name)  # type: ignore[attr-defined]

        CASES.append(Case(name, point, fmt, expect, forbid, build, (), folder))
        return fn

    return deco


B = "body-boundary."
A = "avatar-boundary."

EYE_OK = eye_md(
    ["src/orders/service.py", "src/orders/repository.py"],
    [
        ("src/orders/service.py:88", "cancel_order 没有检查支付状态，直接改状态"),
        ("src/orders/repository.py:41", "update_status 不在事务里"),
    ],
    "订单取消流程在 service 层缺少支付状态校验，仓储层更新未加事务。",
)
BODY_TESTS = "- [x] 单元测试通过\n\n```\n$ pytest -q tests/orders\n........................ 24 passed in 1.84s\n```"


def _eye_work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
    s.call(
        "Grep",
        {"pattern": "def cancel_order", "path": "src", "output_mode": "content", "-n": True},
        "src/orders/service.py:88:def cancel_order(order_id, actor):",
        agent=a,
    )
    s.read("src/orders/service.py", 120, agent=a)
    s.read("src/orders/repository.py", 60, agent=a)


def _body_work(
    lines: int = 18, test: str | None = "pytest -q tests/orders"
) -> Callable[[Claude, object], None]:
    def work(s: Claude, a) -> None:  # type: ignore[no-untyped-def]
        s.read("src/orders/service.py", 120, agent=a)
        s.edit(
            "src/orders/service.py",
            "def cancel_order(order_id, actor):\n    order = repo.get(order_id)",
            "def cancel_order(order_id, actor):\n" + changed(lines, "guard"),
            agent=a,
        )
        if test:
            s.bash(test, "........................ 24 passed in 1.84s", agent=a)

    return work


# =========================================================================== Layer 1


@case("l1-missing-direct-edit", "L1 checkpoint", (B + "checkpoint-missing",))
def _l1a() -> Claude:
    s = Claude("5b1e0c3a-l1a")
    s.user("README 里 `make serve` 写成了 `make server`，顺手改一下")
    s.read("README.md", 40, text="好的，我来看一下。")
    s.edit("README.md", "make server", "make serve")
    s.assistant("已修正 README 中的命令。")
    return s


@case("l1-missing-second-task", "L1 checkpoint", (B + "checkpoint-missing",))
def _l1b() -> Claude:
    s = Claude("6c2f1d4b-l1b")
    s.user("What does the `retry_budget` setting control?")
    s.assistant(
        checkpoint("en-lines", decision="body executes: one read to answer")
        + "\n\nLet me check the config module."
    )
    s.read("src/config.py", 50)
    s.assistant("`retry_budget` caps how many retries a worker may spend per minute.")
    s.user("Great. Now bump the default from 20 to 50 and mention it in CHANGELOG.md")
    s.edit("src/config.py", "RETRY_BUDGET = 20", "RETRY_BUDGET = 50")
    s.edit(
        "CHANGELOG.md", "## Unreleased\n", "## Unreleased\n- Default retry budget raised to 50.\n"
    )
    s.assistant("Done.")
    return s


@case("l1-missing-checkpoint-after-call", "L1 checkpoint", (B + "checkpoint-missing",))
def _l1c() -> Claude:
    s = Claude("7d3a2e5c-l1c")
    s.user("给 /healthz 加一个 version 字段")
    s.read("src/app/health.py", 25, text="先看看现在的实现。")
    s.assistant(checkpoint("zh-block", q2=True, lines=3, decision="本体执行"))
    s.edit(
        "src/app/health.py", 'return {"ok": True}', 'return {"ok": True, "version": __version__}'
    )
    s.assistant("完成。")
    return s


@case("l1-incomplete-no-q3-q4", "L1 checkpoint", (B + "checkpoint-incomplete",))
def _l1d() -> Claude:
    s = Claude("8e4b3f6d-l1d")
    s.user("Rename the `usr` variable in src/auth/login.py to `user`")
    s.assistant(
        checkpoint(
            "en-table",
            q2=True,
            lines=4,
            decision="body executes (rename inside one function)",
            drop=("Q3", "Q4"),
        )
    )
    s.read("src/auth/login.py", 60)
    s.edit(
        "src/auth/login.py",
        "usr = lookup(name)\n    if not usr:",
        "user = lookup(name)\n    if not user:",
    )
    s.assistant("Renamed.")
    return s


@case("l1-incomplete-no-decision", "L1 checkpoint", (B + "checkpoint-incomplete",))
def _l1e() -> Claude:
    s = Claude("9f5c4a7e-l1e")
    s.user("把日志级别从 DEBUG 调成 INFO")
    s.assistant(checkpoint("bold-emoji", q2=True, lines=1, drop=("decision",)))
    s.edit("config/logging.yaml", "level: DEBUG", "level: INFO")
    s.assistant("已调整。")
    return s


@case("l1-incomplete-template-slots", "L1 checkpoint", (B + "checkpoint-incomplete",))
def _l1f() -> Claude:
    s = Claude("0a6d5b8f-l1f")
    s.user("修一下 utils/dates.py 里 parse_day 的时区问题")
    s.assistant(
        "```\n📋 TASK CHECKPOINT\nQ0. Skill 匹配？     [是/否]\nQ1. 探索/研究？      [是/否]\nQ2. 代码修改？       [是/否] 预估 __ 行\nQ3. 设计/架构？      [是/否]\nQ4. 独立文件数？     __ 个\n⚡ 决策: [本体执行 / 召唤分身: ___]\n```\n开始处理。"
    )
    s.read("utils/dates.py", 80)
    s.edit(
        "utils/dates.py",
        "datetime.strptime(s, FMT)",
        "datetime.strptime(s, FMT).replace(tzinfo=UTC)",
    )
    s.assistant("修好了。")
    return s


# =========================================================================== Layer 2


@case("l2-explore-but-body", "L2 decision", (B + "decision-explore",))
def _l2a() -> Claude:
    s = Claude("1b7e6c9a-l2a")
    s.user("调研一下项目里哪些地方还在用旧的 `requests` 同步客户端")
    s.assistant(checkpoint("zh-block", q1=True, decision="本体执行（搜一下就行）"))
    s.call(
        "Grep",
        {"pattern": "import requests", "path": ".", "output_mode": "files_with_matches"},
        "src/clients/pay.py\nsrc/clients/sms.py",
    )
    s.assistant("两处：pay.py 和 sms.py。")
    return s


@case("l2-explore-but-body-en", "L2 decision", (B + "decision-explore",))
def _l2b() -> Claude:
    s = Claude("2c8f7d0b-l2b")
    s.user("Investigate how feature flags are loaded at startup")
    s.assistant(
        checkpoint(
            "en-lines", q1=True, decision="handle it myself — body executes, it's a quick look"
        )
    )
    s.call("Glob", {"pattern": "**/flags*.py"}, "src/flags/loader.py")
    s.assistant("They come from src/flags/loader.py.")
    return s


@case("l2-code-size-but-body", "L2 decision", (B + "decision-code-size",))
def _l2c() -> Claude:
    s = Claude("3d9a8e1c-l2c")
    s.user("给 OrderExporter 加上 CSV 导出，字段和 JSON 导出一致")
    s.assistant(checkpoint("bold-emoji", q2=True, lines=45, decision="本体执行"))
    s.read("src/export/orders.py", 90)
    s.assistant("我来写。")
    return s


@case("l2-design-but-body", "L2 decision", (B + "decision-design",))
def _l2d() -> Claude:
    s = Claude("4e0b9f2d-l2d")
    s.user(
        "We need to pick between Redis streams and SQS for the notification queue; propose the architecture"
    )
    s.assistant(
        checkpoint(
            "en-table",
            q3=True,
            q2=False,
            decision="handle directly (本体执行): I'll sketch it here",
        )
    )
    s.read("docs/architecture.md", 120)
    s.assistant("Proposal: SQS with a DLQ, because …")
    return s


@case("l2-parallel-single-avatar", "L2 decision", (B + "parallel-summons",))
def _l2e() -> Claude:
    s = Claude("5f1c0a3e-l2e")
    s.user(
        "Add input validation to the three handlers: users.py, orders.py, payments.py (independent)"
    )
    s.assistant(
        checkpoint("en-lines", q2=True, lines=60, q4=3, decision="summon @body (implementer)")
    )
    s.spawn(
        "body",
        "Add pydantic validation to src/api/users.py, src/api/orders.py and src/api/payments.py",
        body_md(
            ["src/api/users.py", "src/api/orders.py", "src/api/payments.py"],
            "Added request models to the three handlers.",
            BODY_TESTS,
        ),
        work=_body_work(14),
    )
    s.assistant("All three handlers validate their input now.")
    return s


@case("l2-parallel-sequential", "L2 decision", (B + "parallel-summons",))
def _l2f() -> Claude:
    s = Claude("6a2d1b4f-l2f")
    s.user("分别审查 billing/ 和 shipping/ 两个模块的错误处理")
    s.assistant(checkpoint("zh-block", q1=True, q4=2, decision="并行召唤 @鼻 ×2"))
    s.spawn(
        "nose",
        "审查 billing/ 的错误处理",
        nose_md(
            [("HIGH", "billing/charge.py:55", "异常被吞掉")], "billing 有一处吞异常", "记录并重抛"
        ),
        background=True,
    )
    s.spawn(
        "nose",
        "审查 shipping/ 的错误处理",
        nose_md(
            [("LOW", "shipping/label.py:12", "日志缺少单号")], "shipping 基本正常", "日志带上单号"
        ),
        background=True,
    )
    s.assistant("两份审查报告已返回。")
    return s


@case("l2-declared-vs-done", "L2 decision", (B + "declared-edits",))
def _l2g() -> Claude:
    s = Claude("7b3e2c5a-l2g")
    s.user("Fix the off-by-one in paginate()")
    s.assistant(checkpoint("light", q2=True, lines=2, decision="本体执行"))
    s.read("src/pagination.py", 70)
    s.edit("src/pagination.py", "end = start + size + 1", "end = start + size")
    s.edit(
        "src/pagination.py",
        "def paginate(items, page, size):",
        "def paginate(items, page, size):\n" + changed(9, "clamp"),
    )
    s.edit(
        "src/pagination.py",
        "return items[start:end]",
        "return items[start:end]\n" + changed(8, "meta"),
    )
    s.assistant("Fixed, and added bounds handling.")
    return s


# =========================================================================== Layer 3


@case("l3-reads", "L3 behaviour", (B + "exploration-reads",))
def _l3a() -> Claude:
    s = Claude("8c4f3d6b-l3a")
    s.user("为什么下单接口偶尔返回 500？")
    s.assistant(checkpoint("zh-block", decision="本体执行"))
    for p in (
        "src/api/orders.py",
        "src/orders/service.py",
        "src/orders/repository.py",
        "src/db/session.py",
    ):
        s.read(p, 80)
    s.assistant("原因是会话在异常后没有回滚。")
    return s


@case("l3-searches", "L3 behaviour", (B + "exploration-searches",))
def _l3b() -> Claude:
    s = Claude("9d5a4e7c-l3b")
    s.user("Where do we set the JWT expiry?")
    s.assistant(checkpoint("en-lines", decision="body executes (single lookup)"))
    s.call("Grep", {"pattern": "exp", "glob": "*.py"}, "src/auth/tokens.py:14: exp = now + EXPIRY")
    s.call("Grep", {"pattern": "EXPIRY", "path": "src"}, "src/settings.py:33:JWT_EXPIRY = 3600")
    s.call("Glob", {"pattern": "**/settings*.py"}, "src/settings.py\nsrc/settings_test.py")
    s.assistant("JWT_EXPIRY in src/settings.py.")
    return s


@case("l3-turn-edits", "L3 behaviour", (B + "turn-edits",))
def _l3c() -> Claude:
    s = Claude("0e6b5f8d-l3c")
    s.user("把 src/notify/ 下面三处硬编码的超时改成读配置")
    s.assistant(checkpoint("light", q2=True, lines=8, q4=1, decision="本体执行"))
    for i, f in enumerate(("email.py", "sms.py", "push.py")):
        s.edit(
            f"src/notify/{f}",
            f"timeout=5  # {f}",
            "timeout=settings.NOTIFY_TIMEOUT,\n" + changed(4, f"n{i}"),
        )
    s.assistant("三处都改好了。")
    return s


@case("l3-edit-size", "L3 behaviour", (B + "edit-size", B + "turn-edits", B + "declared-edits"))
def _l3d() -> Claude:
    s = Claude("1f7c6a9e-l3d")
    s.user("Add a __repr__ to Invoice")
    s.assistant(checkpoint("en-table", q2=True, lines=5, decision="body executes"))
    s.read("src/billing/invoice.py", 40)
    s.edit("src/billing/invoice.py", "class Invoice:\n", "class Invoice:\n" + changed(22, "field"))
    s.assistant("Added.")
    return s


@case("l3-write-new-file", "L3 behaviour", (B + "create-file",))
def _l3e() -> Claude:
    s = Claude("2a8d7b0f-l3e")
    s.user("加一个空的 conftest.py 让 pytest 能找到 src")
    s.assistant(checkpoint("bold-emoji", q2=True, lines=3, decision="本体执行"))
    s.write("tests/conftest.py", "import sys\nsys.path.insert(0, 'src')\n")
    s.assistant("已添加。")
    return s


@case("l3-shell-heredoc", "L3 behaviour", (B + "shell-create",))
def _l3f() -> Claude:
    s = Claude("3b9e8c1a-l3f")
    s.user("Create a seed script for local dev")
    s.assistant(checkpoint("en-lines", q2=True, lines=4, decision="body executes"))
    s.bash(
        "cat > scripts/seed_dev.sh <<'EOF'\n#!/usr/bin/env bash\npython -m app.seed --users 10\nEOF\nchmod +x scripts/seed_dev.sh",
        "",
    )
    s.assistant("scripts/seed_dev.sh is ready.")
    return s


@case("l3-shell-tee", "L3 behaviour", (B + "shell-create",))
def _l3g() -> Claude:
    s = Claude("4c0f9d2b-l3g")
    s.user("记一下今天的待办到 notes/todo.md")
    s.assistant(checkpoint("zh-block", q2=True, lines=2, decision="本体执行"))
    s.bash(
        "printf '%s\\n' '- 补 orders 的回滚测试' '- 升级 fastapi' | tee notes/todo.md",
        "- 补 orders 的回滚测试\n- 升级 fastapi",
    )
    s.assistant("记好了。")
    return s


@case("l3-shell-touch", "L3 behaviour", (B + "shell-create",))
def _l3h() -> Claude:
    s = Claude("5d1a0e3c-l3h")
    s.user("src/reports 需要成为一个包")
    s.assistant(checkpoint("light", q2=True, lines=0, decision="本体执行"))
    s.bash("touch src/reports/__init__.py", "")
    s.assistant("加了 __init__.py。")
    return s


@case("l3-shell-cp", "L3 behaviour", (B + "shell-create",))
def _l3i() -> Claude:
    s = Claude("6e2b1f4d-l3i")
    s.user("Start the refund email template from the order one")
    s.assistant(checkpoint("en-table", q2=True, lines=0, decision="body executes (copy only)"))
    s.bash("cp templates/email/order_confirmed.html templates/email/refund_issued.html", "")
    s.assistant("Copied; edit the wording next.")
    return s


@case("l3-shell-redirect", "L3 behaviour", (B + "shell-create",))
def _l3j() -> Claude:
    s = Claude("7f3c2a5e-l3j")
    s.user("Dump the OpenAPI schema to docs/openapi.json")
    s.assistant(checkpoint("en-lines", q2=False, decision="body executes"))
    s.bash(
        "python -c 'import json, app.main as m; print(json.dumps(m.app.openapi()))' > docs/openapi.json",
        "",
    )
    s.assistant("Written to docs/openapi.json.")
    return s


@case("l3-build-run-tests-sh", "L3 behaviour", (B + "build-or-test",))
def _l3k() -> Claude:
    s = Claude("8a4d3b6f-l3k")
    s.user("跑一下测试看看现在的状态")
    s.assistant(checkpoint("zh-block", decision="本体执行"))
    s.bash("bash run_tests.sh", "Ran 212 tests in 14.1s\n\nOK")
    s.assistant("全部通过。")
    return s


@case("l3-build-scripts-test", "L3 behaviour", (B + "build-or-test",))
def _l3l() -> Claude:
    s = Claude("9b5e4c7a-l3l")
    s.user("Run the integration suite against the local stack")
    s.assistant(checkpoint("en-lines", decision="body executes"))
    s.bash("./scripts/test_integration.sh --env local", "17 passed, 1 skipped")
    s.assistant("17 passed.")
    return s


@case("l3-build-make-test", "L3 behaviour", (B + "build-or-test",))
def _l3m() -> Claude:
    s = Claude("0c6f5d8b-l3m")
    s.user("make test 还过吗")
    s.assistant(checkpoint("bold-emoji", decision="本体执行"))
    s.bash("make test", "go test ./...\nok  \tgithub.com/acme/ledger/internal/post\t0.412s")
    s.assistant("过了。")
    return s


@case("l3-long-sleep", "L3 behaviour", (B + "long-operation",))
def _l3n() -> Claude:
    s = Claude("1d7a6e9c-l3n")
    s.user("Wait for the staging deploy and check the health endpoint")
    s.assistant(checkpoint("en-table", decision="body executes"))
    s.bash("sleep 90 && curl -fsS https://staging.internal.example/healthz", '{"ok":true}')
    s.assistant("Staging is healthy.")
    return s


@case("l3-long-pip-timeout", "L3 behaviour", (B + "long-operation",))
def _l3o() -> Claude:
    s = Claude("2e8b7f0d-l3o")
    s.user("装一下依赖")
    s.assistant(checkpoint("light", decision="本体执行"))
    s.bash(
        "pip install -r requirements.txt",
        "Successfully installed fastapi-0.115.0 ...",
        timeout=300000,
    )
    s.assistant("装好了。")
    return s


@case("l3-long-compose-up", "L3 behaviour", (B + "long-operation",))
def _l3p() -> Claude:
    s = Claude("3f9c8a1e-l3p")
    s.user("Bring the local stack up so I can click through the UI")
    s.assistant(checkpoint("en-lines", decision="body executes"))
    s.bash("docker compose up", "Attaching to api-1, db-1, web-1 ...")
    s.assistant("Stack is up on :8080.")
    return s


@case("l3-long-terraform", "L3 behaviour", (B + "long-operation",))
def _l3q() -> Claude:
    s = Claude("4a0d9b2f-l3q")
    s.user("apply the staging plan we reviewed yesterday")
    s.assistant(checkpoint("en-lines", decision="body executes"))
    s.bash(
        "cd infra/staging && terraform apply tfplan",
        "Apply complete! Resources: 2 added, 1 changed, 0 destroyed.",
    )
    s.assistant("Applied.")
    return s


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
