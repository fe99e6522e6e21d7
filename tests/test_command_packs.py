"""External-system packs and the HTTP request model (issue 31).

The long-tail corpus (tests/fixtures/commands/longtail, one command per line with its class)
is judged as the live hook judges a Bash call; the packs' classes must be stopped and their
look-alikes (list, get, describe, status, --dry-run) let through."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from wukong_lint.shell.http_requests import path_of, request_of

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))


@pytest.mark.parametrize(
    ("line", "method", "url"),
    [
        ("curl -X DELETE http://localhost:9200/logs-*", "DELETE", "http://localhost:9200/logs-*"),
        ("curl -XDELETE http://es:9200/a", "DELETE", "http://es:9200/a"),
        ("curl --request=delete https://x/y", "DELETE", "https://x/y"),
        ("curl -s -u u:p --request DELETE localhost:9200/_all", "DELETE", "localhost:9200/_all"),
        ("curl -d x=1 https://x/a", "POST", "https://x/a"),
        ("curl -G -d q=1 https://x/search", "GET", "https://x/search"),
        ("curl -T f.txt https://x/up", "PUT", "https://x/up"),
        ("curl -I https://x/", "HEAD", "https://x/"),
        ("curl -H 'X-Method: DELETE' https://x/", "GET", "https://x/"),
        ("curl --url https://x/z -X PATCH", "PATCH", "https://x/z"),
        ("wget --method=DELETE -qO- http://h/tmp", "DELETE", "http://h/tmp"),
        ("wget --post-data=a=1 http://h/p", "POST", "http://h/p"),
        ("wget -O out.html http://h/", "GET", "http://h/"),
        ("http DELETE :9200/logs", "DELETE", ":9200/logs"),
        ("xh post :9200/e/_delete_by_query q:=1", "POST", ":9200/e/_delete_by_query"),
        ("http :9200/x name=a", "POST", ":9200/x"),
        ("http :9200/x q==a", "GET", ":9200/x"),
    ],
)
def test_a_client_line_reads_as_its_request(line: str, method: str, url: str) -> None:
    import shlex

    words = tuple(shlex.split(line))
    request = request_of(words[0], words)
    assert request is not None
    assert (request.method, request.url) == (method, url)


def test_the_path_of_a_url_is_its_path_and_query() -> None:
    assert path_of("http://localhost:9200/logs-*?pretty") == "/logs-*?pretty"
    assert path_of(":9200/_cat/health") == "/_cat/health"
    assert path_of("localhost:9200") == "/"
    assert path_of("https://x?y=1") == "/?y=1"
    assert request_of("ls", ("ls", "-la")) is None


@pytest.fixture(scope="module")
def verdicts_by_class() -> dict[str, tuple[int, int]]:
    from commands_longtail import load  # bench/commands_longtail.py

    from tests.command_corpus import verdicts

    cases = load()
    judged = verdicts(cases)
    found: dict[str, tuple[int, int]] = {}
    for case in cases:
        if case.cls.startswith("pack."):
            key = "packs"
        elif case.cls.startswith("safe.") and case.cls.endswith("-read"):
            key = "pack-look-alikes"
        else:
            continue
        stopped, total = found.get(key, (0, 0))
        found[key] = (stopped + (judged[case][0] != "allow"), total + 1)
    return found


def test_the_packs_stop_what_deletes_in_external_systems(verdicts_by_class) -> None:
    stopped, total = verdicts_by_class["packs"]
    assert total > 700
    assert stopped / total >= 0.95, f"{stopped}/{total} pack commands stopped"


def test_the_packs_let_their_look_alikes_through(verdicts_by_class) -> None:
    stopped, total = verdicts_by_class["pack-look-alikes"]
    assert total > 650
    assert stopped / total <= 0.01, f"{stopped}/{total} look-alikes stopped"
