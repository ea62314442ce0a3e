"""A real `hearth serve` process for tests: started on a free loopback port
(--port 0; the port is read from its "listening on" line), ready once
/health answers 200, with small helpers for requests and /metrics. Used by
the server suite (tests/server/conftest.py) and the end-to-end tests; no
pytest here."""

import json
import os
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request

HEARTH = os.environ.get("HEARTH_BIN", "hearth")


class Server:
    """`hearth serve ARGS --port 0`, ready once /health answers 200."""

    def __init__(self, args, key=None, ready=True, hearth=None):
        self.key = key
        self.lines = []
        self.proc = subprocess.Popen([hearth or HEARTH, "serve", *args, "--port", "0"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.port = None
        got = threading.Event()

        def drain():
            for line in self.proc.stderr:
                self.lines.append(line)
                m = re.search(r"listening on http://[^ ]+:(\d+)", line)
                if m and not got.is_set():
                    self.port = int(m.group(1))
                    got.set()
            got.set()

        threading.Thread(target=drain, daemon=True).start()
        if not got.wait(60) or self.port is None:
            self.stop()
            raise RuntimeError("hearth serve did not start:\n" + "".join(self.lines))
        self.base = f"http://127.0.0.1:{self.port}"
        if ready:
            self.wait_ready()

    def wait_ready(self, timeout=180):
        end = time.time() + timeout
        while time.time() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("hearth serve exited:\n" + "".join(self.lines))
            status, _, _ = self.request("GET", "/health")
            if status == 200:
                return
            time.sleep(0.1)
        raise RuntimeError("hearth serve never became ready:\n" + "".join(self.lines))

    def headers(self, extra=None):
        h = {"Content-Type": "application/json"}
        if self.key:
            h["Authorization"] = f"Bearer {self.key}"
        h.update(extra or {})
        return h

    def request(self, method, path, body=None, headers=None, raw=None, timeout=120):
        """(status, headers, parsed JSON or text)."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers=self.headers(headers))
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                status, hdrs, text = r.status, dict(r.headers), r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            status, hdrs, text = e.code, dict(e.headers), e.read().decode("utf-8", "replace")
        except (urllib.error.URLError, ConnectionError):
            return 0, {}, None
        try:
            return status, hdrs, json.loads(text)
        except ValueError:
            return status, hdrs, text

    def metric(self, name):
        _, _, text = self.request("GET", "/metrics")
        total = 0.0
        for line in text.splitlines():
            if line.startswith(f"hearth:{name}"):
                total += float(line.rsplit(" ", 1)[1])
        return total

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
