"""docs/nginx/site.conf as shipped, on the nginx this machine has (Debian 12's is 1.22): nginx
accepts it, redirects to HTTPS, speaks HTTP/2, and serves the static files itself with the
site's security headers (a location's own add_header drops the server's: nginx's inheritance)."""

import http.client
import shutil
import socket
import ssl
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests import processes

HOST_NAME = "gin.example.com"


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    directory = tmp_path_factory.mktemp("nginx")
    # Outside pytest's private folder: nginx's workers (nobody, when the tests run as root) read it.
    static = Path(tempfile.mkdtemp(prefix="hollywood-static-"))
    static.chmod(0o755)
    (static / "site.css").write_text("body { margin: 0 }\n")
    certificate, key = directory / "certificate.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={HOST_NAME}",
                    "-keyout", key, "-out", certificate], check=True, capture_output=True)
    http_port, https_port = processes.free_port(), processes.free_port()
    config = processes.shipped_site_config(directory, http_port, https_port, [processes.free_port()], static,
                                           certificate, key)
    (directory / "nginx.conf").write_text(config)
    yield directory, http_port, https_port
    shutil.rmtree(static)


def test_nginx_accepts_the_shipped_site_configuration(shipped):
    directory, *_ = shipped
    checked = subprocess.run(["nginx", "-t", "-p", directory, "-c", directory / "nginx.conf"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


@pytest.fixture(scope="module")
def site(shipped):
    directory, http_port, https_port = shipped
    config = (directory / "nginx.conf").read_text()
    with processes.nginx([], port=https_port, config=config, directory=directory):
        yield http_port, https_port


def unverified():
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # the test's own certificate
    return context


def test_it_serves_static_files_with_the_sites_security_headers(site):
    _, https_port = site
    connection = http.client.HTTPSConnection(processes.HOST, https_port, context=unverified(), timeout=10)
    connection.request("GET", "/static/site.css", headers={"Host": HOST_NAME})
    response = connection.getresponse()
    assert response.status == 200 and response.read() == b"body { margin: 0 }\n"
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert response.getheader("Strict-Transport-Security").startswith("max-age=")
    assert response.getheader("X-Frame-Options") == "DENY"
    assert response.getheader("Referrer-Policy") == "same-origin"
    assert "default-src 'none'" in response.getheader("Content-Security-Policy")
    assert "immutable" in response.getheader("Cache-Control")
    connection.close()


def test_it_redirects_plain_http_to_https(site):
    http_port, _ = site
    connection = http.client.HTTPConnection(processes.HOST, http_port, timeout=10)
    connection.request("GET", "/en/", headers={"Host": HOST_NAME})
    response = connection.getresponse()
    assert response.status == 301 and response.getheader("Location") == f"https://{HOST_NAME}/en/"
    connection.close()


def test_it_offers_http2_to_browsers(site):
    _, https_port = site
    context = unverified()
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection((processes.HOST, https_port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname=HOST_NAME) as tls:
            assert tls.selected_alpn_protocol() == "h2"
