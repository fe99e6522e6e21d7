"""Reporters: each renders the one Report model to a string."""

from __future__ import annotations

from collections.abc import Callable

from wukong_lint.model import Report

FORMATS = ("text", "json", "sarif", "github", "junit", "jie")
# Formats whose renderer takes `rules` (the rule set that ran) and `prefix` (the repo-relative
# folder that the report's relative paths start from); see report/paths.py.
CONTEXT_FORMATS = ("sarif", "github", "junit")


def render(report: Report, fmt: str, *, color: bool = False, **context: object) -> str:
    renderer: Callable[..., str]
    if fmt == "json":
        from wukong_lint.report.json_report import render as renderer
    elif fmt == "jie":  # the 戒关检查 report (context: lang, fail_on)
        from wukong_lint.report.jie import render as renderer

        return renderer(report, **context)
    elif fmt in CONTEXT_FORMATS:
        from importlib import import_module

        renderer = import_module(f"wukong_lint.report.{fmt}").render
        return renderer(report, **context)
    else:
        from wukong_lint.report.text import render as renderer
    return renderer(report, color=color)
