#!/usr/bin/env python3
"""A small OpenAI-compatible server for the remote engine's tests (stdlib only).

It serves /v1/models, /v1/chat/completions and /v1/completions, streaming
server-sent events with awkward but valid framing (events split across
writes, comments, multi-line data), and misbehaves on request. The model id
chooses the behaviour:

  echo         replies "You said: <the last user text>" one word per chunk
  slow         200 pieces 20 ms apart (cancel tests)
  stall        one piece, then nothing (timeout tests)
  kill         three pieces, then the process exits (a server killed mid-reply)
  error-event  two pieces, then an "event: error" with a message
  whole        ignores "stream" and answers with one JSON object

A prompt of more than --n-ctx words is refused with HTTP 400 in llama.cpp's
words; with --api-key, a request without that bearer key gets 401. With
--cert/--key it speaks TLS. It prints "PORT <n>" on stdout once listening.
GET /_events lists what it saw ("disconnected slow" when a client went away
mid-stream); GET /_last returns the last request's headers and body.
"""
import argparse
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODELS = ["echo", "slow", "stall", "kill", "error-event", "whole"]
EVENTS = []
LAST = {}
LOCK = threading.Lock()


def note(event):
    with LOCK:
        EVENTS.append(event)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def authorized(self):
        key = self.server.api_key
        if key and self.headers.get("Authorization") != "Bearer " + key:
            self.send_json(401, {"error": {"message": "Invalid API Key", "type": "authentication_error",
                                           "code": 401}})
            return False
        return True

    def do_GET(self):
        if self.path == "/_events":
            with LOCK:
                return self.send_json(200, {"events": list(EVENTS)})
        if self.path == "/_last":
            with LOCK:
                return self.send_json(200, dict(LAST))
        if not self.authorized():
            return
        if self.path == "/v1/models":
            return self.send_json(200, {"object": "list", "data": [
                {"id": m, "object": "model", "owned_by": "fake", "meta": {"n_ctx": self.server.n_ctx}}
                for m in MODELS]})
        self.send_json(404, {"error": {"message": "no route " + self.path}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            return self.send_json(400, {"error": {"message": "the body is not JSON"}})
        with LOCK:
            LAST.clear()
            LAST.update({"path": self.path, "headers": dict(self.headers.items()), "body": body})
        if not self.authorized():
            return
        chat = self.path == "/v1/chat/completions"
        if not chat and self.path != "/v1/completions":
            return self.send_json(404, {"error": {"message": "no route " + self.path}})
        model = body.get("model")
        if model not in MODELS:
            return self.send_json(404, {"error": {"message": "model '%s' not found" % model}})
        if chat:
            prompt = " ".join(m.get("content", "") for m in body.get("messages", []))
            users = [m for m in body.get("messages", []) if m.get("role") == "user"]
            last = users[-1]["content"] if users else ""
        else:
            prompt = last = body.get("prompt", "")
        prompt_tokens = len(prompt.split())
        if prompt_tokens > self.server.n_ctx:
            return self.send_json(400, {"error": {
                "code": 400, "type": "exceed_context_size_error",
                "message": "the request exceeds the available context size, try increasing it "
                           "(%d tokens, n_ctx %d)" % (prompt_tokens, self.server.n_ctx)}})
        pieces = {"echo": ["You said:"] + last.split(), "slow": ["w%d" % i for i in range(200)],
                  "stall": ["first"], "kill": ["one", "two", "three"], "error-event": ["one", "two"],
                  "whole": ["All", "at", "once."]}[model]
        pieces = [p if i == 0 else " " + p for i, p in enumerate(pieces)]
        if model == "whole" or not body.get("stream"):
            text = "".join(pieces)
            choice = {"index": 0, "finish_reason": "stop"}
            choice.update({"message": {"role": "assistant", "content": text}} if chat else {"text": text})
            return self.send_json(200, {"id": "x", "object": "chat.completion", "model": model, "choices": [choice],
                                        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": len(pieces),
                                                  "total_tokens": prompt_tokens + len(pieces)}})
        self.stream(model, chat, pieces, prompt_tokens, body)

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def stream(self, model, chat, pieces, prompt_tokens, body):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def event(piece, finish=None):
            choice = {"index": 0, "finish_reason": finish}
            if chat:
                choice["delta"] = {"content": piece} if piece is not None else {}
            else:
                choice["text"] = piece or ""
            return json.dumps({"id": "x", "object": "chat.completion.chunk", "model": model, "choices": [choice]})

        try:
            self.chunk(b": keep-alive comment\r\n\r\n")
            for i, piece in enumerate(pieces):
                text = event(piece).encode()
                if i % 3 == 1:  # one event over two lines of data (JSON whitespace between them)
                    cut = text.index(b",") + 1
                    text = text[:cut] + b"\ndata: " + text[cut:]
                frame = b"data: " + text + (b"\r\n\r\n" if i % 2 else b"\n\n")
                if i % 2 == 0 and len(frame) > 8:  # split the event across two writes
                    self.chunk(frame[:7])
                    time.sleep(0.002)
                    frame = frame[7:]
                self.chunk(frame)
                if model == "slow":
                    time.sleep(0.02)
                if model == "kill" and i == len(pieces) - 1:
                    time.sleep(0.05)
                    os._exit(3)
            if model == "stall":
                time.sleep(60)  # the test ends the process long before
                return
            if model == "error-event":
                self.chunk(b"event: error\ndata: {\"error\": {\"message\": \"the model ran out of memory\"}}\n\n")
                self.chunk(b"")
                return
            finish = "length" if body.get("max_tokens") and len(pieces) >= body["max_tokens"] else "stop"
            self.chunk(("data: " + event(None, finish) + "\n\n").encode())
            if body.get("stream_options", {}).get("include_usage"):
                usage = {"id": "x", "object": "chat.completion.chunk", "model": model, "choices": [],
                         "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": len(pieces),
                                   "total_tokens": prompt_tokens + len(pieces)}}
                self.chunk(("data: " + json.dumps(usage) + "\n\n").encode())
            self.chunk(b"data: [DONE]\n\n")
            self.chunk(b"")
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            note("disconnected " + model)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--api-key", default="")
    ap.add_argument("--n-ctx", type=int, default=64)
    ap.add_argument("--cert")
    ap.add_argument("--key")
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.api_key = args.api_key
    server.n_ctx = args.n_ctx
    if args.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.cert, args.key)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.05)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
