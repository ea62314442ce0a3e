"""Hostile inputs: each gets the right 4xx (OpenAI's error JSON) and the
server keeps serving. One server with an API key, small limits and a small
context: -c 128 -np 2 (slots of 64 tokens), 64 KiB bodies, 2 s reads."""

import json
import socket
import time

import openai
import pytest

from conftest import SMOL, THREADS, Server, need

KEY = "test-key-123"


@pytest.fixture(scope="module")
def srv():
    need(SMOL)
    s = Server(["-m", str(SMOL), "-c", "128", "-np", "2", "-t", THREADS, "--api-key", KEY, "--max-body-size",
                "65536", "--timeout", "2", "--alias", "smol"], key=KEY)
    yield s
    s.stop()


def chat_body(**kw):
    body = {"model": "smol", "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 2}
    body.update(kw)
    return body


def assert_error(status, body, want_status, want_type="invalid_request_error", param=None):
    assert status == want_status, body
    err = body["error"]
    assert err["type"] == want_type and err["code"] == want_status and err["message"]
    if param:
        assert err["param"] == param, err


def still_serving(srv):
    status, _, body = srv.request("POST", "/v1/chat/completions", chat_body())
    assert status == 200, body


def test_body_over_limit(srv):
    big = json.dumps(chat_body(pad="x" * 70000)).encode()
    status, _, body = srv.request("POST", "/v1/chat/completions", raw=big)
    assert_error(status, body, 413)
    still_serving(srv)


@pytest.mark.parametrize("raw", [b"{", b'{"model": "smol", "messages": [', b"not json", b"[1, 2]", b"",
                                 b'{"messages": [{"role": "user", "content": "\xff\xfe"}]}',
                                 b'{"temperature": NaN, "messages": [{"role": "user", "content": "Hi"}]}',
                                 b'{"temperature": 1e400, "messages": [{"role": "user", "content": "Hi"}]}',
                                 b"[" * 100000 + b"]" * 100000])
def test_malformed_truncated_invalid_utf8(srv, raw):
    status, _, body = srv.request("POST", "/v1/chat/completions", raw=raw)
    assert_error(status, body, 413 if len(raw) > 65536 else 400)


def test_deep_nesting(srv):
    raw = (b'{"messages": [{"role": "user", "content": "Hi"}], "x": ' + b"[" * 1000 + b"]" * 1000 + b"}")
    status, _, body = srv.request("POST", "/v1/chat/completions", raw=raw)
    assert_error(status, body, 400)
    assert "nested" in body["error"]["message"]


@pytest.mark.parametrize("field,value", [("max_tokens", "5"), ("max_tokens", -5), ("max_tokens", 2**63),
                                         ("max_tokens", 1.5), ("temperature", "NaN"), ("temperature", -1),
                                         ("temperature", "inf"), ("top_p", 2),
                                         ("n", 0), ("seed", "1"), ("stream", "yes"), ("stop", 5),
                                         ("logit_bias", {"abc": 1}), ("logit_bias", {"5": "x"}),
                                         ("messages", "Hi"), ("messages", []),
                                         ("messages", [{"role": "wizard", "content": "x"}]),
                                         ("messages", [{"role": "user", "content": 5}])])
def test_wrong_types(srv, field, value):
    status, _, body = srv.request("POST", "/v1/chat/completions", chat_body(**{field: value}))
    assert_error(status, body, 400)
    assert field in body["error"]["message"]


def test_prompt_over_context(srv):
    long = "word " * 600
    for stream in (False, True):
        status, _, body = srv.request("POST", "/v1/chat/completions",
                                      chat_body(messages=[{"role": "user", "content": long}], stream=stream))
        assert_error(status, body, 400, "exceed_context_size_error")
        assert body["error"]["n_ctx"] == 64 and body["error"]["n_prompt_tokens"] > 64
        assert str(body["error"]["n_prompt_tokens"]) in body["error"]["message"]
    still_serving(srv)


def test_huge_max_tokens_stops_at_the_slot(srv):
    status, _, body = srv.request("POST", "/v1/completions",
                                  {"prompt": "Tell me a long story.", "max_tokens": 2**31 - 1, "temperature": 1.0,
                                   "seed": 3, "logit_bias": {"2": -100, "0": -100}})
    assert status == 200, body
    assert body["choices"][0]["finish_reason"] in ("length", "stop")
    assert body["usage"]["prompt_tokens"] + body["usage"]["completion_tokens"] <= 64


def test_n_over_slots_and_bad_tokens(srv):
    status, _, body = srv.request("POST", "/v1/chat/completions", chat_body(n=3))
    assert_error(status, body, 400, param="n")
    status, _, body = srv.request("POST", "/v1/completions", {"prompt": [1, 2, 99999999], "max_tokens": 1})
    assert_error(status, body, 400)
    status, _, body = srv.request("POST", "/detokenize", {"tokens": [-1]})
    assert_error(status, body, 400)


def test_auth(srv):
    status, _, body = srv.request("GET", "/health", headers={"Authorization": ""})
    assert status == 200
    status, hdrs, body = srv.request("GET", "/v1/models", headers={"Authorization": ""})
    assert_error(status, body, 401, "authentication_error")
    status, _, body = srv.request("GET", "/v1/models", headers={"Authorization": "Bearer wrong"})
    assert_error(status, body, 401, "authentication_error")
    status, _, body = srv.request("GET", "/v1/models", headers={"Authorization": "", "X-Api-Key": KEY})
    assert status == 200
    c = openai.OpenAI(base_url=srv.base + "/v1", api_key="wrong", max_retries=0)
    with pytest.raises(openai.AuthenticationError):
        c.models.list()


def test_cors_and_origin(srv):
    status, hdrs, body = srv.request("POST", "/v1/chat/completions", chat_body(),
                                     headers={"Origin": "http://evil.example"})
    assert_error(status, body, 403, "permission_error")
    assert "Access-Control-Allow-Origin" not in hdrs
    status, hdrs, _ = srv.request("OPTIONS", "/v1/chat/completions", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert status == 403 and "Access-Control-Allow-Origin" not in hdrs
    status, hdrs, _ = srv.request("OPTIONS", "/v1/chat/completions", headers={
        "Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, x-stainless-os"})
    assert status == 204
    assert hdrs["Access-Control-Allow-Origin"] == "http://localhost:5173"
    assert "authorization" in hdrs["Access-Control-Allow-Headers"].lower()
    assert "x-stainless-os" in hdrs["Access-Control-Allow-Headers"].lower()
    status, hdrs, _ = srv.request("GET", "/v1/models", headers={"Origin": "http://127.0.0.1:3000"})
    assert status == 200 and hdrs["Access-Control-Allow-Origin"] == "http://127.0.0.1:3000"


def test_rebinding_host(srv):
    for host in ("evil.example", "evil.example:8080", "192.168.1.5"):
        status, _, body = srv.request("GET", "/v1/models", headers={"Host": host})
        assert_error(status, body, 403, "permission_error")
    status, _, _ = srv.request("GET", "/v1/models", headers={"Host": f"localhost:{srv.port}"})
    assert status == 200


def test_unknown_route(srv):
    status, _, body = srv.request("GET", "/v1/nothing")
    assert_error(status, body, 404, "not_found_error")


def test_slowloris(srv):
    s = socket.create_connection(("127.0.0.1", srv.port))
    s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n")
    start = time.time()
    still_serving(srv)  # another client is served during the stall
    s.settimeout(10)
    try:
        data = s.recv(4096)
        while data:
            data = s.recv(4096)
    except (ConnectionResetError, socket.timeout):
        pass
    assert time.time() - start < 9, "the stalled connection was not closed"
    s.close()
    still_serving(srv)


def test_disconnect_mid_stream_frees_the_slot(srv):
    before = srv.metric("requests_cancelled_total")
    s = socket.create_connection(("127.0.0.1", srv.port))
    body = json.dumps({"prompt": "Tell me a long story.", "max_tokens": 200, "stream": True, "temperature": 1.0,
                       "logit_bias": {"2": -100, "0": -100}}).encode()
    s.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + KEY.encode() +
              b"\r\nContent-Type: application/json\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" +
              body)
    got = b""
    while got.count(b"data: ") < 3:
        got += s.recv(4096)
    s.close()
    end = time.time() + 10
    while time.time() < end and srv.metric("requests_cancelled_total") == before:
        time.sleep(0.05)
    assert srv.metric("requests_cancelled_total") == before + 1
    assert srv.metric("requests_processing") == 0
    still_serving(srv)


def test_disconnect_before_a_whole_reply_frees_the_slot(srv):
    """A non-streaming reply writes nothing until it is done; its client
    leaving is noticed between tokens all the same."""
    before = srv.metric("requests_cancelled_total")
    s = socket.create_connection(("127.0.0.1", srv.port))
    body = json.dumps({"prompt": "Tell me a long story.", "max_tokens": 200, "temperature": 1.0,
                       "logit_bias": {"2": -100, "0": -100}}).encode()
    s.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + KEY.encode() +
              b"\r\nContent-Type: application/json\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" +
              body)
    end = time.time() + 10
    while time.time() < end and srv.metric("requests_processing") == 0:
        time.sleep(0.01)
    s.close()
    end = time.time() + 10
    while time.time() < end and srv.metric("requests_cancelled_total") == before:
        time.sleep(0.05)
    assert srv.metric("requests_cancelled_total") == before + 1
    assert srv.metric("requests_processing") == 0
    still_serving(srv)
