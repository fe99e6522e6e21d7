"""The labelled dangerous-command corpus (tests/fixtures/commands/*.txt) and its verdicts.

Each file holds one command per line as `<class><TAB><command>`, `⏎` standing for a line
break inside the command: `deny.txt` (destructive: must be denied), `ask.txt` (the confirm
tier: must be stopped, by ask or deny), `allow.txt` (safe look-alikes: printing, searching,
describing, dry runs, project-local cleanups, commit messages, public keys, unbalanced
quotes). Every command is judged as the live hook judges a Bash call: all rules, profile
`generic`, the project at PROJECT. Used by tests/test_command_corpus.py and
bench/commands_corpus.py.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import NamedTuple

CORPUS = Path(__file__).parent / "fixtures" / "commands"
PROJECT = "/home/dev/project"
TIERS = ("deny", "ask", "allow")


class Case(NamedTuple):
    tier: str  # the labelled verdict: deny, ask or allow
    cls: str  # the class of command (a line's first field)
    command: str
    line: int


def load() -> list[Case]:
    cases = []
    for tier in TIERS:
        text = (CORPUS / f"{tier}.txt").read_text(encoding="utf-8")
        for number, line in enumerate(text.split("\n"), 1):
            if not line.strip() or line.startswith("#"):
                continue
            cls, _, command = line.partition("\t")
            cases.append(Case(tier, cls, command.replace("⏎", "\n"), number))
    return cases


def verdicts(cases: list[Case], profile: str = "generic") -> dict[Case, tuple[str, list[str]]]:
    """(verdict, rule ids) of each case: deny (a high or critical finding), ask (medium),
    allow (nothing, or only low findings)."""
    from wukong_lint.engine.loader import load_rules
    from wukong_lint.engine.scan import scan_unit
    from wukong_lint.model import Severity
    from wukong_lint.model.events import Context, call_event, make_unit

    ruleset = load_rules()
    ctx = Context(profile, False, {}, PROJECT)
    found = {}
    for case in cases:
        event, text = call_event(
            ctx, 1, "Bash", {"command": case.command}, None, "main", None, True
        )
        findings, _ = scan_unit(ruleset, make_unit("<corpus>", event, text))
        worst = max((f.severity for f in findings), default=Severity.LOW)
        rules = sorted({f.rule_id for f in findings if f.severity >= Severity.MEDIUM})
        if worst >= Severity.HIGH:
            verdict = "deny"
        elif worst == Severity.MEDIUM:
            verdict = "ask"
        else:
            verdict = "allow"
        found[case] = (verdict, rules)
    return found


class Rates(NamedTuple):
    denied: float  # deny-labelled commands denied
    stopped: float  # ask-labelled commands asked or denied
    allow_denied: float  # look-alikes denied
    allow_asked: float  # look-alikes asked
    per_class: dict[tuple[str, str], Counter[str]]


def rates(found: dict[Case, tuple[str, list[str]]]) -> Rates:
    per_class: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    by_tier: dict[str, Counter[str]] = defaultdict(Counter)
    for case, (verdict, _) in found.items():
        per_class[(case.tier, case.cls)][verdict] += 1
        by_tier[case.tier][verdict] += 1

    def share(tier: str, *verdicts: str) -> float:
        total = sum(by_tier[tier].values())
        return sum(by_tier[tier][v] for v in verdicts) / total if total else 0.0

    return Rates(
        share("deny", "deny"),
        share("ask", "ask", "deny"),
        share("allow", "deny"),
        share("allow", "ask"),
        dict(per_class),
    )
