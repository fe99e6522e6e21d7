"""Per-rule true and false examples of the credential-file rules (issue 30): whole files in
each format's documented syntax, with fresh fake passwords and tokens (true), and the same
files without a credential: references, templates, empty or encrypted values, neighbouring
keys, comments (false). Shape fields as in rule_examples.py; `{{`/`}}` are literal braces.
"""

# ruff: noqa: E501 UP031  (whole files of each format on one line each: the data reads best unbroken)

from __future__ import annotations

import base64
import random

from .rule_examples import fill


def _b64(rng: random.Random, template: str) -> str:
    return base64.b64encode(fill(rng, template).encode()).decode()


# rule (without `secret.`) -> (true templates, false templates); a template may be a
# function of the random generator (base64 of a filled template)
FILE_SPECS: dict[str, tuple[list, list]] = {
    "data-file-login": (
        [
            '{{"production": {{"host": "db{d2}.lan", "username": "app", "password": "{A14}"}}}}',
            '{{"host": "10.0.{d1}.{d2}", "user": "report", "password": "{A16}", "port": 5432}}',
            '{{"db": {{"hostname": "mysql.internal", "user": "shop", "password": "{A12}"}}}}',
        ],
        [
            '{{"host": "db.lan", "username": "app", "password": "${{DB_PASSWORD}}"}}',
            '{{"properties": {{"host": {{"type": "string"}}, "password": {{"type": "string"}}}}}}',
            '{{"host": "db.lan", "user": "app", "password": ""}}',
            '{{"passwordPolicy": {{"minLength": 14, "requireDigits": true}}}}',
            '{{"host": "db", "user": "shop", "password": "shop"}}',
            '{{"host": "db.lan", "user": "app", "password": "{{{{ db_password }}}}"}}',
            '{{"host": "db.lan", "user": "app", "passwordFile": "/run/secrets/db"}}',
            '{{"host": "db.lan", "user": "app", "password_env": "DB_PASSWORD"}}',
            '{{"host": "db.lan", "user": "app", "password": null}}',
            '{{"host": "db.lan", "user": "app", "password": "<password>"}}',
        ],
    ),
    "dbeaver-password": (
        [
            '{{"connections": {{"pg-{l4}": {{"configuration": {{"host": "db.lan", "user": "app", '
            '"password": "{A14}"}}}}}}}}',
            '{{"connections": {{"mysql-{l4}": {{"configuration": {{"host": "10.0.0.{d2}", '
            '"user": "root", "password": "{A16}", "port": "3306"}}}}}}}}',
        ],
        [
            '{{"connections": {{"pg": {{"configuration": {{"host": "db.lan", "user": "app"}}}}}}}}',
            '{{"connections": {{"pg": {{"configuration": {{"host": "db.lan", "user": "app", '
            '"password": ""}}}}}}}}',
            '{{"connections": {{"pg": {{"configuration": {{"host": "db.lan", "save-password": false}}}}}}}}',
            '{{"folders": {{}}, "connections": {{}}}}',
            '{{"connections": {{"pg": {{"configuration": {{"auth-model": "native", "user": "app"}}}}}}}}',
            '{{"connections": {{"pg": {{"configuration": {{"host": "db.lan", '
            '"password": "${{PG_PASSWORD}}"}}}}}}}}',
            '{{"connections": {{"h2": {{"driver": "h2_embedded", "configuration": {{"database": "~/test"}}}}}}}}',
            '{{"connections": {{"pg": {{"name": "prod", "read-only": true}}}}}}',
            '{{"connection-types": {{"prod": {{"confirm-execute": true}}}}}}',
            '{{"connections": {{"pg": {{"configuration": {{"url": "jdbc:postgresql://db.lan/app"}}}}}}}}',
        ],
    ),
    "docker-config-auth": (
        [
            lambda rng: (
                '{"auths": {"https://index.docker.io/v1/": {"auth": "%s"}}}'
                % _b64(rng, "deploy:{A16}")
            ),
            lambda rng: '{"auths": {"ghcr.io": {"auth": "%s"}}}' % _b64(rng, "ci-bot:ghp_{A36}"),
            lambda rng: (
                '{"auths": {"registry.acme.io": {"auth": "%s", "email": "ci@acme.io"}}}'
                % _b64(rng, "builder:{A20}")
            ),
        ],
        [
            '{{"auths": {{"ghcr.io": {{}}}}, "credsStore": "desktop"}}',
            '{{"auths": {{"r.io": {{"auth": "!!!not base64"}}}}}}',
            '{{"auths": {{"r.io": {{"auth": "Ym9iOg=="}}}}}}',
            '{{"credHelpers": {{"123456789012.dkr.ecr.us-east-1.amazonaws.com": "ecr-login"}}}}',
            '{{"auths": {{"quay.io": {{"auth": "${{QUAY_AUTH}}"}}}}}}',
            '{{"auths": {{}}, "experimental": "enabled"}}',
            '{{"psFormat": "table {{{{.ID}}}}\\t{{{{.Image}}}}"}}',
            '{{"auths": {{"r.io": {{"identitytoken": ""}}}}}}',
            '{{"proxies": {{"default": {{"httpProxy": "http://proxy.corp:3128"}}}}}}',
            '{{"auths": {{"r.io": {{"auth": ""}}}}, "credsStore": "osxkeychain"}}',
        ],
    ),
    "firefox-logins": (
        [
            '{{"logins":[{{"hostname":"https://shop.example.org","encryptedUsername":"MDoEEPgAAAAAAAAAAAAAAAAAAAEwFAYI{b24}",'
            '"encryptedPassword":"MDoEEPgAAAAAAAAAAAAAAAAAAAEwFAYIKoZ{b32}"}}],"version":3}}',
            '{{"nextId":{d2},"logins":[{{"id":1,"hostname":"https://{l8}.example.com","encryptedUsername":"MEIEEPgAAAAAAAAAAAAAAAAAAAEwFAYI{b40}",'
            '"encryptedPassword":"MEIEEPgAAAAAAAAAAAAAAAAAAAEwFAYI{b40}","timesUsed":{d1}}}]}}',
        ],
        [
            '{{"logins":[],"version":3}}',
            '{{"nextId":1,"logins":[],"potentiallyVulnerablePasswords":[]}}',
            '{{"logins":[],"dismissedBreachAlertsByLoginGUID":{{}},"version":3}}',
            '{{"version":3}}',
            '{{"nextId":{d1},"logins":[]}}',
            '{{"logins":[], "comment": "cleared by the profile reset"}}',
            '{{"logins":[],"version":2}}',
            '{{"nextId":12,"logins":[],"version":3}}',
            '{{"logins":[],"potentiallyVulnerablePasswords":[],"version":3}}',
            '{{"logins": [ ]}}',
        ],
    ),
    "ide-deployment-password": (
        [
            '{{\n  // sftp settings\n  "host": "ftp.{l6}.org",\n  "user": "bob",\n  "password": "{A14}",\n}}',
            '{{"type": "sftp", "host": "10.0.{d1}.{d2}", "user": "deploy", "password": "{A16}", '
            '"remote_path": "/var/www"}}',
        ],
        [
            '{{"host": "ftp.example.org", "user": "bob", "password": ""}}',
            '{{"promptForPass": true, "pass": "${{FTP_PASS}}"}}',
            '{{"type": "sftp", "host": "h", "user": "u", "ssh_key_file": "~/.ssh/id_ed25519"}}',
            '{{"type": "sftp", "host": "h", "user": "u", "remote_path": "/srv"}}',
            '{{"upload_on_save": true, "sync_down_on_open": false}}',
            '{{"type": "ftp", "host": "h", "user": "anonymous"}}',
            '{{\n  // "password": "set me",\n  "host": "h"\n}}',
            '{{"host": "h", "user": "u", "password": "{{{{ ftp_password }}}}"}}',
            '{{"ignore_regexes": ["\\\\.git/"]}}',
            '{{"host": "h", "user": "u", "save_before_upload": true, "connect_timeout": 30}}',
        ],
    ),
    "jetbrains-password": (
        [
            '<fileTransfer host="ftp.{l6}.org" port="21" username="bob" password="{h24}" />',
            '<fileTransfer host="10.0.0.{d2}" port="22" username="deploy" password="{h32}" />',
        ],
        [
            '<fileTransfer host="ftp.example.org" port="21" username="bob" />',
            '<fileTransfer host="h" port="22" username="deploy" authMethod="key" />',
            '<webServer id="{uuid}" name="staging" url="https://staging.acme.io" />',
            '<component name="WebServers"><option name="servers"><webServer name="x" /></option></component>',
            '<fileTransfer host="h" port="21" username="u" password="" />',
            '<fileTransfer host="h" port="21" username="u" passive="true" />',
            '<serverdata><paths name="s"><serverdata><mappings /></serverdata></paths></serverdata>',
            '<option name="rootFolder" value="/var/www" />',
            '<fileTransfer host="h" port="21" keyPair="true" />',
            '<fileTransfer accessType="SFTP" host="h" port="22" />',
        ],
    ),
    "kubeconfig-credential": (
        [
            "apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: {A40}\n",
            "users:\n- name: admin\n  user:\n    username: admin\n    password: {A16}\n",
            lambda rng: (
                "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n"
                "    client-key-data: %s\n"
                % base64.b64encode(
                    (
                        "-----BEGIN RSA PRIVATE KEY-----\n"
                        + fill(rng, "{b64}\n{b64}\n")
                        + "-----END RSA PRIVATE KEY-----\n"
                    ).encode()
                ).decode()
            ),
            "users:\n- name: eks\n  user:\n    token: {fn:jwt}\n",
        ],
        [
            "users:\n- name: dev\n  user:\n    exec:\n      command: aws\n",
            "users:\n- name: gke\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n"
            "      command: gke-gcloud-auth-plugin\n",
            "clusters:\n- name: prod\n  cluster:\n    server: https://10.0.0.1:6443\n",
            "users:\n- name: oidc\n  user:\n    auth-provider:\n      name: oidc\n",
            "users:\n- name: ci\n  user:\n    tokenFile: /var/run/secrets/token\n",
            "current-context: prod\ncontexts:\n- name: prod\n  context:\n    cluster: prod\n    user: ci\n",
            "users:\n- name: ci\n  user:\n    token: ${{KUBE_TOKEN}}\n",
            "users:\n- name: a\n  user:\n    client-certificate: /etc/k8s/a.crt\n    client-key: /etc/k8s/a.key\n",
            "users: []\nclusters: []\n",
            "users:\n- name: ci\n  user:\n    token: {{{{ kube_token }}}}\n",
        ],
    ),
    "kubernetes-secret": (
        [
            lambda rng: (
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: %s\n"
                % _b64(rng, "{A16}")
            ),
            "kind: Secret\nstringData:\n  SMTP_PASSWORD: {A14}\n",
            lambda rng: (
                "apiVersion: v1\nkind: Secret\ntype: Opaque\nmetadata:\n  name: api\ndata:\n"
                "  API_TOKEN: %s\n" % _b64(rng, "{A32}")
            ),
            'apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  DATABASE_PASSWORD: "{A18}"\n',
        ],
        [
            "kind: ConfigMap\ndata:\n  password_policy: strict-mode-on\n",
            "kind: Secret\ndata:\n  password: '!!!'\n",
            "kind: Secret\ndata:\n  password: Y2hhbmdlbWU=\n  username: c2hvcA==\n",
            "kind: Secret\nstringData:\n  password: ${{DB_PASSWORD}}\n",
            "kind: Secret\nstringData:\n  password: {{{{ .Values.db.password }}}}\n",
            "kind: Secret\nmetadata:\n  name: empty\ntype: Opaque\n",
            "kind: Secret\ntype: kubernetes.io/service-account-token\nmetadata:\n  annotations:\n"
            "    kubernetes.io/service-account.name: ci\n",
            "kind: ConfigMap\ndata:\n  LOG_LEVEL: debug\n  TOKEN_TTL: 3600s\n",
            'kind: Secret\ndata:\n  password: ""\n',
            "kind: ExternalSecret\nspec:\n  data:\n  - secretKey: password\n    remoteRef:\n      key: prod/db\n",
        ],
    ),
    "maven-settings-password": (
        [
            "<servers><server><id>nexus</id><username>deploy</username><password>{A14}</password></server></servers>",
            "<settings>\n  <servers>\n    <server>\n      <id>releases</id>\n      <username>ci</username>\n"
            "      <password>{A18}</password>\n    </server>\n  </servers>\n</settings>",
            "<server>\n  <id>github</id>\n  <username>ci-bot</username>\n  <password>ghp_{A36}</password>\n</server>",
        ],
        [
            "<server><password>${{env.MVN_PASS}}</password></server>",
            "<server><password>{{COQLCE6DU6GtcS5P=}}</password></server>",
            "<server><id>nexus</id><username>deploy</username></server>",
            "<mirrors><mirror><id>central</id><url>https://repo.acme.io</url></mirror></mirrors>",
            "<server><id>x</id><privateKey>${{user.home}}/.ssh/id_rsa</privateKey></server>",
            "<proxies><proxy><host>proxy.corp</host><port>3128</port></proxy></proxies>",
            "<server><password></password></server>",
            "<profiles><profile><id>ci</id></profile></profiles>",
            "<server><id>gh</id><password>${{env.GITHUB_TOKEN}}</password></server>",
            "<localRepository>/cache/m2</localRepository>",
        ],
    ),
    "netrc-password": (
        [
            "machine db.internal login alice password {A14}",
            "machine api.{l6}.com\n  login me@example.org\n  password {A20}\n",
            "default login bob\n  password {A12}\n",
            "machine github.com login ci-bot password ghp_{A36}",
        ],
        [
            "machine {{{{ host }}}}\n  login {{{{ user }}}}\n  password {{{{ registry_password }}}}\n",
            "# machine old.host login bob password hunter22\nmachine new.host login bob\n",
            "machine ftp.host login anonymous password guest@",
            "machine api.host login ci password $API_TOKEN",
            "machine api.host login ci",
            "macdef init\nprompt\n\n",
            "machine h login u password ${{NETRC_PASSWORD}}",
            "machine h.example login anonymous",
            "default login anonymous password user@",
            'machine h login u password ""',
        ],
    ),
    "npmrc-auth": (
        [
            "//registry.npmjs.org/:_authToken=npm_{A36}",
            lambda rng: "//nexus.lan/repository/npm/:_auth=%s" % _b64(rng, "deploy:{A14}"),
            '"//registry.yarnpkg.com/:_authToken" "{uuid}"',
            "@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=ghp_{A36}",
        ],
        [
            "//npm.pkg.github.com/:_authToken=${{GITHUB_TOKEN}}",
            "_auth=not-base64-at-all!",
            "registry=https://registry.npmjs.org/",
            "_auth=bm9jb2xvbmhlcmU=",
            "//registry.npmjs.org/:_authToken=${{NPM_TOKEN}}",
            "always-auth=true",
            "save-exact=true\nengine-strict=true",
            "@acme:registry=https://npm.acme.io/",
            "//registry.npmjs.org/:_authToken=",
            "strict-ssl=false\nfund=false",
        ],
    ),
    "nuget-cleartext-password": (
        [
            '<packageSourceCredentials><acme><add key="Username" value="bob" />'
            '<add key="ClearTextPassword" value="{A14}" /></acme></packageSourceCredentials>',
            '<packageSourceCredentials>\n  <github>\n    <add key="Username" value="ci" />\n'
            '    <add key="ClearTextPassword" value="ghp_{A36}" />\n  </github>\n</packageSourceCredentials>',
        ],
        [
            '<add key="ClearTextPassword" value="%NUGET_TOKEN%" />',
            '<add key="Password" value="AQAAANCMnd8BFdERjHoAwE/Cl+sBAAAA" />',
            '<packageSources><add key="nuget.org" value="https://api.nuget.org/v3/index.json" /></packageSources>',
            '<add key="Username" value="bob" />',
            '<add key="ClearTextPassword" value="" />',
            '<config><add key="globalPackagesFolder" value="/cache/nuget" /></config>',
            '<add key="ClearTextPassword" value="$(NUGET_PASSWORD)" />',
            '<disabledPackageSources><add key="old" value="true" /></disabledPackageSources>',
            '<add key="ValidAuthenticationTypes" value="basic" />',
            '<packageSourceMapping><packageSource key="nuget.org"><package pattern="*" /></packageSource></packageSourceMapping>',
        ],
    ),
    "putty-private-key": (
        [
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\n{b64}\n{b20}\n"
            "Private-Lines: 1\n{b44}\nPrivate-MAC: {h64}\n",
            "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: deploy\nPublic-Lines: 1\n{b64}\n"
            "Private-Lines: 2\n{b64}\n{b40}\nPrivate-MAC: {h40}\n",
        ],
        [
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: public part only\nPublic-Lines: 2\nAAAA\n",
            "Convert the key with puttygen.",
            '---- BEGIN SSH2 PUBLIC KEY ----\nComment: "rsa-key"\n{b64}\n---- END SSH2 PUBLIC KEY ----\n',
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b43} deploy@ci",
            "# keys/README: put your .ppk here, never commit it",
            "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: aes256-cbc\nComment: c\nPublic-Lines: 1\n{b64}\n",
            "Public-Lines: 2",
            "puttygen key.ppk -O private-openssh -o key.pem",
            "",
            "PuTTY-User-Key-File-3: <type>",
        ],
    ),
    "pypirc-password": (
        [
            "[pypi]\nusername = __token__\npassword = {fn:pypi}\n",
            "[internal]\nrepository = https://pypi.acme.io\nusername = bob\npassword = {A14}\n",
            "[distutils]\nindex-servers =\n    pypi\n    testpypi\n\n[testpypi]\nusername = __token__\npassword = {fn:pypi}\n",
        ],
        [
            "[distutils]\nindex-servers = pypi\n",
            "[pypi]\nusername = __token__\n",
            "[pypi]\nrepository = https://upload.pypi.org/legacy/\n",
            "[pypi]\nusername = __token__\npassword = ${{PYPI_TOKEN}}\n",
            "[internal]\nrepository = https://pypi.acme.io\nusername = bob\n",
            "[pypi]\nusername = __token__\npassword =\n",
            "[distutils]\nindex-servers =\n    pypi\n    internal\n",
            "[testpypi]\nrepository = https://test.pypi.org/legacy/\n",
            "[pypi]\nusername = __token__\npassword = %(PYPI_TOKEN)s\n",
            "# see docs/release.md\n[distutils]\nindex-servers = pypi\n",
        ],
    ),
    "rails-master-key": (
        [
            "{h32}\n",
            "{h32}",
        ],
        [
            "",
            "see the deploy docs\n",
            "# set RAILS_MASTER_KEY in the environment instead\n",
            "<%= ENV['RAILS_MASTER_KEY'] %>\n",
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
            "changeme\n",
            "\n",
            "${{RAILS_MASTER_KEY}}\n",
            "00000000000000000000000000000000\n",
            "TODO\n",
        ],
    ),
    "robomongo-password": (
        [
            '{{"connections": [{{"credentials": [{{"userName": "admin", "userPassword": "{A14}", '
            '"databaseName": "admin"}}]}}]}}',
            '{{"connections": [{{"serverHost": "10.0.0.{d2}", "credentials": [{{"userName": "app", '
            '"userPassword": "{A16}", "enabled": true}}]}}]}}',
        ],
        [
            '{{"connections": [{{"credentials": [{{"userName": "admin", "userPassword": ""}}]}}]}}',
            '{{"connections": [{{"serverHost": "localhost", "serverPort": 27017}}]}}',
            '{{"connections": []}}',
            '{{"connections": [{{"credentials": [{{"userName": "admin", "enabled": false}}]}}]}}',
            '{{"autoConnect": true, "connections": []}}',
            '{{"connections": [{{"sshSettings": {{"host": "bastion", "privateKeyFile": "~/.ssh/id"}}}}]}}',
            '{{"connections": [{{"connectionName": "local"}}]}}',
            '{{"batchSize": 50, "timeZone": 0}}',
            '{{"connections": [{{"credentials": []}}]}}',
            '{{"connections": [{{"credentials": [{{"userName": "admin", "userPassword": "${{MONGO_PW}}"}}]}}]}}',
        ],
    ),
    "terraform-password": (
        [
            'resource "aws_db_instance" "x" {{\n  username = "shop"\n  password = "{A14}"\n}}',
            'provider "postgresql" {{\n  host     = "db.lan"\n  username = "tf"\n  password = "{A16}"\n}}',
            'resource "azurerm_mssql_server" "s" {{\n  administrator_login          = "sqladmin"\n'
            '  administrator_login_password = "{A18}"\n}}',
            'resource "aws_elasticache_replication_group" "cache" {{\n  transit_encryption_enabled = true\n'
            '  auth_token                 = "{A32}"\n}}',
            'module "db" {{\n  source   = "./modules/db"\n  password = "{A16}"\n}}',
        ],
        [
            'resource "aws_db_instance" "x" {{\n  password = var.db_password\n}}',
            'resource "x" "y" {{\n  secret_name = "prod/db"\n  password = "${{random_password.db.result}}"\n}}',
            'variable "db_password" {{\n  type      = string\n  sensitive = true\n}}',
            'resource "aws_db_instance" "x" {{\n  manage_master_user_password = true\n}}',
            'resource "random_password" "db" {{\n  length  = 24\n  special = true\n}}',
            'output "db_password" {{\n  value     = random_password.db.result\n  sensitive = true\n}}',
            'resource "aws_db_instance" "x" {{\n  password = data.aws_secretsmanager_secret_version.db.secret_string\n}}',
            'resource "x" "y" {{\n  password = ""\n}}',
            "locals {{\n  password_length = 32\n}}",
            'resource "aws_db_instance" "x" {{\n  password = local.db_password\n}}',
        ],
    ),
    "tomcat-users-password": (
        [
            '<tomcat-users><user username="deployer" password="{A14}" roles="manager-script"/></tomcat-users>',
            '<tomcat-users>\n  <role rolename="manager-gui"/>\n  <user username="admin" password="{A16}" '
            'roles="manager-gui,admin-gui"/>\n</tomcat-users>',
            '<?xml version="1.0" encoding="UTF-8"?>\n<tomcat-users xmlns="http://tomcat.apache.org/xml">\n'
            '  <user name="jmx" password="{A12}" roles="manager-jmx"/>\n</tomcat-users>',
        ],
        [],
    ),  # the rule's own ten look-alikes are in its YAML
    "yarnrc-auth": (
        [
            'npmAuthToken: "npm_{A36}"',
            'npmScopes:\n  acme:\n    npmAuthIdent: "deploy:{A14}"\n',
            'npmRegistries:\n  "https://npm.acme.io":\n    npmAuthToken: "{uuid}"\n',
        ],
        [
            'npmAuthToken: "${{NPM_TOKEN}}"',
            "npmAlwaysAuth: true",
            'npmRegistryServer: "https://registry.npmjs.org"',
            "nodeLinker: node-modules",
            'npmScopes:\n  acme:\n    npmRegistryServer: "https://npm.pkg.github.com"\n',
            'npmAuthToken: "${{NPM_TOKEN:-}}"',
            "enableTelemetry: false",
            "yarnPath: .yarn/releases/yarn-4.1.0.cjs",
            'npmScopes:\n  acme:\n    npmAlwaysAuth: true\n    npmAuthToken: "${{ACME_TOKEN}}"\n',
            'npmAuthToken: ""',
        ],
    ),
}


def _draw(rng: random.Random, template) -> str:
    return template(rng) if callable(template) else fill(rng, template)


def file_true(rule: str, rng: random.Random, n: int = 10) -> list[str]:
    templates = FILE_SPECS[rule][0]
    return [_draw(rng, templates[i % len(templates)]) for i in range(n)]


def file_false(rule: str, rng: random.Random) -> list[str]:
    return [_draw(rng, t) for t in FILE_SPECS[rule][1]]
