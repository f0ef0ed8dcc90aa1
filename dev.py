#!/usr/bin/env python3
"""Set up and run Hollywood Gin with nothing but Python 3 and git.

    python3 dev.py serve [--port 8000]    # set up, then run the site
    python3 dev.py test                   # set up, then run the whole test suite
    python3 dev.py test tests/engine -x   # only the default configuration, pytest arguments

The whole suite runs on SQLite with the in-memory channel layer (the default), and the
tests whose outcome depends on the database or the channel layer again on PostgreSQL with
Redis (ON_POSTGRES_AND_REDIS); the browser tests run with the default. These runs are
independent and run side by side (--one-at-a-time: one after the other). With pytest
arguments only the default runs; --sqlite and --postgres choose the configurations (both
flags: both).

Both commands are idempotent: they create `.venv/` once, install the pinned requirements
(quietly, and only what is missing), compile the translations and migrate the database.
`test` also installs the system programs the tests need when it can (as root, or with sudo
that needs no password, through apt-get), and otherwise says how. Standard library only,
because it runs before anything is installed.
"""

import argparse
import os
import pwd
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import venv
from collections import deque
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
# Chromium's old headless mode, the "headless shell" (Debian's chromium-headless-shell, or
# Playwright's own download of it): what Playwright drives by default when headless. On this
# project's 2-core machine it opened a page for about a sixth of the CPU the full browser's
# headless mode took, and the browser tests ran in 342 s instead of 521 s.
HEADLESS_SHELL = "chromium-headless-shell"


def run(*args, env=None, allowed=(0,), **popen):
    print("+", " ".join(str(a) for a in args), flush=True)
    returncode = subprocess.run([str(a) for a in args], cwd=popen.pop("cwd", ROOT), env=env, **popen).returncode
    if returncode not in allowed:
        raise subprocess.CalledProcessError(returncode, args)
    return returncode


def set_up(requirements):
    if not PYTHON.exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(PYTHON, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements)
    run(PYTHON, "manage.py", "compiletranslations")


# --- serve -------------------------------------------------------------------------------

def port_is_free(port):
    with socket.socket() as probe:
        # As the server will: a port left in TIME_WAIT by a stopped server is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def require_free_port(port):
    if not port_is_free(port):
        free = next((p for p in range(port + 1, port + 100) if port_is_free(p)), None)
        hint = f"; try python3 dev.py serve --port {free}" if free else ""
        sys.exit(f"Port {port} is already in use by another program{hint}")


def serve(argv):
    parser = argparse.ArgumentParser(prog="dev.py serve", description="Run the site on this machine.")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")
    port = parser.parse_args(argv).port
    require_free_port(port)
    set_up("requirements.txt")
    run(PYTHON, "manage.py", "migrate", "--no-input")
    run(PYTHON, "manage.py", "vapid_key")  # the push notices' key, made once (.vapid_private_key)
    require_free_port(port)  # again: set-up can take a while on a first run
    print(f"\nHollywood Gin is at http://127.0.0.1:{port}/ — press Ctrl+C to stop.\n", flush=True)
    worker = subprocess.Popen(worker_command(), cwd=ROOT, preexec_fn=lambda: os.nice(WORKER_NICENESS))
    # uvicorn in a group of its own, stopped as a group: its reloader's worker would be left
    # listening if only the reloader were stopped.
    site = subprocess.Popen([str(a) for a in serve_command(port)], cwd=ROOT, start_new_session=True)
    # Stopped by a supervisor (SIGTERM) as by Ctrl+C: the site and the task worker stop too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        site.wait()
    except KeyboardInterrupt:
        pass
    finally:
        stop(site, group=True)
        stop(worker)


# The task worker (the computer's reviews, the push notices, a pace's deadlines) yields the CPU
# to the site's own process.
WORKER_NICENESS = 19


def worker_command(python=PYTHON):
    """The task worker `serve` starts beside the site and stops with it: Django's Tasks'
    database backend's (README, "Workers"); it restarts itself when the code changes."""
    return [str(python), "manage.py", "db_worker", "--no-startup-delay"]


def stop(process, group=False):
    kill = (lambda sig: os.killpg(process.pid, sig)) if group else process.send_signal
    if process.poll() is None or group:
        try:
            kill(signal.SIGTERM)
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            kill(signal.SIGKILL)
        except ProcessLookupError:
            pass


# Where a change of code or template restarts the server.
RELOAD_FOLDERS = ("games", "hollywood_site", "rules", "templates")


def serve_command(port, python=PYTHON):
    """What `serve` runs: uvicorn as production runs it (README), on this machine only, and
    restarted when the code changes. Not daphne: it grows without bound under a client that
    floods it or never reads (benchmarks/flood.py)."""
    return [str(python), "-m", "uvicorn", "hollywood_site.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--lifespan", "off", "--ws-max-size", "65536",
            "--reload", *(f"--reload-dir={ROOT / folder}" for folder in RELOAD_FOLDERS), "--reload-include=*.html"]


# --- the system programs the tests need -------------------------------------------------

@dataclass(frozen=True)
class Program:
    name: str  # as dev.py looks for it
    why: str
    debian: str  # the package that has it, for apt-get (Debian, Ubuntu)
    fedora: str  # for dnf
    macos: str  # for Homebrew


# Chromium is never left to the user: where apt-get cannot install it, Playwright downloads it.
CHROMIUM = Program(HEADLESS_SHELL, "the browser tests drive a real Chromium, headless", HEADLESS_SHELL, fedora=None, macos=None)
GETTEXT = Program("xgettext", "the catalogue tests find every translatable string with GNU gettext", "gettext", "gettext", "gettext")
REDIS = Program("redis-server", "the tests start private Redis servers on free ports", "redis-server", "redis", "redis")
NGINX = Program("nginx", "the scale-out tests put two servers behind it", "nginx", "nginx", "nginx")
POSTGRES = Program("postgres", "the PostgreSQL run starts a private server on a free port", "postgresql", "postgresql-server", "postgresql@17")


@dataclass(frozen=True)
class Platform:
    apt: bool  # apt-get is there
    root: bool
    sudo: bool  # sudo that needs no password
    apt_has_chromium: bool  # Debian's chromium-headless-shell; Ubuntu has no such package


@dataclass(frozen=True)
class Plan:
    say: list  # one line for each program: what and why
    commands: list  # what to run, in order
    browser_from_playwright: bool  # Chromium comes from Playwright's own download instead
    cannot: str  # when something is missing and dev.py cannot install it: how to, else ""


def install_plan(missing, platform):
    """Which commands set up the `missing` programs on `platform`. Pure: runs nothing."""
    can_install = platform.apt and (platform.root or platform.sudo)
    by_apt = [p for p in missing if can_install and (p != CHROMIUM or platform.apt_has_chromium)]
    browser_from_playwright = CHROMIUM in missing and CHROMIUM not in by_apt
    by_hand = [p for p in missing if p not in by_apt and p != CHROMIUM]
    commands = []
    if by_apt:
        sudo = [] if platform.root else ["sudo", "-n"]
        packages = [p.debian for p in by_apt]
        commands = [
            [*sudo, "apt-get", "update", "-qq"],
            [*sudo, "env", "DEBIAN_FRONTEND=noninteractive",
             "apt-get", "install", "-y", "-qq", *packages],
        ]
    say = [f"Installing {p.debian}: {p.why}." for p in by_apt]
    if browser_from_playwright:
        say.append(f"Downloading Chromium with Playwright: {CHROMIUM.why}.")
    cannot = ""
    if by_hand:
        cannot = "\n".join([
            "The tests need programs this machine does not have, and dev.py cannot install them here:",
            *(f"  {p.name}: {p.why}" for p in by_hand),
            "Install them with the command for your system, then run python3 dev.py test again:",
            f"  Debian/Ubuntu: sudo apt-get install {' '.join(p.debian for p in by_hand)}",
            f"  Fedora:        sudo dnf install {' '.join(p.fedora for p in by_hand)}",
            f"  macOS:         brew install {' '.join(p.macos for p in by_hand)}",
        ])
    return Plan(say, commands, browser_from_playwright, cannot)


def system_chromium():
    """The headless shell the browser tests drive: CHROMIUM_PATH if given, else the system's."""
    return os.environ.get("CHROMIUM_PATH") or shutil.which(HEADLESS_SHELL)


def postgres_bin():
    """The folder of PostgreSQL's server programs: on PATH, else where Debian (one folder a
    version) or Homebrew (keg-only) keep them, the newest version first."""
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).resolve().parent
    installed = [
        *Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        *Path("/opt/homebrew/opt").glob("postgresql@*/bin/pg_ctl"),
        *Path("/usr/local/opt").glob("postgresql@*/bin/pg_ctl"),
    ]
    version = lambda pg_ctl: int("".join(filter(str.isdigit, pg_ctl.parts[-3])) or 0)  # noqa: E731
    return max(installed, key=version).parent if installed else None


def is_installed(program):
    if program == CHROMIUM:
        return system_chromium() is not None
    if program == POSTGRES:
        return postgres_bin() is not None
    return shutil.which(program.name) is not None


# What the whole suite needs: even with DATABASE_URL given, a test starts dev.py's private PostgreSQL.
NEEDED = (CHROMIUM, GETTEXT, REDIS, NGINX, POSTGRES)
# What the tests under each path need, so that a run of a part installs and starts only that:
# a contributor's `dev.py test tests/engine` needs no system program at all. A path under none
# of these (or a run of the whole suite) needs everything.
NEEDED_BY_PATH = {
    "games/engine": (), "tests/engine": (), "tests/computer": (), "tests/display": (), "tests/archive": (),
    "tests/push": (),  # its push service is a thread of the test
    "tests/rules": (GETTEXT,),  # makemessages (xgettext), msgfmt --check
    "tests/live": (REDIS,),  # the Redis channel layer's tests start a private Redis
    "tests/browser": (CHROMIUM,),
    "tests/scale": (REDIS, NGINX, POSTGRES),
    "tests/test_dev.py": (REDIS, POSTGRES),  # it starts dev.py's private servers
    "tests/test_nginx_site.py": (NGINX,),  # nginx -t on docs/nginx/site.conf, and a request through it
    **{f"tests/{name}": () for name in (
        "test_body_limit.py", "test_fuzz_http.py", "test_hostile_servers.py", "test_layers.py", "test_origin.py",
        "test_proxy_headers.py", "test_security_headers.py", "test_settings_env.py", "test_smoke.py")},
}
# The PostgreSQL run's own servers, unless the environment names others.
NEEDED_BY_POSTGRES_RUN = {"DATABASE_URL": POSTGRES, "REDIS_URL": REDIS}


def paths_of(pytest_args):
    """The project paths among pytest's arguments (a node id counts by its file), relative to ROOT."""
    paths = []
    for arg in pytest_args:
        path = (ROOT / arg.split("::")[0]).resolve()
        if not arg.startswith("-") and path.exists() and path.is_relative_to(ROOT):
            paths.append(path.relative_to(ROOT).as_posix())
    return paths


def needed_by(path):
    """The programs the tests under `path` need: its table entry's, else (a folder around
    several, or a file of none) everything."""
    for key, needs in NEEDED_BY_PATH.items():
        if f"{path}/".startswith(f"{key}/"):
            return needs
    return NEEDED


def needed_programs(configurations, pytest_args, env):
    """The system programs a run of `pytest_args` in `configurations` needs, in NEEDED's order."""
    paths = paths_of(pytest_args)
    needs = {p for path in paths for p in needed_by(path)} if paths else set(NEEDED)
    if "postgres" in configurations:
        needs |= {program for variable, program in NEEDED_BY_POSTGRES_RUN.items() if not env.get(variable)}
    if "sqlite" not in configurations:
        needs.discard(CHROMIUM)  # the browser tests run only beside the default configuration
    return tuple(p for p in NEEDED if p in needs)


def this_platform():
    def succeeds(*command):
        return shutil.which(command[0]) is not None and subprocess.run(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    return Platform(
        apt=shutil.which("apt-get") is not None,
        root=os.geteuid() == 0,
        sudo=succeeds("sudo", "-n", "true"),
        apt_has_chromium=succeeds("apt-cache", "show", "--no-all-versions", HEADLESS_SHELL),
    )


def install_system_programs(needed):
    """Install what is missing of `needed`, or stop with how to; True when the browser must come from Playwright."""
    missing = [p for p in needed if not is_installed(p)]
    if not missing:
        return False
    plan = install_plan(missing, this_platform())
    if plan.cannot:
        sys.exit(plan.cannot)
    for line in plan.say:
        print(line, flush=True)
    for command in plan.commands:
        run(*command)
    return plan.browser_from_playwright


def playwright_chromium():
    """Playwright's own headless shell, which it launches when given no executable: ""."""
    run(PYTHON, "-m", "playwright", "install", "--only-shell", "chromium")
    return ""


# --- private servers: the PostgreSQL-and-Redis run's, and the tests' own -----------------
# One copy of each, here, because dev.py runs before anything is installed; tests/processes.py
# and the tests' fixtures use them too.

HOST = "127.0.0.1"


def free_port():
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


class PrivateRedis:
    """A Redis of our own on a free port (or on `port`: a restart keeps its address), stopped
    by stop() or at the end of a with block; it never touches the machine's Redis."""

    def __init__(self, port=None):
        self.port = port or free_port()
        self.url = f"redis://{HOST}:{self.port}/0"
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", HOST, "--save", "", "--appendonly", "no"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        log = []
        for line in self.process.stdout:  # its own log says when it listens: no polling
            log.append(line)
            if "Ready to accept connections" in line:
                break
        else:
            self.stop()
            raise RuntimeError("redis-server did not start:\n" + "".join(log))
        # Keep reading what it logs, so a full pipe never blocks it.
        threading.Thread(target=deque, args=(self.process.stdout, 0), daemon=True).start()

    @property
    def pid(self):
        return self.process.pid

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=30)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


def unprivileged():
    """initdb and postgres refuse to run as root: as root, run them as this user instead."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            pass
    sys.exit("PostgreSQL will not run as root, and this machine has no user 'postgres' or 'nobody' to run it.")


class PrivatePostgres:
    """A PostgreSQL cluster of our own in a temporary folder, on a free port; stop() and
    start() stop it and start it again at the same address (an outage), and the end of a
    with block removes it.

    Durability is off (fsync, synchronous commit): the cluster lives as long as one test run.
    `durable=True` keeps PostgreSQL's own defaults, as production runs it (benchmarks/load.py).
    """

    def __init__(self, durable=False):
        self.durable = durable
        self.bin, user = postgres_bin(), unprivileged()
        self.home = tempfile.TemporaryDirectory(prefix="hollywood-postgres-")
        home = self.home.name
        if user:
            os.chown(home, user.pw_uid, user.pw_gid)
        as_user = dict(user=user.pw_uid, group=user.pw_gid, extra_groups=[]) if user else {}
        self.quiet = dict(cwd=home, stdout=subprocess.DEVNULL, **as_user)
        self.data, self.port = Path(home) / "data", free_port()
        self.url = f"postgres://postgres@{HOST}:{self.port}/hollywood"
        try:
            run(self.bin / "initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale",
                "--no-sync", **self.quiet)
            self.start()
        except BaseException:
            self.home.cleanup()
            raise

    def start(self):
        options = f"-p {self.port} -k {self.home.name} -c listen_addresses={HOST}"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        # -w: pg_ctl returns once the server accepts connections.
        run(self.bin / "pg_ctl", "-D", self.data, "-l", Path(self.home.name) / "log", "-o", options, "-w", "-s", "start",
            **self.quiet)

    def stop(self):
        run(self.bin / "pg_ctl", "-D", self.data, "-m", "fast", "-w", "-s", "stop", **self.quiet)

    @property
    def pid(self):
        """The postmaster's process id (the first line of its postmaster.pid)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def __enter__(self):
        return self

    def __exit__(self, *_):
        try:
            self.stop()
        finally:
            self.home.cleanup()


# --- test --------------------------------------------------------------------------------

CONFIGURATIONS = {"sqlite": "SQLite with the in-memory channel layer", "postgres": "PostgreSQL with Redis"}


def choose_configurations(argv):
    """(configurations, pytest arguments): both for the whole suite, the default for a selection."""
    flags = [a.removeprefix("--") for a in argv if a in ("--sqlite", "--postgres")]
    pytest_args = [a for a in argv if a not in ("--sqlite", "--postgres")]
    if flags:
        return [c for c in CONFIGURATIONS if c in flags], pytest_args
    return (["sqlite"] if pytest_args else list(CONFIGURATIONS)), pytest_args


# Where the test runs keep the project's compiled bytecode when the environment asks Python to
# write none beside the sources (PYTHONDONTWRITEBYTECODE, set on some CI machines): without it
# every pytest worker and every server a test starts compiled the project afresh, and the
# workers rewrote every test module's assertions (collecting the SQLite run: 4.5 s of CPU a
# process against 2.1 s; nine pytest processes and dozens of servers a suite).
BYTECODE_CACHE = VENV / "pycache"


def with_bytecode_cache(env):
    """`env`, compiling once into BYTECODE_CACHE where it forbids bytecode beside the sources."""
    if env.pop("PYTHONDONTWRITEBYTECODE", ""):
        env["PYTHONPYCACHEPREFIX"] = str(BYTECODE_CACHE)
    return env


def configuration_env(configuration, servers):
    """The environment for one configuration. The PostgreSQL run uses DATABASE_URL and
    REDIS_URL when they are given, and otherwise private servers entered on `servers`."""
    env = with_bytecode_cache(dict(os.environ))
    if configuration == "sqlite":
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        return env
    if not env.get("DATABASE_URL"):
        env["DATABASE_URL"] = servers.enter_context(PrivatePostgres()).url
    if not env.get("REDIS_URL"):
        env["REDIS_URL"] = servers.enter_context(PrivateRedis()).url
    return env


# The PostgreSQL-and-Redis run: the tests whose outcome depends on the database or the
# channel layer (locking and transactions, SQL that differs between the two databases, what
# PostgreSQL refuses and SQLite keeps, the task queue's rows, several processes on one Redis).
# Every other test would pass or fail there exactly as it does on SQLite with the in-memory
# layer, so it runs once, in the default configuration. tests/test_dev.py checks that every
# entry names a test.
ON_POSTGRES_AND_REDIS = (
    "tests/scale",  # several server processes on one PostgreSQL and one Redis, and their outages
    # Live play: the version check, a batch's one transaction, two processes' copies of a table,
    # what crosses the layer (presence, audience, a move told once, the hub when the layer fails).
    "tests/live/test_owner.py", "tests/live/test_moves.py", "tests/live/test_catch_up.py", "tests/live/test_hub.py",
    "tests/live/test_one_way.py", "tests/live/test_seats_and_presence.py", "tests/live/test_audience.py",
    "tests/live/test_claims.py", "tests/live/test_play_over_sockets.py", "tests/live/test_cleanup.py",
    "tests/live/test_addresses.py",  # PostgreSQL refuses a NUL byte in a query; SQLite takes it
    "tests/live/test_fuzz_sockets.py", "tests/test_fuzz_http.py",  # likewise for anything a visitor can send
    "tests/live/test_refusals.py::test_it_refuses_a_move_against_an_old_version_and_sends_the_fresh_state",
    "tests/live/test_refusals.py::test_it_applies_only_one_of_two_racing_moves",
    "tests/live/test_refusals.py::test_it_applies_the_same_move_sent_on_two_sockets_of_one_seat_once",
    "tests/live/test_refusals.py::test_it_keeps_a_move_whose_player_disconnected_before_the_answer",
    "tests/live/test_computer_table.py::test_it_moves_when_the_table_is_opened_again_after_a_restart",
    "tests/live/test_computer_table.py::test_it_never_moves_twice_for_one_turn_however_many_think_at_once",
    # Deadlines stored on the table's row, read by the clock and the task worker.
    "tests/live/test_turn_clock.py::test_the_deadline_is_stored_when_the_match_starts_and_a_restart_keeps_it",
    "tests/live/test_turn_clock.py::test_a_move_made_in_time_is_never_played_again_by_a_clock_that_saw_the_old_deadline",
    "tests/live/test_turn_clock.py::test_a_deadline_pushed_back_in_the_database_stops_a_clock_that_read_it_past",
    "tests/live/test_turn_clock.py::test_the_hubs_check_runs_the_clock_out_and_both_players_see_the_move",
    "tests/live/test_pace.py::test_a_seat_whose_time_runs_out_loses_the_match_out_of_time_and_nothing_is_played_for_it",
    "tests/live/test_pace.py::test_a_forfeit_seen_by_two_processes_at_once_ends_the_match_once",
    "tests/live/test_pace.py::test_a_move_made_in_time_is_never_forfeited_by_a_clock_that_saw_the_old_deadline",
    "tests/live/test_pace.py::test_the_task_worker_runs_a_pace_out_at_its_deadline_with_nobody_at_the_table",
    "tests/live/test_pace.py::test_a_turn_played_in_time_leaves_the_old_deadlines_task_nothing_to_do",
    # A deal's committed seed, stored and read back after a restart and by the verifier.
    "tests/live/test_fair_deals.py::test_it_plays_a_match_whose_every_hand_the_verifier_checks_from_the_archive",
    "tests/live/test_fair_deals.py::test_a_restarted_server_deals_the_cards_it_committed_to",
    "tests/live/test_your_tables.py::test_it_lists_each_table_this_browser_sits_at_with_whose_turn_and_the_newest_first",
    "tests/push/test_notices.py",  # the task queue's rows and the one claim a turn
    # The archive: COPY, SQL aggregates and filters, query counts, JSON as stored, a migration.
    "tests/archive/test_bulk.py", "tests/archive/test_queries.py", "tests/archive/test_migrations.py",
    "tests/archive/test_record.py", "tests/archive/test_stats.py", "tests/archive/test_review.py",
    "tests/archive/test_live_play.py",
    "tests/archive/test_api.py::test_it_returns_a_whole_match_as_json",
    "tests/archive/test_api.py::test_each_hands_sheet_comes_with_its_keys_in_the_order_of_the_matchs_sheet_as_stored",
    "tests/archive/test_pages.py::test_it_lists_finished_matches_newest_first",
    "tests/archive/test_pages.py::test_it_filters_by_player_name",
    "tests/archive/test_pages.py::test_it_filters_by_a_name_several_players_share",
    "tests/archive/test_pages.py::test_it_finds_every_match_of_a_name_shared_by_very_many_players",
    "tests/archive/test_pages.py::test_it_pages_through_one_players_matches",
    "tests/archive/test_pages.py::test_it_keeps_the_filters_in_the_pagination_links",
)


# Each run on two pytest-xdist workers: most of a test's time is waiting (for a socket, a
# server process, a browser, the database's thread), and two wait at once. Each worker has its
# own database (pytest-django names it after the worker), site and Chromium. A module whose
# servers start once for the module (an xdist_group mark) runs whole on one worker. Before the
# caller's pytest arguments, so that a -n of theirs wins.
WORKERS = ("-n", "2", "--dist", "loadgroup")


@dataclass(frozen=True)
class TestRun:
    name: str
    args: tuple  # pytest's arguments
    env: dict


def selected(configuration, pytest_args):
    """pytest's arguments for a configuration's run, the browser tests apart: on PostgreSQL with
    Redis the paths given, else ON_POSTGRES_AND_REDIS; on the default, all but the scale-out
    tests, whose server processes need PostgreSQL and Redis."""
    if configuration == "postgres":
        return (*pytest_args, *(() if paths_of(pytest_args) else ON_POSTGRES_AND_REDIS), "-m", "not browser")
    return (*pytest_args, "-m", "not browser and not scaleout")


def test_runs(configurations, pytest_args, env_of, chromium):
    """The pytest runs for `configurations`, each independent of the others (its own
    database, servers and temporary folder): the default configuration's, its browser tests'
    (unless `chromium` is None: the selection has none), and PostgreSQL's.
    `env_of(configuration)` gives a configuration's environment."""
    runs = []
    for configuration in configurations:
        env = env_of(configuration)
        runs.append(TestRun(CONFIGURATIONS[configuration], (*WORKERS, *selected(configuration, pytest_args)), env))
        if configuration == "sqlite" and chromium is not None:
            # Browser tests drive a live server (its own SQLite database) from a sync
            # Playwright loop; pytest-asyncio's loop must not run in the same process.
            browser_env = dict(env, CHROMIUM_PATH=chromium, DJANGO_ALLOW_ASYNC_UNSAFE="true")
            runs.append(TestRun("browser tests", (*WORKERS, *pytest_args, "-m", "browser"), browser_env))
    return runs


def run_side_by_side(runs, folder, one_at_a_time=False, command=(PYTHON, "-m", "pytest")):
    """Each run in a pytest process of its own, all at once (much of a run is waiting: for
    a browser, a server, a database), each writing to a log of its own that is printed
    whole when it ends; {name: (pytest's exit code, seconds, seconds of CPU)}. Stopped early (SIGTERM, Ctrl+C),
    it stops the runs too."""
    ended, running, results = queue.Queue(), [], {}

    def start(number, test_run):
        log = open(Path(folder) / f"run-{number}.log", "w+")
        print(f"Started: {test_run.name}", flush=True)
        process = subprocess.Popen([*map(str, command), f"--basetemp={Path(folder) / f'tmp-{number}'}", *test_run.args],
                                   cwd=ROOT, env=test_run.env, stdout=log, stderr=subprocess.STDOUT)
        running.append(process)
        began = time.monotonic()

        def wait():
            _, status, usage = os.wait4(process.pid, 0)  # with the CPU it and what it waited for used
            process.returncode = os.waitstatus_to_exitcode(status)
            ended.put((test_run, process.returncode, time.monotonic() - began, usage.ru_utime + usage.ru_stime, log))

        threading.Thread(target=wait, daemon=True).start()

    pending = list(enumerate(runs))
    try:
        while pending or len(results) < len(runs):
            while pending and not (one_at_a_time and len(running) > len(results)):
                start(*pending.pop(0))
            test_run, returncode, seconds, cpu, log = ended.get()
            log.seek(0)
            print(f"\n== {test_run.name} ({seconds:.0f} s, {cpu:.0f} s of CPU)\n{log.read()}", end="", flush=True)
            log.close()
            results[test_run.name] = (returncode, seconds, cpu)
    finally:
        for process in running:
            if process.poll() is None:
                process.terminate()
                process.wait()
    return {test_run.name: results[test_run.name] for test_run in runs}


def test(argv):
    # A cancelled CI job is sent SIGTERM: unwind, so the private servers are stopped and removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    one_at_a_time = "--one-at-a-time" in argv
    configurations, pytest_args = choose_configurations([a for a in argv if a != "--one-at-a-time"])
    needed = needed_programs(configurations, pytest_args, os.environ)
    browser_from_playwright = install_system_programs(needed)
    set_up("requirements-dev.txt")
    chromium = None  # no browser run: the selection has no browser test
    if CHROMIUM in needed:
        chromium = playwright_chromium() if browser_from_playwright else system_chromium()
    # A selection ("dev.py test tests/engine") may leave a run with nothing to collect;
    # pytest's exit code 5 then means "not selected", not a failure.
    allowed = (0, 5) if pytest_args else (0,)
    began = time.monotonic()
    with ExitStack() as servers, tempfile.TemporaryDirectory(prefix="hollywood-test-") as folder:
        runs = test_runs(configurations, pytest_args, lambda c: configuration_env(c, servers), chromium)
        results = run_side_by_side(runs, folder, one_at_a_time)
    print()
    outcomes = {0: "passed", 5: "no test selected"}
    for name, (returncode, seconds, cpu) in results.items():
        outcome = outcomes[returncode] if returncode in allowed else f"FAILED (pytest exit {returncode})"
        print(f"{name}: {outcome} in {seconds:.0f} s ({cpu:.0f} s of CPU)")
    print(f"all runs: {time.monotonic() - began:.0f} s")
    failed = [code for code, *_ in results.values() if code not in allowed]
    if failed:
        sys.exit(failed[0])


def main(argv):
    commands = {"serve": serve, "test": test}
    if len(argv) < 2 or argv[1] not in commands:
        sys.exit(__doc__)
    try:
        commands[argv[1]](argv[2:])
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main(sys.argv)
