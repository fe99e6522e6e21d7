"""Text pieces of the held-out 戒 corpus: CHECKPOINTs in the ways teams write them (seed 004's
Q0–Q4 block, the upstream Q1–Q4 quick form, English tables, bold labels with emoji) and avatar
outputs in JSON, Markdown headings (English, Chinese, the upstream agent files' layout) and
YAML-ish blocks. Each builder takes the answers, so a case states its facts once."""

# ruff: noqa: E501  (transcript text and JSON records are data: kept on one line each)

from __future__ import annotations

import json
from typing import Any

YES = {"zh": "是", "en": "Yes", "emoji": "✅ 是", "en-low": "yes"}
NO = {"zh": "否", "en": "No", "emoji": "❌ 否", "en-low": "no"}


def checkpoint(
    style: str,
    q1: bool = False,
    q2: bool = False,
    lines: int = 0,
    q3: bool = False,
    q4: int = 1,
    decision: str = "本体执行",
    q0: bool = False,
    lead: str = "",
    drop: tuple[str, ...] = (),
) -> str:
    """A CHECKPOINT; `drop` leaves questions (or 'decision') out to make it incomplete."""

    def yn(v: bool, lang: str) -> str:
        return (YES if v else NO)[lang]

    rows: list[tuple[str, str]] = []
    if style == "zh-block":
        rows = [
            ("Q0", f"Q0. Skill 匹配？     {yn(q0, 'zh')}"),
            ("Q1", f"Q1. 探索/研究？      {yn(q1, 'zh')}"),
            ("Q2", f"Q2. 代码修改？       {yn(q2, 'zh')} 预估 {lines} 行"),
            ("Q3", f"Q3. 设计/架构？      {yn(q3, 'zh')}"),
            ("Q4", f"Q4. 独立文件数？     {q4} 个"),
            ("decision", f"⚡ 决策: {decision}"),
        ]
        body = "\n".join(t for k, t in rows if k not in drop)
        return f"{lead}```\n📋 TASK CHECKPOINT\n─────────────────────────────\n{body}\n```"
    if style == "light":
        rows = [
            ("Q1", f"Q1. 探索/研究？  → {yn(q1, 'zh')}"),
            ("Q2", f"Q2. 代码 >10行？ → {yn(q2 and lines > 10, 'zh')}（约 {lines} 行）"),
            ("Q3", f"Q3. 设计/架构？  → {yn(q3, 'zh')}"),
            ("Q4", f"Q4. 多文件并行？ → {yn(q4 >= 2, 'zh')}（{q4} 个文件）"),
            ("decision", f"决策：{decision}"),
        ]
        body = "\n".join(t for k, t in rows if k not in drop)
        return f"{lead}**CHECKPOINT**\n\n{body}"
    if style == "en-table":
        rows = [
            ("Q0", f"| Q0 | Skill match? | {yn(q0, 'en')} |"),
            ("Q1", f"| Q1 | Explore / research? | {yn(q1, 'en')} |"),
            ("Q2", f"| Q2 | Code change? | {yn(q2, 'en')}, ~{lines} lines |"),
            ("Q3", f"| Q3 | Design / architecture? | {yn(q3, 'en')} |"),
            ("Q4", f"| Q4 | Independent files? | {q4} |"),
        ]
        body = "\n".join(t for k, t in rows if k not in drop)
        dec = "" if "decision" in drop else f"\n\n**Decision:** {decision}"
        return (
            f"{lead}### CHECKPOINT\n\n| # | Check | Answer |\n|---|-------|--------|\n{body}{dec}"
        )
    if style == "bold-emoji":
        rows = [
            ("Q0", f"- **Q0 Skill 匹配**: {yn(q0, 'emoji')}"),
            ("Q1", f"- **Q1 探索/研究**: {yn(q1, 'emoji')}"),
            ("Q2", f"- **Q2 代码修改**: {yn(q2, 'emoji')}（预估 {lines} 行）"),
            ("Q3", f"- **Q3 设计/架构**: {yn(q3, 'emoji')}"),
            ("Q4", f"- **Q4 独立文件数**: {q4}"),
            ("decision", f"\n👉 **决策**：{decision}"),
        ]
        body = "\n".join(t for k, t in rows if k not in drop)
        return f"{lead}🧭 **CHECKPOINT**\n{body}"
    if style == "en-lines":
        rows = [
            ("Q0", f"Q0 skill match: {'yes' if q0 else 'none'}"),
            ("Q1", f"Q1 exploration needed: {yn(q1, 'en-low')}"),
            ("Q2", f"Q2 code change: {yn(q2, 'en-low')}, about {lines} lines"),
            ("Q3", f"Q3 design/architecture: {yn(q3, 'en-low')}"),
            ("Q4", f"Q4 independent files: {q4}"),
            ("decision", f"Decision: {decision}"),
        ]
        body = "\n".join(t for k, t in rows if k not in drop)
        return f"{lead}CHECKPOINT\n{body}"
    raise ValueError(style)


# --------------------------------------------------------------------------- avatar outputs


def as_json(obj: dict[str, Any], prose: str = "") -> str:
    return f"{prose}```json\n{json.dumps(obj, ensure_ascii=False, indent=2)}\n```"


def eye_md(
    files: list[str],
    findings: list[tuple[str, str]],
    summary: str,
    drop: tuple[str, ...] = (),
    zh: bool = False,
) -> str:
    parts = []
    if "summary" not in drop:
        parts.append(("## 总结\n" if zh else "## Summary\n") + summary)
    if "findings" not in drop:
        f = "\n".join(
            f"{i + 1}. **{d.split('，')[0][:24]}**: {d}\n   - Location: `{loc}`"
            for i, (loc, d) in enumerate(findings)
        )
        parts.append(("## 发现\n" if zh else "## Findings\n") + f)
    if "files" not in drop:
        parts.append(
            ("## 相关文件\n" if zh else "## Files\n") + "\n".join(f"- `{x}`" for x in files)
        )
    parts.append("## Next Steps\n- 交给 @身 修改上面定位到的函数")
    return "\n\n".join(parts)


def nose_md(
    issues: list[tuple[str, str, str]], summary: str, rec: str, drop: tuple[str, ...] = ()
) -> str:
    parts = []
    if "summary" not in drop:
        parts.append("## Summary\n" + summary)
    if "issues" not in drop:
        body = "\n".join(
            f"### {sev}\n1. **[{sev[0]}00{i + 1}]** {desc}\n   - Location: `{loc}`\n   - Description: {desc}"
            for i, (sev, loc, desc) in enumerate(issues)
        )
        parts.append("## Issues\n" + body)
    parts.append("## Statistics\n| 严重度 | 数量 |\n|--------|------|\n| HIGH | 1 |\n| LOW | 1 |")
    if "recommendation" not in drop:
        parts.append("## Recommendation\n" + rec)
    return "\n\n".join(parts)


def body_md(files: list[str], summary: str, tests: str | None, drop: tuple[str, ...] = ()) -> str:
    parts = []
    if "summary" not in drop:
        parts.append("## Summary\n" + summary)
    if "files_changed" not in drop:
        parts.append(
            "## Files Changed\n" + "\n".join(f"{i + 1}. `{f}` - 更新" for i, f in enumerate(files))
        )
    if tests is not None and "tests_run" not in drop:
        parts.append("## Tests Run\n" + tests)
    parts.append("## Evidence\n- Level: L2 (本地验证)\n- Test Command: `pytest -q`")
    return "\n\n".join(parts)
