"""The explanation of one call (`explain`): judged by the hook's own steps, described by
the shell model."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from wukong_lint.model import Severity


class Fired(NamedTuple):
    rule: str
    severity: str
    message: str  # the reason, with the safer way the rule names


class Path(NamedTuple):
    word: str  # as written
    mode: str  # read | write | list | find
    resolved: str | None  # absolute, or None: depends on something unknown
    place: str  # the class of the place (shell/path_reasoning.py): project, home, system...


class Explanation(NamedTuple):
    verdict: str  # deny | ask | allow
    tool: str
    subject: str  # the command line or the path
    fired: tuple[Fired, ...]
    commands: tuple[str, ...]  # one per command that runs, with its wrapper chain
    paths: tuple[Path, ...]
    unresolved: tuple[str, ...]

    def to_json(self) -> str:
        data = self._asdict()
        data["fired"] = [f._asdict() for f in self.fired]
        data["paths"] = [p._asdict() for p in self.paths]
        return json.dumps(data, indent=2, ensure_ascii=False)

    def to_text(self) -> str:
        out = [f"verdict: {self.verdict}  ({self.tool}: {self.subject})"]
        out.append("rules that fired:" if self.fired else "rules that fired: none")
        out += [f"  {f.rule} ({f.severity}): {f.message}" for f in self.fired]
        if self.commands:
            out.append("commands that would run:")
            out += [f"  {line}" for line in self.commands]
        if self.paths:
            out.append("paths:")
            for p in self.paths:
                where = p.resolved if p.resolved is not None else "?"
                out.append(f"  {p.word} ({p.mode}) -> {where}  [{p.place}]")
        if self.unresolved:
            out.append("could not be resolved:")
            out += [f"  {word}" for word in self.unresolved]
        return "\n".join(out) + "\n"


def hook_event(tool: str, command: str | None, path: str | None, cwd: str) -> dict[str, Any]:
    """The PreToolUse event the hook would get for this call (Claude Code's shape)."""
    tool_input = {"command": command} if command is not None else {"file_path": path}
    return {"session_id": "explain", "cwd": cwd, "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input}  # fmt: skip


def judge(data: dict[str, Any], config: Any, ruleset: Any, profile: str | None,
          fail_on: str | None) -> tuple[str, list[Any]]:  # fmt: skip
    """(verdict, findings) of the event, by the steps the hook takes (cli/hook.py _judge)."""
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.hook.judge import decide, event_units
    from wukong_lint.hook.memory_bank import apply_guard_mode
    from wukong_lint.hook.scripts import script_findings

    notes: list[str] = []
    findings = []
    for unit in event_units(data, profile, notes, False):
        found, _ = scan_unit(ruleset, unit)
        findings += [f for f in found if not f.suppressed]
    findings += script_findings(data, ruleset, profile)
    findings = apply_guard_mode(ruleset, findings, notes)
    if config.exclude or config.per_path_ignores:
        from wukong_lint.hook.paths import apply_config_paths

        findings = [f for f in apply_config_paths(data, config, findings) if not f.suppressed]
    threshold = Severity.parse(fail_on or config.fail_on or "high")
    _, out, _, blocked = decide(data, findings, threshold, "json")
    verdict = "deny" if blocked else "ask" if '"ask"' in out else "allow"
    return verdict, findings


def explain(data: dict[str, Any], verdict: str, findings: list[Any]) -> Explanation:
    tool = data["tool_name"]
    tool_input = data["tool_input"]
    cwd = data["cwd"]
    command = tool_input.get("command")
    fired = tuple(
        Fired(f.rule_id, f.severity.label, f.message)
        for f in sorted(findings, key=lambda f: (-f.severity, f.rule_id))
    )
    commands: tuple[str, ...] = ()
    accesses: list[tuple[str, str]] = []
    if command is not None:
        from wukong_lint.shell.accesses import shell_accesses

        commands = chains(command)
        accesses = [
            (w, m) for w, m in shell_accesses(command) if w and not any(c.isspace() for c in w)
        ]  # fmt: skip (a wrapper's script is no path)
    else:
        mode = "write" if tool in ("Edit", "Write", "MultiEdit", "NotebookEdit") else "read"
        accesses = [(tool_input["file_path"], mode)]
    from wukong_lint.shell.path_reasoning import classify, home_of, resolve

    home = home_of(cwd)  # (a stand-in folder: shown as ~)
    paths = []
    unresolved = []
    for word, mode in dict.fromkeys(accesses):
        resolved = resolve(word, ".", cwd)
        if resolved is not None and (resolved + "/").startswith(home.rstrip("/") + "/"):
            resolved = "~" + resolved[len(home.rstrip("/")) :]
        paths.append(Path(word, mode, resolved, classify(word, ".", cwd)))
        if resolved is None:
            unresolved.append(word)
    return Explanation(verdict, tool, command if command is not None else tool_input["file_path"],
                       fired, commands, tuple(paths), tuple(unresolved))  # fmt: skip


def chains(command: str) -> tuple[str, ...]:
    """Each command the shell would run, after its wrappers: `sudo → env → sh -c → rm -rf /`
    (the wrappers themselves are not listed on their own)."""
    import shlex

    from wukong_lint.shell.parse import parse

    script = parse(command)
    wrappers = set()
    for c in script.commands:
        for i in range(1, len(c.via) + 1):
            wrappers.add(c.via[:i])
    by_key = {(*c.via, c.name): c for c in script.commands}
    lines = []
    for c in script.commands:
        if (*c.via, c.name) in wrappers or not c.argv:
            continue
        shown = []
        for i in range(len(c.via)):
            outer = by_key.get(c.via[: i + 1])
            name = c.via[i]
            inner = c.via[i + 1] if i + 1 < len(c.via) else c.name
            words = outer.argv[1:] if outer is not None else ()
            own = words[: words.index(inner)] if inner in words else words[:1]
            if "-c" in own:  # (its own option, not a later wrapper's)
                name += " -c"
            shown.append(name)
        where = f"  (in {c.cwd})" if c.cwd not in (".", "") else ""
        lines.append(" → ".join([*shown, shlex.join(c.argv)]) + where)
    if script.error:
        lines.append("(the text does not parse whole as shell: judged by its words too)")
    return tuple(lines)
