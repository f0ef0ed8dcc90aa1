"""The project as a newcomer and CI see it: the README's commands, production checks."""

import json
import os
import secrets
import subprocess
import sys

from django.conf import settings

from tests.processes import TEST_VAPID_KEY

ROOT = settings.BASE_DIR
SERVE = "python3 dev.py serve"
TEST = "python3 dev.py test"


def last_command(script):
    lines = [line.strip() for line in script.splitlines()]
    return [line for line in lines if line and not line.startswith("#")][-1]


def test_it_documents_both_commands_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    assert f"\n{SERVE}\n" in readme
    assert f"\n{TEST}\n" in readme


def test_it_runs_the_readme_test_command_in_ci():
    command = last_command((ROOT / ".ci" / "run").read_text())
    assert command.removeprefix("exec ") == TEST


def production_environment():
    env = {name: value for name, value in os.environ.items() if not name.startswith("DJANGO_")}
    return env | {
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "example.com",
        "PUSH_VAPID_PRIVATE_KEY": TEST_VAPID_KEY,
    }


def preloaded_environment():
    # A domain owner who has chosen HSTS for every subdomain and the browsers' preload
    # list: check --deploy warns about either left off, as it should (off by default).
    return production_environment() | {"DJANGO_HSTS_INCLUDE_SUBDOMAINS": "true", "DJANGO_HSTS_PRELOAD": "true"}


def test_it_passes_the_deployment_checks_with_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=preloaded_environment(), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stderr


def test_it_has_a_migration_for_every_model_change(db):
    # The initial migrations are edited in place until the first deploy; they must still
    # describe the models exactly.
    from django.core.management import call_command

    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def production_settings(**env):
    """Production settings as a value: what `settings.py` makes of these variables."""
    script = "from django.conf import settings; import json; print(json.dumps({name: getattr(settings, name) for name in %r}))"
    names = ["SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "TRUST_X_FORWARDED_PROTO"]
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + script % names],
        cwd=ROOT, env=production_environment() | {"DJANGO_SETTINGS_MODULE": "hollywood_site.settings"} | env,
        capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(result.stdout)


def test_it_trusts_no_proxy_and_keeps_hsts_to_this_host_by_default():
    values = production_settings()
    assert values == {"SECURE_PROXY_SSL_HEADER": None, "SECURE_HSTS_INCLUDE_SUBDOMAINS": False,
                      "SECURE_HSTS_PRELOAD": False, "TRUST_X_FORWARDED_PROTO": False}


def test_it_trusts_a_proxy_and_widens_hsts_only_when_told_to():
    values = production_settings(DJANGO_TRUST_X_FORWARDED_PROTO="true", DJANGO_HSTS_INCLUDE_SUBDOMAINS="true",
                                 DJANGO_HSTS_PRELOAD="true")
    assert values == {"SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
                      "SECURE_HSTS_INCLUDE_SUBDOMAINS": True, "SECURE_HSTS_PRELOAD": True,
                      "TRUST_X_FORWARDED_PROTO": True}


def test_it_refuses_to_start_in_production_without_a_vapid_key_for_push_notices():
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT, env=production_environment() | {"DJANGO_SETTINGS_MODULE": "hollywood_site.settings",
                                                  "PUSH_VAPID_PRIVATE_KEY": ""},
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode != 0 and "PUSH_VAPID_PRIVATE_KEY must be set" in result.stderr
