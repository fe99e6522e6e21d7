"""The names and flags the JS/TS analysis (code_js.py) works with: which calls run SQL, a shell,
code or write HTML, which clean a value, and what a value is known to be.

A value is described by a set of flags (`Flags`) and the literal text it holds (to see SQL
words in a query); a value with no flag is simply not known to be constant.
"""

from __future__ import annotations

import re

# -- what a value is -----------------------------------------------------------------------
CONST = "const"  # a literal, or built only from literals: nothing from outside reaches it
FMT = "fmt"  # a string built by formatting with a non-constant part (+, `${}`, util.format)
SAFE = "safe"  # cleaned (a sanitizer, an escape), a number, placeholders, a tagged sql`...`
FUNC = "func"  # a function (what setTimeout is normally given)
STRING = "string"  # known to be a string (a literal or built from one)
ERR = "err"  # a caught error object
ERRTEXT = "errtext"  # an error's text (its message, or the error formatted)
STACK = "stack"  # an error's stack trace
ENV = "env"  # the whole process environment
HTML_DYN = "html-dyn"  # an object whose __html is not constant ({__html: x})
REQ = "request"  # read from the HTTP request (req.query, req.body, ctx.request...)
REQ_TEXT = "request-text"  # one field of it (req.query.q): a string the client chose
LEAKS = frozenset({ERR, ERRTEXT, STACK, ENV})
CARRIED = LEAKS | {REQ}  # what a string built from a value still carries
REQUEST_OBJECTS = frozenset({"req", "request"})
KOA_REQUEST = frozenset({"query", "params", "request", "body", "headers", "cookies", "path", "url"})
# shells that run their `-c` argument as a command line
SHELLS = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "/bin/sh", "/bin/bash", "/usr/bin/bash", "/bin/zsh",
     "cmd", "cmd.exe", "powershell", "powershell.exe", "pwsh"}
)  # fmt: skip
Flags = frozenset

# -- SQL -------------------------------------------------------------------------------------
# methods that take SQL text; the generic ones are reported only when the query's literal
# text holds SQL words (`db.get(key)`, `regex.exec(text)`, `cache.all()` are no queries)
SQL_METHODS = frozenset(
    {"query", "execute", "raw", "whereRaw",
     # pg-promise
     "any", "one", "none", "many", "oneOrNone", "manyOrNone", "result", "multi",
     "orWhereRaw", "andWhereRaw", "joinRaw",
     "orderByRaw", "havingRaw", "groupByRaw", "selectRaw", "fromRaw", "$queryRawUnsafe",
     "$executeRawUnsafe", "unsafe", "all", "get", "run", "exec", "each", "prepare",
     "queryRaw", "executeRaw", "literal"}
)  # fmt: skip
# names that say "raw SQL" by themselves: reported without SQL words in the text
RAW_SQL_METHODS = frozenset(
    {"raw", "whereRaw", "orWhereRaw", "andWhereRaw", "joinRaw", "orderByRaw", "havingRaw",
     "groupByRaw", "selectRaw", "fromRaw", "$queryRawUnsafe", "$executeRawUnsafe", "unsafe"}
)  # fmt: skip
# bare functions that take SQL text (`const { query } = require("./db")`)
SQL_FUNCTIONS = frozenset({"query", "execute", "sql_query", "runQuery", "executeQuery"})
# receivers whose method of these names is no database call
NOT_SQL_RECEIVERS = frozenset(
    {"axios", "http", "https", "fetch", "router", "app", "res", "response",
     "map", "cache", "headers", "params", "searchParams", "localStorage", "sessionStorage",
     "_", "lodash", "array", "arr", "list", "items", "Promise",
     "URLSearchParams", "Reflect", "console", "JSON", "Object", "location", "window",
     "document", "redis", "client_redis"}
)  # fmt: skip
SQL_WORDS = re.compile(
    r"(?i)\b(select|insert\s+into|update|delete\s+from|delete|create\s+table|drop|alter\s+table"
    r"|replace\s+into|merge|truncate|pragma|grant|where|values|from|order\s+by|group\s+by"
    r"|limit|join|union|having)\b"
)
# tagged templates that make a parameterised query of their `${}` values
SQL_TAGS = frozenset(
    {"sql", "SQL", "Prisma.sql", "$queryRaw", "$executeRaw", "sqltag", "sqlTag", "raw_sql_safe",
     "safeQL", "dedentSql", "postgres", "sqlite", "knex.raw_safe"}
)  # fmt: skip
# tags that only format a template (its value is the template's)
FORMAT_TAGS = frozenset({"dedent", "outdent", "String.raw", "stripIndent", "stripIndents", "ts"})

# -- shell -----------------------------------------------------------------------------------
SHELL_MODULES = ("child_process", "node:child_process")
SHELL_EXEC = frozenset({"exec", "execSync"})
SHELL_OPTION = frozenset({"spawn", "spawnSync", "execFile", "execFileSync", "fork"})
EXECA = frozenset(
    {"execa", "execaSync", "execaCommand", "execaCommandSync", "command", "commandSync",
     "execaNode"}
)  # fmt: skip

# -- HTML ------------------------------------------------------------------------------------
HTML_PROPERTIES = frozenset({"innerHTML", "outerHTML", "srcdoc"})
JQUERY_HTML = frozenset({"html", "append", "prepend", "after", "before", "replaceWith"})
# a call of one of these names (last part) cleans or encodes a value
SANITIZER = re.compile(
    r"(?i)(sanitiz|purif|escape|encode|xss|clean|safe|strip_?tags|stripHtml|textOnly|quote)"
)
NUMERIC_CALLS = frozenset(
    {"parseInt", "parseFloat", "Number", "Boolean", "Math", "isNaN", "toFixed", "valueOf",
     "getTime", "Date.now", "uuid", "uuidv4", "randomUUID", "nanoid", "encodeURIComponent",
     "encodeURI", "toISOString", "ObjectId", "count", "indexOf"}
)  # fmt: skip
# string methods whose result carries what the string carried
STRING_METHODS = frozenset(
    {"trim", "trimStart", "trimEnd", "toLowerCase", "toUpperCase", "slice", "substring",
     "substr", "padStart", "padEnd", "concat", "replace", "replaceAll", "normalize",
     "toString", "repeat", "join", "split", "at", "charAt", "toLocaleLowerCase",
     "toLocaleUpperCase", "reverse", "filter", "sort", "flat"}
)  # fmt: skip

# -- code ------------------------------------------------------------------------------------
VM_CALLS = frozenset(
    {"runInContext", "runInNewContext", "runInThisContext", "compileFunction", "Script",
     "SourceTextModule"}
)  # fmt: skip
TIMERS = frozenset({"setTimeout", "setInterval", "setImmediate", "execScript"})

# -- responses -------------------------------------------------------------------------------
RESPONSE_METHODS = frozenset(
    {"send", "json", "jsonp", "end", "write", "sendStatus", "render", "response"}
)  # fmt: skip
# exceptions a framework turns into the response (NestJS HttpException and its kin)
RESPONSE_EXCEPTIONS = frozenset(
    {"HttpException", "BadRequestException", "UnauthorizedException", "ForbiddenException",
     "NotFoundException", "ConflictException", "InternalServerErrorException",
     "ServiceUnavailableException", "UnprocessableEntityException", "BadGatewayException",
     "GatewayTimeoutException", "NotAcceptableException", "RequestTimeoutException",
     "GoneException", "PayloadTooLargeException", "NotImplementedException",
     "PreconditionFailedException", "MethodNotAllowedException", "ImATeapotException",
     "UnsupportedMediaTypeException", "MisdirectedException", "HttpError", "createError"}
)  # fmt: skip
# query builders whose condition text is SQL (TypeORM): reported when it compares a value
CONDITION_METHODS = frozenset({"where", "andWhere", "orWhere", "having", "andHaving", "orHaving"})
CONDITION = re.compile(r"(?i)[=<>]|\b(like|in|is|between)\b")
# Angular: marking a value as trusted HTML skips the sanitizer
TRUST_CALLS = frozenset(
    {"bypassSecurityTrustHtml", "bypassSecurityTrustScript", "bypassSecurityTrustUrl",
     "bypassSecurityTrustResourceUrl", "bypassSecurityTrustStyle"}
)  # fmt: skip
# what a handler's response object is called (Express res, Fastify reply, Koa ctx.res...)
RESPONSE_OBJECTS = frozenset({"res", "response", "reply", "resp", "rep", "ctx.res", "h"})
RESPONSE_CONSTRUCTORS = frozenset(
    {"Response", "NextResponse", "Response.json", "NextResponse.json", "HttpResponse",
     "NextResponse.redirect_never"}
)  # fmt: skip
# Koa and the like: a response is set by assigning one of these
RESPONSE_ASSIGN = frozenset({"ctx.body", "ctx.response.body", "context.body", "this.body"})
ERROR_NAMES = frozenset(
    {"err", "error", "e", "ex", "exc", "exception", "er", "error_", "_err", "_error", "caught",
     "reason"}
)  # fmt: skip
ERROR_TEXT = frozenset({"message", "msg", "toString", "detail", "details", "cause", "sqlMessage"})
# conditions that mean "a developer's machine": error details are meant for them there
DEBUG_CONDITION = re.compile(r"(?i)development|\bdebug|isdev|__dev__|\bdev\b|\blocal\b|\.dev\b")


# -- combining what values are --------------------------------------------------------
def reflected_html(value: tuple[frozenset, str]) -> bool:
    """Text built with request data (`"<p>" + req.query.q`, `` `No user ${req.params.id}` ``)
    sent as a response body: Express and Koa send a string as text/html."""
    flags, _ = value
    return REQ in flags and (FMT in flags or REQ_TEXT in flags) and SAFE not in flags


def debug_branch(condition: str) -> bool | None:
    """Which branch of a condition runs only on a developer's machine: True for the first
    (`NODE_ENV === "development"`, `!== "production"`, `isDev`), False for the second
    (`=== "production"`), None when the condition is no such switch."""
    if "production" in condition.lower():
        return "!=" in condition or condition.lstrip("( ").startswith("!")
    if DEBUG_CONDITION.search(condition):
        return not condition.lstrip("( ").startswith("!")
    return None


def fixed(flags: frozenset) -> bool:
    """Constant or cleaned: nothing from outside reaches the text unescaped."""
    return CONST in flags or SAFE in flags


def as_text(flags: frozenset | set) -> set[str]:
    """An error turned into text (concatenated, formatted) is its message."""
    out = set(flags)
    if ERR in out:
        out.discard(ERR)
        out.add(ERRTEXT)
    return out


def union(a: tuple[frozenset, str], b: tuple[frozenset, str]) -> tuple[frozenset, str]:
    flags = (a[0] | b[0]) - {CONST, SAFE}
    if fixed(a[0]) and fixed(b[0]):
        flags |= {CONST}
    return (frozenset(flags), (a[1] + " " + b[1]).strip())


def combine(parts: list[tuple[frozenset, str]], literal: str) -> tuple[frozenset, str]:
    flags: set[str] = set()
    for part_flags, _ in parts:
        flags |= part_flags & (CARRIED | {FMT, HTML_DYN, STRING})
    if all(fixed(f) for f, _ in parts):
        flags.add(CONST)
    texts = [t for _, t in parts if t]
    return (frozenset(flags), (literal + " " + " ".join(texts)).strip())
