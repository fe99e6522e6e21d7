"""Archives scanned member by member (sources/archives.py): every kind the issue names built
here in tmp_path, nested archives and their depth, zip bombs and the size budget (warnings,
never a crash), path traversal names (shown, never written), corrupt and encrypted members
(errors: the scan is incomplete, exit 2), `--no-archives`, and archive blobs in `--staged`,
`--diff` and `--history`."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import struct
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.conftest import git
from wukong_lint.cli import main
from wukong_lint.sources import archives

TOKEN = "ghp_" + "huG8GP38g4o5MNJAYKJ1UXXFWXLCpaNfhs0g"
LINE = f"GITHUB_TOKEN={TOKEN}\n".encode()


def run(capsys, *args: str) -> tuple[int, dict, str]:
    code = main(["check", "--format", "json", "--jobs", "1", "--select", "secret", *args])
    captured = capsys.readouterr()
    out = captured.out
    assert TOKEN not in out and TOKEN not in captured.err  # never printed
    return code, json.loads(out) if out.strip() else {}, captured.err


def found(report: dict) -> list[tuple[str, int]]:
    return sorted((f["path"], f["line"]) for f in report["findings"])


def make_zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def make_tar(members: dict[str, bytes], mode: str = "w") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:  # type: ignore[call-overload]
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture(autouse=True)
def _defaults():
    yield
    archives.configure()  # a test's --no-archives or limits end with it


@pytest.mark.parametrize(
    "name, data",
    [
        ("a.zip", make_zip({"app/.env": LINE})),
        ("a.jar", make_zip({"app/.env": LINE})),
        ("a.whl", make_zip({"app/.env": LINE})),
        ("a.tar", make_tar({"app/.env": LINE})),
        ("a.tar.gz", make_tar({"app/.env": LINE}, "w:gz")),
        ("a.tgz", make_tar({"app/.env": LINE}, "w:gz")),
        ("a.tar.bz2", make_tar({"app/.env": LINE}, "w:bz2")),
        ("a.tar.xz", make_tar({"app/.env": LINE}, "w:xz")),
    ],
)
def test_each_archive_kind_is_scanned_member_by_member(tmp_path: Path, capsys, name, data):
    (tmp_path / name).write_bytes(data)
    code, report, _ = run(capsys, str(tmp_path))
    assert code == 1
    assert found(report) == [(f"{tmp_path}/{name}!app/.env", 1)]


@pytest.mark.parametrize(
    "name, compress", [("x.env.gz", gzip.compress), ("x.env.bz2", bz2.compress),
                       ("x.env.xz", lzma.compress)],
)  # fmt: skip
def test_a_single_compressed_file_is_one_member(tmp_path: Path, capsys, name, compress):
    (tmp_path / name).write_bytes(b"# settings\n" + compress(b"# settings\n" + LINE))
    (tmp_path / name).write_bytes(compress(b"# settings\n" + LINE))
    code, report, _ = run(capsys, str(tmp_path))
    assert code == 1
    assert found(report) == [(f"{tmp_path}/{name}!x.env", 2)]


def test_nested_archives_to_the_depth_then_a_warning(tmp_path: Path, capsys):
    inner = make_tar({"deploy/.env": LINE}, "w:gz")
    (tmp_path / "outer.zip").write_bytes(make_zip({"lib/inner.tgz": inner, "top.env": LINE}))
    code, report, _ = run(capsys, str(tmp_path))
    assert code == 1
    outer = f"{tmp_path}/outer.zip"
    assert found(report) == [(f"{outer}!lib/inner.tgz!deploy/.env", 1), (f"{outer}!top.env", 1)]
    # three levels: the third is not opened, and the report says so (a warning: exit 1)
    (tmp_path / "outer.zip").write_bytes(make_zip({"mid.zip": make_zip({"in.tgz": inner})}))
    code, report, err = run(capsys, str(tmp_path))
    assert code == 0 and not report["findings"]
    assert [e["path"] for e in report["errors"]] == [f"{outer}!mid.zip!in.tgz"]
    assert "nested deeper than 2 levels" in err
    code, report, _ = run(capsys, "--archive-depth", "3", str(tmp_path))
    assert found(report) == [(f"{outer}!mid.zip!in.tgz!deploy/.env", 1)]


def test_a_zip_bomb_is_a_warning_not_a_crash(tmp_path: Path, capsys):
    bomb = make_zip({"zeros.txt": b"0" * (64 << 20), "ok.env": LINE})
    assert len(bomb) < 200_000  # 64 MiB in a few hundred KB
    (tmp_path / "bomb.zip").write_bytes(bomb)
    code, report, err = run(capsys, str(tmp_path))
    assert code == 1  # the other member is still read; the bomb is a warning, not exit 2
    assert found(report) == [(f"{tmp_path}/bomb.zip!ok.env", 1)]
    assert [e["path"] for e in report["errors"]] == [f"{tmp_path}/bomb.zip!zeros.txt"]
    assert "compression ratio" in report["errors"][0]["message"]
    assert "zip bomb" in err


def test_a_tar_gz_bomb_stops_at_the_budget(tmp_path: Path, capsys):
    members = {f"part{i}.txt": b"x" * (3 << 20) for i in range(4)}  # 12 MiB, compresses well
    (tmp_path / "big.tar.gz").write_bytes(make_tar({"a.env": LINE, **members}, "w:gz"))
    code, report, _ = run(capsys, "--archive-max-mb", "5", str(tmp_path))
    assert code == 1
    assert found(report) == [(f"{tmp_path}/big.tar.gz!a.env", 1)]
    messages = [e["message"] for e in report["errors"]]
    assert messages and all(m.startswith("archive limit: size budget of 5 MiB") for m in messages)


def test_a_gz_bomb_is_read_no_further_than_its_ratio(tmp_path: Path, capsys):
    (tmp_path / "log.gz").write_bytes(gzip.compress(b"\n" * (50 << 20)))
    code, report, _ = run(capsys, str(tmp_path))
    assert code == 0
    assert "compression ratio over 100:1" in report["errors"][0]["message"]


def test_member_names_are_shown_never_written(tmp_path: Path, capsys):
    data = make_zip({"../../escape.env": LINE, "/abs/root.env": LINE})
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "t.zip").write_bytes(data)
    (tmp_path / "t.tar").write_bytes(make_tar({"../../../up.env": LINE}))
    code, report, _ = run(capsys, str(tmp_path / "sub"), str(tmp_path / "t.tar"))
    assert code == 1
    assert found(report) == [
        (f"{tmp_path}/sub/t.zip!../../escape.env", 1),
        (f"{tmp_path}/sub/t.zip!/abs/root.env", 1),
        (f"{tmp_path}/t.tar!../../../up.env", 1),
    ]
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["sub", "t.tar", "t.zip"]


def _corrupt_crc(data: bytes, name: bytes) -> bytes:
    # a stored member's first content byte changed: its CRC-32 no longer matches
    at = data.index(name) + len(name)
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


def test_a_corrupt_member_is_an_error_and_the_scan_is_incomplete(tmp_path: Path, capsys):
    data = make_zip({"bad.txt": b"hello world\n", "good.env": LINE}, zipfile.ZIP_STORED)
    (tmp_path / "c.zip").write_bytes(_corrupt_crc(data, b"bad.txt"))
    code, report, err = run(capsys, str(tmp_path))
    assert code == 2  # fail closed, as for an unreadable file
    assert found(report) == [(f"{tmp_path}/c.zip!good.env", 1)]
    assert report["errors"][0]["path"] == f"{tmp_path}/c.zip!bad.txt"
    assert report["errors"][0]["message"].startswith("cannot read: corrupt archive member")
    assert "not scanned: unreadable" in err
    code, report, _ = run(capsys, "--allow-skipped", str(tmp_path))
    assert code == 1


@pytest.mark.parametrize("name", ["t.zip", "t.tar.gz", "t.gz", "t.xz"])
def test_a_truncated_archive_is_an_error(tmp_path: Path, capsys, name):
    whole = {
        "t.zip": make_zip({"a.env": LINE * 200}),
        "t.tar.gz": make_tar({"a.env": LINE * 200}, "w:gz"),
        "t.gz": gzip.compress(LINE * 200),
        "t.xz": lzma.compress(LINE * 200),
    }[name]
    (tmp_path / name).write_bytes(whole[: len(whole) // 2])
    code, report, _ = run(capsys, str(tmp_path))
    assert code == 2
    assert report["errors"] and report["errors"][0]["message"].startswith("cannot read")


def _encrypted(data: bytes) -> bytes:
    # zipfile cannot write encryption: set bit 0 of the flags in the local and central
    # headers, which is how a reader learns that a password protects the member
    out = bytearray(data)
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = out.find(signature)
        flags = struct.unpack_from("<H", out, at + offset)[0]
        struct.pack_into("<H", out, at + offset, flags | 1)
    return bytes(out)


def test_an_encrypted_member_is_a_clear_error_not_a_crash(tmp_path: Path, capsys):
    (tmp_path / "e.zip").write_bytes(_encrypted(make_zip({"secret.env": LINE})))
    code, report, _ = run(capsys, str(tmp_path))
    assert code == 2
    error = report["errors"][0]
    assert error["path"] == f"{tmp_path}/e.zip!secret.env"
    assert "encrypted archive member" in error["message"]


def test_not_an_archive_despite_its_name_is_a_binary_file(tmp_path: Path, capsys):
    (tmp_path / "fake.zip").write_bytes(b"\x00\x01 not a zip " * 100)
    (tmp_path / "text.gz").write_text("just text named .gz\n")
    code, report, _ = run(capsys, str(tmp_path))
    assert code == 0 and not report["errors"]


def test_no_archives_skips_them_as_before(tmp_path: Path, capsys):
    (tmp_path / "a.zip").write_bytes(make_zip({"a.env": LINE}))
    code, report, _ = run(capsys, "--no-archives", str(tmp_path))
    assert code == 0 and not report["findings"]
    assert report["stats"]["skipped"] == 1
    code, report, _ = run(capsys, str(tmp_path / "a.zip"))  # named: scanned again
    assert found(report) == [(f"{tmp_path}/a.zip!a.env", 1)]


def test_binary_members_are_skipped_and_credential_files_read_by_format(tmp_path: Path, capsys):
    password = "Kessel" + "Run" + "1977"
    data = make_zip({
        "home/.netrc": f"machine h login bob password {password}\n".encode(),
        ".pgpass": f"db:5432:app:bob:{password}\n".encode(),
        "logo.png": b"\x89PNG\r\n\x1a\n" + b"\0" * 100,
        "blob.bin": b"\0\1\2" * 100,
    })  # fmt: skip
    (tmp_path / "home.zip").write_bytes(data)
    code, report, _ = run(capsys, str(tmp_path))
    assert code == 1
    rules = sorted((f["path"].rsplit("!", 1)[1], f["rule_id"]) for f in report["findings"])
    assert rules == [(".pgpass", "secret.pgpass-password"),
                     ("home/.netrc", "secret.netrc-password")]  # fmt: skip
    assert report["stats"]["skipped"] == 2
    assert password not in json.dumps(report)


def test_parallel_scan_reads_archives_as_one_process_does(tmp_path: Path, capsys):
    for i in range(80):
        (tmp_path / f"f{i}.txt").write_text("nothing\n")
    (tmp_path / "z.zip").write_bytes(make_zip({"a.env": LINE}))
    one = run(capsys, str(tmp_path))[1]
    code = main(["check", "--format", "json", "--jobs", "2", "--select", "secret", "--no-archives",
                 str(tmp_path)])  # fmt: skip
    capsys.readouterr()
    code = main(["check", "--format", "json", "--jobs", "2", "--select", "secret", str(tmp_path)])
    two = json.loads(capsys.readouterr().out)
    assert code == 1 and found(two) == found(one) == [(f"{tmp_path}/z.zip!a.env", 1)]


# -- git: --staged, --diff, --history -----------------------------------------------------


def test_archive_blobs_in_staged_diff_and_history(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "README.md").write_text("hi\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    (repo / "dist").mkdir()
    (repo / "dist" / "bundle.zip").write_bytes(make_zip({"cfg/.env": b"# x\n" + LINE}))
    (repo / "dist" / "data.tgz").write_bytes(make_tar({"notes.txt": b"nothing here\n"}, "w:gz"))
    git(repo, "add", ".")
    code, report, _ = run(capsys, "--staged")
    assert code == 1
    assert found(report) == [("dist/bundle.zip!cfg/.env", 2)]
    assert report["findings"][0]["source"]["kind"] == "diff"
    git(repo, "commit", "-qm", "add bundle")
    sha = git(repo, "rev-parse", "HEAD").strip()
    code, report, _ = run(capsys, "--diff", "HEAD~1..HEAD")
    assert code == 1 and found(report) == [("dist/bundle.zip!cfg/.env", 2)]
    assert report["findings"][0]["source"]["commit"] == sha
    code, report, _ = run(capsys, "--history", "--jobs", "1")
    assert code == 1 and found(report) == [("dist/bundle.zip!cfg/.env", 2)]
    assert report["findings"][0]["source"]["commit"] == sha
    code, report, _ = run(capsys, "--history", "--no-archives")
    assert code == 0 and not report["findings"]


def test_a_bomb_in_a_staged_archive_is_a_warning(repo: Path, monkeypatch, capsys):
    monkeypatch.chdir(repo)
    (repo / "bomb.zip").write_bytes(make_zip({"zeros.txt": b"0" * (8 << 20)}))
    git(repo, "add", ".")
    code, report, _ = run(capsys, "--staged")
    assert code == 0
    assert report["errors"][0]["message"].startswith("archive limit: compression ratio")
    (repo / "c.zip").write_bytes(_corrupt_crc(make_zip({"bad.txt": b"hello\n"}, 0), b"bad.txt"))
    git(repo, "add", ".")
    code, report, _ = run(capsys, "--staged")
    assert code == 2  # a member that could not be read: the change was not all scanned


def _member_results(data: bytes) -> list[object]:
    return [
        (
            type(item).__name__,
            item.path,
            getattr(item, "text", None),
            getattr(item, "message", None),
        )
        for item in archives._archive(
            io.BytesIO(data), "a.zip", archives.Source(kind="file"), archives.Limits(), 1, None
        )
    ]


def _through_zipfile(monkeypatch, data: bytes) -> list[object]:
    with monkeypatch.context() as patch:
        patch.setattr(archives, "_zip_direct", lambda *_: None)
        return _member_results(data)


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
def test_the_direct_zip_reader_gives_what_zipfile_gives(monkeypatch, method):
    members = {"a.env": LINE, "empty.txt": b"", "ünï/cödé.py": "x = 'é'\n".encode() * 5000,
               "big.txt": bytes(range(256)) * 4000}  # fmt: skip
    data = make_zip(members, method)
    direct = _member_results(data)
    assert direct == _through_zipfile(monkeypatch, data)
    assert [path for _, path, _, _ in direct] == [f"a.zip!{name}" for name in members]
    with zipfile.ZipFile(io.BytesIO(data)) as archive:  # (read here, not by zipfile)
        for info in archive.infolist():
            got = archives._zip_direct(io.BytesIO(data), info, archives._Budget(1 << 30))
            assert got == members[info.filename]


def test_the_direct_zip_reader_checks_the_crc_and_never_reads_past_the_declared_size(
    monkeypatch,
):
    data = make_zip({"bad.txt": b"hello world\n", "good.env": LINE}, zipfile.ZIP_DEFLATED)
    at = data.index(b"PK\x01\x02")  # the central directory: bad.txt's CRC-32 at +16
    bad_crc = data[: at + 16] + b"\0\0\0\0" + data[at + 20 :]
    shorter = data[: at + 24] + struct.pack("<I", 5) + data[at + 28 :]  # declared: 5 bytes
    empty = data[: at + 24] + struct.pack("<I", 0) + data[at + 28 :]  # declared: none
    for broken in (bad_crc, shorter, empty):
        direct = _member_results(broken)
        assert direct == _through_zipfile(monkeypatch, broken)
        assert direct[0][3].startswith("cannot read: corrupt archive member (Bad CRC-32")
        assert direct[1][:2] == ("Unit", "a.zip!good.env")


def test_members_the_direct_reader_leaves_to_zipfile(monkeypatch):
    # another compression; a local header whose name is not the directory's
    for method in (zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        data = make_zip({"a.env": LINE}, method)
        assert _member_results(data) == [("Unit", "a.zip!a.env", LINE.decode(), None)]
    data = make_zip({"a.env": LINE, "b.env": LINE})
    renamed = data.replace(b"b.env", b"c.env", 1)  # the first: the local header's
    direct = _member_results(renamed)
    assert direct == _through_zipfile(monkeypatch, renamed)
    assert "differ" in direct[1][3]
