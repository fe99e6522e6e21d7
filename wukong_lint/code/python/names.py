"""The names the Python code checks (code_python.py) know: which calls run SQL or a shell,
answer a request, hold an exception's text or a version; and the small helpers that read a
name or a literal off a syntax tree."""

from __future__ import annotations

import ast
import builtins
import re

SQL_METHODS = frozenset(
    {"execute", "executemany", "executescript", "mogrify", "raw", "extra",
     # asyncpg, databases; pandas
     "fetch", "fetchrow", "fetchval", "fetch_all", "fetch_one", "fetch_val",
     "read_sql", "read_sql_query",
     # pg8000
     "run"}
)  # fmt: skip
SQL_FUNCTIONS = frozenset({"text", "RawSQL", "read_sql", "read_sql_query"})
# names also used for other things than SQL: the text must show SQL words
GENERIC_SQL_CALLS = frozenset({"execute", "executemany"})
# names used for anything (an HTTP fetch): reported only when SQL words are seen
FETCH_CALLS = frozenset(
    {"fetch", "fetchrow", "fetchval", "fetch_all", "fetch_one", "fetch_val", "run"}
)  # fmt: skip
# what a connection is called, whose `run(sql)` is a query (pg8000): any other `x.run(...)`
# (a thread, a command, a pipeline) is not looked at
RUN_RECEIVER = re.compile(r"(?i)(?:\w*conn\w*|con|db|database|cur|cursor|session|pg\w*|client)$")
# modules whose `run` is no query
NOT_SQL_MODULES = ("subprocess.", "asyncio.", "anyio.", "trio.", "uvicorn.", "click.")
SQL_WORDS = re.compile(
    r"(?i)\b(select|insert|update|delete|create|drop|alter|replace|merge|truncate|pragma|grant"
    r"|where|values|from|into|set|order\s+by|group\s+by|limit|join|union|exec|call)\b"
)
# Statements whose formatted parts are identifiers or settings (a database, a table, an
# isolation level), which no driver can pass as parameters: reported only when request input
# reaches them.
SETTING_SQL = re.compile(
    r"(?i)\s*\(?\s*(set|create|drop|alter|pragma|grant|revoke|truncate|vacuum|analyze|comment"
    r"|savepoint|release|lock|use|show|describe|explain|attach|detach|reindex|cluster|refresh"
    r"|prepare|deallocate|listen|notify|commit|rollback|install|load)\b"
)
RAW_SQL_APIS = frozenset({"extra", "RawSQL"})
SHELL_CALLS = frozenset(
    {
        "os.system", "os.popen", "os.popen2", "os.popen3", "os.popen4",
        "popen2.popen2", "popen2.popen3", "popen2.popen4", "popen2.Popen3", "popen2.Popen4",
        "commands.getoutput", "commands.getstatusoutput",
        "subprocess.getoutput", "subprocess.getstatusoutput",
        "asyncio.create_subprocess_shell", "asyncio.subprocess.create_subprocess_shell",
    }
)  # fmt: skip
SUBPROCESS_CALLS = frozenset(
    {"subprocess.Popen", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
     "subprocess.run"}
)  # fmt: skip
# what quotes a value for a shell (shlex.join quotes every word)
QUOTERS = frozenset({"shlex.quote", "pipes.quote", "shlex.join", "quote_for_shell"})
SAFE_MARKERS = frozenset({"mark_safe", "Markup", "SafeString", "SafeText"})
TRACEBACK_CALLS = frozenset(
    {"traceback.format_exc", "traceback.format_exception", "traceback.format_tb",
     "traceback.format_stack", "traceback.extract_tb"}
)  # fmt: skip
RESPONSE_CALLS = frozenset(
    {"jsonify", "HttpResponse", "JsonResponse", "HttpResponseServerError",
     "HttpResponseBadRequest", "Response", "make_response", "PlainTextResponse", "HTMLResponse",
     "JSONResponse", "StreamingHttpResponse", "render_template", "render", "abort",
     "HTTPException"}
)  # fmt: skip
ROUTE_DECORATORS = frozenset(
    {"route", "get", "post", "put", "patch", "delete", "head", "options", "api_route",
     "websocket", "api_view", "view_config", "errorhandler", "exception_handler"}
)  # fmt: skip
VIEW_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "dispatch"})
SANITIZERS = frozenset(
    {"secure_filename", "safe_join", "basename", "escape", "quote", "clean", "sanitize",
     "escape_html", "strip_tags", "conditional_escape", "format_html", "quote_plus"}
)  # fmt: skip
NEUTRAL_CALLS = frozenset({"type", "len", "bool", "isinstance", "hasattr", "id", "hash", "int"})
READ_METHODS = frozenset({"read", "read_text", "read_bytes", "readlines", "readline"})
LEAKS = ("exception-text", "traceback", "environment", "file-contents", "version")
# what reads a whole file given its handle
FILE_LOADERS = frozenset(
    {"json.load", "yaml.load", "yaml.safe_load", "yaml.full_load", "tomllib.load", "toml.load",
     "pickle.load", "csv.reader", "csv.DictReader", "marshal.load", "plistlib.load"}
)  # fmt: skip
STREAMING_RESPONSES = frozenset({"FileResponse", "StreamingHttpResponse", "StreamingResponse"})
# the versions of the interpreter, the platform and installed packages
VERSION_ATTRIBUTES = frozenset(
    {"sys.version", "sys.version_info", "sys.api_version", "sys.hexversion", "django.VERSION",
     "flask.__version__", "sqlite3.sqlite_version", "ssl.OPENSSL_VERSION"}
)  # fmt: skip
VERSION_CALLS = frozenset(
    {"importlib.metadata.version", "importlib_metadata.version", "pkg_resources.get_distribution",
     "pkg_resources.require", "importlib.metadata.distribution", "django.get_version",
     "importlib.metadata.distributions", "pkg_resources.working_set"}
)  # fmt: skip
# responses whose text is HTML (their first argument, however built)
HTML_RESPONSES = frozenset({"HttpResponse", "make_response", "HTMLResponse", "Response"})
# attributes of an exception that hold its text
EXCEPTION_TEXT = frozenset({"args", "message", "msg", "detail", "strerror"})
# what turns an exception object into its text
TO_TEXT = frozenset({"str", "repr", "format", "join", "format_exception_only"})
# Text without one of these (lower case) holds no hit of any check: a function or class
# without them is not analysed (the rules' keywords decide which files are parsed at all).
TRIGGERS = (
    "execute", ".raw(", ".extra(", "rawsql(", "text(", "read_sql", ".fetch", "system", "popen",
    "shell", "getoutput", "getstatusoutput", "eval(", "exec(", "mark_safe", "markup",
    "safestring", "safetext", "environment(", "render_template_string", "except", "traceback",
    "environ", "open(", "read_text", "read_bytes", "debug", "exc_info", "request", "version",
    "platform", ".run(", "route(", "@app.", "@router.", "@bp.", "make_response", "httpresponse",
    "htmlresponse",
)  # fmt: skip
NOT_PRODUCTION = re.compile(r"Test|Dev|Local|Debug|Example|Sample")
# calls that validate a value: re.match(PATTERN, value), value.isdigit()...
VALIDATORS = frozenset(
    {"match", "fullmatch", "isdigit", "isdecimal", "isnumeric", "isalnum", "isalpha",
     "isidentifier", "is_valid_path", "is_safe_path", "url_has_allowed_host_and_scheme"}
)  # fmt: skip
# parameter names of a handler that hold an exception (error handlers, process_exception)
EXCEPTION_PARAMS = frozenset({"e", "ex", "exc", "exception", "error", "err"})
ERROR_HANDLER_DECORATORS = frozenset({"errorhandler", "app_errorhandler", "exception_handler"})
EXC = "exc-object"  # a caught exception object (its text once formatted)
OWN_EXC = "own-exception"  # caught by a class of the project's (or a library's) own
BUILTIN_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
_SEQUENCES = (ast.List, ast.Tuple, ast.Set)
_OWN_MARKS = frozenset({"const", "quoted"})


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _last(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _is_const(node: ast.AST | None) -> bool:
    """A literal string (or a sum of them): nothing from outside can reach it."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (str, bytes))
    if isinstance(node, ast.JoinedStr):
        return all(isinstance(v, ast.Constant) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_const(node.left) and _is_const(node.right)
    return False


def _plain_literal(node: ast.AST | None) -> bool:
    """A literal string, or a list, tuple or dict of them (the SQL of `.extra()`)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (str, bytes)) or node.value is None
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_plain_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(_plain_literal(v) for v in node.values)
    return False
