"""git's command line as git reads it: abbreviated long options and aliases defined on the
same line, so that the command rules see the options that run.

- git's option parser (parse-options) takes any unambiguous prefix of a subcommand's long
  option: `git reset --har` is `git reset --hard`, `git push --forc` is `--force`. A prefix
  is expanded to every option of the subcommand it starts (an ambiguous one, which git
  refuses, is judged as all of them: never as none). The options below are git's own, per
  subcommand (the ones the rules read and those that share their first letters).
- `git config alias.rh 'reset --hard' && git rh` runs `git reset --hard`: an alias the line
  defines (`git config [--global|--local] alias.NAME VALUE`, `git config set alias.NAME
  VALUE`) is expanded where it is used later on the line. (`git -c alias.NAME=...` is
  unwrapped before this: shell/unwrap.py.) (An alias that runs a shell
  command, `!...`, is the code-running programs' business.)

The top-level options before the subcommand (`-C`, `-c`, `--git-dir=`) are not abbreviated
by git, and are left as they are.
"""

from __future__ import annotations

import shlex

from wukong_lint.shell.model import Script


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


GIT_LONG_OPTIONS: dict[str, frozenset[str]] = {
    "reset": _names(
        "quiet no-quiet refresh no-refresh mixed soft hard merge keep recurse-submodules "
        "no-recurse-submodules patch intent-to-add pathspec-from-file pathspec-file-nul"
    ),
    "clean": _names("quiet dry-run force interactive exclude"),
    "push": _names(
        "verbose quiet repo all branches mirror delete tags dry-run porcelain force "
        "force-with-lease no-force-with-lease force-if-includes no-force-if-includes "
        "recurse-submodules thin no-thin receive-pack exec set-upstream progress prune "
        "no-verify verify follow-tags no-follow-tags signed no-signed atomic no-atomic "
        "push-option ipv4 ipv6"
    ),
    "checkout": _names(
        "quiet progress no-progress force ours theirs track no-track guess no-guess detach "
        "orphan ignore-skip-worktree-bits merge conflict patch ignore-other-worktrees "
        "overwrite-ignore no-overwrite-ignore recurse-submodules no-recurse-submodules "
        "overlay no-overlay pathspec-from-file pathspec-file-nul"
    ),
    "switch": _names(
        "create force-create detach guess no-guess force discard-changes merge conflict "
        "quiet progress no-progress track no-track orphan ignore-other-worktrees "
        "recurse-submodules no-recurse-submodules"
    ),
    "restore": _names(
        "source patch worktree staged quiet progress no-progress ours theirs merge conflict "
        "ignore-unmerged ignore-skip-worktree-bits recurse-submodules no-recurse-submodules "
        "overlay no-overlay pathspec-from-file pathspec-file-nul"
    ),
    "branch": _names(
        "delete create-reflog force move copy color no-color list show-current verbose "
        "quiet abbrev no-abbrev track no-track set-upstream-to unset-upstream "
        "edit-description contains no-contains merged no-merged column no-column sort "
        "points-at format remotes all ignore-case omit-empty recurse-submodules"
    ),
    "stash": _names(
        "patch staged keep-index no-keep-index include-untracked no-include-untracked all "
        "quiet message pathspec-from-file pathspec-file-nul index"
    ),
    "gc": _names("aggressive auto quiet prune no-prune force keep-largest-pack cruft"),
    "reflog": _names(
        "expire expire-unreachable rewrite updateref stale-fix all single-worktree verbose dry-run"
    ),
    "worktree": _names("force detach checkout no-checkout lock reason orphan track quiet"),
    "update-ref": _names("delete no-deref stdin create-reflog message"),
    "config": _names(
        "global system local worktree file blob get get-all get-regexp get-urlmatch "
        "replace-all add unset unset-all rename-section remove-section list fixed-value "
        "type bool int bool-or-int path expiry-date null name-only includes no-includes "
        "show-origin show-scope default edit"
    ),
    "submodule": _names("force all quiet recursive init remote no-fetch checkout merge rebase"),
    "rm": _names(
        "force cached quiet dry-run ignore-unmatch sparse pathspec-from-file pathspec-file-nul"
    ),
    "lfs": _names("dry-run verify-remote verify-unreachable recent force everything"),
}
# top-level options that take the next word as their value
_GLOBAL_VALUES = frozenset(["-C", "-c", "--git-dir", "--work-tree", "--namespace",
                            "--super-prefix", "--config-env", "--exec-path"])  # fmt: skip


def _subcommand_at(argv: tuple[str, ...]) -> int:
    """The index of git's subcommand in its words (len(argv) when there is none)."""
    index = 1
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return index + 1
        if not word.startswith("-"):
            return index
        index += 2 if word in _GLOBAL_VALUES else 1
    return index


def expand_abbreviations(argv: tuple[str, ...]) -> tuple[str, ...]:
    """A git command's words with its abbreviated long options written out."""
    at = _subcommand_at(argv)
    if at >= len(argv):
        return argv
    options = GIT_LONG_OPTIONS.get(argv[at])
    if options is None:
        return argv
    out = list(argv[: at + 1])
    changed = False
    for word in argv[at + 1 :]:
        if word == "--":
            out += argv[len(out) :]
            break
        if not word.startswith("--") or len(word) < 3:
            out.append(word)
            continue
        name, equals, value = word[2:].partition("=")
        if name in options:
            out.append(word)
            continue
        found = sorted(option for option in options if option.startswith(name))
        if not found:
            out.append(word)
            continue
        changed = True
        out += [f"--{option}{equals}{value}" for option in found]
    return tuple(out) if changed else argv


def _alias(argv: tuple[str, ...]) -> tuple[str, str] | None:
    """(name, value) of `git config [scope] alias.NAME VALUE` (or `config set`)."""
    at = _subcommand_at(argv)
    if at >= len(argv) or argv[at] != "config":
        return None
    words = [w for w in argv[at + 1 :] if not w.startswith("-")]
    if words and words[0] == "set":
        words = words[1:]
    if len(words) >= 2 and words[0].lower().startswith("alias.") and len(words[0]) > 6:
        return words[0][6:], words[1]
    return None


def with_git_options(script: Script) -> Script:
    """The script with each git command as git reads it: aliases defined earlier on the
    line expanded, abbreviated long options written out (the same script when nothing
    changes)."""
    commands = list(script.commands)
    aliases: dict[str, str] = {}
    changed = False
    for index, command in enumerate(commands):
        if command.name != "git":
            continue
        argv = command.argv
        found = _alias(argv)
        if found is not None:
            aliases[found[0]] = found[1]
        at = _subcommand_at(argv)
        if aliases and at < len(argv) and argv[at] in aliases:
            value = aliases[argv[at]]
            if not value.startswith("!"):
                try:
                    words = tuple(shlex.split(value))
                except ValueError:
                    words = tuple(value.split())
                argv = argv[:at] + words + argv[at + 1 :]
        argv = expand_abbreviations(argv)
        if argv != command.argv:
            commands[index] = command._replace(argv=argv)
            changed = True
    if not changed:
        return script
    return script._replace(commands=tuple(commands))
