# ruff: noqa: E501  (file templates read better unwrapped)
"""Servers, dumps, data files, frameworks, documentation and ordinary files of the
leaked-dotfiles corpus (dotfiles.py)."""

from __future__ import annotations

import base64
import string

from corpora.secrets.dotfiles_base import ALNUM, HEX, Line, R, crypt_hash, look, risky


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
