"""The web app's files as the server sends them (:class:`rummykit.web.WebFiles` on a real
Starlette app, a real folder): gzip when accepted, an ETag answered 304, a changed file
served changed, and nothing outside the folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from rummykit.web import WEB_ROOT, WebFiles


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "js").mkdir(parents=True)
    (site / "index.html").write_text("<!doctype html><title>t</title>" + "x" * 2000)
    (site / "js" / "a.js").write_text("export const a = 1;\n" * 200)
    (tmp_path / "secret.js").write_text("the secret")
    return site


def client_for(folder: Path) -> TestClient:
    app = FastAPI()
    app.mount("/", WebFiles(folder), name="web")
    return TestClient(app)


def test_a_module_is_gzipped_for_a_browser_and_plain_for_others(folder: Path) -> None:
    client = client_for(folder)
    zipped = client.get("/js/a.js", headers={"Accept-Encoding": "gzip"})
    assert zipped.status_code == 200 and zipped.headers["content-encoding"] == "gzip"
    assert zipped.text == (folder / "js" / "a.js").read_text()  # httpx unzips it
    assert int(zipped.headers["content-length"]) < (folder / "js" / "a.js").stat().st_size
    assert zipped.headers["content-type"].startswith("text/javascript")
    assert zipped.headers["cache-control"] == "no-cache"
    plain = client.get("/js/a.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.content == (folder / "js" / "a.js").read_bytes()
    index = client.get("/", headers={"Accept-Encoding": "identity"})
    assert index.text.startswith("<!doctype html>") and "text/html" in index.headers["content-type"]


def test_the_etag_is_revalidated_and_a_changed_file_served_changed(folder: Path) -> None:
    client = client_for(folder)
    first = client.get("/js/a.js")
    etag = first.headers["etag"]
    assert client.get("/js/a.js", headers={"If-None-Match": etag}).status_code == 304
    path = folder / "js" / "a.js"
    path.write_text("export const a = 2;\n")
    later = os.stat(path).st_mtime_ns + 10**9
    os.utime(path, ns=(later, later))
    again = client.get("/js/a.js", headers={"If-None-Match": etag})
    assert again.status_code == 200 and again.text == "export const a = 2;\n"
    assert again.headers["etag"] != etag


def test_nothing_outside_the_folder_and_no_missing_file(folder: Path) -> None:
    client = client_for(folder)
    assert client.get("/../secret.js").status_code == 404
    assert client.get("/js/%2e%2e/%2e%2e/secret.js").status_code == 404
    assert client.get("/js/missing.js").status_code == 404
    assert client.head("/js/a.js").status_code == 200  # StaticFiles answers HEAD


def test_the_shipped_app_is_served_gzipped() -> None:
    client = client_for(WEB_ROOT)
    reply = client.get("/js/table.js", headers={"Accept-Encoding": "gzip"})
    assert reply.status_code == 200 and reply.headers["content-encoding"] == "gzip"
    assert reply.text == (WEB_ROOT / "js" / "table.js").read_text()
    assert int(reply.headers["content-length"]) * 2 < len(reply.content)  # under half
