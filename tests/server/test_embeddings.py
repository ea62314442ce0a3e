"""POST /v1/embeddings on a real `hearth serve` of all-MiniLM-L6-v2, with the
official openai client (client.embeddings.create, which asks for base64)
and raw requests: vectors equal `hearth embed`'s for the same text, batch
order is kept, every OpenAI input shape works (a string, strings, token ids,
token id arrays), float and base64 agree, usage counts the model's tokens;
the hostile cases are 400s that say why, with the server still serving; a
generative model refuses with what the server would need; router mode
picks the embedding model by name."""

import base64
import json
import math
import os
import shutil
import struct
import subprocess

import openai
import pytest

from conftest import HEARTH, MODELS, SMOL, THREADS, Server, need

MINILM = MODELS / "all-MiniLM-L6-v2.F16.gguf"
TEXTS = ["The cat sat on the mat.", "Stock markets fell sharply on Monday.",
         "A kitten is resting on a rug.", "Quantum computers use qubits.", "Ünïcödé text, 日本語も。"]


@pytest.fixture(scope="module")
def embed_server():
    need(MINILM)
    s = Server(["-m", str(MINILM), "-t", THREADS, "--alias", "minilm"])
    yield s
    s.stop()


def client(server):
    return openai.OpenAI(base_url=server.base + "/v1", api_key="none", max_retries=0)


def hearth_embed(texts):
    """`hearth embed --json` of the texts (one per line), same threads."""
    p = subprocess.run([HEARTH, "embed", "-m", str(MINILM), "--json", "-t", THREADS],
                       input="\n".join(texts) + "\n", capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["embeddings"]


def max_diff(a, b):
    assert len(a) == len(b)
    return max(abs(x - y) for x, y in zip(a, b))


def cosine(a, b):
    return sum(x * y for x, y in zip(a, b)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def post(server, body):
    return server.request("POST", "/v1/embeddings", body)


def test_sdk_vectors_equal_hearth_embed(embed_server):
    r = client(embed_server).embeddings.create(model="minilm", input=TEXTS)
    ref = hearth_embed(TEXTS)
    assert r.model == "minilm" and r.object == "list"
    assert [d.index for d in r.data] == list(range(len(TEXTS)))
    for d, want in zip(r.data, ref):
        assert len(d.embedding) == 384
        # The same engine code on the same batch: equal to float32 rounding.
        assert max_diff(d.embedding, want) < 1e-6
        assert abs(sum(x * x for x in d.embedding) - 1.0) < 1e-4  # unit length
    # Related sentences are closer than unrelated ones (the vectors mean something).
    v = [d.embedding for d in r.data]
    assert cosine(v[0], v[2]) > cosine(v[0], v[1]) + 0.2
    # usage: the tokens the model saw ([CLS] ... [SEP] per input).
    counts = [len(embed_server.request("POST", "/tokenize", {"content": t, "add_special": True})[2]["tokens"])
              for t in TEXTS]
    assert r.usage.prompt_tokens == sum(counts) and r.usage.total_tokens == sum(counts)


def test_single_string_and_float_format(embed_server):
    status, _, body = post(embed_server, {"model": "minilm", "input": TEXTS[0], "encoding_format": "float"})
    assert status == 200
    assert len(body["data"]) == 1 and body["data"][0]["object"] == "embedding" and body["data"][0]["index"] == 0
    v = body["data"][0]["embedding"]
    assert max_diff(v, hearth_embed([TEXTS[0]])[0]) < 1e-6
    # base64: the little-endian float32 bytes of the same vector.
    status, _, b64 = post(embed_server, {"model": "minilm", "input": TEXTS[0], "encoding_format": "base64"})
    assert status == 200 and isinstance(b64["data"][0]["embedding"], str)
    raw = base64.b64decode(b64["data"][0]["embedding"])
    floats = struct.unpack("<%df" % (len(raw) // 4), raw)
    assert len(floats) == 384
    assert list(floats) == [struct.unpack("<f", struct.pack("<f", x))[0] for x in v]
    # Without /v1, as llama-server also answers.
    status, _, plain = embed_server.request("POST", "/embeddings", {"input": TEXTS[0], "encoding_format": "float"})
    assert status == 200 and plain["data"][0]["embedding"] == v


def test_batch_order_kept(embed_server):
    c = client(embed_server)
    forward = [d.embedding for d in c.embeddings.create(model="minilm", input=TEXTS).data]
    backward = c.embeddings.create(model="minilm", input=TEXTS[::-1]).data
    assert [d.index for d in backward] == list(range(len(TEXTS)))
    for i, d in enumerate(backward):
        assert max_diff(d.embedding, forward[len(TEXTS) - 1 - i]) < 1e-4
    # One at a time: the same vectors (batch composition changes only the rounding).
    for text, want in zip(TEXTS, forward):
        one = c.embeddings.create(model="minilm", input=text).data[0].embedding
        assert cosine(one, want) > 0.99999
    # The inputs differ, so the order check means something.
    assert max_diff(forward[0], forward[1]) > 0.05


def test_token_inputs(embed_server):
    tokens = [embed_server.request("POST", "/tokenize", {"content": t, "add_special": True})[2]["tokens"]
              for t in TEXTS[:3]]
    status, _, by_text = post(embed_server, {"input": TEXTS[:3], "encoding_format": "float"})
    assert status == 200
    # An array of token id arrays.
    status, _, by_ids = post(embed_server, {"input": tokens, "encoding_format": "float"})
    assert status == 200 and by_ids["usage"]["prompt_tokens"] == sum(len(t) for t in tokens)
    for a, b in zip(by_ids["data"], by_text["data"]):
        assert max_diff(a["embedding"], b["embedding"]) < 1e-6
    # One text as a flat array of token ids.
    status, _, one = post(embed_server, {"input": tokens[1], "encoding_format": "float"})
    assert status == 200 and len(one["data"]) == 1
    assert max_diff(one["data"][0]["embedding"], by_text["data"][1]["embedding"]) < 1e-4
    # The SDK sends token arrays as they are.
    r = client(embed_server).embeddings.create(model="minilm", input=tokens)
    assert max_diff(r.data[2].embedding, by_text["data"][2]["embedding"]) < 1e-6


@pytest.mark.parametrize("body,param,words", [
    ({}, "input", "required"),
    ({"input": ""}, "input", "empty string"),
    ({"input": []}, "input", "empty array"),
    ({"input": ["a", ""]}, "input[1]", "empty string"),
    ({"input": [[101, 102], []]}, "input[1]", "empty array"),
    ({"input": None}, "input", "required"),
    ({"input": 5}, "input", "must be a string, an array of strings"),
    ({"input": {"text": "a"}}, "input", "must be a string"),
    ({"input": ["a", 5]}, "input[1]", "all entries of one kind"),
    ({"input": [True]}, "input[0]", "must be a string"),
    ({"input": [1, "a"]}, "input[1]", "must be an integer"),
    ({"input": [[101, "x"]]}, "input[0][1]", "must be an integer"),
    ({"input": [101, -5, 102]}, "input[1]", "from 0"),
    ({"input": [101, 2 ** 63, 102]}, "input[1]", "from 0"),
    ({"input": [101, 1.5, 102]}, "input[1]", "must be an integer"),
    ({"input": [101, 10 ** 6, 102]}, "input", "outside the vocabulary"),
    ({"input": ["a"] * 2049}, "input", "at most 2048"),
    ({"input": "a", "encoding_format": "binary"}, "encoding_format", "'float' or 'base64'"),
    ({"input": "a", "encoding_format": 1}, "encoding_format", "must be a string"),
    ({"input": "a", "dimensions": 128}, "dimensions", "vectors of 384"),
    ({"input": "a", "dimensions": "384"}, "dimensions", "must be an integer"),
    ({"input": "a", "model": 7}, "model", "must be a string"),
])
def test_hostile_inputs(embed_server, body, param, words):
    status, _, r = post(embed_server, body)
    assert status == 400, r
    assert r["error"]["type"] == "invalid_request_error" and r["error"]["param"] == param, r
    assert words in r["error"]["message"], r
    assert embed_server.request("GET", "/health")[0] == 200


def test_hostile_raw_bodies(embed_server):
    for raw in (b"{", b'{"input": "a"', b"[]", b'{"input": "\xff\xfe"}', b""):
        status, _, r = embed_server.request("POST", "/v1/embeddings", raw=raw)
        assert status == 400 and "error" in r, (raw, r)
    assert embed_server.request("GET", "/health")[0] == 200


def test_input_over_the_context(embed_server):
    long = "word " * 600  # over MiniLM's 512 positions
    status, _, r = post(embed_server, {"input": ["short", long]})
    assert status == 400 and r["error"]["type"] == "exceed_context_size_error"
    assert r["error"]["param"] == "input[1]" and r["error"]["n_ctx"] == 512 and r["error"]["n_prompt_tokens"] > 512
    assert "at most 512" in r["error"]["message"]
    with pytest.raises(openai.BadRequestError):  # a 4xx: the SDK does not retry it
        client(embed_server).embeddings.create(model="minilm", input=long)
    # Still serving, and the limit itself is fine.
    status, _, r = post(embed_server, {"input": [list(range(1000, 1510)) + [102]], "encoding_format": "float"})
    assert status == 200 and r["usage"]["prompt_tokens"] == 511


def test_embedding_model_refuses_chat(embed_server):
    with pytest.raises(openai.BadRequestError) as e:
        client(embed_server).chat.completions.create(model="minilm", messages=[{"role": "user", "content": "Hi"}])
    assert "embedding model" in str(e.value) and "/v1/embeddings" in str(e.value)
    status, _, r = embed_server.request("POST", "/v1/completions", {"prompt": "Hi"})
    assert status == 400 and "embedding model" in r["error"]["message"]


def test_generative_model_refuses_embeddings():
    need(SMOL)
    s = Server(["-m", str(SMOL), "-c", "512", "-np", "1", "-t", THREADS, "--alias", "smol"])
    try:
        with pytest.raises(openai.BadRequestError) as e:
            client(s).embeddings.create(model="smol", input="Hi")
        msg = str(e.value)
        assert "generative model" in msg and "not an embedding model" in msg and "bert" in msg
        assert "-m EMBEDDING_MODEL.gguf" in msg
        assert s.request("GET", "/health")[0] == 200
    finally:
        s.stop()


def test_router_picks_the_embedding_model(tmp_path):
    need(SMOL)
    need(MINILM)
    for src, name in ((SMOL, "smol.gguf"), (MINILM, "minilm.gguf")):
        try:
            os.link(src, tmp_path / name)
        except OSError:
            shutil.copyfile(src, tmp_path / name)
    s = Server(["--models-dir", str(tmp_path), "--models-max", "2", "-c", "512", "-np", "1", "-t", THREADS])
    try:
        c = client(s)
        assert sorted(m.id for m in c.models.list()) == ["minilm", "smol"]
        r = c.embeddings.create(model="minilm", input=TEXTS[:2])
        assert r.model == "minilm" and len(r.data) == 2
        assert max_diff(r.data[0].embedding, hearth_embed(TEXTS[:1])[0]) < 1e-4
        with pytest.raises(openai.BadRequestError) as e:
            c.embeddings.create(model="smol", input="Hi")
        assert "not an embedding model" in str(e.value)
        with pytest.raises(openai.NotFoundError):
            c.embeddings.create(model="nope", input="Hi")
        chat = c.chat.completions.create(model="smol", messages=[{"role": "user", "content": "Hi"}], max_tokens=2)
        assert chat.choices[0].message.content is not None
        status, _, body = s.request("GET", "/models")
        assert {m["id"]: m["status"]["value"] for m in body["data"]} == {"minilm": "loaded", "smol": "loaded"}
    finally:
        s.stop()
