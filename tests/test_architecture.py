"""The package's shape: no import cycle anywhere in wukong_lint/, and every import follows the
declared layers (docs/architecture.md). An import is any `import` / `from … import` of a
wukong_lint module anywhere in a file: at module level, inside a function (deferred), or
under `if TYPE_CHECKING:`. A deferred import that runs against the layers is allowed only
when DEFERRED_ALLOWED names it with the reason.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "wukong_lint"

# Each package and what it may import besides itself. `wukong_lint` (the package root:
# __version__) and `native` (the compiled-build loader) may be imported by anyone.
BASE = {"wukong_lint", "native"}
LAYERS: dict[str, set[str]] = {
    "util": set(),
    "model": {"util"},
    # decoded and joined views of a text (pure: knows no rules)
    "decode": {"util"},
    "engine": {"decode", "model", "util"},
    "config": {"engine", "model", "util"},
    "report": {"engine", "model", "util"},
    "suppression": {"config", "report", "engine", "model", "util"},
    # the domains: the rule kinds and what they know
    "secrets": {"config", "engine", "model", "util"},
    "shell": {"secrets", "config", "engine", "model", "util"},
    "code": {"config", "engine", "model", "util"},
    "changes": {"config", "engine", "model", "util"},
    "anchors": {"engine", "model", "util"},
    "protocol": {"shell", "secrets", "config", "engine", "model", "util"},
    # input into units, then the runs of scans
    "sources": {
        "protocol", "anchors", "changes", "code", "shell", "secrets",
        "config", "engine", "model", "util",
    },
    "runner": {
        "sources", "protocol", "anchors", "changes", "code", "shell", "secrets",
        "suppression", "report", "config", "engine", "model", "util",
    },
    "migrate": {"runner", "sources", "config", "engine", "model", "util"},
    # the agents' hook dialects, and the hook's audit log
    "agents": {"model", "util"},
    "audit": {"engine", "model", "util"},
    "install": {"agents", "audit", "config", "engine", "model", "util"},
    "explain": {
        "hook", "runner", "sources", "protocol", "anchors", "changes", "code", "shell",
        "secrets", "suppression", "report", "config", "engine", "model", "util",
    },
    "hook": {
        "runner", "sources", "protocol", "anchors", "changes", "code", "shell", "secrets",
        "suppression", "report", "config", "engine", "model", "util",
    },
    "cli": {
        "agents", "audit", "install", "explain", "hook", "migrate", "runner", "sources",
        "protocol", "anchors", "changes", "code", "shell", "secrets", "suppression", "report",
        "config", "engine", "model", "util",
    },
    "__main__": {"cli"},
}  # fmt: skip

# (importing module, imported module): why a deferred import may run against the layers
DEFERRED_ALLOWED: dict[tuple[str, str], str] = {}


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if any(p.startswith(("_native", "__pycache__")) for p in parts):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, bool]]:
    """(imported module, deferred) of each wukong_lint import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    for node in tree.body:  # `if TYPE_CHECKING:` and `try:` blocks at module level count as top
        if isinstance(node, (ast.If, ast.Try)):
            top |= {id(n) for n in ast.walk(node)}
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = name if is_package else name.rpartition(".")[0]
            if node.level:
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                prefix = base + ("." + node.module if node.module else "")
            else:
                prefix = node.module or ""
            targets = [prefix] + [f"{prefix}.{alias.name}" for alias in node.names]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.append((target, id(node) not in top))
    return found


@functools.cache  # parsing the package takes ~1 s of CPU: its tests share one read (read-only)
def _graph() -> dict[str, dict[str, bool]]:
    """module -> {imported module: deferred (only deferred imports of it)}."""
    modules = _modules()
    graph: dict[str, dict[str, bool]] = {}
    for name, path in modules.items():
        edges: dict[str, bool] = {}
        for target, deferred in _imports(name, path, modules):
            edges[target] = edges.get(target, True) and deferred
        graph[name] = edges
    return graph


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _cycles(graph: dict[str, dict[str, bool]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _violations(graph: dict[str, dict[str, bool]]) -> list[str]:
    bad = []
    for module, edges in sorted(graph.items()):
        source = _package(module)
        allowed = LAYERS.get(source)
        for target, deferred in sorted(edges.items()):
            dest = _package(target)
            if dest == source or dest in BASE:
                continue
            if allowed is not None and dest in allowed:
                continue
            if deferred and (module, target) in DEFERRED_ALLOWED:
                continue
            how = "deferred " if deferred else ""
            bad.append(f"{module} -> {target} ({how}{source} may not import {dest})")
    return bad


def test_no_import_cycle() -> None:
    cycles = _cycles(_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_imports_follow_the_layers() -> None:
    bad = _violations(_graph())
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


def test_every_package_is_declared_and_says_what_it_owns() -> None:
    modules = _modules()
    packages = {_package(m) for m in modules if m != "wukong_lint"}
    undeclared = packages - set(LAYERS) - BASE
    assert not undeclared, f"packages without a layer: {sorted(undeclared)}"
    for package in LAYERS:
        if package == "__main__":
            continue
        init = PACKAGE / package / "__init__.py"
        text = init.read_text(encoding="utf-8")
        docstring = ast.get_docstring(ast.parse(text)) or ""
        assert "import" in docstring, f"{package}/__init__.py does not say what it may import"
    # the layers themselves run one way: no package may import one that may import it
    for package, allowed in LAYERS.items():
        for other in allowed:
            assert package not in LAYERS.get(other, set()), (package, other)


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"wukong_lint.a.x": {"wukong_lint.b.y": False},
          "wukong_lint.b.y": {"wukong_lint.a.x": True}},
         [["wukong_lint.a.x", "wukong_lint.b.y"]]),
        ({"wukong_lint.a.x": {"wukong_lint.b.y": False}, "wukong_lint.b.y": {}}, []),
    ],
)  # fmt: skip
def test_the_cycle_finder_finds_cycles(graph: dict, expected: list) -> None:
    assert _cycles(graph) == expected


def test_a_layer_violation_is_reported_deferred_or_not() -> None:
    graph = {
        "wukong_lint.engine.x": {"wukong_lint.cli.y": True},
        "wukong_lint.util.z": {"wukong_lint.model.m": False},
        "wukong_lint.cli.y": {"wukong_lint.engine.x": False},
    }
    bad = _violations(graph)
    assert bad == [
        "wukong_lint.engine.x -> wukong_lint.cli.y (deferred engine may not import cli)",
        "wukong_lint.util.z -> wukong_lint.model.m (util may not import model)",
    ]


def test_no_module_is_over_800_lines() -> None:
    big = {
        name: n
        for name, path in _modules().items()
        if (n := path.read_text(encoding="utf-8").count("\n")) > 800
    }
    assert not big, big
