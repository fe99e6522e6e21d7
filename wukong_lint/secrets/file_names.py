"""Which credential file format a file is, from its name (and, for a PuTTY key or a
Kubernetes Secret, its first bytes or one substring search): a few dictionary lookups on an
ordinary file. Kept apart from the parsers (credformats.py) so that the `credential-file`
kind's gate imports nothing else: a pre-commit run over ordinary files never loads them."""

from __future__ import annotations

# exact file names (after `dot_` / `private_` prefixes of dotfile managers become a dot)
# keystores (PKCS#12, Java, Bouncy Castle): binary, reported by name (the sources hand them
# over as units without text instead of skipping them)
KEYSTORE_SUFFIXES = (".p12", ".pfx", ".jks", ".keystore", ".jceks", ".bks")

_BY_NAME: dict[str, tuple[str, ...]] = {
    ".netrc": ("netrc",),
    ".authinfo": ("netrc",),  # Emacs auth-source: netrc syntax
    "_netrc": ("netrc",),
    ".pgpass": ("pgpass",),
    "pgpass.conf": ("pgpass",),
    ".git-credentials": ("git-credentials",),
    ".npmrc": ("npmrc",),
    ".yarnrc": ("npmrc",),
    ".yarnrc.yml": ("yarnrc-yml",),
    ".pypirc": ("pypirc",),
    ".dockercfg": ("docker-config",),
    ".s3cfg": ("s3cfg",),
    "nuget.config": ("nuget-config",),
    "logins.json": ("firefox-logins",),
    "recentservers.xml": ("filezilla",),
    "sitemanager.xml": ("filezilla",),
    "filezilla.xml": ("filezilla",),
    "sftp-config.json": ("ide-deployment",),
    ".ftpconfig": ("ide-deployment",),
    ".remote-sync.json": ("ide-deployment",),
    "deployment-config.json": ("ide-deployment",),
    "webservers.xml": ("jetbrains",),
    "datasources.xml": ("jetbrains",),
    "datasources.local.xml": ("jetbrains",),
    "robomongo.json": ("robomongo",),
    "robo3t.json": ("robomongo",),
    "data-sources.json": ("dbeaver",),
    "credentials-config.json": ("dbeaver",),  # encrypted by DBeaver; decrypted copies are JSON
    ".esmtprc": ("mail-rc",),
    ".muttrc": ("mail-rc",),
    "muttrc": ("mail-rc",),
    ".fetchmailrc": ("mail-rc",),
    ".msmtprc": ("mail-rc",),
    "msmtprc": ("mail-rc",),
    "ventrilo_srv.ini": ("ventrilo",),
    "murmur.ini": ("ventrilo",),
    "mumble-server.ini": ("ventrilo",),
    "ts3db_mariadb.ini": ("ventrilo",),
    "ts3db_mysql.ini": ("ventrilo",),
    "master.key": ("rails-master-key",),
    ".my.cnf": ("mysql-cnf",),
    "my.cnf": ("mysql-cnf",),
    "my.ini": ("mysql-cnf",),
    ".boto": ("aws-credentials",),
    "tomcat-users.xml": ("tomcat-users",),
    "database.yml": ("rails-database",),
    "mongoid.yml": ("rails-database",),
    ".vault-token": ("vault-token",),
    "credentials.tfrc.json": ("terraform-credentials",),
}
_BY_SUFFIX: tuple[tuple[str, str], ...] = (
    (".ppk", "putty-key"),
    (".tf", "terraform"),
    (".tfvars", "terraform"),
    (".hcl", "terraform"),
)


_UNDOTTED = frozenset(
    ["netrc", "pgpass", "npmrc", "pypirc", "s3cfg", "git-credentials", "dockercfg", "esmtprc",
     "fetchmailrc", "msmtprc", "vault-token", "my.cnf", "boto"]
)  # fmt: skip


def _dotfile_name(name: str) -> str:
    """A dotfile manager's name for a dotfile (chezmoi `private_dot_netrc`, `dot_npmrc`) as the
    file's real name."""
    for prefix in ("private_", "executable_", "readonly_"):
        if name.startswith(prefix):
            name = name[len(prefix) :]
    return "." + name[4:] if name.startswith("dot_") else name


def formats_of(path: str, text: str) -> tuple[str, ...]:
    """The credential formats `path` (and, for a few, the first bytes of `text`) says the file
    is; () for almost every file."""
    # (a member of an archive: `a.zip!home/.netrc`, `a.zip!.netrc`)
    slash = max(path.rfind("/"), path.rfind("!"))
    name = path[slash + 1 :].lower()
    if "_" in name:
        name = _dotfile_name(name)
    found = _BY_NAME.get(name)
    if found is None and name in _UNDOTTED:  # a dotfiles repository's `netrc`
        found = _BY_NAME.get("." + name)
    result = list(found or ())
    lowered = path.lower()
    if name == "config.json" and ("docker/" in lowered or '"auths"' in text[:4096]):
        result.append("docker-config")
    elif name == "credentials" and "git/" in lowered:  # $XDG_CONFIG_HOME/git/credentials
        result.append("git-credentials")
    elif (name == "config" and ".kube/" in lowered) or name.startswith("kubeconfig"):
        result.append("kubeconfig")
    elif name in ("credentials", "config") and (
        "aws" in lowered or "aws_secret_access_key" in text[:65536]
    ):
        result.append("aws-credentials")
    elif name in ("credentials.toml", "credentials") and ".cargo/" in lowered:
        result.append("cargo-credentials")
    elif name.endswith(".ini") and "adminpassword" in text[:65536].lower() and not found:
        result.append("ventrilo")  # an INI with a server's admin password (Ventrilo's kind)
    elif name == "sftp.json" and ".vscode/" in lowered:
        result.append("ide-deployment")
    elif name.endswith(".key") and "/credentials/" in "/" + lowered and "config/" in lowered:
        result.append("rails-master-key")
    elif name == "settings.xml" and (
        ".m2/" in lowered or "maven" in lowered or "maven.apache.org" in text[:4096]
    ):
        result.append("maven-settings")
    elif name.endswith(".json") and "robo" in lowered and "robomongo" not in result:
        result.append("robomongo")
    if name.endswith(KEYSTORE_SUFFIXES):
        result.append("keystore")
    for suffix, fmt in _BY_SUFFIX:
        if name.endswith(suffix):
            result.append(fmt)
    if name.endswith((".yaml", ".yml")) and (
        "kind: Secret" in text or "kind: 'Secret'" in text or 'kind: "Secret"' in text
    ):
        result.append("kubernetes-secret")
    if text.startswith("PuTTY-User-Key-File-") and "putty-key" not in result:
        result.append("putty-key")
    return tuple(result)


# data files whose logins `secret.data-file-login` reads (secrets/datalogins.py)
_SYNTAX_BY_SUFFIX = (
    ((".json", ".json5", ".jsonc"), "json"),
    ((".yaml", ".yml"), "yaml"),
    ((".xml", ".config"), "xml"),
    ((".ini", ".cfg", ".conf", ".cnf", ".toml", ".properties", ".env"), "ini"),
)


def data_syntax(path: str) -> str | None:
    """Which syntax a data file's name says it is in; None for everything else."""
    name = path[path.rfind("/") + 1 :].lower()
    if name == ".env" or name.startswith(".env."):
        return "ini"
    for suffixes, syntax in _SYNTAX_BY_SUFFIX:
        if name.endswith(suffixes):
            return syntax
    return None
