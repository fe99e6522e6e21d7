"""What an HTTP client on a command line asks a server to do: its method and URL.

Owns the reading of `curl`, `wget`, HTTPie (`http`, `https`) and `xh` command words into a
request (method, URL); the `http_methods` and `http_paths_any` conditions of `command` rules
(shell/commands.py) ask it. A `DELETE` to a search cluster or a `POST` to `/_delete_by_query`
destroys data as surely as `rm`, and the program's name alone says nothing: the method and
the path do. Pure: words in, a record out. Imports nothing of the package.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

METHODS = frozenset(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"])


class Request(NamedTuple):
    method: str  # upper case; a method the line cannot tell is "UNKNOWN"
    url: str  # as written (`:9200/x` is HTTPie's localhost); "" when none is given


# curl's options that take a value (the ones a command line uses; an unknown option is read
# as a flag, so its value would be read as a URL: harmless, the method is what decides)
_CURL_VALUES = frozenset([
    "-A", "-b", "-c", "-C", "-d", "-D", "-e", "-E", "-F", "-H", "-K", "-m", "-o", "-r", "-T",
    "-u", "-U", "-w", "-x", "-X", "-y", "-Y", "-z", "--url", "--data", "--data-raw",
    "--data-binary", "--data-ascii", "--data-urlencode", "--json", "--form", "--form-string",
    "--header", "--user", "--user-agent", "--referer", "--cookie", "--cookie-jar", "--output",
    "--request", "--upload-file", "--max-time", "--connect-timeout", "--retry",
    "--retry-delay", "--retry-max-time", "--proxy", "--proxy-user", "--cert", "--key",
    "--cacert", "--capath", "--resolve", "--connect-to", "--write-out", "--dump-header",
    "--config", "--range", "--limit-rate", "--interface", "--oauth2-bearer", "--aws-sigv4",
    "--unix-socket", "--abstract-unix-socket", "--variable", "--expand-url", "--trace",
    "--trace-ascii", "--stderr", "--output-dir", "--netrc-file",
    "--happy-eyeballs-timeout-ms", "--max-filesize"
])  # fmt: skip
_CURL_DATA = ("-d", "--data", "--json", "-F", "--form")  # (and --data-* / --form-string)
_WGET_VALUES = frozenset([
    "-O", "-o", "-a", "-P", "-U", "-t", "-T", "-e", "-w", "-l", "-A", "-R", "-D", "-I", "-X",
    "-B", "-i", "--output-document", "--output-file", "--append-output", "--directory-prefix",
    "--user-agent", "--header", "--user", "--password", "--http-user", "--http-password",
    "--tries", "--timeout", "--wait", "--method", "--body-data", "--body-file", "--post-data",
    "--post-file", "--load-cookies", "--save-cookies", "--referer", "--execute",
    "--input-file", "--ca-certificate", "--certificate", "--private-key", "--limit-rate"
])  # fmt: skip
_HTTPIE = frozenset(["http", "https", "xh", "xhs", "httpie", "curlie"])
# an HTTPie data item (`k=v`, JSON `k:=v`, a file's content `k=@f`, `k:=@f`, a form file
# `k@f`): the request then has a body, and its default method is POST
_DATA_ITEM = re.compile(r"^[^\s=:@/]+(?::=|=@|:=@|=(?!=)|@)")


def request_of(name: str, argv: tuple[str, ...]) -> Request | None:
    """The request a client command makes, or None when `name` is no HTTP client this
    module reads (or the line only asks for help or a version)."""
    if name in ("curl", "curl.exe"):
        return _curl(argv[1:])
    if name in ("wget", "wget2"):
        return _wget(argv[1:])
    if name in _HTTPIE:
        return _httpie(argv[1:])
    return None


def _value(word: str, options: frozenset[str]) -> tuple[str, str | None] | None:
    """(option, inline value or None) when `word` is one of `options` (`--request=DELETE`,
    `-XDELETE`), else None."""
    if word.startswith("--"):
        key, eq, inline = word.partition("=")
        return (key, inline if eq else None) if key in options else None
    if len(word) > 2 and word[:2] in options:
        return word[:2], word[2:]
    return (word, None) if word in options else None


def _curl(words: tuple[str, ...]) -> Request:
    method = ""
    implied = "GET"
    urls: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == "--":
            urls += words[i:]
            break
        found = _value(word, _CURL_VALUES) if word.startswith("-") else None
        if found is None:
            if word.startswith("-") and len(word) > 1:
                if word in ("-I", "--head"):
                    implied = "HEAD"
                elif word in ("-G", "--get"):
                    implied = method = "GET"
            else:
                urls.append(word)
            continue
        option, value = found
        if value is None:
            value = words[i] if i < len(words) else ""
            i += 1
        if option in ("-X", "--request"):
            method = value.upper()
        elif option in ("-T", "--upload-file"):
            implied = "PUT"
        elif option.startswith(_CURL_DATA) and implied == "GET" and method != "GET":
            implied = "POST"
        elif option == "--url":
            urls.append(value)
    return Request(method or implied, urls[0] if urls else "")


def _wget(words: tuple[str, ...]) -> Request:
    method = ""
    implied = "GET"
    urls: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        found = _value(word, _WGET_VALUES) if word.startswith("-") else None
        if found is None:
            if not word.startswith("-"):
                urls.append(word)
            continue
        option, value = found
        if value is None:
            value = words[i] if i < len(words) else ""
            i += 1
        if option == "--method":
            method = value.upper()
        elif option in ("--post-data", "--post-file"):
            implied = "POST"
    return Request(method or implied, urls[0] if urls else "")


def _httpie(words: tuple[str, ...]) -> Request:
    positional = [w for w in words if not w.startswith("-") or w == "-"]
    # (options with values: `--auth user:pass`, `-a u:p`; their values look like items and
    # never like a method, so they are left among the positional words)
    method = ""
    if positional and positional[0].upper() in METHODS and positional[0].isalpha():
        method = positional.pop(0).upper()
    url = positional.pop(0) if positional else ""
    if not method:
        method = "POST" if any(_DATA_ITEM.match(w) for w in positional) else "GET"
        if "--form" in words or "-f" in words:
            method = "POST"
    return Request(method, url)


def path_of(url: str) -> str:
    """The path and query of a URL as written (`localhost:9200/x?y` → `/x?y`; HTTPie's
    `:9200/x` too), for the `http_paths_any` regexes."""
    rest = url.split("://", 1)[1] if "://" in url else url.lstrip(":")
    slash = rest.find("/")
    if slash < 0:
        query = rest.find("?")
        return "/" + rest[query:] if query >= 0 else "/"
    return rest[slash:]


def block_matches(
    block: dict[str, Any], name: str, argv: tuple[str, ...], compiled: Callable[[str], Any]
) -> bool:
    """The `http_methods` / `http_paths_any` conditions of a command rule's block."""
    request = request_of(name, argv)
    if request is None:
        return False
    if block.get("http_methods") and request.method not in block["http_methods"]:
        return False
    paths = block.get("http_paths_any")
    return not paths or any(compiled(p).search(path_of(request.url)) for p in paths)
