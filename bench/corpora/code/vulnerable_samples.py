#!/usr/bin/env python3
# ruff: noqa: E501  (generated code reads better unwrapped)
"""Generator of vulnerable and safe Python code, labelled line by line.

    python bench/corpora/code/vulnerable_samples.py --seed 1 --out bench/out/vulnsamples-dev --files 300

Writes `tree/**/*.py` (Flask, Django, FastAPI apps, DB-API helpers, SQLAlchemy, scripts) and
`labels.json`: `{"vulnerable": [{path, line, check}], "safe": [{path, line, check}]}` (`check`
may name several checks joined by `+`, when one line holds two problems). A
vulnerable line is where a linter should report the call (the line of the call: for a call
spread over several lines, its first line); a safe line is a look-alike that must not be
reported (parameterised queries, argument lists, literal commands are not "safe" for every
tool: a literal shell command is labelled `shell-constant`, a low finding).

Each file draws a framework, an import style (`import subprocess as sp`, `from os import
system`, ...) and 4-9 snippets from many families, each with several variants: how the
input arrives (request args, form, JSON, path parameters, function parameters, argv), how the
string is built (f-string, %, +, .format(), across statements, in a loop, multi-line calls)
and the sink. Same seed, same bytes; no downloads. bench/bandit_compare.py runs bandit and
wukong-lint on the tree. The held-out seed (2) is generated the same way with other draws;
figures on it are the ones to quote.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2]  # bench/
# The held-out split adds variants and file kinds that the dev split never has (see HOLDOUT_*):
# code shapes the rules were not tuned on.
HOLDOUT = [False]

TABLES = [
    "users",
    "orders",
    "invoices",
    "products",
    "accounts",
    "sessions",
    "audit_log",
    "customers",
    "tickets",
    "payments",
]
COLUMNS = ["name", "email", "status", "sku", "owner", "region", "title", "username", "kind", "ref"]
WORDS = [
    "report",
    "backup",
    "export",
    "thumbnail",
    "archive",
    "invoice",
    "sync",
    "cleanup",
    "import",
    "render",
    "lookup",
    "search",
    "profile",
    "audit",
]
HOST_CMDS = ["ping -c 1 {x}", "nslookup {x}", "dig +short {x}", "traceroute -m 5 {x}", "host {x}"]
FILE_CMDS = [
    "tar czf /tmp/backup.tgz {x}",
    "gzip -k {x}",
    "wc -l {x}",
    "du -sh {x}",
    "convert {x} -resize 200x200 /tmp/thumb.png",
    "cat {x}",
    "ls -la {x}",
    "unzip -o {x} -d /tmp/out",
]


class File:
    """Lines of one module, with labels by line (1-based)."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd
        self.lines: list[str] = []
        self.labels: list[tuple[int, str, str]] = []  # (line, "vulnerable"|"safe", check)
        self.imports: set[str] = set()

    def add(self, text: str, label: tuple[str, str] | None = None) -> None:
        """Add lines; a label applies to the line marked with `<<` (removed), else the first."""
        lines = text.split("\n")
        mark = next((i for i, line in enumerate(lines) if line.rstrip().endswith("<<")), None)
        for i, line in enumerate(lines):
            if line.rstrip().endswith("<<"):
                line = line.rstrip()[:-2].rstrip()
            self.lines.append(line)
            if label and i == (mark if mark is not None else 0):
                self.labels.append((len(self.lines), label[0], label[1]))


class Style:
    """How a file imports things, and the names it then uses."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd
        self.sub = rnd.choice(["subprocess", "sp", "from"])
        self.os = rnd.choice(["os", "os", "from"])

    def imports(self) -> list[str]:
        out = []
        if self.sub == "subprocess":
            out.append("import subprocess")
        elif self.sub == "sp":
            out.append("import subprocess as sp")
        else:
            out.append(
                "from subprocess import PIPE, Popen, call, check_call, check_output, getoutput, getstatusoutput, run"
            )
        if self.os == "from":
            out.append("import os")
            out.append("from os import popen, system")
        else:
            out.append("import os")
        return out

    def sp(self, name: str) -> str:
        if name == "PIPE" and self.sub == "from":
            return "PIPE"
        return {"subprocess": f"subprocess.{name}", "sp": f"sp.{name}", "from": name}[self.sub]

    def ossys(self, name: str) -> str:
        return name if self.os == "from" else f"os.{name}"


# -- how input arrives ------------------------------------------------------------------------


def flask_input(rnd: random.Random, name: str) -> str:
    return rnd.choice(
        [
            f'request.args.get("{name}", "")',
            f'request.args["{name}"]',
            f'request.form.get("{name}")',
            f'request.form["{name}"]',
            f'request.values.get("{name}", "")',
            f'(request.get_json() or {{}}).get("{name}")',
            f'request.json["{name}"]',
        ]
    )


def django_input(rnd: random.Random, name: str) -> str:
    return rnd.choice(
        [
            f'request.GET.get("{name}", "")',
            f'request.GET["{name}"]',
            f'request.POST.get("{name}")',
            f'request.POST["{name}"]',
            f'json.loads(request.body).get("{name}")',
        ]
    )


# -- the sinks: each returns code for a function body (indented 4) and its label ------------------


def sql_sink(rnd: random.Random, var: str, cur: str) -> tuple[str, tuple[str, str]]:
    table, col = rnd.choice(TABLES), rnd.choice(COLUMNS)
    other = rnd.choice([c for c in COLUMNS if c != col])
    variants = [
        f"    {cur}.execute(f\"SELECT * FROM {table} WHERE {col} = '{{{var}}}'\")",
        f"    {cur}.execute(\"SELECT id, {other} FROM {table} WHERE {col} = '%s'\" % {var})",
        f'    {cur}.execute("DELETE FROM {table} WHERE {col} = \'" + {var} + "\'")',
        f"    {cur}.execute(\"UPDATE {table} SET {other} = '{{}}' WHERE id = 1\".format({var}))",
        f'    {cur}.execute(\n        "SELECT {other}, created_at "\n        "FROM {table} WHERE {col} LIKE \'%%%s%%\'" % {var}\n    )',
        f"    {cur}.execute(\n        f\"INSERT INTO {table} ({col}, {other}) VALUES ('{{{var}}}', 0)\"\n    )",
        f"    sql = f\"SELECT * FROM {table} WHERE {col} = '{{{var}}}' ORDER BY id\"\n    {cur}.execute(sql)  <<",
        f'    query = "SELECT count(*) FROM {table} WHERE {col} = %s" % {var}\n    {cur}.execute(query)  <<',
        f'    where = "{col} = \'" + {var} + "\'"\n    {cur}.execute("SELECT * FROM {table} WHERE " + where)  <<',
        f'    sql = "SELECT * FROM {table} WHERE 1 = 1"\n    if {var}:\n        sql += " AND {col} = \'%s\'" % {var}\n    {cur}.execute(sql)  <<',
        f"    stmt = \"SELECT {other} FROM {table} WHERE {col} = '{{value}}'\".format(value={var})\n    {cur}.execute(stmt)  <<",
        f'    {cur}.executemany("INSERT INTO {table} ({col}) VALUES (\'" + {var} + "\')", [()])',
        f"    {cur}.executescript(f\"DELETE FROM {table} WHERE {col} = '{{{var}}}';\")",
    ]
    if HOLDOUT[0]:
        variants += [
            f'    {cur}.execute("SELECT * FROM %s WHERE {col} = \'%s\'" % ("{table}", {var}))',
            f'    {cur}.execute(\n        "SELECT * FROM {table} "\n        "WHERE {col} = \'" + {var} + "\' "\n        "ORDER BY id DESC"\n    )',
            f'    query = (\n        "UPDATE {table} SET {other} = NULL "\n        f"WHERE {col} = \'{{{var}}}\'"\n    )\n    {cur}.execute(query)  <<',
            f'    parts = ["SELECT id FROM {table}", "WHERE {col} = \'%s\'" % {var}]\n    {cur}.execute(" ".join(parts))  <<',
            f"    template = \"SELECT * FROM {table} WHERE {col} = '{{v}}' LIMIT 10\"\n    {cur}.execute(template.format(v={var}))  <<",
            f'    result = {cur}.execute("DELETE FROM {table} WHERE {col} = \'%(v)s\'" % {{"v": {var}}})',
        ]
    return rnd.choice(variants), ("vulnerable", "sql")


def sql_safe(rnd: random.Random, var: str, cur: str) -> tuple[str, tuple[str, str]]:
    table, col = rnd.choice(TABLES), rnd.choice(COLUMNS)
    variants = [
        f'    {cur}.execute("SELECT * FROM {table} WHERE {col} = %s", ({var},))',
        f'    {cur}.execute("SELECT * FROM {table} WHERE {col} = ?", [{var}])',
        f'    {cur}.execute(\n        "SELECT id FROM {table} WHERE {col} = %(v)s",\n        {{"v": {var}}},\n    )',
        f'    {cur}.execute("SELECT count(*) FROM {table}")',
        f'    sql = "UPDATE {table} SET {col} = %s WHERE id = %s"\n    {cur}.execute(sql, ({var}, 1))  <<',
        f'    {cur}.executemany("INSERT INTO {table} ({col}) VALUES (?)", [({var},)])',
    ]
    return rnd.choice(variants), ("safe", "sql")


def shell_sink(rnd: random.Random, var: str, st: Style) -> tuple[str, tuple[str, str]]:
    cmd = rnd.choice(HOST_CMDS + FILE_CMDS)
    head = cmd.split("{x}")[0]
    variants = [
        f'    {st.ossys("system")}(f"{cmd.format(x="{" + var + "}")}")',
        f'    {st.ossys("system")}("{head}" + {var})',
        f'    {st.ossys("system")}("{head}%s" % {var})',
        f'    output = {st.ossys("popen")}("{head}" + {var}).read()',
        f'    out = {st.ossys("popen")}(f"{cmd.format(x="{" + var + "}")}").read()',
        f'    {st.sp("call")}("{head}" + {var}, shell=True)',
        f'    {st.sp("run")}(f"{cmd.format(x="{" + var + "}")}", shell=True, check=True)',
        f'    result = {st.sp("check_output")}(\n        "{head}{{}}".format({var}),\n        shell=True,\n        text=True,\n    )',
        f'    proc = {st.sp("Popen")}("{head}%s" % {var}, shell=True, stdout={st.sp("PIPE")})',
        f'    command = "{head}" + {var}\n    {st.sp("check_call")}(command, shell=True)  <<',
        f'    cmd = f"{cmd.format(x="{" + var + "}")}"\n    {st.ossys("system")}(cmd)  <<',
        f'    args = ["{head.strip()}", {var}]\n    {st.sp("run")}(" ".join(args), shell=True)  <<',
    ]
    if HOLDOUT[0]:
        variants += [
            f'    {st.sp("run")}(args=f"{cmd.format(x="{" + var + "}")}", shell=True, capture_output=True)',
            f'    status, output = {st.sp("getstatusoutput")}("{head}" + {var})',
            f'    listing = {st.sp("getoutput")}(f"{cmd.format(x="{" + var + "}")}")',
            f'    use_shell = True\n    {st.sp("Popen")}("{head}" + {var}, shell=use_shell).wait()  <<',
            f'    {st.ossys("system")}("%s %s" % ("{head.strip()}", {var}))',
            f'    with {st.ossys("popen")}("{head}" + {var}) as pipe:  <<\n        data = pipe.read()',
        ]
    return rnd.choice(variants), ("vulnerable", "shell")


def shell_safe(rnd: random.Random, var: str, st: Style) -> tuple[str, tuple[str, str]]:
    cmd = rnd.choice(FILE_CMDS).split()
    prog = cmd[0]
    variants = [
        (f'    {st.sp("run")}(["{prog}", {var}], check=True)', ("safe", "shell")),
        (f'    {st.sp("call")}(["{prog}", "--", {var}])', ("safe", "shell")),
        (f'    out = {st.sp("check_output")}(["{prog}", {var}], shell=False)', ("safe", "shell")),
        (
            f'    proc = {st.sp("Popen")}(\n        ["{prog}", {var}],\n        stdout={st.sp("PIPE")},\n    )',
            ("safe", "shell"),
        ),
        (
            f'    {st.ossys("system")}("{" ".join(cmd[:1])} --version")',
            ("vulnerable", "shell-constant"),
        ),
        (f'    {st.sp("call")}("make clean", shell=True)', ("vulnerable", "shell-constant")),
    ]
    return rnd.choice(variants)


def eval_sink(rnd: random.Random, var: str) -> tuple[str, tuple[str, str]]:
    variants = [
        (f"    value = eval({var})", "eval"),
        (f'    result = eval("(" + {var} + ")")', "eval"),
        (f"    exec({var})", "eval"),
        (f'    code = compile({var}, "<user>", "exec")\n    exec(code, {{}})  <<', "eval"),
        (f'    total = eval(f"{{{var}}} * 2")', "eval"),
    ]
    if HOLDOUT[0]:
        variants += [
            (f'    handler = eval("lambda row: " + {var})', "eval"),
            (f"    namespace = {{}}\n    exec({var}, namespace)  <<", "eval"),
            (f'    exec("result = %s" % {var})', "eval"),
        ]
    code, check = rnd.choice(variants)
    return code, ("vulnerable", check)


def eval_safe(rnd: random.Random, var: str) -> tuple[str, tuple[str, str]]:
    return rnd.choice(
        [
            f"    value = ast.literal_eval({var})",
            f"    value = json.loads({var})",
            f"    value = OPERATIONS[{var}]()",
            "    model.eval()",
        ]
    ), ("safe", "eval")


# -- files of each framework ------------------------------------------------------------------------


def flask_file(rnd: random.Random, f: File, st: Style) -> None:
    f.imports.update(
        [
            "import ast",
            "import json",
            "import os",
            "import sqlite3",
            "import traceback",
            "from flask import Flask, jsonify, render_template_string, request",
            "from markupsafe import Markup",
        ]
    )
    f.add(
        'app = Flask(__name__)\nOPERATIONS = {"noop": lambda: None}\n\n\ndef get_db():\n    return sqlite3.connect("app.db")\n'
    )
    for i in range(rnd.randint(4, 8)):
        word = rnd.choice(WORDS)
        var = rnd.choice(
            ["name", "term", "user_id", "q", "value", "host", "path", "filename", "expr"]
        )
        route = rnd.choice(["route", "get", "post"])
        f.add(
            f'@app.{route}("/{word}/{i}")\ndef {word}_{i}():\n    {var} = {flask_input(rnd, var)}'
        )
        kind = rnd.choice(
            [
                "sql",
                "sql",
                "sql_safe",
                "shell",
                "shell",
                "shell_safe",
                "eval",
                "eval_safe",
                "markup",
                "markup_safe",
                "template",
                "leak",
                "leak_safe",
                "file",
            ]
        )
        if kind in ("sql", "sql_safe"):
            f.add("    db = get_db()\n    cur = db.cursor()")
            code, label = (sql_sink if kind == "sql" else sql_safe)(rnd, var, "cur")
            f.add(code, label)
            f.add("    return jsonify(cur.fetchall())\n")
        elif kind in ("shell", "shell_safe"):
            code, label = (shell_sink if kind == "shell" else shell_safe)(rnd, var, st)
            f.add(code, label)
            f.add('    return jsonify({"ok": True})\n')
        elif kind in ("eval", "eval_safe"):
            f.imports.add("model = None")
            code, label = (eval_sink if kind == "eval" else eval_safe)(rnd, var)
            f.add(code, label)
            f.add('    return jsonify({"ok": True})\n')
        elif kind == "markup":
            code = rnd.choice(
                [
                    f'    return Markup(f"<p>Hello {{{var}}}</p>")',
                    f'    html = Markup("<b>" + {var} + "</b>")  <<\n    return html',
                    f"    return Markup({var})",
                ]
            )
            f.add(code, ("vulnerable", "mark-safe"))
            f.add("")
        elif kind == "markup_safe":
            code = rnd.choice(
                [
                    f'    return Markup("<p>Hello {{}}</p>").format({var})',
                    f'    return Markup("<br>") + {var}',
                    f'    return render_template_string("<p>{{{{ v }}}}</p>", v={var})',
                ]
            )
            f.add(code, ("safe", "mark-safe"))
            f.add("")
        elif kind == "template":
            code = rnd.choice(
                [
                    f'    return render_template_string(f"<h1>{{{var}}}</h1>")',
                    f'    page = "<h1>%s</h1>" % {var}\n    return render_template_string(page)  <<',
                    f'    return render_template_string("<p>" + {var} + "</p>")',
                ]
            )
            f.add(code, ("vulnerable", "template-string"))
            f.add("")
        elif kind == "leak":
            f.add(f"    try:\n        return jsonify(process({var}))")
            code, check = rnd.choice(
                [
                    (
                        '    except Exception as e:\n        return jsonify({"error": str(e)}), 500  <<',
                        "exception-text",
                    ),
                    (
                        "    except Exception:\n        return traceback.format_exc(), 500  <<",
                        "traceback",
                    ),
                    (
                        '    except ValueError as err:\n        return {"error": f"bad input: {err}"}, 400  <<',
                        "exception-text",
                    ),
                    (
                        "    except Exception as exc:\n        return jsonify(error=repr(exc), trace=traceback.format_exc())  <<",
                        "exception-text+traceback",
                    ),
                ]
            )
            f.add(code, ("vulnerable", check))
            f.add("")
        elif kind == "leak_safe":
            f.add(f"    try:\n        return jsonify(process({var}))")
            f.add(
                '    except Exception:\n        app.logger.exception("failed")  <<\n        return jsonify({"error": "internal error"}), 500',
                ("safe", "exception-text"),
            )
            f.add("")
        else:  # file contents from a request-chosen path
            code = rnd.choice(
                [
                    f"    with open({var}) as handle:\n        return handle.read()  <<",
                    f'    return open(os.path.join("/srv/files", {var})).read()',
                ]
            )
            f.add(code, ("vulnerable", "file-contents"))
            f.add("")
    f.add('\ndef process(value):\n    return {"value": value}\n')
    if rnd.random() < 0.6:
        f.add('\nif __name__ == "__main__":')
        if rnd.random() < 0.7:
            f.add(
                rnd.choice(
                    [
                        "    app.run(debug=True)",
                        '    app.run(host="127.0.0.1", port=5000, debug=True)',
                    ]
                ),
                ("vulnerable", "debug-server"),
            )
        else:
            f.add(
                '    app.run(debug=os.environ.get("FLASK_DEBUG") == "1")', ("safe", "debug-server")
            )


def django_file(rnd: random.Random, f: File, st: Style) -> None:
    f.imports.update(
        [
            "import json",
            "from django.db import connection",
            "from django.http import HttpResponse, JsonResponse",
            "from django.utils.safestring import mark_safe",
            "from django.utils.html import format_html",
            "from django.views import View",
        ]
    )
    f.add("")
    for i in range(rnd.randint(4, 8)):
        word = rnd.choice(WORDS)
        var = rnd.choice(["name", "term", "slug", "q", "value", "host", "pk"])
        model = rnd.choice(["User", "Order", "Invoice", "Product", "Ticket"])
        f.imports.add(f"from .models import {model}")
        class_based = rnd.random() < 0.4
        if class_based:
            f.add(
                f"class {word.title()}{i}View(View):\n    def get(self, request):\n        {var} = {django_input(rnd, var)}"
            )
            indent = "    "
        else:
            f.add(f"def {word}_{i}(request):\n    {var} = {django_input(rnd, var)}")
            indent = ""
        kind = rnd.choice(
            [
                "cursor",
                "cursor_safe",
                "raw",
                "raw_safe",
                "extra",
                "shell",
                "shell_safe",
                "mark_safe",
                "mark_safe_ok",
                "leak",
                "leak_safe",
            ]
        )
        if kind in ("cursor", "cursor_safe"):
            f.add(indent + "    with connection.cursor() as cursor:")
            code, label = (sql_sink if kind == "cursor" else sql_safe)(rnd, var, "cursor")
            f.add("\n".join(indent + "    " + line for line in code.split("\n")), label)
            f.add(
                indent
                + "        rows = cursor.fetchall()\n"
                + indent
                + '    return JsonResponse({"rows": rows})\n'
            )
        elif kind == "raw":
            table = rnd.choice(TABLES)
            code = rnd.choice(
                [
                    f"    rows = {model}.objects.raw(f\"SELECT * FROM app_{table} WHERE name = '{{{var}}}'\")",
                    f"    rows = {model}.objects.raw(\"SELECT * FROM app_{table} WHERE slug = '%s'\" % {var})",
                    f'    sql = "SELECT * FROM app_{table} WHERE owner = \'" + {var} + "\'"\n    rows = {model}.objects.raw(sql)  <<',
                ]
            )
            f.add("\n".join(indent + line for line in code.split("\n")), ("vulnerable", "sql"))
            f.add(indent + '    return JsonResponse({"n": len(list(rows))})\n')
        elif kind == "raw_safe":
            table = rnd.choice(TABLES)
            code = rnd.choice(
                [
                    f'    rows = {model}.objects.raw("SELECT * FROM app_{table} WHERE name = %s", [{var}])',
                    f"    rows = {model}.objects.filter(name={var})",
                ]
            )
            f.add(indent + code, ("safe", "sql"))
            f.add(indent + '    return JsonResponse({"n": len(list(rows))})\n')
        elif kind == "extra":
            code = rnd.choice(
                [
                    f"    rows = {model}.objects.extra(where=[\"name = '%s'\" % {var}])",
                    f"    rows = {model}.objects.extra(where=[f\"slug = '{{{var}}}'\"])",
                ]
            )
            f.add(indent + code, ("vulnerable", "sql"))
            f.add(indent + '    return JsonResponse({"n": rows.count()})\n')
        elif kind in ("shell", "shell_safe"):
            code, label = (shell_sink if kind == "shell" else shell_safe)(rnd, var, st)
            f.add("\n".join(indent + line for line in code.split("\n")), label)
            f.add(indent + '    return JsonResponse({"ok": True})\n')
        elif kind == "mark_safe":
            code = rnd.choice(
                [
                    f'    return HttpResponse(mark_safe(f"<h1>{{{var}}}</h1>"))',
                    f'    html = mark_safe("<div>%s</div>" % {var})  <<\n    return HttpResponse(html)',
                    f"    return HttpResponse(mark_safe({var}))",
                ]
            )
            f.add(
                "\n".join(indent + line for line in code.split("\n")), ("vulnerable", "mark-safe")
            )
            f.add("")
        elif kind == "mark_safe_ok":
            f.add(
                indent + f'    return HttpResponse(format_html("<h1>{{}}</h1>", {var}))',
                ("safe", "mark-safe"),
            )
            f.add("")
        elif kind == "leak":
            f.add(indent + f"    try:\n{indent}        obj = {model}.objects.get(slug={var})")
            code, check = rnd.choice(
                [
                    (
                        f"    except Exception as e:\n{indent}        return HttpResponse(str(e), status=500)  <<",
                        "exception-text",
                    ),
                    (
                        f'    except {model}.DoesNotExist as exc:\n{indent}        return JsonResponse({{"error": repr(exc)}}, status=404)  <<',
                        "exception-text",
                    ),
                ]
            )
            f.add(indent + code, ("vulnerable", check))
            f.add(indent + '    return JsonResponse({"id": obj.pk})\n')
        else:
            f.add(indent + f"    try:\n{indent}        obj = {model}.objects.get(slug={var})")
            f.add(
                f'{indent}    except {model}.DoesNotExist:\n{indent}        return JsonResponse({{"error": "not found"}}, status=404)  <<',
                ("safe", "exception-text"),
            )
            f.add(indent + '    return JsonResponse({"id": obj.pk})\n')


def fastapi_file(rnd: random.Random, f: File, st: Style) -> None:
    f.imports.update(
        [
            "import os",
            "from fastapi import FastAPI, HTTPException",
            "from sqlalchemy import create_engine, text",
        ]
    )
    f.add('app = FastAPI()\nengine = create_engine(os.environ.get("DATABASE_URL", "sqlite://"))\n')
    for i in range(rnd.randint(4, 8)):
        word = rnd.choice(WORDS)
        var = rnd.choice(["name", "term", "item_id", "q", "host", "path"])
        method = rnd.choice(["get", "post", "delete"])
        asynchronous = "async " if rnd.random() < 0.5 else ""
        f.add(f'@app.{method}("/{word}/{i}/{{{var}}}")\n{asynchronous}def {word}_{i}({var}: str):')
        kind = rnd.choice(["text", "text", "text_safe", "shell", "shell_safe", "leak", "env"])
        table, col = rnd.choice(TABLES), rnd.choice(COLUMNS)
        if kind == "text":
            code = rnd.choice(
                [
                    f"    with engine.connect() as conn:\n        rows = conn.execute(text(f\"SELECT * FROM {table} WHERE {col} = '{{{var}}}'\")).fetchall()  <<",
                    f"    stmt = text(\"DELETE FROM {table} WHERE {col} = '%s'\" % {var})  <<\n    with engine.begin() as conn:\n        conn.execute(stmt)",
                    f'    with engine.connect() as conn:\n        rows = conn.execute(\n            text("SELECT * FROM {table} WHERE {col} = \'" + {var} + "\'")  <<\n        ).fetchall()',
                ]
            )
            f.add(code, ("vulnerable", "sql"))
            f.add('    return {"ok": True}\n')
        elif kind == "text_safe":
            f.add(
                f'    with engine.connect() as conn:\n        rows = conn.execute(text("SELECT * FROM {table} WHERE {col} = :v"), {{"v": {var}}}).fetchall()  <<',
                ("safe", "sql"),
            )
            f.add('    return {"rows": [dict(r._mapping) for r in rows]}\n')
        elif kind in ("shell", "shell_safe"):
            code, label = (shell_sink if kind == "shell" else shell_safe)(rnd, var, st)
            f.add(code, label)
            f.add('    return {"ok": True}\n')
        elif kind == "leak":
            f.add(f'    try:\n        return {{"value": int({var})}}')
            f.add(
                "    except ValueError as e:\n        raise HTTPException(status_code=400, detail=str(e))  <<",
                ("vulnerable", "exception-text"),
            )
            f.add("")
        else:
            f.add('    return {"env": dict(os.environ)}', ("vulnerable", "environment"))
            f.add("")


def helpers_file(rnd: random.Random, f: File, st: Style) -> None:
    """A plain module of DB-API, shell and template helpers (parameters are the input)."""
    f.imports.update(["import logging", "import jinja2", "import psycopg2"])
    f.add("log = logging.getLogger(__name__)\n")
    for i in range(rnd.randint(4, 9)):
        word = rnd.choice(WORDS)
        var = rnd.choice(["name", "value", "key", "target", "filename", "host"])
        kind = rnd.choice(
            [
                "sql",
                "sql",
                "sql_safe",
                "shell",
                "shell_safe",
                "jinja",
                "jinja_safe",
                "logsql",
                "executor",
                "class",
            ]
        )
        if kind in ("sql", "sql_safe"):
            cur = rnd.choice(["cur", "cursor", "c"])
            f.add(f"def {word}_{i}(conn, {var}):\n    {cur} = conn.cursor()")
            code, label = (sql_sink if kind == "sql" else sql_safe)(rnd, var, cur)
            f.add(code, label)
            f.add(f"    return {cur}.fetchall()\n")
        elif kind in ("shell", "shell_safe"):
            f.add(f"def {word}_{i}({var}):")
            code, label = (shell_sink if kind == "shell" else shell_safe)(rnd, var, st)
            f.add(code, label)
            f.add("    return True\n")
        elif kind == "jinja":
            f.add(f"def {word}_{i}(folder):")
            code = rnd.choice(
                [
                    "    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder))",
                    "    env = jinja2.Environment(\n        loader=jinja2.FileSystemLoader(folder),\n        autoescape=False,\n    )",
                ]
            )
            f.add(code, ("vulnerable", "jinja2-autoescape"))
            f.add("    return env\n")
        elif kind == "jinja_safe":
            f.add(f"def {word}_{i}(folder):")
            code = rnd.choice(
                [
                    "    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=True)",
                    '    env = jinja2.Environment(\n        loader=jinja2.FileSystemLoader(folder),\n        autoescape=jinja2.select_autoescape(["html", "xml"]),\n    )',
                ]
            )
            f.add(code, ("safe", "jinja2-autoescape"))
            f.add("    return env\n")
        elif kind == "logsql":
            table = rnd.choice(TABLES)
            f.add(f"def {word}_{i}(conn, {var}):")
            f.add(f'    log.info("SELECT * FROM {table} WHERE name = %s", {var})', ("safe", "sql"))
            f.add(
                f'    message = "deleting from {table} where key = %s" % {var}\n    log.debug(message)\n    return message\n'
            )
        elif kind == "executor":
            f.add(f"def {word}_{i}(executor, {var}):")
            f.add(f'    return executor.execute(f"{word} job for {{{var}}}")', ("safe", "sql"))
            f.add("")
        else:
            cur = rnd.choice(["cursor", "cur"])
            table = rnd.choice(TABLES)
            col = rnd.choice(COLUMNS)
            f.add(
                f"class {word.title()}Repository{i}:\n    def __init__(self, conn):\n        self.conn = conn\n"
            )
            f.add(f"    def find(self, {var}):\n        {cur} = self.conn.cursor()")
            code = rnd.choice(
                [
                    f"        {cur}.execute(\"SELECT * FROM {table} WHERE {col} = '%s'\" % {var})",
                    f"        query = \"SELECT * FROM {table} WHERE {col} = '{{}}'\".format({var})\n        {cur}.execute(query)  <<",
                    f"        self.conn.cursor().execute(f\"DELETE FROM {table} WHERE {col} = '{{{var}}}'\")",
                ]
            )
            f.add(code, ("vulnerable", "sql"))
            f.add(f"        return {cur}.fetchall()\n")


def script_file(rnd: random.Random, f: File, st: Style) -> None:
    """A command-line script: argv, input() and files are the input."""
    f.imports.update(["import sys", "import sqlite3", "import argparse"])
    f.add("")
    for i in range(rnd.randint(3, 6)):
        word = rnd.choice(WORDS)
        kind = rnd.choice(["shell", "shell", "sql", "eval", "safe", "const"])
        f.add(f"def {word}_{i}(args):")
        if kind == "shell":
            f.add("    target = args.target")
            code, label = shell_sink(rnd, "target", st)
            f.add(code, label)
        elif kind == "sql":
            f.add(
                "    conn = sqlite3.connect(args.db)\n    cur = conn.cursor()\n    name = sys.argv[1]"
            )
            code, label = sql_sink(rnd, "name", "cur")
            f.add(code, label)
        elif kind == "eval":
            f.add('    expr = input("expression: ")')
            code, label = eval_sink(rnd, "expr")
            f.add(code, label)
        elif kind == "safe":
            f.add("    target = args.target")
            code, label = shell_safe(rnd, "target", st)
            f.add(code, label)
        else:
            f.add(
                f'    {st.sp("run")}("git status --short", shell=True, check=True)',
                ("vulnerable", "shell-constant"),
            )
        f.add("    return 0\n")
    f.add(
        '\ndef main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument("target")\n    parser.add_argument("--db", default="data.db")\n    return parser.parse_args()\n'
    )


def settings_file(rnd: random.Random, f: File, st: Style) -> None:
    f.imports.update(["import os"])
    f.add(
        'BASE_DIR = os.path.dirname(os.path.abspath(__file__))\nSECRET_KEY = os.environ["DJANGO_SECRET_KEY"]'
    )
    if rnd.random() < 0.6:
        f.add("DEBUG = True", ("vulnerable", "debug-setting"))
    else:
        f.add('DEBUG = os.environ.get("DJANGO_DEBUG") == "1"', ("safe", "debug-setting"))
    f.add(
        'ALLOWED_HOSTS = ["example.org"]\nINSTALLED_APPS = ["django.contrib.admin", "django.contrib.auth", "app"]\n'
    )


def holdout_web_file(rnd: random.Random, f: File, st: Style) -> None:
    """Held-out: a mixed web module with shapes the dev split does not have."""
    f.imports.update(
        [
            "import os",
            "import traceback",
            "import logging",
            "from flask import Blueprint, Response, jsonify, request",
            "from jinja2 import Environment, FileSystemLoader, select_autoescape",
            "from markupsafe import Markup, escape",
        ]
    )
    f.add('bp = Blueprint("admin", __name__)\nlogger = logging.getLogger(__name__)\n')
    for i in range(rnd.randint(4, 8)):
        word = rnd.choice(WORDS)
        var = rnd.choice(["name", "term", "pattern", "target", "expr", "html"])
        kind = rnd.choice(
            [
                "shell",
                "sql",
                "markup",
                "markup_safe",
                "jinja",
                "jinja_safe",
                "leak",
                "leak_safe",
                "env",
                "file",
                "shell_safe",
            ]
        )
        f.add(
            f'@bp.route("/{word}/{i}", methods=["GET", "POST"])\ndef {word}_{i}():\n    {var} = {flask_input(rnd, var)}'
        )
        if kind == "shell":
            code, label = shell_sink(rnd, var, st)
            f.add(code, label)
            f.add('    return jsonify(status="ok")\n')
        elif kind == "shell_safe":
            code, label = shell_safe(rnd, var, st)
            f.add(code, label)
            f.add('    return jsonify(status="ok")\n')
        elif kind == "sql":
            f.imports.add("import sqlite3")
            f.add(
                '    conn = sqlite3.connect(os.environ.get("DB_PATH", "app.db"))\n    c = conn.cursor()'
            )
            code, label = sql_sink(rnd, var, "c")
            f.add(code, label)
            f.add("    return jsonify(rows=c.fetchall())\n")
        elif kind == "markup":
            code = rnd.choice(
                [
                    f'    items = "".join(f"<li>{{x}}</li>" for x in {var}.split(","))\n    return Markup("<ul>" + items + "</ul>")  <<',
                    f"    snippet = {var}.strip()\n    return Response(Markup(snippet))  <<",
                ]
            )
            f.add(code, ("vulnerable", "mark-safe"))
            f.add("")
        elif kind == "markup_safe":
            f.add(f'    return Markup("<em>%s</em>") % escape({var})', ("safe", "mark-safe"))
            f.add("")
        elif kind == "jinja":
            code = rnd.choice(
                [
                    '    env = Environment(loader=FileSystemLoader("templates"), trim_blocks=True)',
                    '    env = Environment(\n        loader=FileSystemLoader(os.path.join(os.path.dirname(__file__), "templates")),\n        autoescape=False,\n        lstrip_blocks=True,\n    )',
                ]
            )
            f.add(code, ("vulnerable", "jinja2-autoescape"))
            f.add(f'    return env.get_template("page.html").render(value={var})\n')
        elif kind == "jinja_safe":
            f.add(
                '    env = Environment(loader=FileSystemLoader("templates"), autoescape=select_autoescape())',
                ("safe", "jinja2-autoescape"),
            )
            f.add(f'    return env.get_template("page.html").render(value={var})\n')
        elif kind == "leak":
            f.add(f"    try:\n        return jsonify(result=len({var}))")
            code, check = rnd.choice(
                [
                    (
                        '    except Exception as error:\n        return Response(traceback.format_exc(), status=500, mimetype="text/plain")  <<',
                        "traceback",
                    ),
                    (
                        '    except (KeyError, ValueError) as error:\n        message = "failed: %s" % error\n        return jsonify(error=message), 400  <<',
                        "exception-text",
                    ),
                    (
                        "    except OSError as error:\n        return jsonify(error=error.strerror), 500  <<",
                        "exception-text",
                    ),
                ]
            )
            f.add(code, ("vulnerable", check))
            f.add("")
        elif kind == "leak_safe":
            f.add(f"    try:\n        return jsonify(result=len({var}))")
            f.add(
                '    except Exception as error:\n        logger.error("lookup failed: %s", error)  <<\n        return jsonify(error="lookup failed"), 500',
                ("safe", "exception-text"),
            )
            f.add("")
        elif kind == "env":
            f.add(
                "    return jsonify(config={k: v for k, v in os.environ.items()})",
                ("vulnerable", "environment"),
            )
            f.add("")
        else:
            f.add(
                f'    path = os.path.join("/var/data", {var})\n    with open(path, "rb") as fh:\n        return Response(fh.read(), mimetype="application/octet-stream")  <<',
                ("vulnerable", "file-contents"),
            )
            f.add("")
    f.add(
        "\ndef create_app():\n    from flask import Flask\n\n    application = Flask(__name__)\n    application.register_blueprint(bp)\n    return application\n"
    )
    if rnd.random() < 0.5:
        f.add(
            '\nif __name__ == "__main__":\n    create_app().run("0.0.0.0", 8080, debug=True)  <<',
            ("vulnerable", "debug-server"),
        )


def holdout_lib_file(rnd: random.Random, f: File, st: Style) -> None:
    """Held-out: a data-access and tooling module with class-based helpers and async code."""
    f.imports.update(
        [
            "import asyncio",
            "import logging",
            "from django.utils.safestring import mark_safe",
            "from django import template",
        ]
    )
    f.add("register = template.Library()\nlog = logging.getLogger(__name__)\n")
    for i in range(rnd.randint(3, 7)):
        word = rnd.choice(WORDS)
        table, col = rnd.choice(TABLES), rnd.choice(COLUMNS)
        kind = rnd.choice(
            ["dao", "dao_safe", "async_sql", "tag", "tag_safe", "async_shell", "raw_const"]
        )
        if kind == "dao":
            f.add(
                f'class {word.title()}Store{i}:\n    table = "{table}"\n\n    def __init__(self, connection):\n        self.connection = connection\n'
            )
            code = rnd.choice(
                [
                    f'    def delete(self, key):\n        sql = "DELETE FROM " + self.table + " WHERE {col} = \'" + key + "\'"\n        self.connection.cursor().execute(sql)  <<',
                    f"    def find(self, key, limit=10):\n        with self.connection.cursor() as cursor:\n            cursor.execute(  <<\n                \"SELECT * FROM {table} WHERE {col} = '{{}}' LIMIT {{}}\".format(key, limit)\n            )\n            return cursor.fetchall()",
                ]
            )
            f.add(code, ("vulnerable", "sql"))
            f.add("")
        elif kind == "dao_safe":
            f.add(
                f"class {word.title()}Store{i}:\n    def __init__(self, connection):\n        self.connection = connection\n"
            )
            f.add(
                f'    def find(self, key):\n        with self.connection.cursor() as cursor:\n            cursor.execute("SELECT * FROM {table} WHERE {col} = %s", [key])  <<\n            return cursor.fetchall()',
                ("safe", "sql"),
            )
            f.add("")
        elif kind == "async_sql":
            f.add(f"async def {word}_{i}(pool, key):\n    async with pool.acquire() as conn:")
            f.add(
                f"        return await conn.execute(f\"DELETE FROM {table} WHERE {col} = '{{key}}'\")",
                ("vulnerable", "sql"),
            )
            f.add("")
        elif kind == "tag":
            f.add(f"@register.filter\ndef {word}_{i}(value, arg):")
            f.add(
                '    return mark_safe(value.replace(arg, "<mark>%s</mark>" % arg))',
                ("vulnerable", "mark-safe"),
            )
            f.add("")
        elif kind == "tag_safe":
            f.add(f"@register.simple_tag\ndef {word}_{i}():")
            f.add('    return mark_safe("<hr>")', ("safe", "mark-safe"))
            f.add("")
        elif kind == "async_shell":
            f.add(f"async def {word}_{i}(target):")
            f.add(
                '    proc = await asyncio.create_subprocess_shell("ping -c 1 " + target)',
                ("vulnerable", "shell"),
            )
            f.add("    return await proc.wait()\n")
        else:
            f.add(f"def {word}_{i}(cursor):")
            f.add(
                f'    cursor.execute("SELECT {col}, count(*) FROM {table} GROUP BY {col}")',
                ("safe", "sql"),
            )
            f.add("    return cursor.fetchall()\n")


HOLDOUT_KINDS = [
    ("holdout-web", holdout_web_file, "portal/admin_{i}.py"),
    ("holdout-lib", holdout_lib_file, "core/store_{i}.py"),
]


KINDS = [
    ("flask", flask_file, "app/web_{i}.py"),
    ("django", django_file, "shop/views_{i}.py"),
    ("fastapi", fastapi_file, "api/routes_{i}.py"),
    ("helpers", helpers_file, "lib/helpers_{i}.py"),
    ("script", script_file, "scripts/{word}_{i}.py"),
]


def generate(seed: int, out: Path, files: int, holdout: bool = False) -> dict:
    """Write the tree and labels.json; `holdout` adds the held-out variants and file kinds."""
    HOLDOUT[0] = holdout
    rnd = random.Random(seed)
    kinds = KINDS + HOLDOUT_KINDS * 2 if holdout else KINDS
    tree = out / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    labels: dict[str, list[dict]] = {"vulnerable": [], "safe": []}
    for i in range(files):
        if i % 25 == 24:
            name, make, pattern = "settings", settings_file, "settings/settings_{i}.py"
        else:
            name, make, pattern = rnd.choice(kinds)
        f = File(rnd)
        st = Style(rnd)
        make(rnd, f, st)
        header = sorted(
            set(st.imports()) | {imp for imp in f.imports if imp.startswith(("import ", "from "))}
        )
        extra = [imp for imp in f.imports if not imp.startswith(("import ", "from "))]
        head = [f'"""Generated sample module ({name})."""', "", *header, "", *extra, ""]
        rel = pattern.format(i=i, word=rnd.choice(WORDS))
        path = tree / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(head + f.lines) + "\n", encoding="utf-8")
        offset = len(head)
        for line, verdict, check in f.labels:
            labels[verdict].append({"path": rel, "line": line + offset, "check": check})
    (out / "labels.json").write_text(json.dumps(labels, indent=1), encoding="utf-8")
    return labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=BENCH / "out" / "vulnsamples-dev")
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--holdout", action="store_true", help="add the held-out variants")
    args = parser.parse_args()
    labels = generate(args.seed, args.out, args.files, args.holdout)
    print(f"{args.out}: {len(labels['vulnerable'])} vulnerable, {len(labels['safe'])} safe lines")


if __name__ == "__main__":
    main()
