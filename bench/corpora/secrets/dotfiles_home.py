# ruff: noqa: E501  (file templates read better unwrapped)
"""Dotfiles and tool configurations of the leaked-dotfiles corpus (dotfiles.py): each
function returns (relative path, lines), a line labelled risky, look-alike or nothing."""

from __future__ import annotations

import base64
import string

from corpora.secrets.dotfiles_base import ALNUM, HEX, Line, R, look, risky

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
