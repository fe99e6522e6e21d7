"""The javascript rule kind beyond the annotated fixtures: bad input (minified, invalid, JSX in
.js, Vue without a script), the line fallback, and that the grammars are imported only for a
JS/TS file holding a trigger word."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from wukong_lint.code.js import syntax as js_syntax
from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Source, Unit

ROOT = Path(__file__).resolve().parent.parent


def _findings(path: str, text: str) -> list[tuple[str, int]]:
    findings, errors = scan_unit(load_rules(), Unit(path, text, Source(kind="file")))
    assert not errors, errors
    return sorted((f.rule_id, f.line) for f in findings if f.rule_id.count(".js-"))


def test_minified_single_line_uses_the_line_patterns():
    # a 2 MB bundle on one line: not walked as a tree, still checked line by line
    chunk = "function a(b){return b+1};var c=[1,2,3].map(function(d){return d*2});"
    body = chunk * (2_000_000 // len(chunk))
    text = body + 'el.innerHTML="<b>"+name;db.query("SELECT * FROM t WHERE id="+id);' + body
    assert js_syntax.too_big(text)
    found = _findings("app.js", text)
    assert ("injection.js-html", 1) in found
    assert ("injection.js-sql", 1) in found


def test_invalid_syntax_is_analysed_as_far_as_it_parses():
    text = (
        "function broken( {\n"
        "  let x = ;;; }}} <<<\n"
        "}\n"
        "function ok(req, res) {\n"
        '  const q = "SELECT * FROM users WHERE id = " + req.params.id;\n'
        "  return db.query(q);\n"
        "}\n"
    )
    assert _findings("broken.js", text) == [("injection.js-sql", 6)]


def test_jsx_in_a_js_file_and_tsx():
    text = "export const A = ({ x }) => <div dangerouslySetInnerHTML={{ __html: x }} />;\n"
    assert _findings("a.js", text) == [("injection.js-html", 1)]
    assert _findings("a.jsx", text) == [("injection.js-html", 1)]
    typed = (
        "export const A = ({ x }: { x: string }) => "
        "<div dangerouslySetInnerHTML={{ __html: x }} />;\n"
    )
    assert _findings("a.tsx", typed) == [("injection.js-html", 1)]


def test_typescript_generics_and_casts_parse():
    text = (
        "export async function f<T>(id: string): Promise<T[]> {\n"
        "  const q = `SELECT * FROM t WHERE id = ${id as string}`;\n"
        "  return (await pool.query<T>(q)).rows;\n"
        "}\n"
    )
    assert _findings("f.ts", text) == [("injection.js-sql", 3)]


def test_vue_without_script_and_with_lang_ts():
    assert _findings("a.vue", '<template><p v-html="msg"></p></template>\n') == [
        ("injection.js-html", 1)
    ]
    text = (
        "<template><p>{{ a }}</p></template>\n"
        '<script setup lang="ts">\n'
        "const el = document.body as HTMLElement;\n"
        "el.innerHTML = props.text as string;\n"
        "</script>\n"
    )
    assert _findings("b.vue", text) == [("injection.js-html", 4)]


def test_deeply_nested_code_is_no_traceback():
    text = "const x = " + "(" * 5000 + "a + 'SELECT * FROM t WHERE id=' + b" + ")" * 5000 + ";\n"
    text += "db.query(" + "[" * 3000 + "]" * 3000 + ");\n"
    _findings("deep.js", text)  # no exception, whatever is found


def test_binary_like_and_odd_unicode_text():
    text = "const s = '\udcff\x00\x01';\nel.innerHTML = s + user;\n"
    assert _findings("odd.js", text) == [("injection.js-html", 2)]


def test_grammars_imported_only_for_a_js_file_with_a_trigger(tmp_path):
    quiet = tmp_path / "quiet"
    quiet.mkdir()
    (quiet / "util.js").write_text("export const add = (a, b) => a + b;\n", encoding="utf-8")
    (quiet / "x.py").write_text("print('hi')\n", encoding="utf-8")
    loud = tmp_path / "loud"
    loud.mkdir()
    (loud / "app.js").write_text("el.innerHTML = '<b>' + name;\n", encoding="utf-8")
    probe = (
        "import sys; from wukong_lint.cli import main; code = main(['check', sys.argv[1], "
        "'--format', 'json', '-o', sys.argv[2]]); "
        "print(any(m.startswith('tree_sitter_javascript') for m in sys.modules), file=sys.stderr)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    seen = []
    for folder in (quiet, loud):
        proc = subprocess.run(
            [sys.executable, "-c", probe, str(folder), str(tmp_path / "out.json")],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        seen.append(proc.stderr.strip().splitlines()[-1])
    assert seen == ["False", "True"]


FIXTURES = ROOT / "tests" / "fixtures" / "code" / "js"


def test_gates_skip_nothing_the_analysis_reports(monkeypatch):
    # the gates of js_gates.py only save parses: without them, the same findings
    from wukong_lint.code.js import analysis as code_js
    from wukong_lint.code.js import gates as js_gates

    files = sorted(p for p in FIXTURES.iterdir() if p.is_file())
    assert files
    gated = {p.name: _findings(p.name, p.read_text(encoding="utf-8")) for p in files}
    monkeypatch.setattr(js_gates, "GATES", {})
    js_gates._memo[0] = None
    code_js._cache[0] = None
    for path in files:
        text = path.read_text(encoding="utf-8") + "\n"  # (a new text: no cached analysis)
        assert _findings(path.name, text) == gated[path.name], path.name
