# ruff: noqa: E501  (the generator keeps long literal records on one line)
"""A compliant wukong session at scale, for bench/protocol.py: CHECKPOINTs in both wordings,
small edits by the body, exploration by 眼 in the background, implementation by 身 with its
contract and tests, parallel 身 in worktrees, conversation turns, context usage that grows and
is compacted. Under `--profile wukong` it should have no protocol finding. Same seed, same
bytes.
"""

from __future__ import annotations

import json
import random

WORDS = ["the", "of", "and", "to", "in", "is", "for", "that", "on", "with", "as", "this", "by",
         "be", "are", "from", "function", "value", "return"]  # fmt: skip


def _rec(**kw: object) -> str:
    return json.dumps(kw, ensure_ascii=False, separators=(",", ":"))


def _checkpoint(rng: random.Random, explore: bool, lines: int, files: int, decision: str) -> str:
    if rng.random() < 0.5:
        return "\n".join([
            "📋 TASK CHECKPOINT", "Q0. Skill 匹配？     否", f"Q1. 探索/研究？      {'是' if explore else '否'}",
            f"Q2. 代码修改？       {'是' if lines else '否'} 预估 {lines} 行", "Q3. 设计/架构？      否",
            f"Q4. 独立文件数？     {files} 个", f"⚡ 决策: {decision}", "📝 理由: 按协议"])  # fmt: skip
    return "\n".join([
        "**CHECKPOINT**", f"- Q1. Explore/research? {'yes' if explore else 'no'}",
        f"- Q2. Code change? {'yes' if lines else 'no'}, about {lines} lines", "- Q3. Design? no",
        f"- Q4. Independent files? {files}", f"- **Decision**: {decision}"])  # fmt: skip


def generate_compliant(path: str, megabytes: int, seed: int = 11) -> None:
    rng = random.Random(seed)
    code = "\n".join(
        f"{i:>6}→def f{i}(x):\n{i:>6}→    return x * {i}  # "
        + " ".join(rng.choice(WORDS) for _ in range(6))
        for i in range(1, 80)
    )
    base = {"sessionId": "proto", "cwd": "/nonexistent/proj", "version": "2.0.0"}
    target = megabytes << 20
    written = n = 0
    tokens = 20_000
    with open(path, "w", encoding="utf-8") as out:
        while written < target:
            n += 1
            lines: list[str] = []

            def say(text: str, side: str | None = None, lines: list[str] = lines) -> None:
                nonlocal tokens
                tokens += rng.randint(500, 3000)
                usage = {
                    "input_tokens": 10,
                    "cache_read_input_tokens": tokens,
                    "output_tokens": 300,
                }
                extra = {"isSidechain": True, "agentId": side} if side else {}
                lines.append(
                    _rec(
                        type="assistant",
                        message={
                            "role": "assistant",
                            "content": [{"type": "text", "text": text}],
                            "usage": usage,
                        },
                        **base,
                        **extra,
                    )
                )

            def start_sidechain(agent: str, prompt: str, lines: list[str] = lines) -> None:
                """The first record of a sub-agent's sidechain: the prompt it was given."""
                lines.append(
                    _rec(
                        type="user",
                        isSidechain=True,
                        agentId=agent,
                        parentUuid=None,
                        message={"role": "user", "content": prompt},
                        **base,
                    )
                )

            def call(
                name: str,
                data: dict,
                result: str,
                side: str | None = None,
                extra: dict | None = None,
                lines: list[str] = lines,
            ) -> None:
                nonlocal n
                n += 1
                tid = f"toolu_{n:08d}"
                sidekw = {"isSidechain": True, "agentId": side} if side else {}
                lines.append(
                    _rec(
                        type="assistant",
                        message={
                            "role": "assistant",
                            "content": [
                                {"type": "tool_use", "id": tid, "name": name, "input": data}
                            ],
                        },
                        **base,
                        **sidekw,
                    )
                )
                record = {
                    "type": "user",
                    "message": {
                        "role": "user",
                        "content": [{"type": "tool_result", "tool_use_id": tid, "content": result}],
                    },
                    **base,
                    **sidekw,
                }
                if extra:
                    record["toolUseResult"] = extra
                lines.append(_rec(**record))

            kind = rng.random()
            task = " ".join(rng.choice(WORDS) for _ in range(25))
            lines.append(_rec(type="user", message={"role": "user", "content": task}, **base))
            module = f"src/m{n % 300}.py"
            if kind < 0.15:  # conversation
                say(" ".join(rng.choice(WORDS) for _ in range(80)))
            elif kind < 0.45:  # a small fix by the body
                say(
                    _checkpoint(
                        rng,
                        False,
                        2,
                        1,
                        "本体执行" if rng.random() < 0.5 else "body executes it (2 lines)",
                    )
                )
                call("Read", {"file_path": f"/nonexistent/proj/{module}"}, code)
                call(
                    "Edit",
                    {
                        "file_path": f"/nonexistent/proj/{module}",
                        "old_string": "return x * 1",
                        "new_string": "return x * 2",
                    },
                    "The file has been updated.",
                )
                say("Done: one line changed.")
            elif kind < 0.65:  # exploration by 眼 in the background
                agent = f"e{n}"
                say(_checkpoint(rng, True, 0, 1, "召唤分身: @眼 (后台)"))
                call(
                    "Agent",
                    {
                        "description": "explore",
                        "prompt": f"Explore {task[:40]}",
                        "subagent_type": "eye",
                        "run_in_background": True,
                    },
                    f"Async agent launched successfully. agentId: {agent}",
                    extra={"isAsync": True, "status": "async_launched", "agentId": agent},
                )
                start_sidechain(agent, f"Explore {task[:40]}")
                call(
                    "Grep",
                    {"pattern": "def f", "path": "src"},
                    "\n".join(f"src/m{i}.py:1:def f{i}(x):" for i in range(5)),
                    side=agent,
                )
                call("Read", {"file_path": f"/nonexistent/proj/{module}"}, code, side=agent)
                say(
                    f"## Files\n- {module}\n## Findings\n- {module}:3 — f3 doubles its input\n## Summary\nThe logic lives in {module}.",
                    side=agent,
                )
                say("The explorer is on it; I will report when it is back.")
            elif kind < 0.9:  # implementation by 身, tests run
                agent = f"b{n}"
                say(_checkpoint(rng, False, 40, 1, "召唤分身: @身"))
                start_sidechain(agent, f"Implement {task[:40]}")
                call("Read", {"file_path": f"/nonexistent/proj/{module}"}, code, side=agent)
                call(
                    "Edit",
                    {
                        "file_path": f"/nonexistent/proj/{module}",
                        "old_string": "pass",
                        "new_string": "\n".join(f"    step_{k}()" for k in range(30)),
                    },
                    "The file has been updated.",
                    side=agent,
                )
                call(
                    "Bash",
                    {"command": "python -m pytest -q tests/"},
                    "42 passed in 1.2s",
                    side=agent,
                )
                contract = json.dumps(
                    {"files_changed": [module], "summary": "implemented", "tests_run": True}
                )
                call(
                    "Agent",
                    {
                        "description": "implement",
                        "prompt": f"Implement {task[:40]}",
                        "subagent_type": "body",
                    },
                    contract,
                    extra={"agentId": agent, "status": "completed"},
                )
                say("Implemented and tested by 身.")
            else:  # two independent files: two 身 in parallel, each in its own worktree
                say(_checkpoint(rng, False, 30, 2, "并行召唤分身: @身 x2"))
                ids = []
                for k in range(2):
                    n += 1
                    ids.append(f"toolu_{n:08d}")
                    lines.append(
                        _rec(
                            type="assistant",
                            message={
                                "role": "assistant",
                                "content": [
                                    {
                                        "type": "tool_use",
                                        "id": ids[-1],
                                        "name": "Agent",
                                        "input": {
                                            "prompt": f"Change part {k}",
                                            "subagent_type": "body",
                                            "isolation": "worktree",
                                        },
                                    }
                                ],
                            },
                            **base,
                        )
                    )
                for tid in ids:
                    contract = "**files_changed**: src/x.py\n**summary**: done\n**tests_run**: true (pytest: 12 passed)"
                    lines.append(
                        _rec(
                            type="user",
                            message={
                                "role": "user",
                                "content": [
                                    {"type": "tool_result", "tool_use_id": tid, "content": contract}
                                ],
                            },
                            **base,
                        )
                    )
                say("Both parts are done.")
            if tokens > 130_000:  # compaction before the context fills
                lines.append(
                    _rec(
                        type="system",
                        subtype="compact_boundary",
                        content="Conversation compacted",
                        **base,
                    )
                )
                tokens = 20_000
            chunk = "\n".join(lines) + "\n"
            out.write(chunk)
            written += len(chunk.encode("utf-8"))
