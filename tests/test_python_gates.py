"""The gates of python_gates.py skip the parse of a file only when its check cannot report
anything there: the Python rules find exactly the same with and without them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wukong_lint.code.python import gates as python_gates
from wukong_lint.code.python import matcher as code_python
from wukong_lint.engine.loader import load_rules
from wukong_lint.engine.scan import scan_unit
from wukong_lint.model import Source, Unit

from .python_fixtures import top_level_statements

FIXTURES = Path(__file__).parent / "fixtures" / "code"


def _findings(text: str, path: str = "settings.py") -> set[tuple[str, int, int]]:
    ruleset = load_rules().select(lambda r: r.kind == "python")
    code_python._cache[0] = None
    python_gates._gated[0] = None
    findings, errors = scan_unit(ruleset, Unit(path, text, Source(kind="file")))
    assert not errors
    return {(f.rule_id, f.line, f.column) for f in findings}


def _same_without_gates(text: str, path: str) -> set:
    gated = _findings(text, path)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(python_gates, "GATES", {})
        assert _findings(text, path) == gated, text
    return gated


# -- what each gate must let through (the check reports these) ------------------------------

ENVIRONMENT = [
    "return jsonify(dict(os.environ))",
    "return jsonify(os.environ.copy())",
    "env = os.environ\nreturn jsonify(env)",
    "from os import environ as E\nreturn jsonify(E.copy())",
    "return jsonify(os.environ.items())",
    "return jsonify(os . environ)",
    "return jsonify(os.environ .get)",  # (not the usual spelling: passes, to be safe)
    "return jsonify(os.ｅnviron.copy())",  # NFKC: the same identifier
]
DEBUG = ["DEBUG = True", "DEBUG=True", "X = DEBUG = True", "(DEBUG) = (\n    True\n)"]
SQL = [
    "cursor.execute(f'SELECT {x}')",
    "q = 'SELECT * FROM t WHERE id = ' + uid\ncursor.execute(q)",
    "cursor.execute(q)\nq += x",
    "rows.append(f'{x}')\ncursor.execute(rows)",
    "cursor.execute(query=f'SELECT {x}')",
    "cursor.execute(sql  # the query\n    = q)",
    "cursor.execute\\\n    (f'SELECT {x}')",
    "(cursor.execute)(f'SELECT {x}')",
    "(text)(f'DELETE FROM t WHERE id = {i}')",
    "from sqlalchemy import text as sa_text\nsa_text(f'SELECT {x}')",
    "from sqlalchemy import (\n    text  # the SQL\n    as sa_text,\n)",
    "import sqlalchemy.sql.text as t",
    "qs.extra(where=[clause])",
    "qs.extra(select)",
    "RawSQL(sql, params)",
    "cursor.execute(*parts)",
    "cursor.execute(q.strip())",
    "cursor.execute('SELECT 1' + x)",
    "def run(q):\n    db.execute(q)\n",  # q is a parameter: bound elsewhere in the file
    "def text(f'broken {x}'):",  # unparsable: the line patterns look at it
    "x = 'caf\u00e9'\ncursor.execute(q)",
    "cursor.execute(Q, query=f'SELECT {x}')",
    "cursor.execute(Q, params=dict(a=1),\n    where=f'id = {x}')",
    "cursor.execute(Q, (')',), sql=f'SELECT {x}')",  # a bracket in a string
    "cursor.execute(Q, [a, (b)],  # note (\n    sql=f'SELECT {x}')",
]


@pytest.mark.parametrize("text", ENVIRONMENT)
def test_environment_gate_passes(text: str):
    assert python_gates.environment(text)


@pytest.mark.parametrize("text", DEBUG)
def test_debug_gate_passes(text: str):
    assert python_gates.debug_setting(text)


@pytest.mark.parametrize("text", SQL)
def test_sql_gate_passes(text: str):
    assert python_gates.sql(text)


# -- what they skip (most files holding a rule's keyword) -----------------------------------

HARMLESS = (
    "import os\nimport logging\nlogger = logging.getLogger(__name__)\n"
    'SECRET = os.environ["SECRET_KEY"]\nHOST = os.environ.get("HOST", "localhost")\n'
    'os.environ.setdefault("MODE", "prod")\nDEBUG = False\n\n\n'
    "class Repo:\n    def fetch(self, key: str) -> dict:\n"
    '        logger.debug("fetch %s", key)\n'
    "        rows = self.db.execute(SELECT_ITEM, (key, 10)).fetchall()\n"
    "        return dict(rows)\n\n\n"
    "async def load(http):\n    resp = await http.get(f'/items/{1 + 1}')\n"
    "    return await resp.text()\n\ncursor.execute(\n    SELECT_ALL  # every row\n)\n"
)


def test_harmless_keyword_uses_are_skipped():
    assert not python_gates.environment(HARMLESS)
    assert not python_gates.debug_setting(HARMLESS)
    assert not python_gates.sql(HARMLESS)
    assert _findings(HARMLESS) == set()


def test_a_query_keyword_outside_database_calls_is_harmless():
    text = 'render_template("query.html", query=obj)\nobj = f"{x}"\n' + HARMLESS
    assert not python_gates.sql(text)
    assert python_gates.sql("db.execute(SELECT_ONE, query=obj)\n" + text)
    # (HARMLESS ends with a call holding a comment: taken to run to the end of the text)
    assert python_gates.sql(text + 'render_template("query.html", query=obj)\n')


def test_a_name_bound_in_the_file_is_not_harmless():
    text = HARMLESS + "SELECT_ITEM = 'SELECT * FROM t WHERE id = ' + key\n"
    assert python_gates.sql(text)


REFLECTED = [
    "return f'<p>{request.args[\"q\"]}</p>'",
    "return '<b>' + request.args.get('n')",
    "return '</div>' + name",
    "return '<!-- x -->' + request.form['x']",
    "return HttpResponse('Hello ' + request.GET['name'])",
    "return make_response('Hello %s' % request.args['n'])",
    "body = '<html><body>{}</body></html>'.format(word)\nreturn body",
    "return 'caf\u00e9 ' + request.args['q']",  # not ASCII: passes
]


# -- the rules find the same with and without the gates -------------------------------------


@pytest.mark.parametrize("text", ENVIRONMENT + DEBUG + SQL + REFLECTED + [HARMLESS])
def test_gate_examples_find_the_same_without_gates(text: str):
    body = "\n".join("    " + line for line in text.splitlines())
    module = f"from flask import jsonify\n\n@app.route('/x')\ndef view(request):\n{body}\n"
    _same_without_gates(module, "settings.py")
    _same_without_gates(text, "settings.py")


def test_the_gated_checks_still_report():
    module = (
        "from flask import Flask, jsonify\nimport os\nDEBUG = True\n\n"
        "@app.route('/env')\ndef env(request):\n    return jsonify(dict(os.environ))\n\n"
        "def find(name):\n    db.execute(f\"SELECT * FROM users WHERE name = '{name}'\")\n"
    )
    found = {rule for rule, _, _ in _same_without_gates(module, "settings.py")}
    assert {"info-leak.debug-setting", "info-leak.environment", "injection.sql-format"} <= found
    reflected = "@app.route('/s')\ndef s():\n    return f\"<p>{request.args['q']}</p>\"\n"
    found = {rule for rule, _, _ in _same_without_gates(module + reflected, "app.py")}
    assert "injection.reflected-html" in found


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.py")), ids=lambda p: p.name)
def test_fixtures_find_the_same_without_gates(path: Path):
    relative = path.relative_to(FIXTURES).as_posix()
    _same_without_gates(path.read_text(encoding="utf-8"), relative)


STATEMENTS = [*ENVIRONMENT, *DEBUG, *SQL, *REFLECTED, *top_level_statements()]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=10))
def test_random_modules_find_the_same_without_gates(parts: list[str]):
    text = "import os\nfrom flask import Flask, request, jsonify\n\n" + "\n\n".join(parts)
    _same_without_gates(text, "settings.py")
