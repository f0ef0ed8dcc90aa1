"""Real server processes for the scale-out and hostile tests and the benchmarks: uvicorn as
production runs it, what `dev.py serve` runs, and nginx with the table affinity of docs/nginx/;
a private Redis and PostgreSQL are dev.py's own (PrivateRedis, PrivatePostgres). Each listens on
127.0.0.1 on a free port, and each is stopped by whoever started it (they are context managers)."""

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import dev
from dev import HOST, PrivatePostgres, PrivateRedis, free_port  # noqa: F401 (one copy of each: dev.py's)

ROOT = Path(__file__).resolve().parent.parent
NGINX = ROOT / "docs" / "nginx"


def wait_for_port(port, process, seconds=120):
    """Until something listens on `port`, or the process died (then RuntimeError)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex((HOST, port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


class Process:
    """A started program; `stop()` ends it (SIGTERM, then SIGKILL), `kill()` at once."""

    def __init__(self, args, port, log, **options):
        self.port, self.log = port, log
        self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, **options)
        try:
            wait_for_port(port, self.process)
        except BaseException:
            self.stop()
            raise

    @property
    def pid(self):
        return self.process.pid

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


def uvicorn(env, port=None, workers=1, log=None, proxy=(), root=ROOT):
    """The site served by uvicorn as production runs it (README), with `env` for settings;
    `proxy`: the addresses whose X-Forwarded-* headers it believes (README: --proxy-headers);
    `root`: the checkout served (another one's commit, for a benchmark's before and after)."""
    port = port or free_port()
    args = [sys.executable, "-m", "uvicorn", "hollywood_site.asgi:application", "--host", HOST, "--port", str(port),
            "--workers", str(workers), "--lifespan", "off", "--ws-max-size", "65536", "--log-level", "warning",
            "--no-access-log"]
    if proxy:
        args += ["--proxy-headers", f"--forwarded-allow-ips={','.join(proxy)}"]
    return Process(args, port, log or tempfile.TemporaryFile(), cwd=root, env=env)


def dev_serve(env, port=None, log=None):
    """The site as `python3 dev.py serve` runs it (uvicorn, reloading), with `env` for settings."""
    port = port or free_port()
    return Process(dev.serve_command(port, python=sys.executable), port, log or tempfile.TemporaryFile(),
                   cwd=ROOT, env=env)


def affinity(backends):
    """docs/nginx/affinity.conf with `backends` (ports) as its servers."""
    servers = "".join(f"    server {HOST}:{backend};\n" for backend in backends)
    return re.sub(r"(# One uvicorn.*?\n)(.*?)(    # end of servers)", lambda m: m.group(1) + servers + m.group(3),
                  (NGINX / "affinity.conf").read_text(), flags=re.S)


def nginx_main(directory, http):
    """A whole nginx configuration with its files in `directory`, `http` inside `http { }`."""
    return f"""
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
{http}
}}
"""


def nginx_config(directory, port, backends):
    """docs/nginx's affinity and proxying, for a private nginx on `port` in front of
    `backends` (ports), with its files in `directory`."""
    site = (NGINX / "site.conf").read_text()
    location = re.search(r"    location / \{.*?\n    \}", site, flags=re.S).group(0)
    limit = re.search(r"    client_max_body_size [^;]+;", site).group(0)
    return nginx_main(directory, f"""{affinity(backends)}
    server {{
        listen {HOST}:{port};
{limit}
{location}
    }}""")


def shipped_site_config(directory, http_port, https_port, backends, static_root, certificate, key):
    """docs/nginx/site.conf as shipped, but for its addresses, certificate and folders: on
    `http_port` and `https_port`, in front of `backends`, serving `static_root`."""
    (Path(directory) / "affinity.conf").write_text(affinity(backends))
    site = (NGINX / "site.conf").read_text()
    for pattern, replacement in [
        (r"include /etc/nginx/hollywood/affinity.conf;", f"include {directory}/affinity.conf;"),
        (r"listen 80;", f"listen {HOST}:{http_port};"),
        (r"listen 443 ", f"listen {HOST}:{https_port} "),
        (r"ssl_certificate +\S+;", f"ssl_certificate {certificate};"),
        (r"ssl_certificate_key +\S+;", f"ssl_certificate_key {key};"),
        (r"alias /srv/hollywood/staticfiles/;", f"alias {static_root}/;"),
    ]:
        site, count = re.subn(pattern, replacement, site)
        assert count == 1, f"docs/nginx/site.conf no longer has {pattern!r}"
    return nginx_main(directory, site)


def nginx(backends, port=None, config=None, directory=None):
    """A private nginx: docs/nginx's proxying on `port`, or `config` (written in `directory`)
    listening on it."""
    port = port or free_port()
    directory = directory or tempfile.mkdtemp(prefix="hollywood-nginx-")
    path = Path(directory) / "nginx.conf"
    path.write_text(config or nginx_config(directory, port, backends))
    args = ["nginx", "-p", directory, "-c", str(path), "-g", "daemon off;"]
    return Process(args, port, open(Path(directory) / "stdout.log", "w"))


# A VAPID key for the production settings' test processes (a key is required there).
TEST_VAPID_KEY = "GoH0PdExiQgM22kGjdxybqMp8iQiZ9RB1ijLfIuAHg0"


def site_env(database_url, redis_url=None, **extra):
    """Production settings for a site process on plain HTTP behind the test's own proxy."""
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "processes-" + "x" * 50,
           "PUSH_VAPID_PRIVATE_KEY": TEST_VAPID_KEY,
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost", "DJANGO_SECURE_SSL_REDIRECT": "false",
           "DATABASE_URL": database_url, "PYTHONUNBUFFERED": "1", **extra}
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env
