"""The gates of js_gates.py (with js_sites.py and js_reach.py) against the tree analysis of
code_js.py: a gate may let a harmless file through, never turn away one the analysis reports.

Generated: each case is a small handler in which a value reaches a sink by some road (a
variable built lines above, a typed declaration, a compound `+=`, an alias, a promisified
query, a catch parameter of any name, a multi-line call, code without semicolons...), written
several ways (renamed, re-wrapped, lines split). For each written text the analysis without
gates must find the case's check (else the case proves nothing), and the gate must let it
through. Harmless look-alikes are measured too: the gates must turn most of them away.
"""

from __future__ import annotations

import random

import pytest

from wukong_lint.code.js import analysis as code_js
from wukong_lint.code.js import gates as js_gates
from wukong_lint.code.js import reach as js_reach
from wukong_lint.code.js import sites as js_sites

# (check, code) with {v} a variable, {e} a caught error's name, {q} a query helper's name
VULNERABLE = [
    ("sql", 'const {v} = "SELECT * FROM users WHERE id = " + id;\ndb.query({v});'),
    (
        "sql",
        "const {v}: string = `SELECT * FROM t WHERE name = '${{name}}'`;\n"
        "await pool.query<Row[]>({v});",
    ),
    (
        "sql",
        'const {v} =\n  "SELECT * FROM users WHERE name = \'" +\n  name + "\'"\n'
        "connection.query({v}, cb)",
    ),
    ("sql", 'let {v} = "SELECT * FROM t"\n{v} += " WHERE id = " + id\ndb.all({v}, done)'),
    ("sql", "import {{ query as {q} }} from './db';\n{q}(`SELECT * FROM t WHERE id = ${{id}}`);"),
    ("sql", "const {{ query: {q} }} = require('./db');\n{q}('DELETE FROM t WHERE id = ' + id);"),
    ("sql", "const {q} = util.promisify(conn.query);\n{q}('SELECT * FROM t WHERE a = ' + a);"),
    ("sql", 'client.query({{ text: "SELECT * FROM t WHERE a = " + a }});'),
    ("sql", "repo.createQueryBuilder('u').where(`u.name = '${{name}}'`).getMany();"),
    ("sql", 'const w = "WHERE id = " + id;\nconst {v} = "SELECT * FROM t " + w;\ndb.query({v});'),
    ("sql", 'const {v} = "SELECT * FROM t WHERE id = ?".replace("?", id);\ndb.query({v});'),
    ("sql", 'db.query(util.format("SELECT * FROM t WHERE id = %s", id));'),
    ("sql", 'db?.query("SELECT * FROM t WHERE id = " + id);'),
    ("sql", 'this.db.query("SELECT * FROM t WHERE id = " + id);'),
    ("sql", 'knex.raw("select * from t where id = " + id);'),
    ("sql", "const {v} = [\"SELECT * FROM t WHERE id =\", id].join(' ');\nsqlite.get({v});"),
    (
        "sql",
        "const {v} = cond\n  ? `SELECT * FROM a WHERE id = ${{id}}`\n  : 'SELECT 1';\n"
        "db.execute({v});",
    ),
    ("sql", "db\n  .query(\n    'SELECT * FROM t WHERE id = ' + id,\n  );"),
    ("sql", "prisma.$queryRawUnsafe(`SELECT * FROM \"User\" WHERE email = '${{email}}'`);"),
    ("error-text", "try {{ run(); }} catch ({e}) {{\n  res.status(500).send({e}.message);\n}}"),
    (
        "error-text",
        "try {{ run(); }} catch ({e}) {{\n  const {v} = {e}.message;\n  res.json({{ {v} }});\n}}",
    ),
    ("error-text", "run().catch(e => res.json({{ error: e.toString() }}));"),
    (
        "error-text",
        "try {{ await next(); }} catch ({e}) {{\n  ctx.body = {{ error: {e}.message }};\n}}",
    ),
    (
        "error-text",
        "import {{ HttpException as {q} }} from '@nestjs/common';\n"
        "try {{ run(); }} catch ({e}) {{ throw new {q}({e}.message, 500); }}",
    ),
    (
        "error-text",
        "try {{ run(); }} catch (error) {{\n"
        "  return NextResponse.json({{ error: String(error) }}, {{ status: 500 }});\n}}",
    ),
    ("error-text", "try {{ run(); }} catch ({e}) {{ res.send(`failed: ${{{e}}}`); }}"),
    (
        "error-text",
        "try {{ run(); }} catch ({e}: unknown) {{\n"
        "  const {v}: string = ({e} as Error).message;\n"
        "  res.status(500).json({{ {v} }});\n}}",
    ),
    (
        "error-text",
        "app.use((err, req, res, next) => {{\n  res\n    .status(500)\n"
        "    .json({{ message: err.message }})\n}})",
    ),
    (
        "error-text",
        "try {{ run() }} catch ({e}) {{\n  let {v} = 'failed: '\n  {v} += {e}\n"
        "  reply.code(500).send({v})\n}}",
    ),
    ("stack-trace", "try {{ run(); }} catch ({e}) {{ res.status(500).send({e}.stack); }}"),
    (
        "stack-trace",
        "try {{ run(); }} catch ({e}) {{\n"
        "  return new Response(JSON.stringify({{ stack: {e}.stack }}));\n}}",
    ),
    (
        "stack-trace",
        "try {{ run() }} catch ({e}) {{\n  const {v} = {e}.stack\n"
        "  ctx.body = {{ trace: {v} }}\n}}",
    ),
    ("environment", "res.json(process.env);"),
    ("environment", "const {v} = process.env;\nres.send({{ ...{v} }});"),
    ("environment", "ctx.body = {{ config: process.env }};"),
    ("environment", "return Response.json({{ env: process.env }});"),
    ("html", 'res.send("<h1>" + req.query.name + "</h1>");'),
    ("html", "const {v} = req.params.name\nres.write(`<p>${{{v}}}</p>`)"),
    ("html", "ctx.body = `<p>${{ctx.query.q}}</p>`;"),
    ("html", "const {v}: string = req.query.q as string;\nres.end('<b>' + {v});"),
]

VULNERABLE += [
    ("shell", "const {{ exec }} = require('child_process');\nexec(`git log ${{{v}}}`, cb);"),
    ("shell", "child_process.execSync('convert ' + file + ' out.png');"),
    (
        "shell",
        "const cp = require('child_process');\ncp.spawn('tar', ['xf', name], {{ shell: true }});",
    ),
    ("shell", "import {{ exec as {q} }} from 'node:child_process';\n{q}('ls ' + dir);"),
    (
        "shell",
        "const {q} = util.promisify(require('child_process').exec);\nawait {q}(`rm ${{f}}`);",
    ),
    ("shell", "const {{ spawn }} = require('child_process');\nspawn('sh', ['-c', {v}]);"),
    ("shell", "import {{ execa }} from 'execa';\nawait execa('echo ' + {v}, {{ shell: true }});"),
    (
        "shell",
        "const {{ exec }} = require('child_process');\nconst {q} = promisify(exec);\n"
        "await {q}('git ' + {v});",
    ),
    ("shell", "const shelljs = require('shelljs');\nshelljs.exec(`rm -rf ${{dir}}`);"),
    ("shell", "require('child_process').exec('ls ' + d);"),
    ("shell", "import * as cp from 'child_process';\ncp.execSync(`git ${{args.join(' ')}}`);"),
    (
        "shell",
        "import {{ exec }} from 'child_process';\nconst {v}: string = `ls ${{dir}}`;\nexec({v});",
    ),
]

HARMLESS = [
    ("sql", "const item = await Feature.findById(req.params.id);\nres.json(item);"),
    ("sql", "const apiKey = config.get('stripe.apiKey');"),
    ("sql", 'const SQL = "SELECT * FROM t WHERE id = ?";\ndb.get(SQL, [id]);'),
    ("sql", "if (!res.ok) throw new Error(`update item failed: ${{res.status}}`);"),
    ("sql", "router.get('/items/:id', requireAuth, async (req, res) => res.json(await load()));"),
    ("error-text", "try {{ run(); }} catch ({e}) {{ next({e}); }}\nres.json(item);"),
    (
        "error-text",
        "try {{ run(); }} catch ({e}) {{ log({e}); }}\n"
        "res.status(404).json({{ error: 'not found' }});",
    ),
    (
        "error-text",
        "const res = await fetch(url);\nif (!res.ok) throw new Error('failed');\n"
        "return res.json();",
    ),
    ("environment", "const token = process.env.TOKEN;\nres.json({{ ok: true }});"),
    ("shell", "const m = /a(b)/.exec(text);\nconst {{ spawn }} = require('child_process');"),
    ("shell", "const {{ spawn }} = require('child_process');\nspawn('git', ['log', branch]);"),
    ("shell", "const {{ execFile }} = require('child_process');\nexecFile('ls', [dir], cb);"),
    ("shell", "const {{ execSync }} = require('child_process');\nexecSync('npm ci');"),
    ("html", "const res = await fetch(`/api?q=${{q}}`);\nconst body = await res.json();"),
]

WRAPS = [
    "{code}\n",
    "export async function handler(req, res) {{\n{code}\n}}\n",
    "router.post('/x', async (req, res, next) => {{\n{code}\n}});\n",
    "class Controller {{\n  async handle(req: Request, res: Response) {{\n{code}\n  }}\n}}\n",
    "module.exports = function (ctx) {{\n{code}\n}};\n",
]
NAMES = ["q", "sql", "text", "statement", "message", "out", "payload", "detail", "stmt"]
ERRORS = ["err", "error", "e", "boom", "failure", "x"]
HELPERS = ["run", "dbQuery", "exec2", "HE", "q2"]


def _variants(code: str, rng: random.Random, count: int = 4) -> list[tuple[str, str]]:
    out = []
    for k in range(count):
        text = code.format(v=rng.choice(NAMES), e=rng.choice(ERRORS), q=rng.choice(HELPERS))
        if k % 2:  # no semicolons
            text = text.replace(";\n", "\n")
        wrap = WRAPS[(k + rng.randrange(len(WRAPS))) % len(WRAPS)]
        if "import " in text or "require(" in text:
            wrap = WRAPS[0]
        body = wrap.format(code=text)
        path = "app.ts" if (": " in text and "{" in text) or "class " in body else "app.js"
        if "as Error" in text or "<Row" in text or ": string" in text or ": unknown" in text:
            path = "app.ts"
        out.append((path, body))
    return out


def _ungated(path: str, text: str) -> dict:
    code_js._cache[0] = None
    js_gates._memo[0] = None
    return code_js.analyse(path, text).hits or {}


def _gate(check: str, text: str) -> bool:
    js_gates._memo[0] = None
    js_reach._current[0] = None
    return js_gates.possible(check, text)


@pytest.mark.parametrize("case", range(len(VULNERABLE)))
def test_the_gate_lets_through_every_road_to_a_sink(case):
    check, code = VULNERABLE[case]
    rng = random.Random(case)
    for path, text in _variants(code, rng):
        found = _ungated(path, text)
        assert found.get(check), (check, text)  # the case holds a finding
        assert _gate(check, text), (check, text)


def test_harmless_look_alikes_are_not_parsed():
    rng = random.Random(7)
    turned_away = total = 0
    for check, code in HARMLESS:
        for path, text in _variants(code, rng, 2):
            assert not _ungated(path, text).get(check), text
            total += 1
            turned_away += not _gate(check, text)
    assert turned_away == total


def test_reading_a_span():
    text = "f(a, `x ${b + `y ${c}`}` + 'd)', {k: e}) ; g"
    end, code = js_reach.span(text, 2, stop_comma=False, statement=False)
    assert text[end] == ")"
    assert sorted(set(js_reach.names(code)) - {"$"}) == ["a", "b", "c", "e"]
    assert js_reach.span("f(a, 'open", 2, stop_comma=False, statement=False) is None
    # a statement's value ends at a line break unless the expression goes on
    text = "const x = a +\n  b\nres.json(x)"
    _, code = js_reach.span(text, 9, stop_comma=True, statement=True)
    assert "b" in code and "res" not in code


def test_unreadable_call_counts_as_a_sink():
    # type arguments that never close: the gate answers "could"
    text = "db.query<" + "A<" * 300 + '("SELECT * FROM t WHERE id = " + id)'
    js_reach._current[0] = None
    assert js_sites.query_formatted(text)


def test_deeply_nested_sinks_are_read_within_a_budget():
    # 20,000 nested response calls, none closed: every sink's argument list is unreadable;
    # past a budget of several times the text's size the gate stops reading and lets the
    # file through (to the tree analysis and its own limits)
    text = "try { run() } catch (err) {\n" + "res.json(\n" * 20_000 + "\n}\n"
    js_gates._memo[0] = None
    js_reach._current[0] = None
    assert js_gates.possible("error-text", text)
    assert js_reach.state(text).memo["budget"][0] <= 0
