"""The held-out 戒 protocol cases, part 3: Codex rollouts, OpenAI chat transcripts, ReAct
histories (seed 002: A3 limits, C1 dropped fields, Thought before Action, @file reminders,
tool_use/tool_result pairs after a summary) and `.wukong/context/dcp-config.yaml`."""

# ruff: noqa: E501  (transcript text and JSON records are data: kept on one line each)

from __future__ import annotations

import json
from pathlib import Path

from corpora.protocol.protocol_heldout_cases import CASES, A, B, Case, case
from corpora.protocol.protocol_heldout_formats import Codex, OpenAIChat, ReactMessages, ReactText
from corpora.protocol.protocol_heldout_text import checkpoint

C = "context."
T = "transcript-integrity."


def _patch_update(path: str, old: list[str], new: list[str]) -> str:
    hunk = "\n".join(["@@"] + [f"-{x}" for x in old] + [f"+{x}" for x in new])
    return f"*** Begin Patch\n*** Update File: {path}\n{hunk}\n*** End Patch"


# =========================================================================== Codex


@case("codex-missing-checkpoint", "L1 checkpoint", (B + "checkpoint-missing",), fmt="codex")
def _x1() -> Codex:
    s = Codex("0199a1b2-x1")
    s.user("Fix the failing date parsing in ledger/import.py")
    s.reasoning("Look at the parser first.")
    s.shell("rg -n 'strptime' ledger/import.py", "41:    return datetime.strptime(raw, '%d/%m/%Y')")
    s.patch(
        _patch_update(
            "ledger/import.py",
            ["    return datetime.strptime(raw, '%d/%m/%Y')"],
            ["    return datetime.strptime(raw.strip(), '%d/%m/%Y')"],
        )
    )
    s.say("Stripped whitespace before parsing.")
    return s


@case("codex-shell-reads", "L3 behaviour", (B + "exploration-reads",), fmt="codex")
def _x2() -> Codex:
    s = Codex("0199a1b2-x2")
    s.user("How are postings balanced before they are committed?")
    s.say(checkpoint("en-lines", decision="body executes (a quick read)"))
    s.shell("cat ledger/posting.py", "class Posting: ...")
    s.shell("sed -n '1,120p' ledger/journal.py", "def commit(journal): ...")
    s.shell("head -n 80 ledger/balance.py", "def check_balanced(entries): ...")
    s.shell("nl -ba ledger/rounding.py | sed -n '1,60p'", "     1\tdef round_half_even(x): ...")
    s.say("check_balanced() sums debits and credits per currency before commit().")
    return s


@case("codex-pytest", "L3 behaviour", (B + "build-or-test",), fmt="codex")
def _x3() -> Codex:
    s = Codex("0199a1b2-x3")
    s.user("跑一下测试")
    s.say(checkpoint("zh-block", decision="本体执行"))
    s.shell("python -m pytest -q tests/", "58 passed in 3.20s")
    s.say("58 个全过。")
    return s


@case(
    "codex-patch-over-10",
    "L3 behaviour",
    (B + "edit-size", B + "turn-edits", B + "declared-edits"),
    fmt="codex",
)
def _x4() -> Codex:
    s = Codex("0199a1b2-x4")
    s.user("Add currency validation to Posting")
    s.say(checkpoint("en-table", q2=True, lines=4, decision="body executes"))
    s.patch(
        _patch_update(
            "ledger/posting.py",
            ["class Posting:"],
            ["class Posting:"] + [f"    CHECK_{i} = validate_currency_{i}" for i in range(18)],
        )
    )
    s.say("Validation added.")
    return s


@case("codex-patch-add-file", "L3 behaviour", (B + "create-file",), fmt="codex")
def _x5() -> Codex:
    s = Codex("0199a1b2-x5")
    s.user("Add a CODEOWNERS file")
    s.say(checkpoint("en-lines", q2=True, lines=2, decision="body executes"))
    s.patch(
        "*** Begin Patch\n*** Add File: .github/CODEOWNERS\n+* @acme/ledger-team\n+/infra/ @acme/platform\n*** End Patch"
    )
    s.say("Added .github/CODEOWNERS.")
    return s


@case("codex-npm-install-long", "L3 behaviour", (B + "long-operation",), fmt="codex")
def _x6() -> Codex:
    s = Codex("0199a1b2-x6")
    s.user("install the frontend deps")
    s.say(checkpoint("en-lines", decision="body executes"))
    s.shell("cd web && npm install", "added 1432 packages in 74s", timeout_ms=600000)
    s.say("Installed.")
    return s


@case("codex-usage-dcp", "context usage", (C + "usage-dcp", C + "usage-critical"), fmt="codex")
def _x7() -> Codex:
    s = Codex("0199a1b2-x7")
    s.user("Keep going with the reconciliation report")
    s.say(checkpoint("en-lines", decision="body executes (summarise what is left)"))
    s.tokens(150_000)
    s.tokens(238_000)
    s.say("Two sections left: FX differences and unmatched refunds.")
    return s


@case("codex-token-limit-error", "error classes", (T + "context-exceeded",), fmt="codex")
def _x8() -> Codex:
    s = Codex("0199a1b2-x8")
    s.user("Summarise every CSV under exports/")
    s.error("token limit exceeded: the request has 281093 input tokens, the model accepts 272000")
    return s


@case("codex-shell-redirect-create", "L3 behaviour", (B + "shell-create",), fmt="codex")
def _x9() -> Codex:
    s = Codex("0199a1b2-x9")
    s.user("Save the current lint config as a baseline file")
    s.say(checkpoint("en-lines", decision="body executes"))
    s.shell("ruff check --statistics . > reports/ruff-baseline.txt", "")
    s.say("Saved reports/ruff-baseline.txt.")
    return s


@case("ok-codex-small-fix", "L1-L3 compliant", fmt="codex")
def _xk1() -> Codex:
    s = Codex("0199a1b2-xk1")
    s.user("The CSV importer chokes on a trailing space in dates, fix it")
    s.reasoning("Find the parser, then a one-line fix.")
    s.say(checkpoint("en-lines", q2=True, lines=1, decision="body executes (one-line fix)"))
    s.tokens(31_000)
    s.shell(
        "rg -n 'strptime' ledger/",
        "ledger/import.py:41:    return datetime.strptime(raw, '%d/%m/%Y')",
    )
    s.shell(
        "sed -n '30,60p' ledger/import.py",
        "def parse_day(raw):\n    return datetime.strptime(raw, '%d/%m/%Y')",
    )
    s.patch(
        _patch_update(
            "ledger/import.py",
            ["    return datetime.strptime(raw, '%d/%m/%Y')"],
            ["    return datetime.strptime(raw.strip(), '%d/%m/%Y')"],
        )
    )
    s.tokens(38_000)
    s.say("Fixed: the importer strips the value before parsing.")
    return s


@case("ok-codex-conversation", "L1 compliant", fmt="codex")
def _xk2() -> Codex:
    s = Codex("0199a1b2-xk2")
    s.user("Should we store amounts as Decimal or integer cents?")
    s.say(
        "Integer cents: exact arithmetic, cheap to store, and the DB already uses BIGINT for amounts."
    )
    s.tokens(12_000)
    return s


@case("ok-codex-git-lint", "L3 compliant", fmt="codex")
def _xk3() -> Codex:
    s = Codex("0199a1b2-xk3")
    s.user("Is the branch clean and does ruff pass?")
    s.say(checkpoint("zh-block", decision="本体执行（只看状态和 lint）"))
    s.shell("git status --short", "")
    s.shell("ruff check ledger/", "All checks passed!")
    s.say("干净，ruff 通过。")
    return s


@case("ok-codex-usage-65", "context compliant", fmt="codex")
def _xk4() -> Codex:
    s = Codex("0199a1b2-xk4")
    s.user("Where are FX rates cached?")
    s.say(checkpoint("en-lines", decision="body executes (one search)"))
    s.tokens(120_000)
    s.shell("rg -n 'fx_cache' ledger/", "ledger/fx.py:9:fx_cache = TTLCache(maxsize=512, ttl=3600)")
    s.tokens(176_000)
    s.say("In ledger/fx.py, a TTLCache of one hour.")
    return s


# =========================================================================== OpenAI chat


@case("oai-missing-checkpoint", "L1 checkpoint", (B + "checkpoint-missing",), fmt="openai")
def _o1() -> OpenAIChat:
    s = OpenAIChat()
    s.user("Bump the API version header to 2026-11 in client.py")
    s.call("read_file", {"path": "client.py"}, "API_VERSION = '2026-08'\n")
    s.call(
        "edit_file",
        {
            "path": "client.py",
            "old_str": "API_VERSION = '2026-08'",
            "new_str": "API_VERSION = '2026-11'",
        },
        "ok",
    )
    s.say("Bumped.")
    return s


@case("oai-npm-test", "L3 behaviour", (B + "build-or-test",), fmt="openai")
def _o2() -> OpenAIChat:
    s = OpenAIChat()
    s.user("Are the unit tests green?")
    s.say(checkpoint("en-lines", decision="body executes"))
    s.call(
        "run_terminal_cmd", {"command": "npm test -- --watch=false"}, "Tests: 84 passed, 84 total"
    )
    s.say("84 passed.")
    return s


@case("oai-opencode-same-strings", "error classes", (T + "edit-failure",), fmt="openai")
def _o3() -> OpenAIChat:
    s = OpenAIChat()
    s.user("Make sure the retry count is 3")
    s.say(checkpoint("light", q2=True, lines=1, decision="本体执行"))
    s.call(
        "edit",
        {
            "filePath": "src/retry.ts",
            "oldString": "MAX_RETRIES = 3",
            "newString": "MAX_RETRIES = 3",
        },
        "Error: oldString and newString must be different",
    )
    s.say("It is already 3.")
    return s


@case("oai-reads", "L3 behaviour", (B + "exploration-reads",), fmt="openai")
def _o4() -> OpenAIChat:
    s = OpenAIChat()
    s.user("Explain the request lifecycle")
    s.say(checkpoint("en-table", decision="body executes"))
    for p in ("server/app.py", "server/middleware.py", "server/routes.py", "server/db.py"):
        s.call("read_file", {"path": p}, f"# {p}\n...")
    s.say("Request → middleware → route → db session.")
    return s


@case("ok-oai-small", "L1-L3 compliant", fmt="openai")
def _ok1() -> OpenAIChat:
    s = OpenAIChat()
    s.user("Bump the API version header to 2026-11 in client.py")
    s.say(checkpoint("en-lines", q2=True, lines=1, decision="body executes (one-line change)"))
    s.call("read_file", {"path": "client.py"}, "API_VERSION = '2026-08'\n")
    s.call(
        "edit_file",
        {
            "path": "client.py",
            "old_str": "API_VERSION = '2026-08'",
            "new_str": "API_VERSION = '2026-11'",
        },
        "ok",
    )
    s.say("Bumped to 2026-11.")
    return s


@case("ok-oai-chat-only", "L1 compliant", fmt="openai")
def _ok2() -> OpenAIChat:
    s = OpenAIChat()
    s.user("What's a good name for a function that merges two price lists?")
    s.say("`merge_price_lists` is clear; `combine_prices` if you prefer shorter.")
    s.user("thanks")
    s.say("You're welcome.")
    return s


@case("ok-oai-lint", "L3 compliant", fmt="openai")
def _ok3() -> OpenAIChat:
    s = OpenAIChat()
    s.user("Run the linter on the server package")
    s.say(checkpoint("zh-block", decision="本体执行（lint）"))
    s.call("run_terminal_cmd", {"command": "npm run lint -- server/"}, "✔ No problems")
    s.say("lint 通过。")
    return s


# =========================================================================== ReAct


def _ok_read(path: str, n: int, start: int = 1) -> dict:
    return {
        "status": "success",
        "data": {
            "path": path,
            "range": [start, start + n - 1],
            "content": "\n".join(f"{i}: code line {i}" for i in range(start, start + n)),
            "mtime": 1764000000,
        },
    }


def _ok_grep(n: int, total: int) -> dict:
    return {
        "status": "success",
        "data": {
            "pattern": "TODO",
            "matches": [f"src/m{i}.py:{10 + i}: # TODO tidy" for i in range(n)],
            "total": total,
            "truncated": total > n,
        },
    }


@case("react-read-700", "ReAct A3", (C + "react-oversized-output",), fmt="react")
def _a1() -> ReactText:
    s = ReactText("seed")
    s.user("解释一下 parser.py 的整体结构")
    s.step("先读文件。", "Read", {"file_path": "src/parser.py"}, _ok_read("src/parser.py", 700))
    s.finish("读完了。", "parser.py 分为词法、语法、语义三段。")
    return s


@case("react-grep-12", "ReAct A3", (C + "react-oversized-output",), fmt="react")
def _a2() -> ReactText:
    s = ReactText("plain")
    s.user("How many TODOs are left in src?")
    s.step(
        "Search for TODO markers.",
        "Grep",
        {"pattern": "TODO", "path": "src"},
        {
            "status": "success",
            "data": {
                "pattern": "TODO",
                "matches": [f"src/m{i}.py:{10 + i}: # TODO tidy" for i in range(12)],
                "total": 12,
            },
        },
    )
    s.finish("Counted them.", "12 TODOs remain.")
    return s


@case("react-bash-stderr-40", "ReAct A3", (C + "react-oversized-output",), fmt="react-messages")
def _a3() -> ReactMessages:
    s = ReactMessages()
    s.user("为什么构建失败？")
    s.step(
        "跑一下构建看报错。",
        "Bash",
        {"command": "make build"},
        {
            "status": "error",
            "data": {
                "summary": "make: *** [build] Error 2",
                "stderr_tail": "\n".join(
                    f"src/x{i}.c:{i}: error: unknown type name 'u8'" for i in range(40)
                ),
            },
            "error": {"code": "EXIT_2", "message": "make build failed"},
        },
    )
    s.finish("缺少类型定义。", "缺少 u8 的 typedef。")
    return s


@case("react-ls-2500-chars", "ReAct A3", (C + "react-oversized-output",), fmt="react")
def _a4() -> ReactText:
    s = ReactText("seed")
    s.user("List what's under assets/")
    s.step(
        "List the directory.",
        "LS",
        {"path": "assets"},
        {
            "status": "success",
            "data": {
                "path": "assets",
                "count": 130,
                "entries": [f"assets/img/product_{i:04d}_large.webp" for i in range(130)],
            },
        },
    )
    s.finish("Listed.", "130 product images.")
    return s


@case("react-dropped-fields-kept", "ReAct C1", (C + "react-dropped-fields",), fmt="react")
def _a5() -> ReactText:
    s = ReactText("seed")
    s.user("config.py 里默认端口是多少？")
    res = _ok_read("config.py", 20)
    res["text"] = "PORT = 8000 ..."
    res["stats"] = {"elapsed_ms": 3, "bytes": 412}
    s.step("读 config.py。", "Read", {"file_path": "config.py"}, res)
    s.finish("找到了。", "默认 8000。")
    return s


@case("react-context-field-kept", "ReAct C1", (C + "react-dropped-fields",), fmt="react-messages")
def _a6() -> ReactMessages:
    s = ReactMessages()
    s.user("Which module defines Invoice?")
    res = _ok_grep(1, 1)
    res["context"] = {"args": {"pattern": "class Invoice", "path": "src"}}
    s.step("Grep for the class.", "Grep", {"pattern": "class Invoice", "path": "src"}, res)
    s.finish("Found it.", "src/m0.py")
    return s


@case("react-no-thought-seed", "ReAct A2", (C + "react-no-thought",), fmt="react")
def _a7() -> ReactText:
    s = ReactText("seed")
    s.user("Open the changelog")
    s.step(None, "Read", {"file_path": "CHANGELOG.md"}, _ok_read("CHANGELOG.md", 30))
    s.finish("Read it.", "Latest entry: 2.4.0.")
    return s


@case("react-no-thought-plain", "ReAct A2", (C + "react-no-thought",), fmt="react")
def _a8() -> ReactText:
    s = ReactText("plain")
    s.user("列出 src 下的 py 文件")
    s.step(
        "先列目录。",
        "Glob",
        {"pattern": "src/*.py"},
        {
            "status": "success",
            "data": {
                "pattern": "src/*.py",
                "count": 3,
                "items": ["src/a.py", "src/b.py", "src/c.py"],
            },
        },
    )
    s.step(None, "Read", {"file_path": "src/a.py"}, _ok_read("src/a.py", 12))
    s.finish("好了。", "a.py b.py c.py")
    return s


def _reminder(files: list[str], more: int = 0) -> str:
    body = "\n".join(
        f"The user mentioned @{f}.\nYou MUST read this file with the Read tool before answering."
        for f in files
    )
    tail = f"\n(and {more} more…)" if more else ""
    return f"<system-reminder>\n{body}{tail}\n</system-reminder>"


@case("react-reminders-seven", "ReAct A7", (C + "file-reminders",), fmt="react")
def _a9() -> ReactText:
    files = [f"src/svc/part{i}.py" for i in range(7)]
    s = ReactText("seed")
    s.user("Compare " + " ".join("@" + f for f in files) + "\n" + _reminder(files))
    s.step("Read the first one.", "Read", {"file_path": files[0]}, _ok_read(files[0], 20))
    s.finish("Done.", "They share one base class.")
    return s


@case(
    "react-broken-pair-after-summary",
    "ReAct A4",
    (C + "broken-pair", T + "orphan-result"),
    fmt="react-messages",
)
def _a10() -> ReactMessages:
    s = ReactMessages()
    s.summary(
        "## 📌 Archived Session Summary\n*(Contains context from 09:00 to 10:30)*\n### 🎯 Objectives & Status\n* **Original Goal**: migrate settings to pydantic"
    )
    s.rows.append(
        {
            "role": "tool",
            "content": json.dumps(_ok_read("settings.py", 40)),
            "metadata": {"tool_name": "Read", "step": 7},
        }
    )
    s.user("继续")
    s.step("看下还剩什么。", "Grep", {"pattern": "os.environ", "path": "src"}, _ok_grep(2, 2))
    s.finish("还剩两处。", "还有两处直接读环境变量。")
    return s


@case("ok-react-seed-busy", "ReAct compliant", fmt="react")
def _ak1() -> ReactText:
    s = ReactText("seed")
    s.user("把 parser.py 里的 TODO 清理一下")
    s.step("先找 TODO。", "Grep", {"pattern": "TODO", "path": "src"}, _ok_grep(5, 23))
    s.step(
        "读 parser.py 的相关区间。",
        "Read",
        {"file_path": "src/parser.py", "offset": 100, "limit": 80},
        _ok_read("src/parser.py", 80, 100),
    )
    s.step(
        "改掉第一个 TODO。",
        "Edit",
        {"file_path": "src/parser.py", "old_string": "# TODO tidy", "new_string": ""},
        {
            "status": "success",
            "data": {"file": "src/parser.py", "range": [120, 121], "applied": True},
        },
    )
    s.step(
        "跑一下测试。",
        "Bash",
        {"command": "pytest -q tests/test_parser.py"},
        {"status": "success", "data": {"summary": "14 passed", "exit_code": 0}},
    )
    s.finish("清理完毕。", "清理了 parser.py 的 TODO，测试通过。")
    return s


@case("ok-react-plain", "ReAct compliant", fmt="react")
def _ak2() -> ReactText:
    s = ReactText("plain")
    s.user("What does the retry decorator do on the last attempt?")
    s.step(
        "Find the decorator.",
        "Grep",
        {"pattern": "def retry", "path": "src"},
        {
            "status": "success",
            "data": {
                "pattern": "def retry",
                "matches": ["src/util/retry.py:8: def retry(times=3):"],
                "total": 1,
            },
        },
    )
    s.step(
        "Read it.", "Read", {"file_path": "src/util/retry.py"}, _ok_read("src/util/retry.py", 45)
    )
    s.finish("It re-raises.", "On the last attempt it re-raises the original exception.")
    return s


@case("ok-react-messages-summary", "ReAct compliant", fmt="react-messages")
def _ak3() -> ReactMessages:
    s = ReactMessages()
    s.summary(
        "## 📌 Archived Session Summary\n*(Contains context from 09:00 to 10:30)*\n### 🎯 Objectives & Status\n* **Original Goal**: migrate settings to pydantic\n### ✅ Completed Milestones\n* [✓] settings.py migrated"
    )
    s.user("继续迁移剩下的环境变量读取")
    s.step(
        "找剩下的 os.environ。", "Grep", {"pattern": "os.environ", "path": "src"}, _ok_grep(2, 2)
    )
    s.step("读第一个文件。", "Read", {"file_path": "src/m0.py"}, _ok_read("src/m0.py", 60))
    s.step(
        "修改。",
        "Edit",
        {
            "file_path": "src/m0.py",
            "old_string": "os.environ['DB_URL']",
            "new_string": "settings.db_url",
        },
        {"status": "success", "data": {"file": "src/m0.py", "range": [12, 12], "applied": True}},
    )
    s.finish("完成一处。", "m0.py 已迁移，m1.py 下一轮处理。")
    return s


@case("ok-react-reminders-capped", "ReAct compliant", fmt="react")
def _ak4() -> ReactText:
    files = [f"src/svc/part{i}.py" for i in range(7)]
    s = ReactText("seed")
    s.user("Compare " + " ".join("@" + f for f in files) + "\n" + _reminder(files[:5], more=2))
    s.step("Read the first one.", "Read", {"file_path": files[0]}, _ok_read(files[0], 20))
    s.finish("Done.", "They share one base class.")
    return s


@case("ok-react-bash-error-short", "ReAct compliant", fmt="react-messages")
def _ak5() -> ReactMessages:
    s = ReactMessages()
    s.user("Why does the build fail?")
    s.step(
        "Run the build and keep the stderr tail.",
        "Bash",
        {"command": "make build"},
        {
            "status": "error",
            "data": {
                "summary": "make: *** [build] Error 2",
                "stderr_tail": "\n".join(
                    f"src/x{i}.c:{i}: error: unknown type name 'u8'" for i in range(20)
                ),
                "truncated": True,
            },
            "error": {"code": "EXIT_2", "message": "make build failed"},
        },
    )
    s.finish("Missing typedef.", "u8 is not defined: include <stdint.h> types.")
    return s


# =========================================================================== dcp-config.yaml (folder scans)

DCP_OK = """# DCP 配置
dcp:
  enabled: true
  auto_strategies:
    deduplication: true
    supersede_writes: true
    purge_errors: true
    truncation: true
  protection:
    turn_protection: 4
    anchor_protection: true
    protected_patterns:
      - "*.md"
      - "anchors.md"
  truncation:
    grep_max_tokens: 40000
    grep_headroom: 0.4
    glob_max_files: 150
    read_chunk_size: 800
  ai_assisted:
    discard_enabled: true
    require_confirmation: true
  error_purge:
    turns_before_purge: 4
    keep_error_message: true
"""

DCP_BAD = DCP_OK.replace("turn_protection: 4", "turn_protect: 4").replace(
    "grep_headroom: 0.4", "grep_headroom: 1.5"
)


def _repo(name: str, dcp: str) -> Case:
    def build(root: Path) -> list[Path]:
        repo = root / name
        (repo / ".wukong" / "context").mkdir(parents=True, exist_ok=True)
        (repo / ".wukong" / "context" / "dcp-config.yaml").write_text(dcp, encoding="utf-8")
        (repo / "README.md").write_text(
            "# ledger\n\nDouble-entry bookkeeping service.\n", encoding="utf-8"
        )
        return [repo]

    return Case(
        name,
        "dcp-config",
        "folder",
        (C + "dcp-config",) if dcp is DCP_BAD else (),
        (),
        build,
        (),
        True,
    )


CASES.append(_repo("dcp-config-bad-keys", DCP_BAD))
CASES.append(_repo("ok-dcp-config", DCP_OK))


# =========================================================================== written after the first run
# Probes of wording classes the first run pointed at (not part of its held-out numbers): a
# question's own wording holding a number before its colon, the decision as a table row or
# under its own heading.

TABLE_CP = "| 问题 | 回答 |\n|------|------|\n| Q0 Skill 匹配 | 否 |\n| Q1 探索/研究 | {q1} |\n| Q2 代码修改 | 否（0 行） |\n| Q3 设计/架构 | 否 |\n| Q4 独立文件数 | 1 |\n| **决策** | {decision} |"


@case("post-l2-wording-number-code-size", "L2 decision (post-run)", (B + "decision-code-size",))
def _p1():  # type: ignore[no-untyped-def]
    from corpora.protocol.protocol_heldout_formats import Claude

    s = Claude("5a1b2c3d-p1")
    s.user("Add retries with backoff to every outbound HTTP call in src/clients/")
    s.assistant(
        "CHECKPOINT\nQ1 (Explore/research): No\nQ2 (Code >10 lines): Yes, ~40 lines\nQ3 (Design): No\nQ4 (Independent files): 1\nDecision: body executes"
    )
    s.read("src/clients/http.py", 80)
    s.assistant("Writing it now.")
    return s


@case("post-l2-table-decision-explore", "L2 decision (post-run)", (B + "decision-explore",))
def _p2():  # type: ignore[no-untyped-def]
    from corpora.protocol.protocol_heldout_formats import Claude

    s = Claude("6b2c3d4e-p2")
    s.user("调研一下哪些服务还在读旧的 REDIS_URL")
    s.assistant(TABLE_CP.format(q1="是", decision="本体执行"))
    s.call(
        "Grep",
        {"pattern": "REDIS_URL", "path": "."},
        "src/cache.py:3:REDIS_URL = os.environ['REDIS_URL']",
    )
    s.assistant("只有 cache.py。")
    return s


@case("post-ok-table-decision", "L1 compliant (post-run)")
def _p3():  # type: ignore[no-untyped-def]
    from corpora.protocol.protocol_heldout_avatars import _delegate
    from corpora.protocol.protocol_heldout_cases import EYE_OK, _eye_work

    return _delegate(
        "7c3d4e5f-p3",
        "调研一下哪些服务还在读旧的 REDIS_URL",
        TABLE_CP.format(q1="是", decision="召唤 @眼（后台）"),
        "eye",
        "搜索 REDIS_URL 的读取点",
        EYE_OK,
        work=_eye_work,
        background=True,
    )


@case("post-ok-heading-decision", "L1 compliant (post-run)")
def _p4():  # type: ignore[no-untyped-def]
    from corpora.protocol.protocol_heldout_avatars import _delegate
    from corpora.protocol.protocol_heldout_cases import EYE_OK, _eye_work

    cp = "## CHECKPOINT\n- Q0 Skill match: no\n- Q1 Explore/research: yes\n- Q2 Code change: no\n- Q3 Design: no\n- Q4 Independent files: 1\n\n### Decision\nDelegate to @eye, in the background."
    return _delegate(
        "8d4e5f6a-p4",
        "Which services still read REDIS_URL directly?",
        cp,
        "eye",
        "Find REDIS_URL reads",
        EYE_OK,
        work=_eye_work,
        background=True,
    )


@case("post-ok-body-camelcase-json", "contract compliant (post-run)")
def _p5():  # type: ignore[no-untyped-def]
    from corpora.protocol.protocol_heldout_avatars import CP_BODY_EN, _delegate
    from corpora.protocol.protocol_heldout_cases import _body_work
    from corpora.protocol.protocol_heldout_text import as_json

    out = as_json(
        {
            "filesChanged": ["src/orders/service.py"],
            "summary": "cancel_order guards paid orders.",
            "testsRun": True,
        }
    )
    return _delegate(
        "9e5f6a7b-p5",
        "Guard cancel_order against paid orders",
        CP_BODY_EN,
        "body",
        "Fix cancel_order",
        out,
        work=_body_work(14),
    )


@case("post-contract-camelcase-missing", "contract (post-run)", (A + "contract-missing",))
def _p6():  # type: ignore[no-untyped-def]
    from corpora.protocol.protocol_heldout_avatars import CP_BODY_EN, _delegate
    from corpora.protocol.protocol_heldout_cases import _body_work
    from corpora.protocol.protocol_heldout_text import as_json

    out = as_json({"filesChanged": ["src/orders/service.py"], "testsRun": True})
    return _delegate(
        "0f6a7b8c-p6",
        "Guard cancel_order against paid orders",
        CP_BODY_EN,
        "body",
        "Fix cancel_order",
        out,
        work=_body_work(14),
    )


@case("post-ok-agent-notification-then-verify", "L1 compliant (post-run)")
def _p7():  # type: ignore[no-untyped-def]
    from corpora.protocol.protocol_heldout_avatars import CP_EYE
    from corpora.protocol.protocol_heldout_cases import EYE_OK, _eye_work
    from corpora.protocol.protocol_heldout_formats import Claude

    s = Claude("1a7b8c9d-p7")
    s.user("legacy_pay 还有哪些调用方？")
    s.assistant(CP_EYE)
    a = s.spawn("eye", "搜索 legacy_pay 调用点", EYE_OK, work=_eye_work, background=True)
    s.assistant("眼分身在后台运行。")
    s.user(
        f'<agent-notification>\n<agent-id>{a.agent_id}</agent-id>\n<output-file>/tmp/claude/tasks/{a.agent_id}.output</output-file>\n<status>completed</status>\n<summary>Agent "搜索 legacy_pay 调用点" completed.</summary>\n</agent-notification>'
    )
    s.read(
        "src/orders/service.py", 30, text="核对一下眼分身给的位置（分身可能说谎，必须亲自验证）。"
    )
    s.assistant("确认：第 88 行。")
    return s
