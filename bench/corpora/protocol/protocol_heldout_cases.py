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

from corpora.protocol.protocol_heldout_formats import Claude, changed
from corpora.protocol.protocol_heldout_text import body_md, checkpoint, eye_md, nose_md


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
