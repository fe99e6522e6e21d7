"""The command validation corpus (bench/corpora/commands/command_validation_corpus.py) is well
formed: labels, no duplicates, every class of issue 12 present, at least as many look-alikes as
the rest."""

from __future__ import annotations

import importlib.util
import shlex
import sys
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench/corpora/commands/command_validation_corpus.py"


def _corpus():
    if "command_validation_corpus" in sys.modules:
        return sys.modules["command_validation_corpus"]
    spec = importlib.util.spec_from_file_location("command_validation_corpus", BENCH)
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules
    sys.modules["command_validation_corpus"] = module
    spec.loader.exec_module(module)
    return module


def test_labels_counts_and_no_duplicates() -> None:
    items = _corpus().build()
    labels = Counter(it.label for it in items)
    assert set(labels) == {"deny", "ask", "allow"}
    assert len(items) >= 600
    assert labels["allow"] >= labels["deny"] + labels["ask"]
    commands = [it.command for it in items]
    assert len(commands) == len(set(commands))
    assert all(it.command.strip() and "\x00" not in it.command for it in items)


def test_every_class_has_commands_and_wrapped_variants() -> None:
    module = _corpus()
    items = module.build()
    classes = Counter(it.cls.split("+")[0] for it in items)
    for table in (module.DENY_CORE, module.ASK_CORE, module.ALLOW_CORE):
        for cls in table:
            assert classes[cls] >= 3, cls
    wrappers = {it.cls.split("+")[1] for it in items if "+" in it.cls}
    assert wrappers == {name for name, _ in module.WRAPPERS}


def test_wrapped_commands_quote_their_payload() -> None:
    # A wrapped variant must hand the shell the core command unchanged: the quoted argument of
    # `bash -c` splits back into exactly the core command.
    module = _corpus()
    core = {
        c
        for t in (module.DENY_CORE, module.ASK_CORE, module.ALLOW_CORE)
        for cmds in t.values()
        for c in cmds
    }
    checked = 0
    for it in module.build():
        if it.cls.endswith("+bash-c"):
            words = shlex.split(it.command)
            assert words[:2] == ["bash", "-c"] and words[2] in core, it.command
            checked += 1
    assert checked > 50
