"""code/python/front.py: the Python code rules import their syntax-tree analysis only for a
text in which some rule can report (its gates and `requires_any` words); the findings are
those of the analysis itself."""

from __future__ import annotations

import json
import subprocess
import sys

QUIET = "import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n"
LOUD = (
    "import os\nimport subprocess\n\n\ndef run(request):\n"
    "    name = request.args.get('name')\n"
    "    os.system('convert ' + name)\n"
    "    return subprocess.call('ls ' + name, shell=True)\n"
)


def _scan(tmp_path, text: str) -> tuple[list[str], bool]:
    path = tmp_path / "app.py"
    path.write_text(text)
    code = (
        "import io, json, sys\n"
        "from wukong_lint.cli import main\n"
        "out = io.StringIO(); real = sys.stdout; sys.stdout = out\n"
        "main(['check', '--format', 'json', '--jobs', '1', sys.argv[1]])\n"
        "sys.stdout = real\n"
        "print(json.dumps([out.getvalue(), 'wukong_lint.code.python.analysis' in sys.modules]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          text=True, timeout=60, check=True)  # fmt: skip
    report, imported = json.loads(proc.stdout)
    return [f["rule_id"] for f in json.loads(report)["findings"]], imported


def test_a_file_no_python_rule_can_report_in_does_not_import_the_analysis(tmp_path):
    found, imported = _scan(tmp_path, QUIET)
    assert found == [] and imported is False


def test_a_file_a_rule_can_report_in_is_analysed(tmp_path):
    found, imported = _scan(tmp_path, LOUD)
    assert imported is True
    assert any(rule.startswith("injection.") for rule in found), found
