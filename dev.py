#!/usr/bin/env python3
"""Set up and run Hollywood Gin with nothing but Python 3 and git.

    python3 dev.py serve   # set up, then run the site at http://127.0.0.1:8000
    python3 dev.py test    # set up, then run the whole test suite

Both are idempotent: they create `.venv/` once, install the pinned requirements
(quietly, and only what is missing), compile the translations and migrate the
database. Standard library only, because it runs before anything is installed.
"""

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def run(*args, env=None, allowed=(0,)):
    print("+", " ".join(str(a) for a in args), flush=True)
    returncode = subprocess.run([str(a) for a in args], cwd=ROOT, env=env).returncode
    if returncode not in allowed:
        raise subprocess.CalledProcessError(returncode, args)


def set_up(requirements):
    if not PYTHON.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements)
    run(PYTHON, "manage.py", "compiletranslations")


def serve():
    set_up("requirements.txt")
    run(PYTHON, "manage.py", "migrate", "--no-input")
    run(PYTHON, "manage.py", "runserver", "127.0.0.1:8000")


def find_chromium():
    configured = os.environ.get("CHROMIUM_PATH")
    if configured:
        return configured
    for name in CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    sys.exit(
        "The browser tests need Chromium and none was found.\n"
        "On Debian or Ubuntu: sudo apt-get install chromium\n"
        "Elsewhere: set CHROMIUM_PATH to a Chromium or Chrome executable."
    )


# What the tests run besides Python: a program each, and the Debian package that has it.
# xgettext: the catalogue tests extract every translatable string with makemessages.
# redis-server: the tests start a private one to see the site survive a failing Redis.
TEST_TOOLS = {"xgettext": "gettext", "redis-server": "redis-server"}


def require_test_tools():
    missing = [package for program, package in TEST_TOOLS.items() if not shutil.which(program)]
    if missing:
        sys.exit(
            f"The tests need {', '.join(missing)}, not found on this machine.\n"
            f"On Debian or Ubuntu: sudo apt-get install {' '.join(missing)}"
        )


def test(pytest_args):
    chromium = find_chromium()
    require_test_tools()
    set_up("requirements-dev.txt")
    env = dict(os.environ, CHROMIUM_PATH=chromium)
    # Browser tests drive a live server from a sync Playwright loop; pytest-asyncio's
    # loop must not be running in the same process, so they get their own invocation.
    # A selection ("dev.py test tests/engine") may leave one of the two runs with nothing
    # to collect; pytest's exit code 5 then means "not selected", not a failure.
    allowed = (0, 5) if pytest_args else (0,)
    run(PYTHON, "-m", "pytest", "-m", "not browser", *pytest_args, env=env, allowed=allowed)
    browser_env = dict(env, DJANGO_ALLOW_ASYNC_UNSAFE="true")
    run(PYTHON, "-m", "pytest", "-m", "browser", *pytest_args, env=browser_env, allowed=allowed)


def main(argv):
    commands = {"serve": lambda: serve(), "test": lambda: test(argv[2:])}
    if len(argv) < 2 or argv[1] not in commands:
        sys.exit(__doc__)
    try:
        commands[argv[1]]()
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main(sys.argv)
