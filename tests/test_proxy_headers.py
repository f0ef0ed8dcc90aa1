"""Who decides whether X-Forwarded-Proto is believed: uvicorn's --proxy-headers with
--forwarded-allow-ips, as the README's production command runs it, and the README says so.
DJANGO_TRUST_X_FORWARDED_PROTO stays false throughout: uvicorn has read the header already."""

import http.client
import re

import pytest

from tests import processes

README = (processes.ROOT / "README.md").read_text()


def status(port, headers):
    connection = http.client.HTTPConnection(processes.HOST, port, timeout=10)
    connection.request("GET", "/sitemap.xml", headers={"Host": "127.0.0.1", **headers})
    answer = connection.getresponse()
    connection.close()
    return answer.status


@pytest.fixture
def production(tmp_path, migrated_sqlite):
    database = migrated_sqlite(tmp_path)

    def start(proxy):
        env = processes.site_env(database, DJANGO_SECURE_SSL_REDIRECT="true", DJANGO_TRUST_X_FORWARDED_PROTO="false")
        return processes.uvicorn(env, proxy=proxy)

    return start


def test_it_documents_uvicorns_proxy_headers_as_the_switch_and_not_the_django_setting():
    assert "--proxy-headers --forwarded-allow-ips=127.0.0.1" in README  # the production command
    row = next(line for line in README.splitlines() if line.startswith("| `DJANGO_TRUST_X_FORWARDED_PROTO`"))
    assert "--proxy-headers" in row and "only then is the header believed" not in row
    assert re.search(r"What decides whether the proxy's headers are believed: uvicorn's `--proxy-headers", README)


def test_it_believes_x_forwarded_proto_from_the_proxys_address_whatever_the_django_setting_says(production):
    with production(proxy=["127.0.0.1"]) as site:
        assert status(site.port, {"X-Forwarded-Proto": "https"}) == 200
        assert status(site.port, {}) == 301  # plain HTTP through the proxy: redirected to HTTPS


def test_it_believes_no_x_forwarded_proto_from_any_other_address(production):
    with production(proxy=["192.0.2.1"]) as site:
        assert status(site.port, {"X-Forwarded-Proto": "https"}) == 301
