"""Reporters: each renders the one Report model to a string (text, concise, json, sarif,
junit, github, jie), plus the progress bar and repository-relative paths.

Layer: above `engine` (printable text from engine/masking). May import `engine`, `model`,
`util`; must not import config, a domain, sources, hook or cli.
"""

from __future__ import annotations

from collections.abc import Callable

from wukong_lint.model import Report

FORMATS = ("text", "concise", "json", "sarif", "github", "junit", "jie")
# Formats whose renderer takes `rules` (the rule set that ran) and `prefix` (the repo-relative
# folder that the report's relative paths start from); see report/paths.py.
CONTEXT_FORMATS = ("sarif", "github", "junit")


def render(
    report: Report, fmt: str, *, color: bool = False, quiet: bool = False, **context: object
) -> str:
    """`quiet` (text, concise): the findings only, no summary; nothing for a clean run."""
    renderer: Callable[..., str]
    if fmt == "concise":
        from wukong_lint.report.concise import render as concise

        return concise(report, quiet=quiet)
    if fmt == "jie":  # the 戒关检查 report (context: lang, fail_on)
        from wukong_lint.report.jie import render as jie

        return jie(report, **context)
    if fmt == "json":
        from wukong_lint.report.json_report import render as renderer
    elif fmt in CONTEXT_FORMATS:
        from importlib import import_module

        renderer = import_module(f"wukong_lint.report.{fmt}").render
        return renderer(report, **context)
    else:
        from wukong_lint.report.text import render as text

        return text(report, color=color, quiet=quiet)
    return renderer(report, color=color)
