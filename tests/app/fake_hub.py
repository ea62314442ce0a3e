#!/usr/bin/env python3
"""A local stand-in for the Hugging Face Hub, for Hearth's download tests.

It speaks the subset of the Hub's HTTP API that app/lib/downloads uses:

  GET  /api/models?search=Q&filter=gguf&sort=downloads|lastModified&limit=N
  GET  /api/models/OWNER/NAME[/revision/REV][?blobs=true]   (siblings with LFS sha256)
  GET  /api/models/OWNER/NAME/tree/REV                       (files with lfs.oid)
  GET|HEAD /OWNER/NAME/resolve/REV/FILE   -> 302 to /_blobs/SHA256 (as the Hub
                                             redirects to its CDN)
  GET|HEAD /_blobs/SHA256                  (Range: 206, 416, Accept-Ranges)

and a control surface for the tests:

  GET  /_stats                 {"bytes": {path: n}, "requests": [...], "total_bytes": n}
  POST /_control               JSON merged into the fault settings:
       {"reset_stats": true}
       {"cuts": [f, ...]}      the next blob responses each close the connection
                               once the file offset passes fraction f (one cut
                               per response, consumed in order)
       {"stall_after": n}      blob responses send n bytes, then send nothing
                               more (for up to 60 s, or until stall is cleared
                               with {"stall_after": null})
       {"rate": bytes_per_s}   throttle blob bodies (null: full speed)

The repositories come from a JSON file given with --config:

  {"token": "hf_secret",
   "repos": {"owner/name": {"files": {"x.gguf": "/abs/path"},
                            "private": false, "downloads": 10, "likes": 2,
                            "lastModified": "2025-01-01T00:00:00.000Z",
                            "sha256": {"x.gguf": "<override: a wrong hash>"}}}}

A private repository answers 401 without "Authorization: Bearer TOKEN".
The server binds to 127.0.0.1 on a free port and prints "PORT n" on stdout.
Standard library only.
"""

import argparse
import hashlib
import json
import os
import re
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 64 * 1024


class Hub:
    def __init__(self, config):
        self.lock = threading.Lock()
        self.token = config.get("token", "")
        self.repos = {}
        self.blobs = {}  # sha256 -> path
        for repo_id, repo in config.get("repos", {}).items():
            files = {}
            for name, path in repo.get("files", {}).items():
                real = self._sha256(path)
                advertised = repo.get("sha256", {}).get(name, real)
                files[name] = {"path": path, "size": os.path.getsize(path), "sha256": advertised, "blob": real}
                self.blobs[real] = path
            self.repos[repo_id] = {
                "files": files,
                "private": bool(repo.get("private", False)),
                "downloads": int(repo.get("downloads", 0)),
                "likes": int(repo.get("likes", 0)),
                "lastModified": repo.get("lastModified", "2025-01-01T00:00:00.000Z"),
                "sha": hashlib.sha1(repo_id.encode()).hexdigest(),
            }
        self.reset_stats()
        self.cuts = []
        self.stall_after = None
        self.rate = None

    @staticmethod
    def _sha256(path):
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()

    def reset_stats(self):
        self.bytes = {}
        self.requests = []

    def count(self, path, n):
        with self.lock:
            self.bytes[path] = self.bytes.get(path, 0) + n

    def log(self, entry):
        with self.lock:
            self.requests.append(entry)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    hub = None  # set by main()

    def log_message(self, fmt, *args):  # quiet: the tests read /_stats
        pass

    # -- helpers -------------------------------------------------------------
    def send_json(self, obj, status=200):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_error_json(self, status, message):
        self.send_json({"error": message}, status)

    def authorized(self, repo):
        if not repo["private"]:
            return True
        return self.headers.get("Authorization", "") == "Bearer " + self.hub.token

    def find_repo(self, repo_id):
        repo = self.hub.repos.get(repo_id)
        if repo is None:
            self.send_response(404)
            body = b'{"error":"Repository not found"}'
            self.send_header("Content-Type", "application/json")
            self.send_header("X-Error-Code", "RepoNotFound")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return None
        if not self.authorized(repo):
            self.send_response(401)
            body = b'{"error":"Access to this repository is restricted. You must be authenticated."}'
            self.send_header("Content-Type", "application/json")
            self.send_header("X-Error-Code", "GatedRepo")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return None
        return repo

    # -- routes --------------------------------------------------------------
    def do_HEAD(self):
        self.route()

    def do_GET(self):
        self.route()

    def do_POST(self):
        url = urllib.parse.urlparse(self.path)
        if url.path != "/_control":
            return self.send_error_json(404, "no such endpoint")
        length = int(self.headers.get("Content-Length", "0"))
        settings = json.loads(self.rfile.read(length) or b"{}")
        with self.hub.lock:
            if settings.get("reset_stats"):
                self.hub.reset_stats()
            if "cuts" in settings:
                self.hub.cuts = list(settings["cuts"])
            if "stall_after" in settings:
                self.hub.stall_after = settings["stall_after"]
            if "rate" in settings:
                self.hub.rate = settings["rate"]
        self.send_json({"ok": True})

    def route(self):
        url = urllib.parse.urlparse(self.path)
        path = urllib.parse.unquote(url.path)
        query = urllib.parse.parse_qs(url.query)
        self.hub.log({"method": self.command, "path": path, "range": self.headers.get("Range", ""),
                      "auth": bool(self.headers.get("Authorization"))})
        if path == "/_stats":
            with self.hub.lock:
                return self.send_json({"bytes": dict(self.hub.bytes), "requests": list(self.hub.requests),
                                       "total_bytes": sum(self.hub.bytes.values())})
        if path == "/api/models":
            return self.search(query)
        m = re.fullmatch(r"/api/models/([^/]+/[^/]+)/tree/([^/]+)/?", path)
        if m:
            return self.tree(m.group(1))
        m = re.fullmatch(r"/api/models/([^/]+/[^/]+?)(?:/revision/([^/]+))?/?", path)
        if m:
            return self.model_info(m.group(1))
        m = re.fullmatch(r"/_blobs/([0-9a-f]{64})", path)
        if m:
            return self.blob(m.group(1))
        m = re.fullmatch(r"/([^/]+/[^/]+)/resolve/([^/]+)/(.+)", path)
        if m:
            return self.resolve(m.group(1), m.group(2), m.group(3))
        self.send_error_json(404, "no such endpoint")

    def search(self, query):
        text = query.get("search", [""])[0].lower()
        sort = query.get("sort", ["downloads"])[0]
        limit = int(query.get("limit", ["20"])[0])
        found = []
        for repo_id, repo in self.hub.repos.items():
            if repo["private"] or (text and text not in repo_id.lower()):
                continue
            found.append({"id": repo_id, "modelId": repo_id, "downloads": repo["downloads"],
                          "likes": repo["likes"], "lastModified": repo["lastModified"],
                          "tags": ["gguf"], "private": False, "gated": False})
        key = "lastModified" if sort == "lastModified" else ("likes" if sort == "likes" else "downloads")
        found.sort(key=lambda r: r[key], reverse=True)
        self.send_json(found[:limit])

    def model_info(self, repo_id):
        repo = self.find_repo(repo_id)
        if repo is None:
            return
        siblings = [{"rfilename": name, "size": f["size"],
                     "lfs": {"sha256": f["sha256"], "size": f["size"], "pointerSize": 134}}
                    for name, f in sorted(repo["files"].items())]
        self.send_json({"id": repo_id, "modelId": repo_id, "sha": repo["sha"], "downloads": repo["downloads"],
                        "likes": repo["likes"], "lastModified": repo["lastModified"], "tags": ["gguf"],
                        "private": repo["private"], "gated": False, "siblings": siblings})

    def tree(self, repo_id):
        repo = self.find_repo(repo_id)
        if repo is None:
            return
        self.send_json([{"type": "file", "path": name, "size": f["size"], "oid": repo["sha"][:40],
                         "lfs": {"oid": f["sha256"], "size": f["size"], "pointerSize": 134}}
                        for name, f in sorted(repo["files"].items())])

    def resolve(self, repo_id, revision, name):
        repo = self.find_repo(repo_id)
        if repo is None:
            return
        f = repo["files"].get(name)
        if f is None:
            self.send_response(404)
            self.send_header("X-Error-Code", "EntryNotFound")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(302)
        self.send_header("Location", "/_blobs/" + f["blob"])
        self.send_header("X-Linked-Size", str(f["size"]))
        self.send_header("X-Linked-Etag", '"' + f["sha256"] + '"')
        self.send_header("X-Repo-Commit", repo["sha"])
        self.send_header("Content-Length", "0")
        self.end_headers()

    def blob(self, sha):
        path = self.hub.blobs.get(sha)
        if path is None:
            return self.send_error_json(404, "no such blob")
        size = os.path.getsize(path)
        start, end = 0, size - 1
        status = 200
        spec = self.headers.get("Range")
        if spec:
            m = re.fullmatch(r"bytes=(\d+)-(\d*)", spec.strip())
            if not m or int(m.group(1)) >= size:
                self.send_response(416)
                self.send_header("Content-Range", "bytes */%d" % size)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            start = int(m.group(1))
            if m.group(2):
                end = min(int(m.group(2)), size - 1)
            status = 206
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", '"' + sha + '"')
        self.send_header("Content-Length", str(end - start + 1))
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.end_headers()
        if self.command == "HEAD":
            return
        self.send_body(path, sha, start, end, size)

    def send_body(self, path, sha, start, end, size):
        with self.hub.lock:
            cut = None
            if self.hub.cuts:
                cut = int(self.hub.cuts[0] * size)
                if cut > start:
                    self.hub.cuts.pop(0)
                else:
                    cut = None
            stall_after = self.hub.stall_after
            rate = self.hub.rate
        pos, sent = start, 0
        with open(path, "rb") as f:
            f.seek(start)
            while pos <= end:
                n = min(CHUNK, end - pos + 1)
                if cut is not None:
                    n = min(n, cut - pos)
                if stall_after is not None:
                    n = min(n, max(0, stall_after - sent))
                if n == 0:
                    if cut is not None and pos >= cut:
                        self.close_abruptly()
                        return
                    self.stall()
                    return
                data = f.read(n)
                try:
                    self.wfile.write(data)
                    self.wfile.flush()
                except OSError:
                    return
                self.hub.count(path, len(data))
                pos += len(data)
                sent += len(data)
                if rate:
                    time.sleep(len(data) / rate)

    def close_abruptly(self):
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.close_connection = True

    def stall(self):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with self.hub.lock:
                if self.hub.stall_after is None:
                    break
            time.sleep(0.05)
        self.close_abruptly()


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Clients that drop connections (the tests' pauses and kills) are expected.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    with open(args.config) as f:
        Handler.hub = Hub(json.load(f))
    server = Server(("127.0.0.1", args.port), Handler)
    print("PORT %d" % server.server_address[1], flush=True)
    # The test that started us owns our stdin: when it closes (the test
    # ended or crashed), stop.
    def watch_stdin():
        sys.stdin.read()
        os._exit(0)
    threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
