"""Every page carries a strict Content-Security-Policy and a Permissions-Policy, and no
template needs more: no inline script or style, no style="" and no on…= handler."""

import re

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

INLINE = [
    re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),  # a script element without src
    re.compile(r"<style\b", re.I),
    re.compile(r"\sstyle\s*=", re.I),
    re.compile(r"\son[a-z]+\s*=", re.I),
    re.compile(r"javascript:", re.I),
]


@pytest.mark.parametrize("path", ["/en/", "/en/archive/", "/api/players/AAAAAAAAAAAA", "/en/t/AAAAAAAAAAAA/"])
def test_it_sends_a_strict_policy_with_every_response(client, path):
    response = client.get(path)
    policy = response["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "frame-ancestors 'none'" in policy
    assert "camera=()" in response["Permissions-Policy"] and "geolocation=()" in response["Permissions-Policy"]


@pytest.mark.parametrize("template", sorted((settings.BASE_DIR / "templates").rglob("*.html")), ids=str)
def test_it_keeps_every_template_free_of_inline_script_and_style(template):
    source = template.read_text()
    assert [pattern.pattern for pattern in INLINE if pattern.search(source)] == []
