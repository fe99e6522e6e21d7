#!/usr/bin/env python3
# ruff: noqa: E501  (file templates read better unwrapped)
"""Leaked-dotfiles corpus: credential files and configs as people really commit them.

Writes OUT/tree/ (home folders, dotfiles repositories, project configs, dumps) and
OUT/labels.json: `risky` lists every line that holds a credential, as {path, line, kind}
(a multi-line secret such as a PuTTY key is one label with `end`); `lookalikes` lists lines
that look like one but hold none (placeholders, templates, documentation, comments, type
names, encrypted or indirect values). A scanner should find the risky lines and stay quiet on
everything else.

The formats were written from each tool's own documentation of its file (netrc(5), the
PostgreSQL password file, git-credential-store, npm/yarn config, .pypirc, Docker's
config.json, s3cmd, the AWS shared credentials file, NuGet, Maven settings, PuTTY's key
format, Rails credentials, Firefox's logins store, FileZilla, the editors' SFTP plugins,
JetBrains, Robo 3T, DBeaver, esmtp/mutt/fetchmail/msmtp, Ventrilo, Kubernetes Secrets,
Terraform, crypt(3)/shadow(5), Apache htpasswd, WordPress/Rails/Django/Laravel settings),
independently of wukong-lint's rules, so that it checks those rules rather than mirrors them.

    python bench/dotfiles.py --seed 1 --out bench/out/dotfiles-dev [--copies 3]
    python bench/dotfiles_measure.py bench/out/dotfiles-dev

Same seed, same bytes; standard library only; all values are fake.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import shutil
import string
from collections.abc import Callable

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
CRYPT64 = "./" + string.digits + string.ascii_uppercase + string.ascii_lowercase
BCRYPT64 = "./" + string.ascii_uppercase + string.ascii_lowercase + string.digits

# (text, label): label is None, ("risky", kind) or ("lookalike", kind)
Line = tuple[str, "tuple[str, str] | None"]


class R(random.Random):
    def s(self, alphabet: str, n: int) -> str:
        return "".join(self.choice(alphabet) for _ in range(n))

    def weak(self) -> str:
        """A password a person picks: low entropy, but a credential all the same."""
        word = self.choice(
            ["hunter", "admin", "summer", "dragon", "monkey", "letmein", "sunshine",
             "shadow", "master", "qwerty", "football", "welcome", "trustno", "iloveyou"]
        )  # fmt: skip
        tail = self.choice(["22", "123", "2019", "!", "99", "_01", "#1", "2024!", "77"])
        if self.random() < 0.4:
            word = word.capitalize()
        return word + tail

    def strong(self, n: int = 16) -> str:
        while True:
            v = self.s(ALNUM + "!#%*+-_.", n)
            if any(c.isdigit() for c in v) and any(c.isupper() for c in v) and v[0].isalnum():
                return v

    def user(self) -> str:
        return self.choice(["alice", "bob", "deploy", "ci-bot", "jenkins", "webadmin", "root",
                            "dev", "marta", "kenji", "ops", "backup"])  # fmt: skip

    def host(self) -> str:
        return self.choice(
            ["db.internal.acme-corp.net", "10.0.3.17", "ftp.kessler-hosting.de", "mail.northwind.io",
             "pg-prod-2.cluster.local", "sftp.shoplift.co.uk", "nexus.build.lan", "192.168.1.20"]
        )  # fmt: skip

    def email(self) -> str:
        return f"{self.user()}@{self.choice(['gmail.com', 'acme-corp.net', 'posteo.de', 'outlook.com'])}"

    def uuid(self) -> str:
        h = self.s(HEX, 32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def b64(self, n: int) -> str:
        return base64.b64encode(bytes(self.getrandbits(8) for _ in range(n))).decode()


RISKY = "risky"
LOOK = "lookalike"


def risky(kind: str) -> tuple[str, str]:
    return (RISKY, kind)


def look(kind: str) -> tuple[str, str]:
    return (LOOK, kind)


# --------------------------------------------------------------------------------------------
# crypt(3) hashes with their exact shapes
# --------------------------------------------------------------------------------------------


def crypt_hash(r: R, scheme: str) -> str:
    if scheme == "md5":
        return f"$1${r.s(CRYPT64, 8)}${r.s(CRYPT64, 22)}"
    if scheme == "apr1":
        return f"$apr1${r.s(CRYPT64, 8)}${r.s(CRYPT64, 22)}"
    if scheme == "sha256":
        return f"$5${r.s(CRYPT64, 16)}${r.s(CRYPT64, 43)}"
    if scheme == "sha512":
        return f"$6${r.s(CRYPT64, r.choice([8, 16]))}${r.s(CRYPT64, 86)}"
    if scheme == "sha512r":
        return f"$6$rounds=656000${r.s(CRYPT64, 16)}${r.s(CRYPT64, 86)}"
    if scheme == "bcrypt":
        return f"${r.choice(['2a', '2b', '2y'])}${r.choice(['05', '10', '12'])}${r.s(BCRYPT64, 53)}"
    if scheme == "yescrypt":
        return f"$y$j9T${r.s(CRYPT64, 22)}${r.s(CRYPT64, 43)}"
    if scheme == "argon2":
        salt = base64.b64encode(bytes(r.getrandbits(8) for _ in range(16))).decode().rstrip("=")
        digest = base64.b64encode(bytes(r.getrandbits(8) for _ in range(32))).decode().rstrip("=")
        return f"${r.choice(['argon2i', 'argon2id'])}$v=19$m=65536,t=3,p=4${salt}${digest}"
    if scheme == "ssha":
        raw = bytes(r.getrandbits(8) for _ in range(24))
        return "{SSHA}" + base64.b64encode(raw).decode()
    if scheme == "phpass":
        return f"$P$B{r.s(CRYPT64, 30)}"
    raise ValueError(scheme)


# --------------------------------------------------------------------------------------------
# The files. Each generator returns (relative path, lines).
# --------------------------------------------------------------------------------------------


def netrc(r: R, home: str) -> tuple[str, list[Line]]:
    lines: list[Line] = [("# ~/.netrc", None)]
    host, user, pw = r.host(), r.user(), r.weak()
    lines.append((f"machine {host} login {user} password {pw}", risky("netrc")))
    lines.append(("", None))
    lines.append((f"machine {r.host()}", None))
    lines.append((f"  login {r.user()}", None))
    lines.append((f"  password {r.strong(14)}", risky("netrc")))
    lines.append(("default login anonymous password guest@", look("netrc-anonymous")))
    return f"{home}/.netrc", lines


def heroku_netrc(r: R, home: str) -> tuple[str, list[Line]]:
    mail = r.email()
    token = r.uuid() if r.random() < 0.5 else "HRKU-" + r.s(ALNUM + "-_", 60)
    return f"{home}/_netrc", [
        ("machine api.heroku.com", None),
        (f"  login {mail}", None),
        (f"  password {token}", risky("heroku-netrc")),
        ("machine git.heroku.com", None),
        (f"  login {mail}", None),
        (f"  password {token}", risky("heroku-netrc")),
    ]


def pgpass(r: R, home: str) -> tuple[str, list[Line]]:
    return f"{home}/.pgpass", [
        ("# hostname:port:database:username:password", look("pgpass-comment")),
        (f"{r.host()}:5432:appdb:{r.user()}:{r.weak()}", risky("pgpass")),
        (f"*:*:*:postgres:{r.strong(18)}", risky("pgpass")),
        (f"localhost:5433:reporting:report\\:ro:{r.weak()}", risky("pgpass")),
    ]


def git_credentials(r: R, home: str) -> tuple[str, list[Line]]:
    tok = "ghp_" + r.s(ALNUM, 36)
    return f"{home}/.git-credentials", [
        (f"https://{r.user()}:{tok}@github.com", risky("git-credentials")),
        (
            f"https://{r.email().replace('@', '%40')}:{r.weak()}@gitlab.acme-corp.net",
            risky("git-credentials"),
        ),
        (f"https://oauth2:{r.strong(20)}@git.example-intra.org", risky("git-credentials")),
    ]


def npmrc(r: R, root: str) -> tuple[str, list[Line]]:
    auth = base64.b64encode(f"{r.user()}:{r.weak()}".encode()).decode()
    return f"{root}/.npmrc", [
        ("registry=https://registry.npmjs.org/", None),
        (f"//registry.npmjs.org/:_authToken={r.uuid()}", risky("npmrc")),
        ("@acme:registry=https://nexus.build.lan/repository/npm-private/", None),
        (f"//nexus.build.lan/repository/npm-private/:_auth={auth}", risky("npmrc")),
        ("//npm.pkg.github.com/:_authToken=${GITHUB_TOKEN}", look("template")),
        ("always-auth=true", None),
        (
            f"//registry.corp.lan/:_password={base64.b64encode(r.weak().encode()).decode()}",
            risky("npmrc"),
        ),
        (f"//registry.corp.lan/:username={r.user()}", None),
    ]


def yarnrc(r: R, root: str) -> tuple[str, list[Line]]:
    return f"{root}/.yarnrc.yml", [
        ("nodeLinker: node-modules", None),
        (f'npmAuthToken: "npm_{r.s(ALNUM, 36)}"', risky("yarnrc")),
        ("npmScopes:", None),
        ("  acme:", None),
        ('    npmRegistryServer: "https://nexus.build.lan/repository/npm/"', None),
        (f'    npmAuthToken: "{r.uuid()}"', risky("yarnrc")),
        ("    npmAlwaysAuth: true", None),
        ("  public:", None),
        ('    npmAuthToken: "${NPM_TOKEN}"', look("template")),
    ]


def yarnrc_classic(r: R, root: str) -> tuple[str, list[Line]]:
    return f"{root}/.yarnrc", [
        ('registry "https://registry.yarnpkg.com"', None),
        (f'"//registry.yarnpkg.com/:_authToken" "{r.uuid()}"', risky("yarnrc")),
    ]


def pypirc(r: R, home: str) -> tuple[str, list[Line]]:
    tok = "pypi-AgEIcHlwaS5vcmc" + r.s(ALNUM + "-_", 120)
    return f"{home}/.pypirc", [
        ("[distutils]", None),
        ("index-servers =", None),
        ("    pypi", None),
        ("    internal", None),
        ("", None),
        ("[pypi]", None),
        ("username = __token__", None),
        (f"password = {tok}", risky("pypirc")),
        ("", None),
        ("[internal]", None),
        ("repository = https://nexus.build.lan/repository/pypi-internal/", None),
        (f"username = {r.user()}", None),
        (f"password = {r.weak()}", risky("pypirc")),
    ]


def docker_config(r: R, home: str) -> tuple[str, list[Line]]:
    auth = base64.b64encode(f"{r.user()}:{r.strong(16)}".encode()).decode()
    auth2 = base64.b64encode(f"{r.email()}:{r.weak()}".encode()).decode()
    return f"{home}/.docker/config.json", [
        ("{", None),
        ('\t"auths": {', None),
        ('\t\t"https://index.docker.io/v1/": {', None),
        (f'\t\t\t"auth": "{auth}"', risky("docker-config")),
        ("\t\t},", None),
        ('\t\t"registry.gitlab.com": {', None),
        (f'\t\t\t"auth": "{auth2}"', risky("docker-config")),
        ("\t\t},", None),
        ('\t\t"ghcr.io": {}', None),
        ("\t},", None),
        ('\t"credsStore": "desktop"', look("creds-store")),
        ("}", None),
    ]


def dockercfg(r: R, home: str) -> tuple[str, list[Line]]:
    auth = base64.b64encode(f"{r.user()}:{r.weak()}".encode()).decode()
    return f"{home}/.dockercfg", [
        ("{", None),
        ('  "quay.io": {', None),
        (f'    "auth": "{auth}",', risky("dockercfg")),
        (f'    "email": "{r.email()}"', None),
        ("  },", None),
        ('  "registry.example.com": {', None),
        ('    "auth": "",', look("empty")),
        ('    "email": ""', None),
        ("  }", None),
        ("}", None),
    ]


def s3cfg(r: R, home: str) -> tuple[str, list[Line]]:
    return f"{home}/.s3cfg", [
        ("[default]", None),
        (f"access_key = AKIA{r.s(string.ascii_uppercase + '234567', 16)}", risky("s3cfg-key-id")),
        ("bucket_location = eu-central-1", None),
        ("gpg_command = /usr/bin/gpg", None),
        ("gpg_passphrase = ", look("empty")),
        ("host_base = s3.amazonaws.com", None),
        (f"secret_key = {r.s(ALNUM + '/+', 40)}", risky("s3cfg")),
        ("use_https = True", None),
    ]


def aws_credentials(r: R, home: str) -> tuple[str, list[Line]]:
    return f"{home}/.aws/credentials", [
        ("[default]", None),
        (
            f"aws_access_key_id = AKIA{r.s(string.ascii_uppercase + '234567', 16)}",
            risky("aws-key-id"),
        ),
        (f"aws_secret_access_key = {r.s(ALNUM + '/+', 40)}", risky("aws-credentials")),
        ("", None),
        ("[legacy]", None),
        (
            f"aws_access_key_id=AKIA{r.s(string.ascii_uppercase + '234567', 16)}",
            risky("aws-key-id"),
        ),
        (f"aws_secret_access_key={r.s(ALNUM + '/+', 40)}", risky("aws-credentials")),
        ("region=us-west-2", None),
        ("", None),
        ("[docs]", None),
        ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", look("aws-doc-example")),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            look("aws-doc-example"),
        ),
    ]


def nuget_config(r: R, root: str) -> tuple[str, list[Line]]:
    return f"{root}/nuget.config", [
        ('<?xml version="1.0" encoding="utf-8"?>', None),
        ("<configuration>", None),
        ("  <packageSources>", None),
        ('    <add key="acme" value="https://nexus.build.lan/repository/nuget-hosted/" />', None),
        ("  </packageSources>", None),
        ("  <packageSourceCredentials>", None),
        ("    <acme>", None),
        (f'      <add key="Username" value="{r.user()}" />', None),
        (f'      <add key="ClearTextPassword" value="{r.weak()}" />', risky("nuget")),
        ("    </acme>", None),
        ("    <github>", None),
        ('      <add key="Username" value="octocat" />', None),
        ('      <add key="ClearTextPassword" value="%GITHUB_PACKAGES_TOKEN%" />', look("template")),
        ("    </github>", None),
        ("  </packageSourceCredentials>", None),
        ("</configuration>", None),
    ]


def maven_settings(r: R, home: str) -> tuple[str, list[Line]]:
    return f"{home}/.m2/settings.xml", [
        ('<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">', None),
        ("  <servers>", None),
        ("    <server>", None),
        ("      <id>nexus-releases</id>", None),
        (f"      <username>{r.user()}</username>", None),
        (f"      <password>{r.weak()}</password>", risky("maven")),
        ("    </server>", None),
        ("    <server>", None),
        ("      <id>github</id>", None),
        ("      <username>${env.GH_USER}</username>", None),
        ("      <password>${env.GH_TOKEN}</password>", look("template")),
        ("    </server>", None),
        ("    <server>", None),
        ("      <id>corp-snapshots</id>", None),
        ("      <username>ci</username>", None),
        (f"      <password>{r.strong(20)}</password>", risky("maven")),
        ("    </server>", None),
        ("  </servers>", None),
        ("</settings>", None),
    ]


def putty_ppk(r: R, home: str) -> tuple[str, list[Line]]:
    pub = [r.s(ALNUM + "+/", 64) for _ in range(6)]
    priv = [r.s(ALNUM + "+/", 64) for _ in range(14)]
    lines: list[Line] = [("PuTTY-User-Key-File-3: ssh-rsa", risky("putty-ppk")),
                         ("Encryption: none", None),
                         (f"Comment: rsa-key-2023{r.s(string.digits, 4)}", None),
                         ("Public-Lines: 6", None)]  # fmt: skip
    lines += [(p, None) for p in pub]
    lines.append(("Private-Lines: 14", None))
    lines += [(p, None) for p in priv]
    lines.append((f"Private-MAC: {r.s(HEX, 64)}", None))
    return f"{home}/keys/server.ppk", lines


def rails_master_key(r: R, app: str) -> list[tuple[str, list[Line]]]:
    return [
        (f"{app}/config/master.key", [(r.s(HEX, 32), risky("rails-master-key"))]),
        (f"{app}/config/credentials/production.key", [(r.s(HEX, 32), risky("rails-master-key"))]),
    ]


def firefox_logins(r: R, home: str) -> tuple[str, list[Line]]:
    def enc() -> str:
        return "MDoEEPgAAAAAAAAAAAAAAAAAAAEwFAYIKoZIhvcNAwcECA" + r.s(ALNUM + "+/", 30) + "=="

    return f"{home}/.mozilla/firefox/x1y2z3.default-release/logins.json", [
        ('{"nextId":3,"logins":[', None),
        (
            f'{{"id":1,"hostname":"https://{r.host()}","httpRealm":null,"formSubmitURL":"","usernameField":"user","passwordField":"pass",',
            None,
        ),
        (f'"encryptedUsername":"{enc()}",', risky("firefox-logins")),
        (f'"encryptedPassword":"{enc()}",', risky("firefox-logins")),
        (
            '"guid":"{0a2c1c8e-4f7b-4bd0-9a0e-2f6c8a1d9b3e}","encType":1,"timeCreated":1690000000000}',
            None,
        ),
        ('],"potentiallyVulnerablePasswords":[],"version":3}', None),
    ]


def filezilla(r: R, home: str) -> list[tuple[str, list[Line]]]:
    b64pw = base64.b64encode(r.weak().encode()).decode()
    recent = [
        ('<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>', None),
        ('<FileZilla3 version="3.66.1" platform="windows">', None),
        ("  <RecentServers>", None),
        ("    <Server>", None),
        (f"      <Host>{r.host()}</Host>", None),
        ("      <Port>21</Port>", None),
        ("      <Protocol>0</Protocol>", None),
        (f"      <User>{r.user()}</User>", None),
        (f'      <Pass encoding="base64">{b64pw}</Pass>', risky("filezilla")),
        ("    </Server>", None),
        ("  </RecentServers>", None),
        ("</FileZilla3>", None),
    ]
    site = [
        ('<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>', None),
        ("<FileZilla3>", None),
        ("  <Servers>", None),
        ("    <Server>", None),
        (f"      <Host>{r.host()}</Host>", None),
        ("      <Port>22</Port>", None),
        ("      <Protocol>1</Protocol>", None),
        (f"      <User>{r.user()}</User>", None),
        (f"      <Pass>{r.weak()}</Pass>", risky("filezilla")),
        ("      <Name>prod shop</Name>", None),
        ("    </Server>", None),
        ("  </Servers>", None),
        ("</FileZilla3>", None),
    ]
    return [
        (f"{home}/AppData/Roaming/FileZilla/recentservers.xml", recent),
        (f"{home}/AppData/Roaming/FileZilla/sitemanager.xml", site),
    ]


def sftp_config(r: R, project: str) -> tuple[str, list[Line]]:
    # Sublime SFTP writes JSON with // comments: not valid JSON
    return f"{project}/sftp-config.json", [
        ("{", None),
        ("    // The tab key will cycle through the settings when first created", look("comment")),
        ('    "type": "sftp",', None),
        ('    "save_before_upload": true,', None),
        ('    "upload_on_save": false,', None),
        (f'    "host": "{r.host()}",', None),
        (f'    "user": "{r.user()}",', None),
        (f'    "password": "{r.weak()}",', risky("sftp-config")),
        ('    //"port": "22",', None),
        ('    "remote_path": "/var/www/html/",', None),
        ('    //"file_permissions": "664",', None),
        ("}", None),
    ]


def ftpconfig(r: R, project: str) -> tuple[str, list[Line]]:
    return f"{project}/.ftpconfig", [
        ("{", None),
        ('    "protocol": "ftp",', None),
        (f'    "host": "{r.host()}",', None),
        ('    "port": 21,', None),
        (f'    "user": "{r.user()}",', None),
        (f'    "pass": "{r.weak()}",', risky("ftpconfig")),
        ('    "promptForPass": false,', None),
        ('    "remote": "/public_html",', None),
        ('    "secure": false', None),
        ("}", None),
    ]


def remote_sync(r: R, project: str) -> tuple[str, list[Line]]:
    return f"{project}/.remote-sync.json", [
        ("{", None),
        ('  "transport": "scp",', None),
        (f'  "hostname": "{r.host()}",', None),
        (f'  "username": "{r.user()}",', None),
        (f'  "password": "{r.weak()}",', risky("remote-sync")),
        ('  "keyfile": "",', None),
        ('  "target": "/srv/app",', None),
        ('  "watch": [],', None),
        ('  "uploadOnSave": true', None),
        ("}", None),
    ]


def deployment_config(r: R, project: str) -> tuple[str, list[Line]]:
    return f"{project}/deployment-config.json", [
        ("{", None),
        ('  "root": "/",', None),
        ('  "remoteRoot": "/httpdocs/",', None),
        (f'  "host": "{r.host()}",', None),
        (f'  "user": "{r.user()}",', None),
        (f'  "password": "{r.strong(12)}",', risky("deployment-config")),
        ('  "port": 21,', None),
        ('  "ignore": [".git", "node_modules"]', None),
        ("}", None),
    ]


def vscode_sftp(r: R, project: str) -> tuple[str, list[Line]]:
    return f"{project}/.vscode/sftp.json", [
        ("{", None),
        ('    "name": "staging",', None),
        (f'    "host": "{r.host()}",', None),
        ('    "protocol": "sftp",', None),
        ('    "port": 22,', None),
        (f'    "username": "{r.user()}",', None),
        (f'    "password": "{r.weak()}",', risky("vscode-sftp")),
        ('    "remotePath": "/var/www/staging",', None),
        ('    "uploadOnSave": true', None),
        ("}", None),
    ]


def jetbrains(r: R, project: str) -> list[tuple[str, list[Line]]]:
    scrambled = r.s("0123456789abcdef", 24)
    web = [
        ('<?xml version="1.0" encoding="UTF-8"?>', None),
        ('<project version="4">', None),
        ('  <component name="WebServers">', None),
        ('    <option name="servers">', None),
        (f'      <webServer id="{r.uuid()}" name="prod" url="http://{r.host()}">', None),
        (
            f'        <fileTransfer host="{r.host()}" port="21" accessType="FTP" rootFolder="/www" username="{r.user()}" password="{scrambled}">',
            risky("jetbrains-webservers"),
        ),
        ("          <advancedOptions>", None),
        ('            <advancedOptions dataProtectionLevel="Private" passiveMode="true" />', None),
        ("          </advancedOptions>", None),
        ("        </fileTransfer>", None),
        ("      </webServer>", None),
        ("    </option>", None),
        ("  </component>", None),
        ("</project>", None),
    ]
    ds = [
        ('<?xml version="1.0" encoding="UTF-8"?>', None),
        ('<project version="4">', None),
        ('  <component name="DataSourceManagerImpl" format="xml" multifile-model="true">', None),
        (f'    <data-source source="LOCAL" name="shop@{r.host()}" uuid="{r.uuid()}">', None),
        ("      <driver-ref>mysql.8</driver-ref>", None),
        ("      <jdbc-driver>com.mysql.cj.jdbc.Driver</jdbc-driver>", None),
        (f"      <jdbc-url>jdbc:mysql://{r.host()}:3306/shop</jdbc-url>", None),
        (f"      <user-name>{r.user()}</user-name>", None),
        (
            f"      <user-password>{r.s('0123456789abcdef', 28)}</user-password>",
            risky("jetbrains-datasources"),
        ),
        ("    </data-source>", None),
        ("  </component>", None),
        ("</project>", None),
    ]
    return [(f"{project}/.idea/WebServers.xml", web), (f"{project}/.idea/dataSources.xml", ds)]


def robo3t(r: R, home: str) -> tuple[str, list[Line]]:
    return f"{home}/.3T/robo-3t/1.4.4/robo3t.json", [
        ("{", None),
        ('    "autoExpand": true,', None),
        ('    "connections": [', None),
        ("        {", None),
        ('            "connectionName": "prod cluster",', None),
        ('            "credentials": [', None),
        ("                {", None),
        ('                    "databaseName": "admin",', None),
        ('                    "enabled": true,', None),
        ('                    "mechanism": "SCRAM-SHA-1",', None),
        (f'                    "userName": "{r.user()}",', None),
        (f'                    "userPassword": "{r.weak()}"', risky("robo3t")),
        ("                }", None),
        ("            ],", None),
        (f'            "serverHost": "{r.host()}",', None),
        ('            "serverPort": 27017', None),
        ("        }", None),
        ("    ]", None),
        ("}", None),
    ]


def dbeaver(r: R, home: str) -> tuple[str, list[Line]]:
    return f"{home}/.local/share/DBeaverData/workspace6/General/.dbeaver/data-sources.json", [
        ("{", None),
        ('\t"folders": {},', None),
        ('\t"connections": {', None),
        ('\t\t"postgres-jdbc-18a2b3c4d5e-6f7a8b9c0d1e2f3a": {', None),
        ('\t\t\t"provider": "postgresql",', None),
        ('\t\t\t"driver": "postgres-jdbc",', None),
        ('\t\t\t"name": "billing prod",', None),
        ('\t\t\t"save-password": true,', None),
        ('\t\t\t"configuration": {', None),
        (f'\t\t\t\t"host": "{r.host()}",', None),
        ('\t\t\t\t"port": "5432",', None),
        ('\t\t\t\t"database": "billing",', None),
        (f'\t\t\t\t"user": "{r.user()}",', None),
        (f'\t\t\t\t"password": "{r.weak()}",', risky("dbeaver")),
        ('\t\t\t\t"auth-model": "native"', None),
        ("\t\t\t}", None),
        ("\t\t}", None),
        ("\t}", None),
        ("}", None),
    ]


def mail_rc(r: R, home: str) -> list[tuple[str, list[Line]]]:
    me = r.email()
    esmtp = [
        ("identity " + me, None),
        ("\thostname smtp.gmail.com:587", None),
        (f'\tusername "{me}"', None),
        (f'\tpassword "{r.weak()}"', risky("esmtprc")),
        ("\tstarttls required", None),
    ]
    mutt = [
        (f'set from = "{me}"', None),
        ('set realname = "Me"', None),
        (f'set imap_user = "{me}"', None),
        (f'set imap_pass = "{r.weak()}"', risky("muttrc")),
        (
            f'set smtp_url = "smtps://{me.split("@")[0]}:{r.weak()}@smtp.gmail.com:465/"',
            risky("muttrc"),
        ),
        ('set folder = "imaps://imap.gmail.com:993"', None),
        ('# set smtp_pass = "put your app password here"', look("placeholder")),
        ('set smtp_pass = "`pass show mail/gmail`"', look("command")),
    ]
    fetch = [
        ("set daemon 300", None),
        (
            f'poll pop.{me.split("@")[1]} protocol pop3 user "{me}" password "{r.weak()}" ssl',
            risky("fetchmailrc"),
        ),
        (
            f"poll imap.posteo.de proto imap user {r.user()} pass {r.strong(12)} is localuser here",
            risky("fetchmailrc"),
        ),
    ]
    msmtp = [
        ("defaults", None),
        ("auth on", None),
        ("tls on", None),
        ("", None),
        ("account gmail", None),
        ("host smtp.gmail.com", None),
        ("port 587", None),
        (f"from {me}", None),
        (f"user {me}", None),
        (f"password {r.weak()}", risky("msmtprc")),
        ("", None),
        ("account work", None),
        ("host mail.northwind.io", None),
        (f"user {r.user()}", None),
        (
            'passwordeval "gpg --quiet --for-your-eyes-only --no-tty --decrypt ~/.msmtp-work.gpg"',
            look("command"),
        ),
    ]
    vent = [
        ("[Server]", None),
        ("Name=Clan server", None),
        ("Phonetic=clan server", None),
        ("Auth=1", None),
        ("Duplicates=1", None),
        (f"AdminPassword={r.weak()}", risky("ventrilo")),
        (f"Password={r.weak()}", risky("ventrilo")),
        ("SendBuffer=0", None),
    ]
    return [
        (f"{home}/.esmtprc", esmtp),
        (f"{home}/.muttrc", mutt),
        (f"{home}/.fetchmailrc", fetch),
        (f"{home}/.msmtprc", msmtp),
        ("servers/ventrilo/ventrilo_srv.ini", vent),
    ]


def k8s_secret(r: R, app: str) -> tuple[str, list[Line]]:
    pw = base64.b64encode(r.weak().encode()).decode()
    key = base64.b64encode(r.strong(24).encode()).decode()
    placeholder = base64.b64encode(b"changeme").decode()
    return f"{app}/k8s/db-secret.yaml", [
        ("apiVersion: v1", None),
        ("kind: Secret", None),
        ("metadata:", None),
        ("  name: db-credentials", None),
        ("  namespace: shop", None),
        ("type: Opaque", None),
        ("data:", None),
        (f"  username: {base64.b64encode(b'shop').decode()}", None),
        (f"  password: {pw}", risky("k8s-secret")),
        (f"  api-key: {key}", risky("k8s-secret")),
        (f"  admin-password: {placeholder}", look("placeholder-b64")),
        ("stringData:", None),
        (f"  SMTP_PASSWORD: {r.weak()}", risky("k8s-secret")),
        ('  REDIS_PASSWORD: ""', look("empty")),
    ]


def terraform(r: R, app: str) -> tuple[str, list[Line]]:
    return f"{app}/infra/main.tf", [
        ('resource "aws_db_instance" "shop" {', None),
        ('  engine               = "postgres"', None),
        ('  instance_class       = "db.t3.micro"', None),
        ('  username             = "shop"', None),
        (f'  password             = "{r.weak()}"', risky("terraform")),
        ("  skip_final_snapshot  = true", None),
        ("}", None),
        ("", None),
        ('resource "aws_db_instance" "reports" {', None),
        ('  username = "reports"', None),
        ("  password = var.reports_db_password", look("variable")),
        ("}", None),
        ("", None),
        ('variable "reports_db_password" {', None),
        ("  type      = string", None),
        ("  sensitive = true", None),
        ("}", None),
        ('provider "mysql" {', None),
        ('  endpoint = "db.internal.acme-corp.net:3306"', None),
        ('  username = "root"', None),
        (f'  password = "{r.strong(16)}"', risky("terraform")),
        ("}", None),
    ]


def shadow(r: R, root: str) -> tuple[str, list[Line]]:
    lines: list[Line] = [
        (f"root:{crypt_hash(r, 'sha512')}:19345:0:99999:7:::", risky("shadow")),
        ("daemon:*:19345:0:99999:7:::", look("locked")),
        ("bin:*:19345:0:99999:7:::", look("locked")),
        ("sshd:!:19345::::::", look("locked")),
        (f"alice:{crypt_hash(r, 'yescrypt')}:19400:0:99999:7:::", risky("shadow")),
        (f"bob:{crypt_hash(r, 'sha512r')}:19401:0:99999:7:::", risky("shadow")),
        (f"legacy:{crypt_hash(r, 'md5')}:17000:0:99999:7:::", risky("shadow")),
        (f"svc:{crypt_hash(r, 'sha256')}:19000:0:99999:7:::", risky("shadow")),
        ("nobody:!*:19345::::::", look("locked")),
    ]
    return f"{root}/etc/shadow", lines


def passwd(r: R, root: str) -> tuple[str, list[Line]]:
    return f"{root}/etc/passwd", [
        ("root:x:0:0:root:/root:/bin/bash", look("shadowed")),
        ("daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin", look("shadowed")),
        (f"olduser:{crypt_hash(r, 'md5')}:1001:1001::/home/olduser:/bin/sh", risky("passwd")),
    ]


def proftpd(r: R, root: str) -> tuple[str, list[Line]]:
    return f"{root}/etc/proftpd/ftpd.passwd", [
        (
            f"{r.user()}:{crypt_hash(r, 'md5')}:2001:2001::/srv/ftp/upload:/bin/false",
            risky("proftpd"),
        ),
        (
            f"{r.user()}:{crypt_hash(r, 'sha512')}:2002:2001::/srv/ftp/www:/bin/false",
            risky("proftpd"),
        ),
    ]


def htpasswd(r: R, site: str) -> tuple[str, list[Line]]:
    return f"{site}/.htpasswd", [
        (f"admin:{crypt_hash(r, 'apr1')}", risky("htpasswd")),
        (f"editor:{crypt_hash(r, 'bcrypt')}", risky("htpasswd")),
        (f"legacy:{crypt_hash(r, 'ssha')}", risky("htpasswd")),
        (f"api:{crypt_hash(r, 'argon2')}", risky("htpasswd")),
    ]


def sql_dump(r: R, app: str) -> tuple[str, list[Line]]:
    lines: list[Line] = [
        ("-- MySQL dump 10.13  Distrib 8.0.35", None),
        ("DROP TABLE IF EXISTS `users`;", None),
        (
            "CREATE TABLE `users` (`id` int NOT NULL, `email` varchar(191), `password` varchar(255), PRIMARY KEY (`id`));",
            look("schema"),
        ),
        ("LOCK TABLES `users` WRITE;", None),
    ]
    for i in range(1, 4):
        lines.append(
            (
                f"INSERT INTO `users` VALUES ({i},'{r.email()}','{crypt_hash(r, 'bcrypt')}','2023-0{i}-11 10:00:00');",
                risky("sql-dump"),
            )
        )
    lines.append(
        (
            f"INSERT INTO `wp_users` VALUES (1,'admin','{crypt_hash(r, 'phpass')}','admin','{r.email()}');",
            risky("sql-dump"),
        )
    )
    lines.append(
        (
            "INSERT INTO `settings` VALUES ('password_min_length','8'),('session_ttl','3600');",
            look("setting"),
        )
    )
    lines.append(("UNLOCK TABLES;", None))
    return f"{app}/backups/dump-2023-11-02.sql", lines


def data_logins(r: R, app: str) -> list[tuple[str, list[Line]]]:
    files: list[tuple[str, list[Line]]] = []
    files.append((f"{app}/config/database.yml", [
        ("default: &default", None),
        ("  adapter: postgresql", None),
        ("  encoding: unicode", None),
        ("", None),
        ("development:", None),
        ("  <<: *default", None),
        ("  database: shop_dev", None),
        ("  username: shop", None),
        ("  password:", look("empty")),
        ("  host: localhost", None),
        ("", None),
        ("production:", None),
        ("  <<: *default", None),
        ("  database: shop_prod", None),
        ("  username: shop", None),
        (f"  password: {r.weak()}", risky("data-login-yaml")),
        (f"  host: {r.host()}", None),
        ("", None),
        ("test:", None),
        ("  <<: *default", None),
        ("  database: shop_test", None),
        ("  password: <%= ENV['TEST_DB_PASSWORD'] %>", look("template")),
    ]))  # fmt: skip
    files.append((f"{app}/config/config.json", [
        ("{", None),
        ('  "development": {', None),
        ('    "username": "root",', None),
        ('    "password": null,', look("null")),
        ('    "database": "app_dev",', None),
        ('    "host": "127.0.0.1",', None),
        ('    "dialect": "mysql"', None),
        ("  },", None),
        ('  "production": {', None),
        ('    "username": "app",', None),
        (f'    "password": "{r.weak()}",', risky("data-login-json")),
        ('    "database": "app_prod",', None),
        (f'    "host": "{r.host()}",', None),
        ('    "dialect": "mysql"', None),
        ("  }", None),
        ("}", None),
    ]))  # fmt: skip
    files.append((f"{app}/settings.ini", [
        ("[database]", None),
        (f"host = {r.host()}", None),
        ("port = 3306", None),
        (f"user = {r.user()}", None),
        (f"passwd = {r.weak()}", risky("data-login-ini")),
        ("", None),
        ("[smtp]", None),
        ("server = smtp.mailgun.org", None),
        ("login = postmaster@mg.acme-corp.net", None),
        ("password = %(SMTP_PASSWORD)s", look("template")),
    ]))  # fmt: skip
    files.append((f"{app}/.env", [
        ("APP_NAME=Shop", None),
        ("APP_ENV=production", None),
        (f"APP_KEY=base64:{r.b64(32)}", risky("laravel-app-key")),
        ("APP_DEBUG=false", None),
        ("DB_CONNECTION=mysql", None),
        (f"DB_HOST={r.host()}", None),
        ("DB_PORT=3306", None),
        ("DB_DATABASE=shop", None),
        ("DB_USERNAME=shop", None),
        (f"DB_PASSWORD={r.weak()}", risky("data-login-env")),
        ("MAIL_HOST=smtp.mailtrap.io", None),
        ("MAIL_USERNAME=null", None),
        ("MAIL_PASSWORD=null", look("null")),
    ]))  # fmt: skip
    files.append((f"{app}/src/main/resources/application.properties", [
        (f"spring.datasource.url=jdbc:postgresql://{r.host()}:5432/orders", None),
        ("spring.datasource.username=orders", None),
        (f"spring.datasource.password={r.weak()}", risky("data-login-properties")),
        ("spring.jpa.hibernate.ddl-auto=validate", None),
        ("spring.mail.host=smtp.office365.com", None),
        ("spring.mail.username=noreply@acme-corp.net", None),
        ("spring.mail.password=${MAIL_PASSWORD}", look("template")),
    ]))  # fmt: skip
    files.append((f"{app}/config.toml", [
        ("[server]", None),
        ('listen = "0.0.0.0:8080"', None),
        ("", None),
        ("[database]", None),
        (f'url = "postgres://{r.host()}:5432/feeds"', None),
        ('user = "feeds"', None),
        (f'password = "{r.weak()}"', risky("data-login-toml")),
    ]))  # fmt: skip
    files.append((f"{app}/conf/datasource.xml", [
        ('<?xml version="1.0"?>', None),
        ("<datasource>", None),
        (f"  <host>{r.host()}</host>", None),
        ("  <port>1433</port>", None),
        ("  <user>sa</user>", None),
        (f"  <password>{r.weak()}</password>", risky("data-login-xml")),
        ("</datasource>", None),
    ]))  # fmt: skip
    # A JSON schema and a form definition: password-named keys holding type names and prose.
    files.append((f"{app}/schemas/login.schema.json", [
        ("{", None),
        ('  "type": "object",', None),
        ('  "properties": {', None),
        ('    "host": {"type": "string"},', None),
        ('    "username": {"type": "string"},', None),
        ('    "password": {"type": "string", "format": "password"},', look("type-name")),
        ('    "passwordHint": "The password of the database user",', look("prose")),
        ("  }", None),
        ("}", None),
    ]))  # fmt: skip
    files.append((f"{app}/config/settings.example.yml", [
        ("database:", None),
        ("  host: db.example.com", None),
        ("  user: your_user", None),
        ("  password: your_password", look("placeholder")),
    ]))  # fmt: skip
    files.append((f"{app}/deploy/values.yaml", [
        ("postgresql:", None),
        ("  host: '{{ .Values.global.dbHost }}'", None),
        ("  username: app", None),
        ("  password: '{{ .Values.global.dbPassword }}'", look("template")),
        ("ldap:", None),
        ("  url: ldap://ldap.acme-corp.net", None),
        ("  bindDN: cn=admin,dc=acme,dc=net", None),
        ("  user: cn=admin,dc=acme,dc=net", None),
        ("  password: password", look("value-equals-key")),
    ]))  # fmt: skip
    return files


def php_frameworks(r: R, site: str, app: str) -> list[tuple[str, list[Line]]]:
    salts = ["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_KEY", "AUTH_SALT",
             "SECURE_AUTH_SALT", "LOGGED_IN_SALT", "NONCE_SALT"]  # fmt: skip
    phrase_alpha = ALNUM + "!@#$%^&*()-_ []{}<>~`+=,.;:/?|"

    wp: list[Line] = [
        ("<?php", None),
        ("/** The name of the database for WordPress */", None),
        ("define( 'DB_NAME', 'wp_shop' );", None),
        ("define( 'DB_USER', 'wp_shop' );", None),
        (f"define( 'DB_PASSWORD', '{r.weak()}' );", risky("wp-db-password")),
        ("define( 'DB_HOST', 'localhost' );", None),
        ("", None),
    ]
    for name in salts:
        value = r.s(phrase_alpha, 64).replace("'", "").replace("\\", "")
        wp.append((f"define('{name}',{' ' * (18 - len(name))}'{value}');", risky("wp-salt")))
    wp.append(("$table_prefix = 'wp_';", None))
    sample: list[Line] = [
        ("<?php", None),
        ("define( 'DB_PASSWORD', 'password_here' );", look("placeholder")),
    ]
    for name in salts:
        sample.append((f"define( '{name}', 'put your unique phrase here' );", look("placeholder")))
    php_cfg: list[Line] = [
        ("<?php", None),
        ("// database settings", None),
        (f'define("DB_PASS","{r.weak()}");', risky("php-define")),
        ("define('DB_PASSWORD', getenv('DB_PASSWORD'));", look("code")),
        (f"$config['db_password'] = '{r.weak()}';", risky("php-config")),
    ]
    secrets_yml: list[Line] = [
        ("development:", None),
        (f"  secret_key_base: {r.s(HEX, 128)}", risky("rails-secret-key-base")),
        ("production:", None),
        ('  secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>', look("template")),
    ]
    django: list[Line] = [
        ("from pathlib import Path", None),
        ("BASE_DIR = Path(__file__).resolve().parent.parent", None),
        ("# SECURITY WARNING: keep the secret key used in production secret!", look("comment")),
        (
            f"SECRET_KEY = 'django-insecure-{r.s(string.ascii_lowercase + string.digits + '!@#$%^&*(-_=+)', 50)}'",
            risky("django-secret-key"),
        ),
        ("DEBUG = False", None),
        ("ALLOWED_HOSTS = ['shop.acme-corp.net']", None),
    ]
    django_env: list[Line] = [
        ("import os", None),
        ("SECRET_KEY = os.environ['DJANGO_SECRET_KEY']", look("code")),
    ]
    return [
        (f"{site}/wp-config.php", wp),
        (f"{site}/wp-config-sample.php", sample),
        (f"{site}/includes/config.inc.php", php_cfg),
        (f"{app}/config/secrets.yml", secrets_yml),
        (f"{app}/shop/settings.py", django),
        (f"{app}/shop/settings_prod.py", django_env),
    ]


def documentation(r: R, app: str) -> list[tuple[str, list[Line]]]:
    """READMEs and templates that show the formats without real values."""
    readme: list[Line] = [
        ("# Deploying", None),
        ("", None),
        ("Put your registry login in `~/.netrc`:", None),
        ("", None),
        ("```", None),
        ("machine registry.example.com login USERNAME password PASSWORD", look("doc-netrc")),
        ("```", None),
        ("", None),
        (
            "and your database password in `~/.pgpass` (`hostname:port:database:username:password`):",
            look("doc-pgpass"),
        ),
        ("", None),
        ("    localhost:5432:mydb:myuser:<your password>", look("doc-pgpass")),
        ("", None),
        ("The password must be at least 12 characters.", look("prose")),
    ]
    env_example: list[Line] = [
        ("DB_HOST=localhost", None),
        ("DB_USERNAME=root", None),
        ("DB_PASSWORD=", look("empty")),
        ("APP_KEY=", look("empty")),
    ]
    netrc_tpl: list[Line] = [
        ("machine {{ registry_host }}", None),
        ("  login {{ registry_user }}", None),
        ("  password {{ registry_password }}", look("template")),
    ]
    setup: list[Line] = [
        ("## Local setup", None),
        ("", None),
        ("1. Create `~/.npmrc` with your token:", None),
        ("", None),
        ("   //registry.npmjs.org/:_authToken=<your-npm-token>", look("doc-npmrc")),
        ("", None),
        ("2. Log in to the registry (`docker login`) so that `~/.docker/config.json` holds", None),
        ('   `{"auths": {"ghcr.io": {"auth": "..."}}}`.', look("doc-docker")),
        ("", None),
        ("3. The Kubernetes secret is created by CI:", None),
        ("", None),
        ("```yaml", None),
        ("kind: Secret", None),
        ("stringData:", None),
        ("  DB_PASSWORD: ${DB_PASSWORD}", look("doc-k8s")),
        ("```", None),
    ]
    compose_env: list[Line] = [
        ("# copy to .env and fill in", look("comment")),
        ("# DB_PASSWORD=", look("comment")),
        ("DB_HOST=db", None),
        ("DB_USER=app", None),
        ("DB_PASSWORD=app", look("dev-default")),
    ]
    hcl_vars: list[Line] = [
        ('variable "db_password" {', None),
        (
            '  description = "Password of the database user; set it in the CI secret store"',
            look("prose"),
        ),
        ("  type        = string", None),
        ("  sensitive   = true", None),
        ("}", None),
        ('output "db_password_secret_name" {', None),
        ("  value = aws_secretsmanager_secret.db.name", None),
        ("}", None),
    ]
    return [
        (f"{app}/docs/setup.md", setup),
        (f"{app}/deploy/compose.env", compose_env),
        (f"{app}/infra/variables.tf", hcl_vars),
        (f"{app}/README.md", readme),
        (f"{app}/.env.example", env_example),
        (f"{app}/ansible/roles/registry/templates/netrc.j2", netrc_tpl),
    ]


def ordinary(r: R, app: str) -> list[tuple[str, list[Line]]]:
    """Ordinary files of the same projects: nothing risky, nothing to report."""
    pkg: list[Line] = [
        ("{", None),
        ('  "name": "shop-frontend",', None),
        ('  "version": "2.4.1",', None),
        ('  "scripts": {"build": "vite build", "test": "vitest"},', None),
        ('  "dependencies": {"vue": "^3.4.0", "axios": "^1.6.0"}', None),
        ("}", None),
    ]
    compose: list[Line] = [
        ("services:", None),
        ("  db:", None),
        ("    image: postgres:16", None),
        ("    environment:", None),
        ("      POSTGRES_PASSWORD_FILE: /run/secrets/db_password", look("file-reference")),
        ("    secrets: [db_password]", None),
        ("secrets:", None),
        ("  db_password:", None),
        ("    file: ./secrets/db_password.txt", None),
    ]
    login_py: list[Line] = [
        ("def login(client, host, user, password):", None),
        ('    """Log in with the user\'s password."""', None),
        (
            "    return client.post(f'https://{host}/login', data={'user': user, 'password': password})",
            look("code"),
        ),
    ]
    return [
        (f"{app}/frontend/package.json", pkg),
        (f"{app}/docker-compose.yml", compose),
        (f"{app}/shop/auth.py", login_py),
    ]


def generate(seed: int, out: str, copies: int = 3) -> dict:
    r = R(seed)
    tree = os.path.join(out, "tree")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(tree)
    files: list[tuple[str, list[Line]]] = []
    people = ["alice", "bob", "kenji", "marta", "ops", "dev"]
    for copy in range(copies):
        home = f"home/{people[copy % len(people)]}{copy}" if copy else "dotfiles"
        project = f"projects/site{copy}"
        app = f"apps/shop{copy}"
        single: list[Callable[[R, str], tuple[str, list[Line]]]] = [
            netrc, heroku_netrc, pgpass, git_credentials, pypirc, docker_config, dockercfg,
            s3cfg, aws_credentials, maven_settings, putty_ppk, firefox_logins, robo3t, dbeaver,
        ]  # fmt: skip
        for make in single:
            files.append(make(r, home))
        for make in (npmrc, yarnrc, yarnrc_classic, nuget_config):
            files.append(make(r, project))
        for make in (sftp_config, ftpconfig, remote_sync, deployment_config, vscode_sftp):
            files.append(make(r, project))
        files += jetbrains(r, project)
        files += filezilla(r, home)
        files += [(p.replace("servers/", f"servers{copy}/"), ls) for p, ls in mail_rc(r, home)]
        files += rails_master_key(r, app)
        files.append(k8s_secret(r, app))
        files.append(terraform(r, app))
        files.append(shadow(r, f"backup{copy}"))
        files.append(passwd(r, f"backup{copy}"))
        files.append(proftpd(r, f"backup{copy}"))
        files.append(htpasswd(r, f"www{copy}"))
        files.append(sql_dump(r, app))
        files += data_logins(r, app)
        files += php_frameworks(r, f"www{copy}", app)
        files += documentation(r, app)
        files += ordinary(r, app)
    labels: dict[str, list[dict]] = {"risky": [], "lookalikes": []}
    for rel, lines in files:
        full = os.path.join(tree, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="\n") as handle:
            handle.write("\n".join(text for text, _ in lines) + "\n")
        block_end = None
        for number, (_text, label) in enumerate(lines, 1):
            if label is None:
                continue
            entry = {"path": rel, "line": number, "kind": label[1]}
            if label[1] == "putty-ppk":  # the whole key is one secret
                block_end = len(lines)
                entry["end"] = block_end
            labels["risky" if label[0] == RISKY else "lookalikes"].append(entry)
    digest = hashlib.sha256(json.dumps(labels, sort_keys=True).encode()).hexdigest()[:12]
    labels["files"] = len(files)  # type: ignore[assignment]
    labels["digest"] = digest  # type: ignore[assignment]
    with open(os.path.join(out, "labels.json"), "w", encoding="utf-8") as handle:
        json.dump(labels, handle, indent=1)
    return labels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "out", "dotfiles-dev"))
    ap.add_argument("--copies", type=int, default=3, help="home folders / projects to generate")
    args = ap.parse_args(argv)
    labels = generate(args.seed, args.out, args.copies)
    print(f"{labels['files']} files, {len(labels['risky'])} risky lines, "
          f"{len(labels['lookalikes'])} look-alikes -> {args.out}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
