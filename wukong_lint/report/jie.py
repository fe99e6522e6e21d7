"""The 戒关检查 report (`--format jie`): seed 004's 输出格式 as Markdown, from the one Report.

    ## 戒关检查
    **状态**: ✅ 通过 / ❌ 拒绝 / ⚠️ 需确认
    ### Contract 检查 / 边界检查 / 安全检查   (checklists, ticked from the findings)
    ### 问题                                  (| 问题 | 严重度 | 处理 |)

The status follows the verdicts: a finding at or above `fail_on` (default high) denies (❌),
a medium one below it asks (⚠️ 需确认, seed 004's 必须确认), anything else passes with a note.
Inputs that could not be scanned make the status ⚠️ at best: a check that did not run is
not a pass. `lang="en"` gives English headings. Messages never hold matched text (secrets),
and no snippet is printed. The Action posts this text as its job summary and PR comment
(`render_file`)."""

from __future__ import annotations

from wukong_lint.model import Finding, Report, Severity

_SEVERITY = {Severity.CRITICAL: "CRITICAL", Severity.HIGH: "HIGH", Severity.MEDIUM: "MEDIUM",
             Severity.LOW: "LOW"}  # fmt: skip
MAX_ROWS = 100  # a PR comment holds 65 536 characters

_TEXT = {
    "zh": {
        "title": "## 戒关检查",
        "status": "**状态**",
        "pass": "✅ 通过",
        "deny": "❌ 拒绝",
        "ask": "⚠️ 需确认",
        "contract": "### Contract 检查",
        "sections": "sections 完整",
        "format": "格式规范",
        "boundary": "### 边界检查",
        "no_cross": "未越界",
        "security": "### 安全检查",
        "paths": "无敏感路径",
        "commands": "无危险命令",
        "secrets": "无敏感信息",
        "injection": "无注入风险",
        "leak": "无信息泄露 (错误信息已消毒)",
        "issues": "### 问题",
        "header": "| 问题 | 严重度 | 处理 |",
        "none": "无",
        "more": "… 另有 {n} 项，见完整报告",
        "unscanned": "**未能扫描**: {n} 个输入 ({first})",
        "counts": "{n} 项发现 (拒绝 {deny}, 需确认 {ask}, 提示 {note})",
    },
    "en": {
        "title": "## Jie gate check (戒关检查)",
        "status": "**Status**",
        "pass": "✅ Pass",
        "deny": "❌ Denied",
        "ask": "⚠️ Needs confirmation",
        "contract": "### Contract check",
        "sections": "sections complete",
        "format": "format valid",
        "boundary": "### Boundary check",
        "no_cross": "no boundary crossed",
        "security": "### Security check",
        "paths": "no sensitive paths",
        "commands": "no dangerous commands",
        "secrets": "no sensitive information",
        "injection": "no injection risk",
        "leak": "no information leak (error messages sanitised)",
        "issues": "### Issues",
        "header": "| Issue | Severity | Action |",
        "none": "none",
        "more": "… and {n} more, see the full report",
        "unscanned": "**Not scanned**: {n} input(s) ({first})",
        "counts": "{n} findings ({deny} deny, {ask} ask, {note} note)",
    },
}

# The seed's 处理 (违规处理 table, 越界判定, the checklists' arrows), by category and rule.
_ACTION = {
    "zh": {
        "secret": "立即拒绝 + 脱敏",
        "dangerous-command": "拒绝执行；不可逆操作须确认 + 备份",
        "sensitive-path": "必须用户确认",
        "guard-integrity": "拒绝：守卫不可被其守护对象关闭，由用户亲自操作",
        "injection": "拒绝，要求安全方式",
        "info-leak": "拒绝，要求消毒",
        "body-boundary": "驳回，委派正确分身",
        "body-boundary.checkpoint-missing": "立即停止，要求重新自检",
        "body-boundary.parallel-summons": "警告，后续改进 (并行召唤)",
        "avatar-boundary": "打回重做",
        "avatar-boundary.contract-placeholder": "警告 + 补充",
        "context": "压缩上下文 (DCP / 存档)",
        "transcript-integrity": "按恢复策略处理",
        "anchor": "补全锚点记录",
        "memory-bank": "修正记忆库",
        "hardcoded-config": "要求配置化",
    },
    "en": {
        "secret": "deny at once + redact",
        "dangerous-command": "refuse; irreversible steps need confirmation + a backup",
        "sensitive-path": "needs the user's confirmation",
        "guard-integrity": "refuse: the guarded cannot turn the guard off; the user does it",
        "injection": "refuse, ask for the safe form",
        "info-leak": "refuse, ask for sanitising",
        "body-boundary": "send back, delegate to the right avatar",
        "body-boundary.checkpoint-missing": "stop, redo the CHECKPOINT",
        "body-boundary.parallel-summons": "warn, summon in parallel next time",
        "avatar-boundary": "send back to redo",
        "avatar-boundary.contract-placeholder": "warn + complete",
        "context": "compact the context (DCP / archive)",
        "transcript-integrity": "apply the recovery strategy",
        "anchor": "complete the anchor record",
        "memory-bank": "fix the memory bank",
        "hardcoded-config": "move it to configuration",
    },
}


def verdict(finding: Finding, fail_on: Severity) -> str:
    """deny | ask | note (DESIGN.md, Verdicts)."""
    if finding.severity >= fail_on:
        return "deny"
    if finding.severity >= Severity.MEDIUM:
        return "ask"
    return "note"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _tick(ok: bool, label: str) -> str:
    return f"- [{'x' if ok else ' '}] {label}"


def render(report: Report, *, lang: str = "zh", fail_on: str = "high", **_: object) -> str:
    words = _TEXT.get(lang, _TEXT["zh"])
    actions = _ACTION.get(lang, _ACTION["zh"])
    line = Severity.parse(fail_on)
    findings = report.active
    verdicts = [verdict(f, line) for f in findings]
    if "deny" in verdicts:
        status = words["deny"]
    elif "ask" in verdicts or report.errors:
        status = words["ask"]
    else:
        status = words["pass"]
    ids = {f.rule_id for f in findings}
    categories = {f.category for f in findings}
    boundary = {
        f.rule_id
        for f in findings
        if f.category in ("body-boundary", "avatar-boundary")
        and not f.rule_id.startswith("avatar-boundary.contract-")
    }
    out = [words["title"], "", f"{words['status']}: {status}"]
    out.append("")
    out.append(
        words["counts"].format(
            n=len(findings),
            deny=verdicts.count("deny"),
            ask=verdicts.count("ask"),
            note=verdicts.count("note"),
        )
    )
    if report.errors:
        first = _cell(f"{report.errors[0].path}: {report.errors[0].message}")
        out += ["", words["unscanned"].format(n=len(report.errors), first=first)]
    out += [
        "",
        words["contract"],
        _tick("avatar-boundary.contract-missing" not in ids, words["sections"]),
        _tick(
            "avatar-boundary.contract-placeholder" not in ids
            and "avatar-boundary.body-untested" not in ids,
            words["format"],
        ),
        "",
        words["boundary"],
        _tick(not boundary, words["no_cross"]),
        "",
        words["security"],
        _tick("sensitive-path" not in categories, words["paths"]),
        _tick("dangerous-command" not in categories, words["commands"]),
        _tick("secret" not in categories, words["secrets"]),
        _tick("injection" not in categories, words["injection"]),
        _tick("info-leak" not in categories, words["leak"]),
        "",
        words["issues"],
    ]
    if not findings:
        out.append(words["none"])
        return "\n".join(out) + "\n"
    out += [words["header"], "|------|--------|------|"]
    order = sorted(range(len(findings)), key=lambda i: (-findings[i].severity, i))
    for index in order[:MAX_ROWS]:
        finding = findings[index]
        where = f"{finding.path}:{finding.line}" if finding.line else finding.path
        action = actions.get(finding.rule_id) or actions.get(finding.category, "")
        out.append(
            f"| {_cell(finding.message)} (`{_cell(finding.rule_id)}`, {_cell(where)}) "
            f"| {_SEVERITY[finding.severity]} | {_cell(action)} |"
        )
    if len(findings) > MAX_ROWS:
        out.append("")
        out.append(words["more"].format(n=len(findings) - MAX_ROWS))
    return "\n".join(out) + "\n"


def from_json(document: dict[str, object]) -> Report:
    """A Report from a JSON report (contract version 1), for rendering it again: the Action
    scans once (SARIF, JSON) and renders its job summary and PR comment from the JSON."""
    from wukong_lint.model import ScanError, Stats

    findings = []
    for item in document.get("findings") or []:  # type: ignore[union-attr]
        if not isinstance(item, dict):
            continue
        findings.append(
            Finding(
                str(item.get("rule_id", "")),
                str(item.get("category", "")),
                Severity.parse(str(item.get("severity", "low"))),
                str(item.get("message", "")),
                str(item.get("path", "")),
                int(item.get("line") or 0),
                int(item.get("column") or 0),
                int(item.get("end_line") or 0),
                "",
                str(item.get("fingerprint", "")),
            )
        )
    errors = tuple(
        ScanError(str(e.get("path", "")), str(e.get("message", "")))
        for e in document.get("errors") or []  # type: ignore[union-attr]
        if isinstance(e, dict)
    )
    return Report(tuple(findings), Stats(), errors)


def main(argv: list[str] | None = None) -> int:
    """`python -m wukong_lint.report.jie REPORT.json [-o FILE] [--lang en] [--fail-on high]`:
    the 戒关检查 Markdown of a JSON report (exit 2 with one line when it cannot be read)."""
    import argparse
    import json
    import sys

    parser = argparse.ArgumentParser(prog="python -m wukong_lint.report.jie")
    parser.add_argument("report", help="a JSON report of `wukong-lint check --format json`")
    parser.add_argument("-o", "--output", help="write the Markdown to FILE (default: stdout)")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh")
    parser.add_argument("--fail-on", choices=("low", "medium", "high", "critical"), default="high")
    args = parser.parse_args(argv)
    try:
        with open(args.report, encoding="utf-8") as handle:
            document = json.load(handle)
        if not isinstance(document, dict):
            raise ValueError("not a JSON object")
        text = render(from_json(document), lang=args.lang, fail_on=args.fail_on)
    except (OSError, ValueError) as err:
        print(f"wukong-lint: error: {args.report}: {err}", file=sys.stderr)
        return 2
    if args.output:
        from wukong_lint.util.fsutil import atomic_write_text

        atomic_write_text(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
