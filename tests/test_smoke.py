"""The project as a newcomer and CI see it: the README's commands, production checks."""

import os
import secrets
import subprocess
import sys

from django.conf import settings

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
    }


def test_it_passes_the_deployment_checks_with_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=production_environment(), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stderr


def test_it_has_a_migration_for_every_model_change(db):
    # The initial migrations are edited in place until the first deploy; they must still
    # describe the models exactly.
    from django.core.management import call_command

    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
