"""dev.py: what it would install where, which configurations a run chooses, the private
servers of the PostgreSQL run, and a busy port for `serve`. The plan is checked as data;
nothing here runs apt-get."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
import redis

import dev
from tests import processes

ROOT_ON_DEBIAN = dev.Platform(apt=True, root=True, sudo=False, apt_has_chromium=True)
USER_WITH_SUDO_ON_DEBIAN = dev.Platform(apt=True, root=False, sudo=True, apt_has_chromium=True)
ROOT_ON_UBUNTU = dev.Platform(apt=True, root=True, sudo=False, apt_has_chromium=False)
USER_WITHOUT_SUDO_ON_DEBIAN = dev.Platform(apt=True, root=False, sudo=False, apt_has_chromium=True)
MAC = dev.Platform(apt=False, root=False, sudo=False, apt_has_chromium=False)


def installed_packages(plan):
    return plan.commands[-1][plan.commands[-1].index("-qq") + 1:]


def test_it_installs_only_the_missing_programs_with_apt_as_root_and_says_why():
    plan = dev.install_plan([dev.CHROMIUM, dev.GETTEXT], ROOT_ON_DEBIAN)
    assert plan.commands[0] == ["apt-get", "update", "-qq"]
    assert plan.commands[1][:5] == ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y"]
    assert installed_packages(plan) == ["chromium-headless-shell", "gettext"]
    assert plan.say == [
        "Installing chromium-headless-shell: the browser tests drive a real Chromium, headless.",
        "Installing gettext: the catalogue tests find every translatable string with GNU gettext.",
    ]
    assert not plan.browser_from_playwright and plan.cannot == ""


def test_it_installs_through_sudo_when_sudo_needs_no_password():
    plan = dev.install_plan([dev.REDIS, dev.NGINX, dev.POSTGRES], USER_WITH_SUDO_ON_DEBIAN)
    assert all(command[:2] == ["sudo", "-n"] for command in plan.commands)
    assert installed_packages(plan) == ["redis-server", "nginx", "postgresql"]


def test_it_plans_nothing_when_nothing_is_missing():
    assert dev.install_plan([], ROOT_ON_DEBIAN) == dev.Plan([], [], False, "")


def test_it_takes_chromium_from_playwright_where_apt_has_no_headless_shell():
    plan = dev.install_plan([dev.CHROMIUM, dev.REDIS], ROOT_ON_UBUNTU)
    assert installed_packages(plan) == ["redis-server"]
    assert plan.browser_from_playwright
    assert "Downloading Chromium with Playwright: the browser tests drive a real Chromium, headless." in plan.say


@pytest.mark.parametrize("platform", [USER_WITHOUT_SUDO_ON_DEBIAN, MAC], ids=["debian-without-sudo", "mac"])
def test_it_names_the_command_for_each_system_when_it_cannot_install(platform):
    plan = dev.install_plan([dev.CHROMIUM, dev.GETTEXT, dev.POSTGRES], platform)
    assert plan.commands == [] and plan.say == ["Downloading Chromium with Playwright: the browser tests drive a real Chromium, headless."]
    assert plan.browser_from_playwright
    assert "  Debian/Ubuntu: sudo apt-get install gettext postgresql\n" in plan.cannot
    assert "  Fedora:        sudo dnf install gettext postgresql-server\n" in plan.cannot
    assert plan.cannot.endswith("  macOS:         brew install gettext postgresql@17")
    assert "  postgres: the PostgreSQL run starts a private server on a free port" in plan.cannot


def test_it_needs_no_command_when_only_the_browser_is_missing_and_cannot_be_installed():
    plan = dev.install_plan([dev.CHROMIUM], MAC)
    assert plan.browser_from_playwright and plan.cannot == "" and plan.commands == []


@pytest.mark.parametrize("argv, configurations, pytest_args", [
    ([], ["sqlite", "postgres"], []),
    (["tests/engine", "-x"], ["sqlite"], ["tests/engine", "-x"]),
    (["--postgres"], ["postgres"], []),
    (["tests/live", "--postgres"], ["postgres"], ["tests/live"]),
    (["--postgres", "--sqlite", "-k", "knock"], ["sqlite", "postgres"], ["-k", "knock"]),
])
def test_it_runs_both_configurations_for_the_whole_suite_and_the_default_for_a_selection(argv, configurations, pytest_args):
    assert dev.choose_configurations(argv) == (configurations, pytest_args)


def test_it_runs_the_default_configuration_on_sqlite_and_in_memory_whatever_the_environment_says(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://someone@db.example/theirs")
    monkeypatch.setenv("REDIS_URL", "redis://cache.example/0")
    env = dev.configuration_env("sqlite", servers=None)
    assert "DATABASE_URL" not in env and "REDIS_URL" not in env


def test_it_uses_the_database_and_redis_the_user_gives_for_the_postgres_run(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://someone@db.example/theirs")
    monkeypatch.setenv("REDIS_URL", "redis://cache.example/0")
    env = dev.configuration_env("postgres", servers=None)  # starts nothing
    assert (env["DATABASE_URL"], env["REDIS_URL"]) == ("postgres://someone@db.example/theirs", "redis://cache.example/0")


def test_it_compiles_the_project_once_into_the_virtualenv_where_the_environment_forbids_bytecode(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("DATABASE_URL", "postgres://someone@db.example/theirs")  # starts no server
    monkeypatch.setenv("REDIS_URL", "redis://cache.example/0")
    for configuration in ("sqlite", "postgres"):
        env = dev.configuration_env(configuration, servers=None)
        assert "PYTHONDONTWRITEBYTECODE" not in env
        assert env["PYTHONPYCACHEPREFIX"] == str(dev.VENV / "pycache")  # not beside the sources


def test_it_leaves_pythons_own_bytecode_cache_alone_otherwise(monkeypatch):
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    assert "PYTHONPYCACHEPREFIX" not in dev.configuration_env("sqlite", servers=None)


def refuses_connections(url):
    address = urlsplit(url)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((address.hostname, address.port), timeout=5)
    return True


def test_it_starts_a_private_postgresql_and_redis_for_the_run_and_stops_them_afterwards():
    with dev.PrivatePostgres() as postgres, dev.PrivateRedis() as private_redis:
        database_url, redis_url = postgres.url, private_redis.url
        with psycopg.connect(database_url.replace("/hollywood", "/postgres")) as connection:
            assert connection.execute("select 1 + 1").fetchone() == (2,)
        client = redis.Redis.from_url(redis_url)
        assert client.ping()
        client.close()
    assert refuses_connections(database_url) and refuses_connections(redis_url)


def test_it_starts_a_private_postgresql_as_durable_as_production_for_the_benchmarks_and_names_its_process():
    with dev.PrivatePostgres(durable=True) as postgres:
        with psycopg.connect(postgres.url.replace("/hollywood", "/postgres")) as connection:
            settings = [connection.execute(f"show {name}").fetchone()[0] for name in ("fsync", "synchronous_commit")]
            backend = connection.execute("select pg_backend_pid()").fetchone()[0]
            parent = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
        assert settings == ["on", "on"] and parent == postgres.pid


def test_it_says_in_one_line_that_a_port_is_busy_and_offers_a_free_one():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        with pytest.raises(SystemExit) as stopped:
            dev.require_free_port(port)
    message = str(stopped.value.code)
    assert message.startswith(f"Port {port} is already in use by another program; try python3 dev.py serve --port ")
    assert "\n" not in message
    offered = int(message.rsplit(" ", 1)[1])
    assert offered > port and dev.port_is_free(offered)


def test_it_stops_a_private_postgresql_and_starts_it_again_at_the_same_address():
    with dev.PrivatePostgres() as postgres:
        server = postgres.url.replace("/hollywood", "/postgres")
        postgres.stop()
        assert refuses_connections(postgres.url)
        postgres.start()
        with psycopg.connect(server) as connection:
            assert connection.execute("select 1").fetchone() == (1,)
    assert refuses_connections(postgres.url)


# tests/browser/ is another branch's to change: its free_port goes when that branch merges.
def test_it_keeps_one_free_port_one_private_redis_and_one_private_postgresql_for_dev_py_and_the_tests():
    """dev.py's helpers are the tests' and the benchmarks' too: nothing else defines them."""
    copies = {"def free_port": [], '"redis-server"': [], '"initdb"': []}
    for path in sorted([*dev.ROOT.glob("tests/**/*.py"), *dev.ROOT.glob("benchmarks/**/*.py"), *dev.ROOT.glob("games/**/*.py")]):
        name = str(path.relative_to(dev.ROOT))
        text = path.read_text()
        for marker, found in copies.items():
            if marker in text and name != "tests/test_dev.py":
                found.append(name)
    assert copies == {"def free_port": [], '"redis-server"': [], '"initdb"': []}


def test_it_plans_three_independent_runs_for_the_whole_suite():
    runs = dev.test_runs(["sqlite", "postgres"], [], lambda configuration: {"CONFIGURATION": configuration}, "/chromium")
    assert [(run.name, run.args, run.env) for run in runs] == [
        ("SQLite with the in-memory channel layer", (*dev.WORKERS, "-m", "not browser and not scaleout"),
         {"CONFIGURATION": "sqlite"}),
        ("browser tests", (*dev.WORKERS, "-m", "browser"), {"CONFIGURATION": "sqlite", "CHROMIUM_PATH": "/chromium",
                                                         "DJANGO_ALLOW_ASYNC_UNSAFE": "true"}),
        ("PostgreSQL with Redis", (*dev.WORKERS, *dev.ON_POSTGRES_AND_REDIS, "-m", "not browser"),
         {"CONFIGURATION": "postgres"}),
    ]


def test_it_runs_the_paths_given_on_postgresql_and_redis_in_place_of_its_own_selection():
    [run] = dev.test_runs(["postgres"], ["tests/live", "-x"], lambda configuration: {}, chromium=None)
    assert run.args == (*dev.WORKERS, "tests/live", "-x", "-m", "not browser")
    [run] = dev.test_runs(["postgres"], ["-k", "knock"], lambda configuration: {}, chromium=None)
    assert run.args == (*dev.WORKERS, "-k", "knock", *dev.ON_POSTGRES_AND_REDIS, "-m", "not browser")


def test_every_test_the_postgresql_run_names_exists():
    # A renamed file or test would otherwise be found only by a whole PostgreSQL run, which
    # pytest then stops before it starts ("not found").
    missing = []
    for entry in dev.ON_POSTGRES_AND_REDIS:
        path, _, name = entry.partition("::")
        found = (dev.ROOT / path).exists()
        if found and name:
            found = re.search(rf"^(async )?def {name}\(", (dev.ROOT / path).read_text(), re.MULTILINE)
        if not found:
            missing.append(entry)
    assert missing == []


def test_every_scale_out_test_runs_on_postgresql_and_redis():
    # The default configuration leaves them out: a file of them missing from the list would run nowhere.
    scale_out = {path.relative_to(dev.ROOT).as_posix() for path in dev.ROOT.glob("tests/**/test_*.py")
                 if re.search(r"^pytestmark = .*\.scaleout\b", path.read_text(), re.MULTILINE)}
    listed = {entry for entry in dev.ON_POSTGRES_AND_REDIS if "::" not in entry}
    assert scale_out and {path for path in scale_out if not any(f"{path}/".startswith(f"{entry}/") for entry in listed)} == set()


# A run that finishes only when the other runs at the same time: a FIFO's writer waits for its reader.
MEET = "import sys; open(sys.argv[-1], sys.argv[-2]).close() if sys.argv[-2] == 'w' else open(sys.argv[-1]).read()"


def test_it_runs_the_runs_side_by_side_and_reports_each_ones_outcome(tmp_path):
    fifo = tmp_path / "meet"
    os.mkfifo(fifo)
    runs = [dev.TestRun("writer", ("w", str(fifo)), dict(os.environ)),
            dev.TestRun("reader", ("r", str(fifo)), dict(os.environ)),
            dev.TestRun("failing", ("-", "no such file"), dict(os.environ))]
    results = dev.run_side_by_side(runs, tmp_path, command=(sys.executable, "-c", MEET))
    assert list(results) == ["writer", "reader", "failing"]
    assert [code for code, _seconds, _cpu in results.values()] == [0, 0, 1]


def test_it_drives_the_headless_shell_on_the_path_unless_told_another_chromium(monkeypatch, tmp_path):
    shell = tmp_path / "chromium-headless-shell"
    shell.write_text("#!/bin/sh\n")
    shell.chmod(0o755)
    (tmp_path / "chromium").write_bytes(shell.read_bytes())
    (tmp_path / "chromium").chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CHROMIUM_PATH", raising=False)
    assert dev.system_chromium() == str(shell)
    monkeypatch.setenv("CHROMIUM_PATH", "/opt/chromium")
    assert dev.system_chromium() == "/opt/chromium"
    shell.unlink()
    monkeypatch.delenv("CHROMIUM_PATH")
    assert dev.system_chromium() is None  # the full browser is not taken for it: dev.py installs the shell


def test_serve_stopped_with_sigterm_leaves_nothing_listening_and_no_process_behind(tmp_path, migrated_sqlite):
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "DJANGO_DEBUG")}
    env["DATABASE_URL"] = migrated_sqlite(tmp_path)
    port = dev.free_port()
    serve = subprocess.Popen([sys.executable, str(dev.ROOT / "dev.py"), "serve", "--port", str(port)], cwd=dev.ROOT,
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        processes.wait_for_port(port, serve)
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=30)
        assert dev.port_is_free(port)
        # uvicorn's reloader has stopped its worker; multiprocessing's resource tracker ends
        # on its own once the reloader is gone, a moment later.
        assert group_ends(serve.pid, seconds=10)
    finally:
        if not group_ends(serve.pid, seconds=0):
            os.killpg(serve.pid, signal.SIGKILL)


def group_ends(group, seconds):
    """Whether every process of `group` has ended within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


@pytest.mark.parametrize("configurations, argv, needed", [
    (["sqlite"], ["tests/engine", "-x"], ()),
    (["sqlite"], ["games/engine", "tests/computer/", "tests/archive/test_pages.py::test_it_escapes_names"], ()),
    (["sqlite"], ["tests/rules", "-k", "catalogue"], (dev.GETTEXT,)),
    (["sqlite"], ["tests/browser"], (dev.CHROMIUM,)),
    (["sqlite"], ["tests/live", "tests/browser/test_table.py"], (dev.CHROMIUM, dev.REDIS)),
    (["postgres"], ["tests/engine"], (dev.REDIS, dev.POSTGRES)),
    (["postgres"], ["tests/browser"], (dev.REDIS, dev.POSTGRES)),
    (["sqlite"], ["tests"], dev.NEEDED),
    (["sqlite"], ["-k", "knock"], dev.NEEDED),
    (["sqlite", "postgres"], [], dev.NEEDED),
], ids=["engine", "pure-folders", "rules", "browser", "live-and-a-browser-file", "postgres-engine",
        "postgres-has-no-browser-run", "all-tests", "no-path", "whole-suite"])
def test_it_installs_only_the_system_programs_the_selected_tests_need(configurations, argv, needed):
    assert dev.needed_programs(configurations, argv, env={}) == needed


def test_it_leaves_postgresql_and_redis_to_the_servers_the_user_gives():
    env = {"DATABASE_URL": "postgres://elsewhere/db", "REDIS_URL": "redis://elsewhere:6379/0"}
    assert dev.needed_programs(["postgres"], ["tests/engine"], env) == ()
    assert dev.needed_programs(["postgres"], ["tests/scale"], env) == (dev.REDIS, dev.NGINX, dev.POSTGRES)


def test_it_names_every_folder_of_tests_in_the_table():
    # A folder left out would make every run of it install everything (safe, but slow); a
    # top-level file left out does the same, for that file only.
    folders = {path.relative_to(dev.ROOT).as_posix() for path in dev.ROOT.glob("tests/*/") if any(path.glob("test_*.py"))}
    assert folders - set(dev.NEEDED_BY_PATH) == set()
    assert dev.needed_by("tests/test_someone_adds_later.py") == dev.NEEDED


def test_it_plans_no_browser_run_for_a_selection_without_browser_tests():
    runs = dev.test_runs(["sqlite"], ["tests/engine"], lambda configuration: {}, chromium=None)
    assert [run.name for run in runs] == ["SQLite with the in-memory channel layer"]
