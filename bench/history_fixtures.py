# ruff: noqa: E501  (records are written as one literal each, as the agents write them)
"""Writes tests/fixtures/history/: small synthetic look-alike sessions of Claude Code, Codex
CLI and Gemini CLI in their on-disk shapes (tests/fixtures/history/FORMATS.md says where each
shape comes from), with fake secrets planted one per stored field, and EXPECTED.yaml listing
every planted secret: file, line, field path, encoding and the rule id wukong-lint should
report.

    python bench/history_fixtures.py [--out tests/fixtures/history]

Every record is written by hand below; nothing is copied from a real session. The output is
deterministic (seeded ids, times and secrets): rerun only to change the fixtures, and commit
the result. The script checks itself: each planted secret stands on exactly the lines
EXPECTED.yaml gives for it, and on no other line of any file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import uuid
from dataclasses import dataclass, field
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from history_secrets import Secret, in_context, make

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "tests", "fixtures", "history")

RNG = random.Random("wukong-lint history fixtures v1")
SECRETS: dict[str, tuple[str, Secret]] = {}


def secret(sid: str, kind: str) -> Secret:
    """The planted secret `sid` (drawn once, in the order of first use)."""
    if sid not in SECRETS:
        SECRETS[sid] = (kind, make(kind, RNG))
    return SECRETS[sid][1]


def ctx(sid: str) -> str:
    kind, value = SECRETS[sid]
    return in_context(kind, value)


def uid() -> str:
    return str(uuid.UUID(int=RNG.getrandbits(128), version=4))


def hexid(n: int) -> str:
    return "".join(RNG.choice("0123456789abcdef") for _ in range(n))


def b62(n: int) -> str:
    return "".join(
        RNG.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789") for _ in range(n)
    )


def compact(record: Any) -> str:
    """JSON.stringify / serde_json: no spaces, non-ASCII as is."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


@dataclass
class Plant:
    sid: str
    fields: list[str]
    encoding: str  # plain | escaped | nested-json
    where: str  # the kind of stored field (FORMATS.md, "Field kinds")
    line: int = 0


@dataclass
class Fixture:
    rel: str  # path under the fixture folder
    agent: str
    fmt: str
    lines: list[str] = field(default_factory=list)
    plants: list[Plant] = field(default_factory=list)
    text: str | None = None  # a whole-document file (pretty JSON, plain text)

    def add(self, record: Any, *plants: Plant) -> None:
        self.lines.append(compact(record))
        for plant in plants:
            plant.line = len(self.lines)
            self.plants.append(plant)

    def document(self, text: str, *plants: Plant) -> None:
        """A file written whole: each plant's line is found in document order."""
        self.text = text
        rows = text.split("\n")
        start: dict[str, int] = {}
        for plant in plants:
            needle = SECRETS[plant.sid][1].needle
            n = start.get(plant.sid, 0)
            while needle not in rows[n]:
                n += 1
            plant.line = n + 1
            start[plant.sid] = n + 1
            self.plants.append(plant)

    def body(self) -> str:
        return self.text if self.text is not None else "\n".join(self.lines) + "\n"


def P(sid: str, *fields: str, enc: str = "plain", where: str) -> Plant:
    return Plant(sid, list(fields), enc, where)


# The records below are kept one literal each, the way the agents write them.
# fmt: off

# ---------------------------------------------------------------------------------------------
# Claude Code: ~/.claude/projects/<cwd slug>/<sessionId>.jsonl, <sessionId>/subagents/,
# <sessionId>/tool-results/

CWD = "/home/dev/acme-api"
SLUG = "-home-dev-acme-api"


def claude() -> list[Fixture]:
    sid_main = uid()
    version = "2.1.212"
    clock = iter(f"2026-08-27T09:{m:02d}:{s:02d}.{ms:03d}Z" for m in range(14, 60) for s in range(0, 60, 7) for ms in (112, 604))
    main = Fixture(f"claude/projects/{SLUG}/{sid_main}.jsonl", "claude-code", "claude-jsonl")
    state = {"parent": None}

    def env(kind: str, **extra: Any) -> dict[str, Any]:
        record = {"parentUuid": state["parent"], "isSidechain": False, "userType": "external",
                  "cwd": CWD, "sessionId": sid_main, "version": version, "gitBranch": "feat/billing-deploy",
                  "slug": "quiet-copper-lantern", "type": kind}  # fmt: skip
        record.update(extra)
        record["uuid"] = extra.get("uuid") or uid()
        record["timestamp"] = next(clock)
        if kind in ("attachment", "system"):  # in the chain; progress records hang off a call
            state["parent"] = record["uuid"]
        return record

    def user(content: Any, chain: bool = True, **extra: Any) -> dict[str, Any]:
        record = env("user", message={"role": "user", "content": content}, **extra)
        if chain:
            state["parent"] = record["uuid"]
        return record

    def assistant(blocks: list[dict[str, Any]], msg_id: str, chain: bool = True, **extra: Any) -> dict[str, Any]:
        message = {"model": "claude-opus-4-8", "id": msg_id, "type": "message", "role": "assistant",
                   "content": blocks, "stop_reason": None, "stop_sequence": None,
                   "usage": {"input_tokens": 6, "cache_creation_input_tokens": 1422, "cache_read_input_tokens": 38011,
                             "output_tokens": 311, "service_tier": "standard"}}  # fmt: skip
        record = env("assistant", message=message, requestId="req_011" + b62(21), **extra)
        if chain:
            state["parent"] = record["uuid"]
        return record

    def tool_use(name: str, tool_input: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        tid = "toolu_01" + b62(22)
        return tid, {"type": "tool_use", "id": tid, "name": name, "input": tool_input}

    def result(tid: str, content: Any, tool_use_result: Any, is_error: bool = False, **extra: Any) -> dict[str, Any]:
        block: dict[str, Any] = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        return user([block], toolUseResult=tool_use_result, sourceToolAssistantUUID=state["parent"], **extra)

    gh = secret("claude.github-pat", "github-pat")
    main.add({"type": "permission-mode", "permissionMode": "default", "sessionId": sid_main})
    main.add({"type": "queue-operation", "operation": "dequeue", "timestamp": next(clock), "sessionId": sid_main})
    hook_out = "direnv: loading ~/acme-api/.envrc\ndirenv: export +SENDGRID_API_KEY +SMOKE_BASE_URL\nSENDGRID_API_KEY=" + secret("claude.sendgrid", "sendgrid-api-key").value + "\n"
    main.add(env("attachment", attachment={"type": "hook_success", "hookName": "SessionStart:startup", "toolUseID": "SessionStart", "hookEvent": "SessionStart",
                                          "content": hook_out, "stdout": hook_out, "stderr": "", "exitCode": 0,
                                          "command": "direnv export bash >/dev/null; env | grep -E '^(SENDGRID|SMOKE)_'", "durationMs": 48}),
             P("claude.sendgrid", "attachment.content", "attachment.stdout", enc="escaped", where="hook-output"))
    main.add(user(f"The staging deploy fails with 401 since this morning. CI uses the token {gh.value} (I'll rotate it later) - can you find out why?"),
             P("claude.github-pat", "message.content", where="user-message"))
    main.add(env("attachment", attachment={"type": "hook_additional_context", "hookName": "UserPromptSubmit", "toolUseID": "UserPromptSubmit", "hookEvent": "UserPromptSubmit",
                                          "content": ["<repo-policy>main is protected; deploys go through the deploy.yml workflow</repo-policy>"]}))
    msg = "msg_01" + b62(22)
    main.add(assistant([{"type": "thinking", "thinking": "A 401 from the deploy step: either the token expired or the workflow reads a different variable. Check the staging env file first.", "signature": "Eo8CCkYICRgCKkD" + b62(60)}], msg))
    tid, call = tool_use("Bash", {"command": "cat config/staging.env", "description": "Show the staging environment file"})
    main.add(assistant([call], msg))
    stripe = secret("claude.stripe", "stripe-secret-key")
    env_lines = [f"SERVICE_{i:03d}_URL=https://svc{i:03d}.staging.internal:8443/v1" for i in range(60)]
    env_lines.insert(41, f"STRIPE_SECRET_KEY={stripe.value}")
    full = "# staging environment (generated by terraform)\nLOG_LEVEL=info\n" + "\n".join(env_lines) + "\n"
    persisted = f"/home/dev/.claude/projects/{SLUG}/{sid_main}/tool-results/{tid}.txt"
    preview = "\n".join(full.split("\n")[:12])
    main.add(result(tid, f"<persisted-output>\nOutput too large (58.3KB). Full output saved to: {persisted}\n\nPreview (first 2KB):\n{preview}\n...\n</persisted-output>",
                    {"stdout": full, "stderr": "", "interrupted": False, "isImage": False}),
             P("claude.stripe", "toolUseResult.stdout", enc="escaped", where="tool-result-metadata"))
    tool_results = Fixture(f"claude/projects/{SLUG}/{sid_main}/tool-results/{tid}.txt", "claude-code", "claude-tool-result-file")
    tool_results.document(full, P("claude.stripe", "(file text)", where="tool-results-file"))
    main.add(assistant([{"type": "text", "text": "The env file is fine for the deploy itself. Let me look for hardcoded AWS credentials, which the workflow would pick up before the role."}], "msg_01" + b62(22)))
    # Parallel calls: the Grep result is written before the record of its own call; each
    # result's parentUuid names the assistant record of its call (the chain is still right).
    msg = "msg_01" + b62(22)
    tid_read, call_read = tool_use("Read", {"file_path": f"{CWD}/config/settings.py"})
    a1 = assistant([call_read], msg)
    tid_grep, call_grep = tool_use("Grep", {"pattern": "AKIA|aws_access", "path": "config", "output_mode": "content", "-n": True})
    a2_uuid = uid()
    main.add(a1)
    aws = secret("claude.aws-id", "aws-access-key-id")
    grep_out = f'config/legacy.py:12:AWS_ACCESS_KEY_ID = "{aws.value}"'
    state["parent"] = a2_uuid
    r_grep = result(tid_grep, grep_out, {"mode": "content", "numFiles": 1, "filenames": [], "content": grep_out, "numLines": 1}, chain=False)
    main.add(r_grep, P("claude.aws-id", "message.content[0].content", "toolUseResult.content", enc="escaped", where="tool-output"))
    state["parent"] = a1["uuid"]
    main.add(assistant([call_grep], msg, uuid=a2_uuid, chain=False))
    anth = secret("claude.anthropic", "anthropic-api-key")
    settings = f'import os\n\nDEBUG = False\nALLOWED_HOSTS = ["staging.acme.dev"]\n# TODO move to the secret store\nANTHROPIC_API_KEY = "{anth.value}"\nSUMMARY_MODEL = "claude-haiku-4-5"\n'
    numbered = "\n".join(f"{n:>6}→{row}" for n, row in enumerate(settings.rstrip("\n").split("\n"), 1))
    state["parent"] = a1["uuid"]
    main.add(result(tid_read, numbered, {"type": "text", "file": {"filePath": f"{CWD}/config/settings.py", "content": settings, "numLines": 7, "startLine": 1, "totalLines": 7}}),
             P("claude.anthropic", "message.content[0].content", "toolUseResult.file.content", enc="escaped", where="tool-output"))
    main.add(assistant([{"type": "text", "text": f"`config/legacy.py` hardcodes the access key `{aws.value}`; boto3 takes it before the instance role, so the deploy signs with a revoked key. I'll replace it with the environment variable."}], "msg_01" + b62(22)),
             P("claude.aws-id", "message.content[0].text", where="assistant-text"))
    fg = secret("claude.github-fg", "github-fine-grained-pat")
    old_line = f'AWS_ACCESS_KEY_ID = "{aws.value}"'
    new_line = 'AWS_ACCESS_KEY_ID = os.environ["AWS_ACCESS_KEY_ID"]'
    tid, call = tool_use("Edit", {"file_path": f"{CWD}/config/legacy.py", "old_string": old_line, "new_string": new_line})
    main.add(assistant([call], "msg_01" + b62(22)), P("claude.aws-id", "message.content[0].input.old_string", enc="escaped", where="tool-input"))
    original = ("import os\n\n# Legacy settings kept for the v1 billing worker.\n# Mirror bot: https://x-access-token:" + fg.value
                + "@github.com/acme/billing-mirror.git\nREGION = \"eu-west-1\"\nBUCKET = \"acme-billing-exports\"\n\n\n\n\n"
                + old_line + "\nAWS_DEFAULT_REGION = REGION\n")  # fmt: skip
    main.add(result(tid, f"The file {CWD}/config/legacy.py has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n    10→\n    11→\n    12→{new_line}\n    13→AWS_DEFAULT_REGION = REGION",
                    {"filePath": f"{CWD}/config/legacy.py", "oldString": old_line, "newString": new_line, "originalFile": original,
                     "structuredPatch": [{"oldStart": 10, "oldLines": 4, "newStart": 10, "newLines": 4, "lines": ["", "", "-" + old_line, "+" + new_line, " AWS_DEFAULT_REGION = REGION"]}],
                     "userModified": False, "replaceAll": False}),
             P("claude.aws-id", "toolUseResult.oldString", "toolUseResult.originalFile", "toolUseResult.structuredPatch[0].lines[2]", enc="escaped", where="tool-result-metadata"),
             P("claude.github-fg", "toolUseResult.originalFile", enc="escaped", where="tool-result-metadata"))
    tid, call = tool_use("Bash", {"command": "psql \"$DATABASE_URL\" -c 'select 1'", "description": "Check the staging database login"})
    main.add(assistant([call], "msg_01" + b62(22)))
    db = secret("claude.db", "connection-string")
    main.add(result(tid, "Exit code 2", f'Error: Exit code 2\npsql: error: connection to server at "db.staging.internal" (10.4.2.17), port 5432 failed: FATAL:  password authentication failed for user "billing"\n(DATABASE_URL={db.value})', is_error=True),
             P("claude.db", "toolUseResult", enc="escaped", where="tool-result-metadata"))
    npm = secret("claude.npm", "npm-access-token")
    prompt = f"List every credential the deploy workflow and scripts/ read, and where each is defined. The npm publish token is {npm.value}; do not print it again."
    tid_agent, call = tool_use("Agent", {"description": "Audit CI credentials", "prompt": prompt, "subagent_type": "security-reviewer"})
    main.add(assistant([call], "msg_01" + b62(22)), P("claude.npm", "message.content[0].input.prompt", where="tool-input"))
    slack = secret("claude.slack", "slack-bot-token")
    agent_id = "a" + hexid(16)
    report = f"Three credentials are read by CI:\n1. NPM_TOKEN from repository secrets (ok).\n2. AWS keys from config/legacy.py (fixed).\n3. scripts/notify.sh hardcodes SLACK_TOKEN={slack.value} - rotate it.\n\nagentId: {agent_id} (use SendMessage with to: '{agent_id}' to continue this agent)"
    main.add(result(tid_agent, [{"type": "text", "text": report}],
                    {"status": "completed", "prompt": prompt, "agentId": agent_id, "agentType": "security-reviewer",
                     "content": [{"type": "text", "text": report}], "totalDurationMs": 48211, "totalTokens": 30117, "totalToolUseCount": 4,
                     "usage": {"input_tokens": 9, "output_tokens": 802, "cache_read_input_tokens": 27000}}),
             P("claude.npm", "toolUseResult.prompt", where="tool-result-metadata"),
             P("claude.slack", "message.content[0].content[0].text", "toolUseResult.content[0].text", enc="escaped", where="tool-output"))
    maps = secret("claude.gcp", "gcp-api-key")
    main.add(user("<bash-input>echo $MAPS_API_KEY</bash-input>"))
    main.add(user(f"<bash-stdout>{maps.value}</bash-stdout><bash-stderr></bash-stderr>"), P("claude.gcp", "message.content", where="user-message"))
    tid, call = tool_use("Bash", {"command": "./scripts/release.sh --dry-run", "description": "Dry-run the release", "timeout": 600000})
    main.add(assistant([call], "msg_01" + b62(22)))
    glpat = secret("claude.gitlab", "gitlab-pat")
    progress_text = f"+ git remote add mirror https://oauth2:{glpat.value}@gitlab.acme.dev/acme/api.git\n+ docker buildx build --platform linux/amd64 .\n#1 [internal] load build definition"
    main.add(env("progress", data={"type": "bash_progress", "output": progress_text, "fullOutput": progress_text, "elapsedTimeSeconds": 3, "totalLines": 3},
                 toolUseID="bash-progress-0", parentToolUseID=tid),
             P("claude.gitlab", "data.output", "data.fullOutput", enc="escaped", where="progress"))
    main.add(result(tid, "#14 exporting to image\n#14 DONE 4.1s\nrelease dry-run OK (nothing pushed)", {"stdout": "#14 exporting to image\n#14 DONE 4.1s\nrelease dry-run OK (nothing pushed)", "stderr": "", "interrupted": False, "isImage": False}))
    basic = secret("claude.basic", "url-basic-auth")
    main.add(env("system", subtype="stop_hook_summary", hookCount=1, hookInfos=[{"command": "~/.claude/hooks/post-run.sh"}],
                 hookErrors=[f"post-run.sh: curl: (22) The requested URL returned error: 403 for {basic.value}"], preventedContinuation=False, stopReason="", hasOutput=True, level="suggestion", toolUseID=tid),
             P("claude.basic", "hookErrors[0]", where="system-record"))
    boundary = env("system", subtype="compact_boundary", content="Conversation compacted", isMeta=False, level="info",
                   compactMetadata={"trigger": "auto", "preTokens": 167012, "postTokens": 9120, "durationMs": 41877},
                   logicalParentUuid=state["parent"])
    boundary["parentUuid"] = None
    main.add(boundary)
    state["parent"] = boundary["uuid"]
    main.add(user("This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n"
                  f"Analysis:\n1. The user reported a 401 in the staging deploy and shared the CI token {gh.value}.\n2. config/legacy.py hardcoded an AWS key; replaced by the environment variable.\n"
                  "3. A security-reviewer sub-agent found a hardcoded Slack token in scripts/notify.sh.\nPending: rotate the leaked credentials.",
                  isCompactSummary=True, isVisibleInTranscriptOnly=True),
             P("claude.github-pat", "message.content", where="compaction"))
    oai = secret("claude.openai", "openai-project-key")
    incident = f"2026-08-27 06:12:03 ERROR summarizer: 401 from api.openai.com (key=sk-proj-...{oai.value[-6:]})\n2026-08-27 06:12:04 DEBUG env OPENAI_API_KEY={oai.value}\n"
    main.add(user([{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="}},
                   {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": incident}, "title": "incident-0827.log"},
                   {"type": "text", "text": "Here is the summarizer log from the incident; also screenshot of the dashboard."}]),
             P("claude.openai", "message.content[1].source.data", enc="escaped", where="document"))
    rk = secret("claude.stripe-rk", "stripe-restricted-key")
    tid, call = tool_use("mcp__vault__read_secret", {"path": "kv/billing/stripe", "version": 3})
    main.add(assistant([call], "msg_01" + b62(22)))
    payload = compact({"data": {"data": {"restricted_key": rk.value, "account": "acct_1Nq8"}, "metadata": {"version": 3}}})
    main.add(result(tid, [{"type": "text", "text": payload}], [{"type": "text", "text": payload}]),
             P("claude.stripe-rk", "message.content[0].content[0].text", "toolUseResult[0].text", enc="nested-json", where="tool-output"))
    pem = secret("claude.pem", "private-key")
    tid, call = tool_use("Write", {"file_path": f"{CWD}/deploy/keys/staging_ed25519", "content": pem.value})
    main.add(assistant([call], "msg_01" + b62(22)), P("claude.pem", "message.content[0].input.content", enc="escaped", where="tool-input"))
    main.add(result(tid, f"File created successfully at: {CWD}/deploy/keys/staging_ed25519",
                    {"type": "create", "filePath": f"{CWD}/deploy/keys/staging_ed25519", "content": pem.value, "structuredPatch": [], "originalFile": None}),
             P("claude.pem", "toolUseResult.content", enc="escaped", where="tool-result-metadata"))
    main.add({"type": "file-history-snapshot", "messageId": state["parent"], "snapshot": {"messageId": state["parent"], "trackedFileBackups": {"config/legacy.py": {"backupFileName": hexid(16) + "@v2", "version": 2, "backupTime": "2026-08-27T09:31:04.210Z"}}, "timestamp": "2026-08-27T09:31:04.210Z"}, "isSnapshotUpdate": True})
    main.add({"type": "summary", "summary": f"Staging deploy 401: revoked AWS key; Slack token {slack.value} leaked in scripts/notify.sh", "leafUuid": state["parent"]},
             P("claude.slack", "summary", where="summary"))
    main.add({"type": "ai-title", "aiTitle": "Fix staging deploy 401", "sessionId": sid_main})
    main.add({"type": "last-prompt", "lastPrompt": "Here is the summarizer log from the incident; also screenshot of the dashboard.", "sessionId": sid_main})

    # The sub-agent's own transcript and its sidecar.
    sub = Fixture(f"claude/projects/{SLUG}/{sid_main}/subagents/agent-{agent_id}.jsonl", "claude-code", "claude-subagent-jsonl")
    sub_state = {"parent": None}

    def senv(kind: str, **extra: Any) -> dict[str, Any]:
        record = {"parentUuid": sub_state["parent"], "isSidechain": True, "userType": "external", "cwd": CWD,
                  "sessionId": sid_main, "version": version, "gitBranch": "feat/billing-deploy", "agentId": agent_id, "type": kind}  # fmt: skip
        record.update(extra)
        record["uuid"] = uid()
        record["timestamp"] = next(clock)
        sub_state["parent"] = record["uuid"]
        return record

    sub.add(senv("user", message={"role": "user", "content": prompt}), P("claude.npm", "message.content", where="user-message"))
    s_tid = "toolu_01" + b62(22)
    sub.add(senv("assistant", message={"model": "claude-sonnet-5", "id": "msg_01" + b62(22), "type": "message", "role": "assistant",
                                       "content": [{"type": "tool_use", "id": s_tid, "name": "Bash", "input": {"command": "grep -rn 'xox[bp]-' scripts/ .github/", "description": "Find Slack tokens"}}],
                                       "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 3, "output_tokens": 88}}))
    grep_hit = f"scripts/notify.sh:4:SLACK_TOKEN={slack.value}"
    sub.add(senv("user", message={"role": "user", "content": [{"tool_use_id": s_tid, "type": "tool_result", "content": grep_hit, "is_error": False}]},
                 toolUseResult={"stdout": grep_hit, "stderr": "", "interrupted": False, "isImage": False}),
            P("claude.slack", "message.content[0].content", "toolUseResult.stdout", where="tool-output"))
    r_tid = "toolu_01" + b62(22)
    sub.add(senv("assistant", message={"model": "claude-sonnet-5", "id": "msg_01" + b62(22), "type": "message", "role": "assistant",
                                       "content": [{"type": "tool_use", "id": r_tid, "name": "Read", "input": {"file_path": f"{CWD}/.github/workflows/deploy.yml", "limit": 40}}],
                                       "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 3, "output_tokens": 61}}))
    wf = "name: deploy\non:\n  push:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n"
    sub.add(senv("user", message={"role": "user", "content": [{"tool_use_id": r_tid, "type": "tool_result", "content": "\n".join(f"{n:>6}→{row}" for n, row in enumerate(wf.rstrip().split("\n"), 1))}]},
                 toolUseResult={"type": "text", "file": {"filePath": f"{CWD}/.github/workflows/deploy.yml", "content": wf, "numLines": 9, "startLine": 1, "totalLines": 9}}))
    sub.add(senv("assistant", message={"model": "claude-sonnet-5", "id": "msg_01" + b62(22), "type": "message", "role": "assistant",
                                       "content": [{"type": "text", "text": report}], "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 3, "output_tokens": 240}}),
            P("claude.slack", "message.content[0].text", enc="escaped", where="assistant-text"))
    meta = Fixture(f"claude/projects/{SLUG}/{sid_main}/subagents/agent-{agent_id}.meta.json", "claude-code", "claude-subagent-meta")
    meta.document(compact({"agentType": "security-reviewer", "description": "Audit CI credentials", "toolUseId": tid_agent, "spawnDepth": 1, "model": "claude-sonnet-5"}) + "\n")
    return [main, sub, meta, tool_results]


# ---------------------------------------------------------------------------------------------
# Codex CLI: ~/.codex/sessions/YYYY/MM/DD/rollout-<local time>-<thread id>.jsonl


def codex_old() -> Fixture:
    thread = uid()
    out = Fixture(f"codex/sessions/2025/10/14/rollout-2025-10-14T09-12-03-{thread}.jsonl", "codex", "codex-rollout-response-item")
    times = iter(f"2025-10-14T07:12:{s:02d}.{ms:03d}Z" for s in range(3, 60) for ms in (118, 527, 904))

    def line(kind: str, payload: dict[str, Any], *plants: Plant) -> None:
        out.add({"timestamp": next(times), "type": kind, "payload": payload}, *plants)

    line("session_meta", {"id": thread, "timestamp": "2025-10-14T07:12:03.102Z", "cwd": CWD, "originator": "codex_cli_rs", "cli_version": "0.46.0",
                          "instructions": None, "source": "cli", "model_provider": "openai",
                          "git": {"commit_hash": hexid(40), "branch": "main", "repository_url": "git@github.com:acme/api.git"}})
    line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"<environment_context>\n  <cwd>{CWD}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>zsh</shell>\n</environment_context>"}]})
    line("turn_context", {"cwd": CWD, "approval_policy": "on-request", "sandbox_policy": {"mode": "workspace-write", "network_access": False, "exclude_tmpdir_env_var": False, "exclude_slash_tmp": False},
                          "model": "gpt-5-codex", "effort": "medium", "summary": "auto"})
    gl = secret("codex1.gitlab", "gitlab-pat")
    ask = f"`make deploy` says 'HTTP Basic: Access denied'. The token in deploy/config.py is {gl.value}, is it still used?"
    line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": ask}]}, P("codex1.gitlab", "payload.content[0].text", where="user-message"))
    line("event_msg", {"type": "user_message", "message": ask, "images": []}, P("codex1.gitlab", "payload.message", where="user-message"))
    line("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": "**Checking deploy credentials**"}], "content": None, "encrypted_content": "gAAAAABo" + b62(120)})
    call = "call_" + b62(24)
    line("response_item", {"type": "function_call", "name": "shell", "arguments": compact({"command": ["bash", "-lc", "cat ~/.aws/credentials"], "workdir": CWD, "timeout_ms": 120000}), "call_id": call})
    aws_id = secret("codex1.aws-id", "aws-access-key-id")
    secret("codex1.aws-secret", "aws-secret-access-key")
    creds = f"[default]\naws_access_key_id = {aws_id.value}\n{ctx('codex1.aws-secret')}\nregion = eu-west-1\n"
    line("response_item", {"type": "function_call_output", "call_id": call, "output": compact({"output": creds, "metadata": {"exit_code": 0, "duration_seconds": 0.0}})},
         P("codex1.aws-id", "payload.output<json>.output", enc="nested-json", where="tool-output"), P("codex1.aws-secret", "payload.output<json>.output", enc="nested-json", where="tool-output"))
    line("event_msg", {"type": "exec_command_end", "call_id": call, "stdout": creds, "stderr": "", "aggregated_output": creds, "exit_code": 0,
                       "duration": {"secs": 0, "nanos": 31882114}, "formatted_output": creds},
         P("codex1.aws-id", "payload.stdout", "payload.aggregated_output", "payload.formatted_output", enc="escaped", where="tool-result-metadata"),
         P("codex1.aws-secret", "payload.stdout", "payload.aggregated_output", "payload.formatted_output", enc="escaped", where="tool-result-metadata"))
    call = "call_" + b62(24)
    patch = f'*** Begin Patch\n*** Update File: deploy/config.py\n@@\n-GITLAB_TOKEN = "{gl.value}"\n+GITLAB_TOKEN = os.environ["GITLAB_TOKEN"]\n*** End Patch\n'
    line("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": call, "name": "apply_patch", "input": patch}, P("codex1.gitlab", "payload.input", enc="escaped", where="tool-input"))
    line("event_msg", {"type": "patch_apply_end", "call_id": call, "stdout": "Success. Updated the following files:\nM deploy/config.py\n", "stderr": "", "success": True,
                       "changes": {f"{CWD}/deploy/config.py": {"update": {"unified_diff": f'@@ -3 +3 @@\n-GITLAB_TOKEN = "{gl.value}"\n+GITLAB_TOKEN = os.environ["GITLAB_TOKEN"]\n', "move_path": None}}}},
         P("codex1.gitlab", "payload.changes.*.update.unified_diff", enc="escaped", where="tool-result-metadata"))
    line("response_item", {"type": "custom_tool_call_output", "call_id": call, "output": compact({"output": "Success. Updated the following files:\nM deploy/config.py\n", "metadata": {"exit_code": 0, "duration_seconds": 0.0}})})
    gh = secret("codex1.github-pat", "github-pat")
    call = "call_" + b62(24)
    line("response_item", {"type": "function_call", "name": "shell", "arguments": compact({"command": ["bash", "-lc", f"curl -s -H 'Authorization: token {gh.value}' https://api.github.com/user | jq .login"], "workdir": CWD}), "call_id": call},
         P("codex1.github-pat", "payload.arguments<json>.command[2]", enc="nested-json", where="tool-input"))
    line("response_item", {"type": "function_call_output", "call_id": call, "output": compact({"output": '"acme-deploy-bot"\n', "metadata": {"exit_code": 0, "duration_seconds": 0.4}})})
    stripe = secret("codex1.stripe", "stripe-secret-key")
    call = "call_" + b62(24)
    vault_text = compact({"stripe_secret_key": stripe.value, "lease_duration": 2764800})
    line("response_item", {"type": "function_call", "name": "vault__read_secret", "arguments": compact({"path": "kv/billing/stripe"}), "call_id": call})
    line("event_msg", {"type": "mcp_tool_call_end", "call_id": call, "invocation": {"server": "vault", "tool": "read_secret", "arguments": {"path": "kv/billing/stripe"}},
                       "duration": {"secs": 0, "nanos": 220118004}, "result": {"Ok": {"content": [{"type": "text", "text": vault_text}], "isError": False}}},
         P("codex1.stripe", "payload.result.Ok.content[0].text<json>.stripe_secret_key", enc="nested-json", where="tool-result-metadata"))
    line("response_item", {"type": "function_call_output", "call_id": call, "output": compact([{"type": "text", "text": vault_text}])},
         P("codex1.stripe", "payload.output<json>[0].text<json>.stripe_secret_key", enc="nested-json", where="tool-output"))
    answer = f"`deploy/config.py` hardcoded the GitLab token `{gl.value}`; it now reads GITLAB_TOKEN from the environment. Revoke that token."
    line("event_msg", {"type": "agent_message", "message": answer}, P("codex1.gitlab", "payload.message", enc="escaped", where="assistant-text"))
    line("response_item", {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": answer}]}, P("codex1.gitlab", "payload.content[0].text", enc="escaped", where="assistant-text"))
    line("event_msg", {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 48211, "cached_input_tokens": 40960, "output_tokens": 1822, "reasoning_output_tokens": 960, "total_tokens": 50033},
                                                       "last_token_usage": {"input_tokens": 12011, "cached_input_tokens": 11008, "output_tokens": 402, "reasoning_output_tokens": 192, "total_tokens": 12413},
                                                       "model_context_window": 272000},
                       "rate_limits": {"primary": {"used_percent": 12.0, "window_minutes": 300, "resets_in_seconds": 8123}, "secondary": {"used_percent": 3.0, "window_minutes": 10080, "resets_in_seconds": 511000}}})
    line("compacted", {"message": f"Summary so far: the user asked why `make deploy` fails; the GitLab token {gl.value} was hardcoded in deploy/config.py and has been moved to GITLAB_TOKEN."},
         P("codex1.gitlab", "payload.message", where="compaction"))
    line("event_msg", {"type": "error", "message": "stream disconnected before completion: error sending request for url (https://chatgpt.com/backend-api/codex/responses)"})
    line("event_msg", {"type": "turn_aborted", "reason": "interrupted"})
    return out


def codex_new() -> list[Fixture]:
    thread = uid()
    out = Fixture(f"codex/sessions/2026/08/30/rollout-2026-08-30T16-41-27-{thread}.jsonl", "codex", "codex-rollout-0.149")
    times = iter(f"2026-08-30T14:41:{s:02d}.{ms:03d}Z" for s in range(27, 60) for ms in (40, 377, 810))
    ordinal = iter(range(100000))
    turn = uid()

    def line(kind: str, payload: dict[str, Any], *plants: Plant, **extra: Any) -> None:
        record = {"timestamp": next(times), "ordinal": next(ordinal), "type": kind, "payload": payload}
        record.update(extra)
        out.add(record, *plants)

    line("session_meta", {"id": thread, "session_id": thread, "timestamp": "2026-08-30T14:41:27.004Z", "cwd": CWD, "originator": "codex_cli_rs", "cli_version": "0.149.0",
                          "source": "cli", "model_provider": "openai", "history_mode": "paginated", "context_window": 400000,
                          "base_instructions": {"text": "You are Codex, a coding agent running in the Codex CLI."},
                          "git": {"commit_hash": hexid(40), "branch": "feat/smoke", "repository_url": "git@github.com:acme/api.git"}})
    sg = secret("codex2.sendgrid", "sendgrid-api-key")
    agents_md = f"# AGENTS.md\n\n- Run `make smoke` before pushing.\n- The smoke test mails through SendGrid with the sandbox key {sg.value} (staging only).\n"
    line("world_state", {"full": True, "state": {"agents_md": {f"{CWD}/AGENTS.md": agents_md},
                                                  "skills": [{"name": "release-notes", "path": "~/.codex/skills/release-notes/SKILL.md"}],
                                                  "permissions": {"approval_policy": "on-request", "sandbox": "workspace-write", "network": "restricted"}}},
         P("codex2.sendgrid", "payload.state.agents_md.*", enc="escaped", where="context-state"))
    line("turn_context", {"turn_id": turn, "cwd": CWD, "workspace_roots": [CWD], "current_date": "2026-08-30", "timezone": "Europe/Berlin",
                          "approval_policy": "on-request", "sandbox_policy": {"type": "workspace-write", "writable_roots": [], "network_access": False},
                          "model": "gpt-5.6-codex", "effort": "high", "summary": "auto", "comp_hash": hexid(16), "multi_agent_version": "v2"})
    line("event_msg", {"type": "task_started", "turn_id": turn, "started_at": 1788100887, "model_context_window": 400000, "collaboration_mode_kind": "default"})
    line("response_item", {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "<permissions instructions>Filesystem sandboxing: workspace-write. Network: restricted.</permissions instructions>"}]})
    an = secret("codex2.anthropic", "anthropic-api-key")
    ask = f"Run the smoke test. If the summarizer step fails, use the backup key {an.value} for this run only."
    line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": ask}]}, P("codex2.anthropic", "payload.content[0].text", where="user-message"))
    line("event_msg", {"type": "user_message", "message": ask, "images": [], "local_images": [], "text_elements": []}, P("codex2.anthropic", "payload.message", where="user-message"))
    line("response_item", {"type": "reasoning", "summary": [], "content": None, "encrypted_content": "gAAAAABp" + b62(160)})
    call = "call_" + b62(24)
    line("response_item", {"type": "function_call", "name": "exec_command", "arguments": compact({"cmd": "cat .env.smoke", "workdir": CWD, "yield_time_ms": 10000, "max_output_tokens": 10000}), "call_id": call},
         metadata={"turn_id": turn})
    xoxb = secret("codex2.slack", "slack-bot-token")
    env_smoke = f"SMOKE_BASE_URL=https://staging.acme.dev\nSLACK_BOT_TOKEN={xoxb.value}\nSMOKE_TIMEOUT=90\n"
    line("response_item", {"type": "function_call_output", "call_id": call, "output": f"Chunk ID: {hexid(6)}\nWall time: 0.0312 seconds\nProcess exited with code 0\nOriginal token count: 41\nOutput:\n{env_smoke}"},
         P("codex2.slack", "payload.output", enc="escaped", where="tool-output"), metadata={"turn_id": turn})
    line("event_msg", {"type": "item_completed", "thread_id": thread, "turn_id": turn,
                       "item": {"type": "CommandExecution", "id": call, "command": ["/bin/zsh", "-lc", "cat .env.smoke"], "cwd": CWD, "source": "unified_exec_startup",
                                "process_id": None, "stdout": env_smoke, "stderr": "", "aggregated_output": env_smoke, "exit_code": 0},
                       "started_at_ms": 1788100891044, "completed_at_ms": 1788100891075},
         P("codex2.slack", "payload.item.stdout", "payload.item.aggregated_output", enc="escaped", where="tool-result-metadata"))
    sk = secret("codex2.stripe", "stripe-secret-key")
    script = f'const r = await tools.exec_command({{cmd: "curl -sf https://api.stripe.com/v1/balance -u {sk.value}:", yield_time_ms: 5000}});\ntext(r.output);\n'
    call = "call_" + b62(24)
    line("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": call, "name": "exec", "input": script},
         P("codex2.stripe", "payload.input", enc="escaped", where="tool-input"), metadata={"turn_id": turn})
    line("response_item", {"type": "custom_tool_call_output", "call_id": call, "output": "Script running with cell ID 3. Call wait to continue."}, metadata={"turn_id": turn})
    call = "call_" + b62(24)
    line("response_item", {"type": "function_call", "name": "wait", "arguments": compact({"cell_id": "3", "yield_time_ms": 10000}), "call_id": call}, metadata={"turn_id": turn})
    wh = secret("codex2.whsec", "stripe-webhook-secret")
    balance = compact({"object": "balance", "livemode": True, "pending": [{"amount": 120044, "currency": "eur"}], "webhook_signing_secret": wh.value})
    line("response_item", {"type": "function_call_output", "call_id": call, "output": [{"type": "input_text", "text": f"Script completed (cell 3)\n{balance}\n"}]},
         P("codex2.whsec", "payload.output[0].text<json>.webhook_signing_secret", enc="nested-json", where="tool-output"), metadata={"turn_id": turn})
    akia = secret("codex2.aws-id", "aws-access-key-id")
    note = f"Review the smoke diff. Note: the old deploy key {akia.value} is still in git history (commit 4e1f2a9)."
    line("inter_agent_communication", {"author": "/root", "recipient": "/root/reviewer", "content": [{"type": "input_text", "text": note}], "trigger_turn": True},
         P("codex2.aws-id", "payload.content[0].text", where="inter-agent"))
    line("inter_agent_communication_metadata", {"trigger_turn": True})
    line("event_msg", {"type": "sub_agent_activity", "event_id": call, "occurred_at_ms": 1788100903001, "agent_thread_id": uid(), "agent_path": "/root/reviewer", "kind": "started"})
    line("compacted", {"message": "", "window_id": uid(),
                       "replacement_history": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": ask}]},
                                               {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Smoke test green after using the backup key for the summarizer."}]}]},
         P("codex2.anthropic", "payload.replacement_history[0].content[0].text", where="compaction"))
    line("world_state", {"full": False, "state": {"permissions": {"network": "enabled"}}})
    line("token_usage_record", {"turn_id": turn, "response_id": "resp_" + hexid(24),
                                "usage": {"input_tokens": 20114, "cached_input_tokens": 18176, "output_tokens": 733, "reasoning_output_tokens": 512, "total_tokens": 20847},
                                "turn_token_usage": {"input_tokens": 40228, "output_tokens": 1410, "total_tokens": 41638},
                                "thread_token_usage": {"input_tokens": 40228, "output_tokens": 1410, "total_tokens": 41638}})
    line("event_msg", {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 40228, "cached_input_tokens": 36352, "output_tokens": 1410, "reasoning_output_tokens": 1024, "total_tokens": 41638},
                                                       "last_token_usage": {"input_tokens": 20114, "cached_input_tokens": 18176, "output_tokens": 733, "reasoning_output_tokens": 512, "total_tokens": 20847},
                                                       "model_context_window": 400000}, "rate_limits": None})
    final = f"Smoke test passed. The Slack bot token {xoxb.value} was printed by `cat .env.smoke`; rotate it."
    line("response_item", {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": final}]},
         P("codex2.slack", "payload.content[0].text", where="assistant-text"), metadata={"turn_id": turn})
    line("event_msg", {"type": "agent_message", "message": final, "phase": "final_answer"}, P("codex2.slack", "payload.message", where="assistant-text"))
    line("event_msg", {"type": "task_complete", "turn_id": turn, "last_agent_message": final, "started_at": 1788100887, "completed_at": 1788100921, "duration_ms": 34112},
         P("codex2.slack", "payload.last_agent_message", where="assistant-text"))
    return [out]


# ---------------------------------------------------------------------------------------------
# Gemini CLI: ~/.gemini/tmp/<project id>/chats/session-<time>-<id8>.json (before 0.39) or
# .jsonl (0.39 on), sub-agents in chats/<parent session id>/, logs.json, checkpoint-<tag>.json;
# and the `--output-format stream-json` events of a headless run.

GEMINI_PROJECT = "acme-api"  # the short id (slug) of ~/.gemini/projects.json, 0.29 on
PROJECT_HASH = hashlib.sha256(CWD.encode()).hexdigest()


def gemini() -> list[Fixture]:
    sid = uid()
    chats = f"gemini/tmp/{GEMINI_PROJECT}/chats"
    legacy = Fixture(f"{chats}/session-2026-03-02T10-15-{sid[:8]}.json", "gemini", "gemini-session-json")
    gcp = secret("gemini1.gcp", "gcp-api-key")
    db = secret("gemini1.db", "connection-string")
    oai = secret("gemini1.openai", "openai-project-key")
    ask = f"The geocoder returns REQUEST_DENIED. The Maps key on staging is {gcp.value} - check the env and settings.py."
    shell_id = f"run_shell_command-1772446511204-{hexid(12)}"
    env_text = f"DATABASE_URL={db.value}\nGEOCODER=google\n"
    old = f'OPENAI_API_KEY = "{oai.value}"'
    new = 'OPENAI_API_KEY = os.environ["OPENAI_API_KEY"]'
    original = f"import os\n\nGEOCODER = \"google\"\n{old}\n"
    doc = {
        "sessionId": sid, "projectHash": PROJECT_HASH, "startTime": "2026-03-02T10:15:09.381Z", "lastUpdated": "2026-03-02T10:19:44.902Z",
        "messages": [
            {"id": uid(), "timestamp": "2026-03-02T10:15:09.381Z", "type": "user", "content": [{"text": ask}]},
            {"id": uid(), "timestamp": "2026-03-02T10:15:14.007Z", "type": "gemini", "content": "",
             "thoughts": [{"subject": "Checking the Maps key", "description": "REQUEST_DENIED usually means the key is restricted to other referrers; read the env first.", "timestamp": "2026-03-02T10:15:12.950Z"}],
             "tokens": {"input": 8102, "output": 61, "cached": 0, "thoughts": 212, "tool": 0, "total": 8375}, "model": "gemini-2.5-pro",
             "toolCalls": [
                 {"id": shell_id, "name": "run_shell_command", "args": {"command": "cat .env", "description": "Show the environment file"},
                  "result": [{"functionResponse": {"id": shell_id, "name": "run_shell_command", "response": {"output": f"Command: cat .env\nDirectory: (root)\nOutput: {env_text}Error: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 48211"}}}],
                  "status": "success", "timestamp": "2026-03-02T10:15:16.220Z", "resultDisplay": env_text, "displayName": "Shell", "description": "Show the environment file", "renderOutputAsMarkdown": False},
                 {"id": f"replace-1772446530118-{hexid(12)}", "name": "replace", "args": {"file_path": f"{CWD}/settings.py", "old_string": old, "new_string": new, "instruction": "Read the OpenAI key from the environment."},
                  "result": [{"functionResponse": {"id": "replace-1", "name": "replace", "response": {"output": f"Successfully modified file: {CWD}/settings.py (1 replacements)."}}}],
                  "status": "success", "timestamp": "2026-03-02T10:16:02.448Z",
                  "resultDisplay": {"fileDiff": f"Index: settings.py\n===================================================================\n--- settings.py\tCurrent\n+++ settings.py\tProposed\n@@ -3,2 +3,2 @@\n GEOCODER = \"google\"\n-{old}\n+{new}\n",
                                    "fileName": "settings.py", "filePath": f"{CWD}/settings.py", "originalContent": original, "newContent": original.replace(old, new),
                                    "diffStat": {"model_added_lines": 1, "model_removed_lines": 1, "model_added_chars": 45, "model_removed_chars": 182, "user_added_lines": 0, "user_removed_lines": 0, "user_added_chars": 0, "user_removed_chars": 0},
                                    "isNewFile": False},
                  "displayName": "Edit", "description": "settings.py: OPENAI_API_KEY = ... => OPENAI_API_KEY = ...", "renderOutputAsMarkdown": False},
             ]},
            {"id": uid(), "timestamp": "2026-03-02T10:16:30.510Z", "type": "error", "content": f"[API Error: geocode request https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={gcp.value} returned 403]"},
            {"id": uid(), "timestamp": "2026-03-02T10:19:44.902Z", "type": "gemini", "content": f"settings.py no longer contains the OpenAI key `{oai.value}`; it is read from OPENAI_API_KEY. The database password in .env was printed above, rotate it too.",
             "thoughts": [], "tokens": {"input": 9931, "output": 88, "cached": 8012, "thoughts": 0, "tool": 0, "total": 10019}, "model": "gemini-2.5-pro"},
        ],
        "summary": "Fix geocoder key; move OpenAI key to env",
    }  # fmt: skip
    legacy.document(json.dumps(doc, ensure_ascii=False, indent=2),
                    P("gemini1.gcp", "messages[0].content[0].text", where="user-message"),
                    P("gemini1.db", "messages[1].toolCalls[0].result[0].functionResponse.response.output", enc="escaped", where="tool-output"),
                    P("gemini1.db", "messages[1].toolCalls[0].resultDisplay", enc="escaped", where="tool-result-metadata"),
                    P("gemini1.openai", "messages[1].toolCalls[1].args.old_string", enc="escaped", where="tool-input"),
                    P("gemini1.openai", "messages[1].toolCalls[1].resultDisplay.fileDiff", enc="escaped", where="tool-result-metadata"),
                    P("gemini1.openai", "messages[1].toolCalls[1].resultDisplay.originalContent", enc="escaped", where="tool-result-metadata"),
                    P("gemini1.gcp", "messages[2].content", where="system-record"),
                    P("gemini1.openai", "messages[3].content", where="assistant-text"))
    logs = Fixture(f"gemini/tmp/{GEMINI_PROJECT}/logs.json", "gemini", "gemini-logs-json")
    logs.document(json.dumps([{"sessionId": sid, "messageId": 0, "type": "user", "message": ask, "timestamp": "2026-03-02T10:15:09.377Z"},
                              {"sessionId": sid, "messageId": 1, "type": "user", "message": "/chat save geocoder", "timestamp": "2026-03-02T10:20:01.015Z"}], ensure_ascii=False, indent=2),
                  P("gemini1.gcp", "[0].message", where="user-message"))
    checkpoint = Fixture(f"gemini/tmp/{GEMINI_PROJECT}/checkpoint-geocoder.json", "gemini", "gemini-checkpoint-json")
    checkpoint.document(json.dumps({"history": [
        {"role": "user", "parts": [{"text": ask}]},
        {"role": "model", "parts": [{"functionCall": {"id": shell_id, "name": "run_shell_command", "args": {"command": "cat .env", "description": "Show the environment file"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": shell_id, "name": "run_shell_command", "response": {"output": f"Command: cat .env\nDirectory: (root)\nOutput: {env_text}Error: (none)\nExit Code: 0"}}}]},
        {"role": "model", "parts": [{"text": "The key is restricted to other HTTP referrers."}]},
    ], "authType": "oauth-personal"}, ensure_ascii=False, indent=2),
        P("gemini1.gcp", "history[0].parts[0].text", where="user-message"),
        P("gemini1.db", "history[2].parts[0].functionResponse.response.output", enc="escaped", where="tool-output"))

    # 0.39 on: JSON Lines, a message appended again (whole) each time it changes.
    sid2 = uid()
    cur = Fixture(f"{chats}/session-2026-08-28T14-02-{sid2[:8]}.jsonl", "gemini", "gemini-session-jsonl")
    cur.add({"sessionId": sid2, "projectHash": PROJECT_HASH, "startTime": "2026-08-28T14:02:11.870Z", "lastUpdated": "2026-08-28T14:02:11.870Z", "kind": "main"})
    gh = secret("gemini2.github-pat", "github-pat")
    u1 = uid()
    cur.add({"id": u1, "timestamp": "2026-08-28T14:02:11.902Z", "type": "user", "content": [{"text": f"Publishing fails with E401. gh token for the release bot: {gh.value}"}]},
            P("gemini2.github-pat", "content[0].text", where="user-message"))
    cur.add({"$set": {"lastUpdated": "2026-08-28T14:02:11.903Z"}})
    g1 = uid()
    thoughts = [{"subject": "Inspecting npm auth", "description": "E401 on publish: look at the token npm sees.", "timestamp": "2026-08-28T14:02:15.004Z"}]
    npm = secret("gemini2.npm", "npm-access-token")
    sh = f"run_shell_command-1788012139221-{hexid(12)}"
    call = {"id": sh, "name": "run_shell_command", "args": {"command": "env | grep -i npm", "description": "Show npm environment"},
            "result": [{"functionResponse": {"id": sh, "name": "run_shell_command", "response": {"output": f"Output: NPM_CONFIG_REGISTRY=https://registry.npmjs.org/\nNPM_TOKEN={npm.value}\nExit Code: 0"}}}],
            "status": "success", "timestamp": "2026-08-28T14:02:19.630Z", "resultDisplay": f"NPM_CONFIG_REGISTRY=https://registry.npmjs.org/\nNPM_TOKEN={npm.value}\n",
            "displayName": "Shell", "description": "Show npm environment", "renderOutputAsMarkdown": False}  # fmt: skip
    msg = {"id": g1, "timestamp": "2026-08-28T14:02:15.110Z", "type": "gemini", "content": "", "thoughts": thoughts, "model": "gemini-3-pro"}
    cur.add(msg)
    cur.add({**msg, "toolCalls": [call]},
            P("gemini2.npm", "toolCalls[0].result[0].functionResponse.response.output", "toolCalls[0].resultDisplay", enc="escaped", where="tool-output"))
    cur.add({**msg, "toolCalls": [call], "tokens": {"input": 10233, "output": 74, "cached": 0, "thoughts": 301, "tool": 0, "total": 10608}},
            P("gemini2.npm", "toolCalls[0].result[0].functionResponse.response.output", "toolCalls[0].resultDisplay", enc="escaped", where="tool-output"))
    cur.add({"$set": {"lastUpdated": "2026-08-28T14:02:20.014Z"}})
    wh = secret("gemini2.slack-webhook", "slack-webhook-url")
    wf = f"web_fetch-1788012150771-{hexid(12)}"
    g2 = uid()
    cur.add({"id": g2, "timestamp": "2026-08-28T14:02:31.200Z", "type": "gemini", "content": "", "thoughts": [], "model": "gemini-3-pro",
             "toolCalls": [{"id": wf, "name": "web_fetch", "args": {"prompt": f"POST a test message to {wh.value}"},
                            "result": [{"functionResponse": {"id": wf, "name": "web_fetch", "response": {"error": "Private/local URLs cannot be processed with AI."}}}],
                            "status": "error", "timestamp": "2026-08-28T14:02:31.977Z", "resultDisplay": "Error: Private/local URLs cannot be processed with AI.", "displayName": "WebFetch", "description": "", "renderOutputAsMarkdown": True}]},
            P("gemini2.slack-webhook", "toolCalls[0].args.prompt", where="tool-input"))
    npmrc = f"//registry.npmjs.org/:_authToken={npm.value}\nalways-auth=true\n"
    wr = f"write_file-1788012171008-{hexid(12)}"
    g3 = uid()
    cur.add({"id": g3, "timestamp": "2026-08-28T14:02:51.640Z", "type": "gemini", "content": "", "thoughts": [], "model": "gemini-3-pro",
             "toolCalls": [{"id": wr, "name": "write_file", "args": {"file_path": f"{CWD}/.npmrc", "content": npmrc},
                            "result": [{"functionResponse": {"id": wr, "name": "write_file", "response": {"output": f"Successfully created and wrote to new file: {CWD}/.npmrc."}}}],
                            "status": "success", "timestamp": "2026-08-28T14:02:52.013Z",
                            "resultDisplay": {"fileDiff": f"Index: .npmrc\n===================================================================\n--- .npmrc\tOriginal\n+++ .npmrc\tWritten\n@@ -0,0 +1,2 @@\n+//registry.npmjs.org/:_authToken={npm.value}\n+always-auth=true\n",
                                              "fileName": ".npmrc", "filePath": f"{CWD}/.npmrc", "originalContent": "", "newContent": npmrc, "isNewFile": True},
                            "displayName": "WriteFile", "description": "Writing to .npmrc", "renderOutputAsMarkdown": False}]},
            P("gemini2.npm", "toolCalls[0].args.content", "toolCalls[0].resultDisplay.fileDiff", "toolCalls[0].resultDisplay.newContent", enc="escaped", where="tool-input"))
    cur.add({"$rewindTo": g3})
    cur.add({"id": uid(), "timestamp": "2026-08-28T14:03:40.311Z", "type": "info", "content": "Request cancelled."})
    cur.add({"$set": {"summary": f"npm E401: token {npm.value} lacked publish scope"}}, P("gemini2.npm", "$set.summary", where="summary"))
    # a sub-agent's own file: chats/<parent session id>/<sub-agent session id>.jsonl
    sub_sid = uid()
    sub = Fixture(f"{chats}/{sid2}/{sub_sid}.jsonl", "gemini", "gemini-subagent-jsonl")
    sub.add({"sessionId": sub_sid, "projectHash": PROJECT_HASH, "startTime": "2026-08-28T14:02:40.118Z", "lastUpdated": "2026-08-28T14:02:40.118Z", "kind": "subagent", "directories": [CWD]})
    sub.add({"id": uid(), "timestamp": "2026-08-28T14:02:40.120Z", "type": "user", "content": [{"text": "Find where the mailer credentials are configured."}]})
    sg = secret("gemini2.sendgrid", "sendgrid-api-key")
    rf = f"read_file-1788012161330-{hexid(12)}"
    sub.add({"id": uid(), "timestamp": "2026-08-28T14:02:41.502Z", "type": "gemini", "content": "", "thoughts": [], "model": "gemini-3-flash",
             "toolCalls": [{"id": rf, "name": "read_file", "args": {"file_path": f"{CWD}/config/mailer.yaml"},
                            "result": [{"functionResponse": {"id": rf, "name": "read_file", "response": {"output": f"provider: sendgrid\napi_key: {sg.value}\nfrom: noreply@acme.dev\n"}}}],
                            "status": "success", "timestamp": "2026-08-28T14:02:41.730Z", "resultDisplay": "", "displayName": "ReadFile", "description": "config/mailer.yaml", "renderOutputAsMarkdown": True}]},
            P("gemini2.sendgrid", "toolCalls[0].result[0].functionResponse.response.output", enc="escaped", where="tool-output"))
    sub.add({"$set": {"lastUpdated": "2026-08-28T14:02:42.001Z"}})

    # stream-json events of `gemini -p ... --output-format stream-json > run.jsonl`
    stream = Fixture("gemini/stream-json/release-check-2026-08-29.jsonl", "gemini", "gemini-stream-json")
    st = iter(f"2026-08-29T06:30:{s:02d}.{ms:03d}Z" for s in range(1, 60) for ms in (12, 518))
    sk = secret("gemini3.stripe", "stripe-secret-key")
    whsec = secret("gemini3.whsec", "stripe-webhook-secret")
    ev = lambda kind, **kw: {"type": kind, "timestamp": next(st), **kw}  # noqa: E731
    stream.add(ev("init", session_id=uid(), model="gemini-3-pro"))
    stream.add(ev("message", role="user", content=f"Rotate the Stripe key in config/prod.yaml; the new one is {sk.value}."), P("gemini3.stripe", "content", where="user-message"))
    stream.add(ev("message", role="assistant", content="I'll read the config first.", delta=True))
    rid = f"read_file-1788165002131-{hexid(12)}"
    stream.add(ev("tool_use", tool_name="read_file", tool_id=rid, parameters={"file_path": "config/prod.yaml"}))
    stream.add(ev("tool_result", tool_id=rid, status="success", output=f"stripe:\n  secret_key: ${{STRIPE_SECRET_KEY}}\n  webhook_secret: {whsec.value}\n"),
               P("gemini3.whsec", "output", enc="escaped", where="tool-output"))
    eid = f"replace-1788165004410-{hexid(12)}"
    stream.add(ev("tool_use", tool_name="replace", tool_id=eid, parameters={"file_path": "config/prod.yaml", "old_string": f"webhook_secret: {whsec.value}", "new_string": "webhook_secret: ${STRIPE_WEBHOOK_SECRET}", "instruction": "Use the environment for the webhook secret."}),
               P("gemini3.whsec", "parameters.old_string", where="tool-input"))
    stream.add(ev("tool_result", tool_id=eid, status="success", output=f"Index: prod.yaml\n@@ -3 +3 @@\n-  webhook_secret: {whsec.value}\n+  webhook_secret: ${{STRIPE_WEBHOOK_SECRET}}\n"),
               P("gemini3.whsec", "output", enc="escaped", where="tool-output"))
    cid = f"run_shell_command-1788165009001-{hexid(12)}"
    stream.add(ev("tool_use", tool_name="run_shell_command", tool_id=cid, parameters={"command": f"curl -sf https://api.stripe.com/v1/balance -u {sk.value}:", "description": "Check the new key"}),
               P("gemini3.stripe", "parameters.command", where="tool-input"))
    stream.add(ev("tool_result", tool_id=cid, status="error", output="", error={"type": "TOOL_EXECUTION_ERROR", "message": f"Command exited with code 22: curl -sf https://api.stripe.com/v1/balance -u {sk.value}: (401)"}),
               P("gemini3.stripe", "error.message", where="tool-output"))
    stream.add(ev("error", severity="warning", message="Loop detection: the same tool call was repeated 3 times."))
    stream.add(ev("message", role="assistant", content="The new key is rejected (401). I left config/prod.yaml reading STRIPE_WEBHOOK_SECRET from the environment.", delta=True))
    stream.add(ev("result", status="success", stats={"total_tokens": 21044, "input_tokens": 20011, "output_tokens": 1033, "cached": 12288, "input": 7723, "duration_ms": 18230, "tool_calls": 3,
                                                       "models": {"gemini-3-pro": {"total_tokens": 21044, "input_tokens": 20011, "output_tokens": 1033, "cached": 12288, "input": 7723}}}))
    return [legacy, logs, checkpoint, cur, sub, stream]


# fmt: on


# ---------------------------------------------------------------------------------------------


def write(out_dir: str) -> list[Fixture]:
    fixtures = [*claude(), codex_old(), *codex_new(), *gemini()]
    for fx in fixtures:
        path = os.path.join(out_dir, fx.rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(fx.body())
    verify(fixtures)
    with open(os.path.join(out_dir, "EXPECTED.yaml"), "w", encoding="utf-8") as handle:
        handle.write(expected_yaml(fixtures))
    return fixtures


def verify(fixtures: list[Fixture]) -> None:
    """Each secret stands on exactly the lines planted for it, in every file."""
    for fx in fixtures:
        rows = fx.body().split("\n")
        for sid, (_, value) in SECRETS.items():
            found = {n for n, row in enumerate(rows, 1) if value.needle in row}
            planted = {p.line for p in fx.plants if p.sid == sid}
            if found != planted:
                raise SystemExit(
                    f"{fx.rel}: {sid} stands on lines {sorted(found)}, planted on {sorted(planted)}"
                )


def expected_yaml(fixtures: list[Fixture]) -> str:
    out = [
        "# Every fake secret planted in the history fixtures (written by bench/history_fixtures.py;",
        "# the values are random, in the providers' formats, and were never real credentials).",
        "# One entry per line a secret stands on: `check` should report `rule` on that line, and",
        "# `redact` should remove the secret from it. `sha256`: the first 16 hex digits of the",
        "# SHA-256 of the part a redaction must remove; `prefix` its first 4 characters and",
        "# `length` its length (enough to find it again, not to read it). `where`: the kind of",
        "# stored field (FORMATS.md, Field kinds). `fields`: where the secret stands in the record",
        "# (`a<json>.b`: inside the JSON text held by the string `a`; `(file text)`: a plain file).",
        "# `encoding`: plain (as is), escaped (inside a string with JSON escapes around it: quotes,",
        "# newlines), nested-json (inside JSON held as a string, escaped twice or more).",
        "version: 1",
        "files:",
    ]
    for fx in fixtures:
        out.append(f"  {fx.rel}:")
        out.append(f"    agent: {fx.agent}")
        out.append(f"    format: {fx.fmt}")
        if not fx.plants:
            out.append("    secrets: []")
            continue
        out.append("    secrets:")
        for p in sorted(fx.plants, key=lambda p: (p.line, p.sid)):
            kind, value = SECRETS[p.sid]
            out.append(f"      - id: {p.sid}")
            out.append(f"        line: {p.line}")
            out.append(f"        rule: {value.rule}")
            out.append(f"        provider: {kind}")
            out.append(f"        where: {p.where}")
            out.append(f"        sha256: {value.digest}")
            out.append(f"        prefix: {json.dumps(value.core[:4])}")
            out.append(f"        length: {len(value.core)}")
            out.append(f"        encoding: {p.encoding}")
            out.append("        fields: [" + ", ".join(json.dumps(f) for f in p.fields) + "]")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT)
    args = parser.parse_args()
    fixtures = write(os.path.abspath(args.out))
    planted = sum(len(fx.plants) for fx in fixtures)
    print(
        f"{len(fixtures)} files, {len(SECRETS)} secrets on {planted} lines -> {os.path.abspath(args.out)}"
    )


if __name__ == "__main__":
    main()
