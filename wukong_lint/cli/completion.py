"""`wukong-lint completion bash|zsh|fish`: a shell completion script built from the argparse
parser itself (sub-commands at every level, their options, and the choices of an option that
has them), so it cannot drift from the options the tool has. No dependency: the scripts are
plain shell, printed to stdout.

    source <(wukong-lint completion bash)            # ~/.bashrc
    source <(wukong-lint completion zsh)             # ~/.zshrc, after compinit
    wukong-lint completion fish | source             # ~/.config/fish/config.fish
"""

from __future__ import annotations

import argparse
import sys
from typing import NamedTuple

PROG = "wukong-lint"
SHELLS = ("bash", "zsh", "fish")


class Option(NamedTuple):
    flags: tuple[str, ...]
    choices: tuple[str, ...]  # () when the value is free (or it takes none)
    takes_value: bool
    help: str


class Command(NamedTuple):
    path: str  # "wukong-lint rules list"
    options: tuple[Option, ...]
    subcommands: tuple[tuple[str, str], ...]  # (name, help)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or fish)",
        description="Print a completion script for SHELL. bash: `source <(wukong-lint "
        "completion bash)`; zsh (after compinit): `source <(wukong-lint completion zsh)`; "
        "fish: `wukong-lint completion fish | source`.",
    )
    parser.add_argument("shell", choices=SHELLS, metavar="SHELL", help="bash, zsh or fish")
    parser.set_defaults(handler=run)


def _help(text: str | None) -> str:
    if not text or text == argparse.SUPPRESS:
        return ""
    line = " ".join(text.split()).replace("%%", "%")
    return line if len(line) <= 70 else line[:67] + "..."


def commands(parser: argparse.ArgumentParser, path: str = PROG) -> list[Command]:
    """Every command of `parser` (itself first), depth first."""
    options: list[Option] = []
    subs: list[tuple[str, str]] = []
    children: list[tuple[str, argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: _help(a.help) for a in action._choices_actions}
            for name, child in action.choices.items():
                if child not in (c for _, c in children):  # (an alias names the same parser)
                    children.append((name, child))
                subs.append((name, helps.get(name, "")))
        elif action.option_strings and action.help != argparse.SUPPRESS:
            choices = tuple(str(c) for c in action.choices) if action.choices else ()
            options.append(
                Option(tuple(action.option_strings), choices, action.nargs != 0, _help(action.help))
            )
    found = [Command(path, tuple(options), tuple(subs))]
    for name, child in children:
        found += commands(child, f"{path} {name}")
    return found


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _helpers(tree: list[Command]) -> str:
    """The shell functions bash and zsh share: sub-commands, options, options that take a
    value, and an option's choices, each by command path."""

    def case(name: str, entries: list[tuple[str, str]]) -> str:
        body = "".join(f"        {key}) echo {_quote(words)} ;;\n" for key, words in entries)
        return f'_wukong_lint_{name}() {{\n    case "$1" in\n{body}    esac\n}}\n'

    subs = [(_quote(c.path), " ".join(n for n, _ in c.subcommands)) for c in tree if c.subcommands]
    opts = [(_quote(c.path), " ".join(f for o in c.options for f in o.flags)) for c in tree]
    valued = [
        (_quote(c.path), " ".join(f for o in c.options if o.takes_value for f in o.flags))
        for c in tree
    ]
    choices = [
        (_quote(f"{c.path}|{flag}"), " ".join(o.choices))
        for c in tree
        for o in c.options
        if o.choices
        for flag in o.flags
    ]
    return (
        case("subs", subs)
        + case("opts", opts)
        + case("valued", [v for v in valued if v[1]])
        + case("choices", choices)
    )


_WALK = """    local cmdpath="wukong-lint" word i
    for ((i = {first}; i < {current}; i++)); do
        word="${{{words}[i]}}"
        [[ "$word" == -* ]] && continue
        [[ " $(_wukong_lint_subs "$cmdpath") " == *" $word "* ]] && cmdpath="$cmdpath $word"
    done
"""

_BASH = """_wukong_lint() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
{walk}    local choices subs
    choices="$(_wukong_lint_choices "$cmdpath|$prev")"
    if [[ -n "$choices" ]]; then
        COMPREPLY=($(compgen -W "$choices" -- "$cur")); return
    fi
    [[ " $(_wukong_lint_valued "$cmdpath") " == *" $prev "* ]] && return  # a file, a value
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(_wukong_lint_opts "$cmdpath")" -- "$cur")); return
    fi
    subs="$(_wukong_lint_subs "$cmdpath")"
    [[ -n "$subs" ]] && COMPREPLY=($(compgen -W "$subs" -- "$cur"))
}}
complete -o default -o bashdefault -F _wukong_lint wukong-lint
"""

_ZSH = """_wukong_lint() {{
    local cur="${{words[CURRENT]}}" prev="${{words[CURRENT-1]}}"
{walk}    local choices subs
    choices="$(_wukong_lint_choices "$cmdpath|$prev")"
    if [[ -n "$choices" ]]; then compadd -- ${{=choices}}; return; fi
    if [[ " $(_wukong_lint_valued "$cmdpath") " == *" $prev "* ]]; then _files; return; fi
    if [[ "$cur" == -* ]]; then compadd -- ${{=$(_wukong_lint_opts "$cmdpath")}}; return; fi
    subs="$(_wukong_lint_subs "$cmdpath")"
    if [[ -n "$subs" ]]; then compadd -- ${{=subs}}; else _files; fi
}}
compdef _wukong_lint wukong-lint
"""


def bash_script(tree: list[Command]) -> str:
    walk = _WALK.format(first=1, current="COMP_CWORD", words="COMP_WORDS")
    head = "# bash completion for wukong-lint (`wukong-lint completion bash`)\n"
    return head + _helpers(tree) + _BASH.format(walk=walk)


def zsh_script(tree: list[Command]) -> str:
    walk = _WALK.format(first=2, current="CURRENT", words="words")
    head = "#compdef wukong-lint\n# zsh completion for wukong-lint (`wukong-lint completion zsh`)\n"
    return head + _helpers(tree) + _ZSH.format(walk=walk)


def fish_script(tree: list[Command]) -> str:
    lines = [
        "# fish completion for wukong-lint (`wukong-lint completion fish`)",
        "function __wukong_lint_subs",
        "    switch $argv[1]",
    ]
    for command in tree:
        if command.subcommands:
            names = " ".join(name for name, _ in command.subcommands)
            lines += [f"        case {_quote(command.path)}", f"            printf '%s\\n' {names}"]
    lines += [
        "    end",
        "end",
        "function __wukong_lint_path",
        "    set -l cmdpath wukong-lint",
        "    for word in (commandline -opc)[2..-1]",
        "        string match -q -- '-*' $word; and continue",
        "        contains -- $word (__wukong_lint_subs $cmdpath); and set cmdpath $cmdpath' '$word",
        "    end",
        "    echo $cmdpath",
        "end",
    ]
    for command in tree:
        when = f"-n 'test (__wukong_lint_path) = \"{command.path}\"'"
        for name, text in command.subcommands:
            lines.append(f"complete -c {PROG} {when} -f -a {name} -d {_quote(text)}")
        for option in command.options:
            flags = " ".join(
                f"-l {f[2:]}" if f.startswith("--") else f"-s {f[1:]}" for f in option.flags
            )
            value = f" -x -a {_quote(' '.join(option.choices))}" if option.choices else ""
            value = value or (" -r" if option.takes_value else "")
            lines.append(f"complete -c {PROG} {when} {flags}{value} -d {_quote(option.help)}")
    return "\n".join(lines) + "\n"


def script(shell: str) -> str:
    from wukong_lint.cli import _build_parser

    tree = commands(_build_parser())
    return {"bash": bash_script, "zsh": zsh_script, "fish": fish_script}[shell](tree)


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(script(args.shell))
    return 0
