"""`wukong-lint doctor`: is the hook wired into each agent found, and does it really fire?

For each agent with a configuration folder (user or project) or a registration: where the
hook is registered and for which events; whether the registered command's executable
exists; whether it is the compiled or the pure build (`--version`); whether each config
file parses; and the proof: a synthetic event in the agent's shape, fed to the registered
command line as the agent runs it (`sh -c`), must come back denied for `rm -rf ~` and
allowed for `ls`. Plus: the cache and audit folders are writable, the project's wukong-lint
config loads. Each problem is one line with its fix.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from typing import Any, NamedTuple

from wukong_lint.agents import NAMES, adapter
from wukong_lint.install import registration as reg

PROBES = (("rm -rf ~", "deny"), ("ls", "allow"))
TIMEOUT = 30  # seconds for one run of the registered command


class Finding(NamedTuple):
    agent: str
    ok: bool
    text: str  # what was found, or the problem
    fix: str = ""


def _agent_dirs(module: Any, project: str, home: str) -> list[str]:
    """The folders whose presence says the agent is used here."""
    return [
        os.path.join(home, module.CONFIG["user"].split("/")[0]),
        os.path.join(project, module.CONFIG["project"].split("/")[0]),
    ]


def check(project: str, home: str, agents: tuple[str, ...] = NAMES) -> list[Finding]:
    found: list[Finding] = []
    for name in agents:
        module = adapter(name)
        targets = [
            (scope, reg.config_path(module, scope, project, home)) for scope in ("user", "project")
        ]
        present = [d for d in _agent_dirs(module, project, home) if os.path.isdir(d)]
        if name == "copilot":  # (.github holds more than Copilot's hooks)
            present = [d for d in present if not d.endswith(".github")] + [
                os.path.dirname(p) for _, p in targets if os.path.isdir(os.path.dirname(p))
            ]
        registrations = []
        for scope, path in targets:
            if not os.path.exists(path):
                continue
            try:
                data, _ = reg.load(path)
            except Exception as err:
                again = f"{name} --project" if scope == "project" else name
                found.append(Finding(name, False, f"config invalid: {err}",
                                     f"fix the JSON of {path}, then `wukong-lint install "
                                     f"{again}`"))  # fmt: skip
                continue
            for event, commands in reg.registered(data).items():
                registrations += [(scope, path, event, command) for command in commands]
        if not present and not registrations:
            continue  # (the agent is not used on this machine)
        if not registrations:
            found.append(Finding(name, False, "hook not registered",
                                 f"run `wukong-lint install {name}`"))  # fmt: skip
            continue
        by_file: dict[str, list[str]] = {}
        for _, path, event, _ in registrations:
            by_file.setdefault(path, []).append(event)
        for path, events in by_file.items():
            found.append(Finding(name, True, f"registered in {path} for {', '.join(events)}"))
            missing = [e for e in module.EVENTS if e not in events]
            if missing:
                text = f"{path}: not registered for {', '.join(missing)}"
                found.append(Finding(name, False, text, f"run `wukong-lint install {name}`"))
        for command in dict.fromkeys(command for *_, command in registrations):
            found += _check_command(name, module, command, project)
    return found


def _check_command(name: str, module: Any, command: str, project: str) -> list[Finding]:
    try:
        words = shlex.split(command)
    except ValueError as err:
        return [Finding(name, False, f"registered command cannot be read ({err}): {command}",
                        f"run `wukong-lint install {name}`")]  # fmt: skip
    exe = words[0] if words else ""
    if not (os.path.isabs(exe) and os.path.isfile(exe) and os.access(exe, os.X_OK)):
        why = "is not an absolute path" if not os.path.isabs(exe) else "does not exist"
        return [Finding(name, False, f"registered executable {exe!r} {why}",
                        f"run `wukong-lint install {name}` (it writes this installation's "
                        "absolute path)")]  # fmt: skip
    found = []
    head = command[: command.find(" hook")] if " hook" in command else shlex.quote(exe)
    version = _run(head + " --version", "")
    if version is not None and version[0] == 0:
        found.append(Finding(name, True, f"runs: {version[1].strip()}"))
    for probe, expected in PROBES:
        event = json.dumps(module.synthetic(probe, project))
        result = _run(command, event)
        if result is None:
            found.append(Finding(name, False, f"the hook did not answer `{probe}` in {TIMEOUT} s",
                                 "see the hook's log under the cache folder"))  # fmt: skip
            continue
        code, out, err = result
        got = module.decision_of(code, out)
        if got == expected:
            found.append(Finding(name, True, f"`{probe}` -> {got}"))
            continue
        detail = (err.strip().splitlines() or [out.strip()[:200]])[-1] if (err or out) else ""
        found.append(Finding(name, False,
                             f"`{probe}` came back {got} (exit {code}), expected {expected}"
                             + (f": {detail}" if detail else ""),
                             "fix the error above (a broken config: `wukong-lint config "
                             f"show`), or run `wukong-lint install {name}`"))  # fmt: skip
    return found


def _run(command: str, stdin: str) -> tuple[int, str, str] | None:
    """Run a command line as the agents do (`sh -c`); None on a timeout."""
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", command], input=stdin.encode(), capture_output=True,
            timeout=TIMEOUT, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (
        done.returncode,
        done.stdout.decode(errors="replace"),
        done.stderr.decode(errors="replace"),
    )


def environment(project: str) -> list[Finding]:
    """The folders the hook writes and the project's wukong-lint config."""
    from wukong_lint.audit.log import audit_dir
    from wukong_lint.engine.patterns import cache_dir

    found = []
    for what, folder in (("cache", cache_dir()), ("audit log", audit_dir())):
        if not folder:
            found.append(Finding("wukong-lint", False, f"no {what} folder (no home folder)",
                                 "set HOME or XDG_CACHE_HOME / XDG_STATE_HOME"))  # fmt: skip
            continue
        probe = folder
        while not os.path.exists(probe) and os.path.dirname(probe) != probe:
            probe = os.path.dirname(probe)
        if os.access(probe, os.W_OK):
            found.append(Finding("wukong-lint", True, f"{what} folder writable: {folder}"))
        else:
            found.append(Finding("wukong-lint", False, f"{what} folder not writable: {folder}",
                                 f"make {probe} writable, or point "
                                 + ("WUKONG_LINT_CACHE_DIR" if what == "cache"
                                    else "WUKONG_LINT_AUDIT_DIR") + " elsewhere"))  # fmt: skip
    from wukong_lint.config.project import find_config, load_config

    path = find_config(project)
    if path:
        try:
            load_config(path)
            found.append(Finding("wukong-lint", True, f"config valid: {path}"))
        except Exception as err:
            found.append(Finding("wukong-lint", False, f"config invalid: {err}",
                                 f"fix {path} (`wukong-lint config show`)"))  # fmt: skip
    return found
