"""The credential file formats: for each, which files it is (name, path, first bytes) and
where its credentials are once the file is read in its own syntax (secrets/syntax.py).
Which formats a file is comes from its name (secrets/file_names.py).

A finder takes the text and yields `Found(start, end, note)`: the span of the credential
(what a finding points at, hashes and masks) and a few words for the message, never the
value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from wukong_lint.secrets.syntax import (
    Pair,
    hcl_pairs,
    ini_pairs,
    json_pairs,
    netrc_pairs,
    xml_pairs,
    yaml_pairs,
)
from wukong_lint.secrets.values import LIVE, b64decode, b64text, grade, is_live, is_password_key


class Found(NamedTuple):
    start: int
    end: int
    note: str = ""
    # the value is a well-known placeholder (`changeme`): reported, at low severity
    placeholder: bool = False


Finder = Callable[[str], Iterator[Found]]


def _graded(
    start: int, end: int, value: str, key: str = "password", note: str = ""
) -> Iterator[Found]:
    """The credential at start:end when `value` is one: the format says the field holds a
    password, so a placeholder (`changeme`) is reported too, as such; nothing for an empty
    field or a reference to the value's real home (`${TOKEN}`, `!pass show`)."""
    verdict = grade(value, key)
    if verdict:
        yield Found(start, end, note, verdict != LIVE)


def _pairs_where(
    pairs: Iterator[Pair], keys: Callable[[str], bool], note: str = ""
) -> Iterator[Found]:
    for pair in pairs:
        if pair.literal and keys(pair.key):
            yield from _graded(pair.start, pair.end, pair.value, pair.key, note)


def _named(*names: str) -> Callable[[str], bool]:
    wanted = frozenset(n.lower() for n in names)
    return lambda key: key.lower() in wanted


# -- line formats -----------------------------------------------------------------------------


def find_netrc(text: str) -> Iterator[Found]:
    machines: dict[object, str] = {}
    logins: dict[object, str] = {}
    for pair in netrc_pairs(text):
        if pair.key == "machine":
            machines[pair.obj] = pair.value.lower()
        elif pair.key == "login":
            logins[pair.obj] = pair.value.lower()
        elif pair.key == "password":
            if logins.get(pair.obj) in ("anonymous", "ftp"):
                continue  # anonymous FTP: the "password" is an e-mail address by convention
            machine = machines.get(pair.obj, "")
            note = "Heroku API key" if "heroku.com" in machine else ""
            yield from _graded(pair.start, pair.end, pair.value, "password", note)


def find_pgpass(text: str) -> Iterator[Found]:
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        body = line.rstrip("\r")
        if not body.strip() or body.lstrip().startswith("#"):
            continue
        # hostname:port:database:username:password, `\:` and `\\` escaped
        fields = re.split(r"(?<!\\):", body, maxsplit=4)
        if len(fields) != 5:
            continue
        password = fields[4]
        if password and password != "*":
            pos = start + len(body) - len(password)
            yield from _graded(pos, pos + len(password), password.replace("\\:", ":"))


_CRED_URL = re.compile(r"(?m)^[ \t]*[a-z][\w+.\-]*://(?P<info>[^\s]*)@[^\s@/]+")


def find_git_credentials(text: str) -> Iterator[Found]:
    for match in _CRED_URL.finditer(text):
        info = match.group("info")  # greedy: the last `@` ends the user info
        user, sep, password = info.partition(":")
        from urllib.parse import unquote  # only for this format: not at import

        if sep:
            start = match.start("info") + len(user) + 1
            yield from _graded(start, start + len(password), unquote(password))


_NPM_KEYS = ("_authtoken", "_auth", "_password", "npmauthtoken", "npmauthident")


def find_npmrc(text: str) -> Iterator[Found]:
    """.npmrc (`//host/:_authToken=...`, `_auth=base64(user:pass)`, `_password=base64`) and the
    classic .yarnrc (`"//host/:_authToken" "value"`)."""
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        body = line.rstrip("\r")
        stripped = body.lstrip()
        if not stripped or stripped[0] in "#;":
            continue
        key, sep, value = body.partition("=")
        if not sep:  # .yarnrc: key and value separated by a space, both may be quoted
            match = re.match(r'\s*("[^"]+"|\S+)\s+"?([^"\s]+)"?\s*$', body)
            if match is None:
                continue
            key, value = match.group(1), match.group(2)
            vstart = start + match.start(2)
        else:
            lead = len(value) - len(value.lstrip())
            value = value.strip().strip("\"'")
            quoted = body[len(key) + 1 + lead :][:1] in ("'", '"')
            vstart = start + len(key) + 1 + lead + quoted
        name = key.strip().strip("\"'").rsplit(":", 1)[-1].lower()
        if name not in _NPM_KEYS:
            continue
        note, graded = "", value
        if name == "_auth":
            decoded = b64text(value)
            if decoded is None or ":" not in decoded:
                continue  # does not decode to user:password: not confirmed
            note, graded = "user:password", decoded.partition(":")[2]
        yield from _graded(vstart, vstart + len(value), graded, name, note)


def find_yarnrc_yml(text: str) -> Iterator[Found]:
    yield from _pairs_where(yaml_pairs(text), _named("npmAuthToken", "npmAuthIdent"))


def _ini_keys(*names: str) -> Finder:
    def finder(text: str) -> Iterator[Found]:
        yield from _pairs_where(ini_pairs(text), _named(*names))

    return finder


find_pypirc = _ini_keys("password")
find_s3cfg = _ini_keys("secret_key", "access_token", "gpg_passphrase", "proxy_password")
# (.boto: Google Cloud Storage's keys beside AWS's)
find_aws_credentials = _ini_keys(
    "aws_secret_access_key",
    "aws_session_token",
    "aws_security_token",
    "gs_secret_access_key",
    "gs_oauth2_refresh_token",
    "proxy_pass",
)
find_ventrilo = _ini_keys(
    "password", "adminpassword", "serverpassword", "dbpassword", "superuserpassword"
)
find_cargo_credentials = _ini_keys("token", "secret-key")
find_mysql_cnf = _ini_keys("password", "pass")


def find_putty(text: str) -> Iterator[Found]:
    if not text.startswith("PuTTY-User-Key-File-"):
        return
    private = re.search(r"(?m)^Private-Lines:[ \t]*\d+[ \t]*\r?$", text)
    if private is None:
        return
    encryption = re.search(r"(?m)^Encryption:[ \t]*(\S+)", text)
    protected = encryption is not None and encryption.group(1).lower() != "none"
    first_line = text.find("\n")
    yield Found(0, first_line if first_line > 0 else len(text),
                "protected by a passphrase" if protected else "unencrypted")  # fmt: skip


def find_rails_key(text: str) -> Iterator[Found]:
    value = text.strip()
    if re.fullmatch(r"[0-9a-f]{32}", value) and is_live(value):
        start = text.find(value)
        yield Found(start, start + len(value))


_MUTT = re.compile(
    r"(?m)^[ \t]*set[ \t]+(?:imap|smtp|pop|nntp)_(?:pass|password)[ \t]*=[ \t]*"
    r"(?:\"(?P<dq>[^\"\n]*)\"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s#]+))"
)
_RC_PASSWORD = re.compile(
    r"(?:^|[ \t])(?:password|pass|passwd)(?:[ \t]*=[ \t]*|[ \t]+)"
    r"(?:\"(?P<dq>[^\"\n]*)\"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s\"'#][^\s\"']*))",
    re.M,
)


def find_mail_rc(text: str) -> Iterator[Found]:
    """esmtp (`password "..."`), msmtp (`password ...`; never `passwordeval`), fetchmail
    (`pass`/`password` inside a poll statement), mutt (`set smtp_pass = ...`)."""
    for pattern in (_MUTT, _RC_PASSWORD):
        for match in pattern.finditer(text):
            group = next(g for g in ("dq", "sq", "bare") if match.group(g) is not None)
            value = match.group(group)
            line_start = text.rfind("\n", 0, match.start(group)) + 1
            if text[line_start : match.start(group)].lstrip().startswith("#"):
                continue
            yield from _graded(match.start(group), match.end(group), value)


def find_keystore(text: str) -> Iterator[Found]:
    """A keystore's binary content (handed over as no text, or read with NUL bytes): one
    finding on its first line. A text file with a keystore's name (a README, a PEM bundle,
    which the private-key rule reads) is not a keystore."""
    if not text or "\0" in text[:4096]:
        yield Found(0, 0, "binary keystore")


# -- structured formats -----------------------------------------------------------------------


def find_docker_config(text: str) -> Iterator[Found]:
    """`"auth": base64("user:password")` under `auths` (config.json) or at the top of each
    registry (.dockercfg); `identitytoken` / `registrytoken` too."""
    for pair in json_pairs(text):
        key = pair.key.lower()
        if not pair.literal or not pair.value:
            continue
        if key == "auth":
            decoded = b64text(pair.value)
            if decoded is None:
                continue  # not base64 of text: not confirmed
            _user, sep, password = decoded.partition(":")
            if sep:
                yield from _graded(pair.start, pair.end, password, note="base64 user:password")
        elif key in ("identitytoken", "registrytoken"):
            yield from _graded(pair.start, pair.end, pair.value, key)


def find_nuget(text: str) -> Iterator[Found]:
    yield from _pairs_where(xml_pairs(text), _named("ClearTextPassword"))


def find_maven(text: str) -> Iterator[Found]:
    yield from _pairs_where(xml_pairs(text), _named("password", "passphrase"))


def find_kubeconfig(text: str) -> Iterator[Found]:
    """The credentials of a kubeconfig's users: `token`, `password`, and `client-key-data`
    (base64 of a PEM private key: decoded to confirm)."""
    for pair in yaml_pairs(text):
        key = pair.key.lower()
        if not pair.literal:
            continue
        if key == "client-key-data":
            raw = b64decode(pair.value)
            if raw is not None and b"PRIVATE KEY-----" in raw:
                yield Found(pair.start, pair.end, "base64 private key")
        elif key in ("token", "password", "refresh-token"):
            yield from _graded(pair.start, pair.end, pair.value, key)


def find_tomcat_users(text: str) -> Iterator[Found]:
    """`<user username="..." password="..." roles="..."/>` in tomcat-users.xml."""
    for pair in xml_pairs(text):
        if pair.key.lower() == "password" and pair.literal:
            yield from _graded(pair.start, pair.end, pair.value)


def find_firefox_logins(text: str) -> Iterator[Found]:
    for pair in json_pairs(text):
        if (
            pair.key in ("encryptedPassword", "encryptedUsername")
            and pair.literal
            and len(pair.value) >= 20
        ):
            yield Found(pair.start, pair.end, "encrypted with the profile's key4.db")


_FILEZILLA = re.compile(r"<Pass(?P<attrs>\s[^>]*)?>(?P<value>[^<]{1,1000})</Pass>", re.I)


def find_filezilla(text: str) -> Iterator[Found]:
    for match in _FILEZILLA.finditer(text):
        value = match.group("value").strip()
        note = ""
        attrs = (match.group("attrs") or "").lower()
        if "base64" in attrs:
            decoded = b64text(value)
            if decoded is None:
                continue  # not base64: not confirmed
            value, note = decoded, "base64"
        elif "encoding=" in attrs and "plain" not in attrs:
            continue  # `crypt`: encrypted with the user's master password
        yield from _graded(match.start("value"), match.end("value"), value, note=note)


_IDE_KEYS = _named("password", "pass", "passphrase", "passwd", "sshPassword", "ftpPassword")


def find_ide_deploy(text: str) -> Iterator[Found]:
    """Sublime SFTP, Atom remote-ftp / remote-sync, ftp-deploy, VS Code SFTP: JSON (often
    with comments) with a live password field."""
    yield from _pairs_where(json_pairs(text), _IDE_KEYS)


def find_jetbrains(text: str) -> Iterator[Found]:
    """WebServers.xml `password="..."` on a fileTransfer, dataSources.xml `<user-password>`."""
    for pair in xml_pairs(text):
        if pair.key.lower() in ("password", "user-password") and pair.literal:
            yield from _graded(pair.start, pair.end, pair.value, note="scrambled, not encrypted")


def find_robomongo(text: str) -> Iterator[Found]:
    yield from _pairs_where(
        json_pairs(text), _named("userPassword", "sshUserPassword", "sshPassphrase", "password")
    )


def find_dbeaver(text: str) -> Iterator[Found]:
    yield from _pairs_where(json_pairs(text), _named("password", "auth-password"))


# Secret keys whose values are not secret (the rest of a Secret's data is).
_K8S_PUBLIC = frozenset(
    """username user host hostname port database db dbname name email region endpoint url
    namespace ca.crt tls.crt cert certificate""".split()  # noqa: SIM905
)


def find_k8s_secret(text: str) -> Iterator[Found]:
    """`data:` (base64: decoded to check for placeholders; what does not decode is not
    confirmed) and `stringData:` values of each `kind: Secret` document."""
    offset = 0
    for document in re.split(r"(?m)^(?=---[ \t]*\r?$)", text):
        base = offset
        offset += len(document)
        if not re.search(r"(?m)^kind:[ \t]*[\"']?Secret[\"']?[ \t]*\r?$", document):
            continue
        for pair in yaml_pairs(document):
            if not pair.obj or pair.obj[-1] not in ("data", "stringData") or len(pair.obj) > 1:
                continue
            if pair.key.lower() in _K8S_PUBLIC or not pair.literal:
                continue
            value = pair.value
            if pair.obj[-1] == "data":
                decoded = b64text(value)
                if decoded is None:
                    continue
                value = decoded
            # (a manifest in an application's repository is often a template: only live
            # values, not placeholders, unlike a user's own credential file)
            if is_live(value, pair.key):
                yield Found(base + pair.start, base + pair.end)


_TF_KEY = re.compile(
    r"(?i)(?:password|passwd|passphrase|secret|token|api_?key|private_?key|access_?key|auth_?key"
    r"|secret_?key|credentials?)$"
)
_TF_NOT = re.compile(
    r"(?i)_(?:name|arn|id|length|policy|version|type|path|file|hash|ttl|rotation|enabled)$"
    r"|^(?:min|max)_"
)


_TF_VARIABLE = re.compile(r'[ \t]*variable[ \t]+"([\w\-]+)"')


def find_terraform(text: str) -> Iterator[Found]:
    for pair in hcl_pairs(text):
        key = pair.key
        if key == "default" and pair.obj >= 0:  # variable "db_password" { default = "..." }
            header = _TF_VARIABLE.match(text, pair.obj)
            key = header.group(1) if header else key
        if pair.literal and _TF_KEY.search(key) and not _TF_NOT.search(key):
            yield from _graded(pair.start, pair.end, pair.value, key)


_DB_URI = re.compile(r"^[a-z][\w+.\-]*://(?P<user>[^:@/\s]*):(?P<password>[^@\s]*)@[^\s@]+$", re.I)


def find_rails_database(text: str) -> Iterator[Found]:
    """Rails `config/database.yml` and Mongoid `mongoid.yml`: a `password:` of each
    environment, and the password of a `url:` / `uri:` (`postgres://app:secret@db/app`)."""
    for pair in yaml_pairs(text):
        if not pair.literal:
            continue
        if is_password_key(pair.key):
            yield from _graded(pair.start, pair.end, pair.value, pair.key)
            continue
        uri = _DB_URI.match(pair.value.strip()) if "://" in pair.value else None
        if uri is not None:
            from urllib.parse import unquote  # only for this format: not at import

            lead = len(pair.value) - len(pair.value.lstrip())
            start = pair.start + lead + uri.start("password")
            password = uri.group("password")
            yield from _graded(start, start + len(password), unquote(password))


def find_vault_token(text: str) -> Iterator[Found]:
    """`~/.vault-token`: the file is the token (a HashiCorp Vault client token)."""
    value = text.strip()
    if value and "\n" not in value:
        start = text.find(value)
        yield from _graded(start, start + len(value), value, "token", "Vault token")


def find_terraform_credentials(text: str) -> Iterator[Found]:
    """`credentials.tfrc.json`: `{"credentials": {"app.terraform.io": {"token": "..."}}}`."""
    yield from _pairs_where(json_pairs(text), _named("token"))


# -- which file is which format ---------------------------------------------------------------


FORMATS: dict[str, Finder] = {
    "netrc": find_netrc,
    "pgpass": find_pgpass,
    "git-credentials": find_git_credentials,
    "npmrc": find_npmrc,
    "yarnrc-yml": find_yarnrc_yml,
    "pypirc": find_pypirc,
    "docker-config": find_docker_config,
    "s3cfg": find_s3cfg,
    "aws-credentials": find_aws_credentials,
    "nuget-config": find_nuget,
    "maven-settings": find_maven,
    "putty-key": find_putty,
    "rails-master-key": find_rails_key,
    "firefox-logins": find_firefox_logins,
    "filezilla": find_filezilla,
    "ide-deployment": find_ide_deploy,
    "jetbrains": find_jetbrains,
    "robomongo": find_robomongo,
    "dbeaver": find_dbeaver,
    "mail-rc": find_mail_rc,
    "ventrilo": find_ventrilo,
    "kubernetes-secret": find_k8s_secret,
    "terraform": find_terraform,
    "mysql-cnf": find_mysql_cnf,
    "keystore": find_keystore,
    "tomcat-users": find_tomcat_users,
    "kubeconfig": find_kubeconfig,
    "rails-database": find_rails_database,
    "vault-token": find_vault_token,
    "terraform-credentials": find_terraform_credentials,
    "cargo-credentials": find_cargo_credentials,
}
