"""Router mode: two real models in a folder, --models-max 1. Requests that
alternate models are served (the idle one is evicted), /models reports
statuses, load/unload follow llama-server's shapes, and a model name that
tries to leave the folder is refused (404) and never opened."""

import os
import shutil
import time
import urllib.parse

import openai
import pytest

from conftest import GEMMA, SMOL, THREADS, Server, need


def place(src, dst):
    """A hard link where the file system allows, else a copy: the folder
    must hold the files themselves (a symlink out of it is refused)."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


@pytest.fixture(scope="module")
def router(tmp_path_factory):
    need(SMOL)
    need(GEMMA)
    d = tmp_path_factory.mktemp("models")
    place(SMOL, d / "smol.gguf")
    (d / "gemma").mkdir()
    place(GEMMA, d / "gemma" / "gemma-3-270m.gguf")
    outside = tmp_path_factory.mktemp("outside")
    place(SMOL, outside / "secret.gguf")
    os.symlink(outside / "secret.gguf", d / "evil.gguf")
    (d / "notes.txt").write_text("not a model")
    s = Server(["--models-dir", str(d), "--models-max", "1", "-c", "1024", "-np", "2", "-t", THREADS])
    s.outside = outside
    yield s
    s.stop()


def statuses(s):
    status, _, body = s.request("GET", "/models")
    assert status == 200
    return {m["id"]: m["status"]["value"] for m in body["data"]}


def test_listing(router):
    assert statuses(router) == {"gemma": "unloaded", "smol": "unloaded"}
    status, _, body = router.request("GET", "/v1/models")
    assert [m["id"] for m in body["data"]] == ["gemma", "smol"]


def test_alternating_models(router):
    c = openai.OpenAI(base_url=router.base + "/v1", api_key="none", max_retries=0)
    for model in ("smol", "gemma", "smol", "gemma"):
        r = c.chat.completions.create(model=model, messages=[{"role": "user", "content": "Hi"}], max_tokens=3,
                                      temperature=0)
        assert r.model == model and r.choices[0].message.content is not None
        st = statuses(router)
        assert st[model] == "loaded"
        assert list(st.values()).count("loaded") == 1  # --models-max 1


def test_load_unload(router):
    status, _, body = router.request("POST", "/models/load", {"model": "nope"})
    assert status == 404 and body["error"]["type"] == "not_found_error"
    loaded = [m for m, v in statuses(router).items() if v == "loaded"]
    for m in loaded:
        status, _, body = router.request("POST", "/models/unload", {"model": m})
        assert status == 200 and body == {"success": True}
    status, _, body = router.request("POST", "/models/unload", {"model": "smol"})
    assert status == 400
    status, _, body = router.request("POST", "/models/load", {"model": "smol"})
    assert status == 200 and body == {"success": True}
    status, _, body = router.request("POST", "/models/load", {"model": "smol"})
    assert status == 400  # loading or loaded already
    end = time.time() + 120
    while statuses(router)["smol"] != "loaded" and time.time() < end:
        time.sleep(0.1)
    assert statuses(router) == {"gemma": "unloaded", "smol": "loaded"}
    status, _, body = router.request("POST", "/models/load", {"model": 5})
    assert status == 400


@pytest.mark.parametrize("name", ["../smol", "..%2fsmol", "%2e%2e/smol", "%2e%2e%2fsmol", "evil", "secret",
                                  "smol.gguf", "/etc/passwd", "gemma/gemma-3-270m", "notes"])
def test_names_outside_the_list_are_refused(router, name):
    absolute = str(router.outside / "secret.gguf")
    for model in (name, absolute):
        status, _, body = router.request("POST", "/v1/chat/completions",
                                         {"model": model, "messages": [{"role": "user", "content": "Hi"}],
                                          "max_tokens": 1})
        assert status == 404 and body["error"]["type"] == "not_found_error", body
        status, _, body = router.request("GET", "/v1/models/" + urllib.parse.quote(model, safe=""))
        assert status == 404
    assert "evil" not in statuses(router)
