"""Reporters: each renders the one Report model to a string."""

from __future__ import annotations

from collections.abc import Callable

from wukong_lint.model import Report

FORMATS = ("text", "json")


def render(report: Report, fmt: str, *, color: bool = False) -> str:
    renderer: Callable[..., str]
    if fmt == "json":
        from wukong_lint.report.json_report import render as renderer
    else:
        from wukong_lint.report.text import render as renderer
    return renderer(report, color=color)
