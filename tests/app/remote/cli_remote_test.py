#!/usr/bin/env python3
"""`hearth run/chat --endpoint` against servers started on loopback here.

    cli_remote_test.py --hearth PATH fake
        the fake OpenAI-compatible server (fake_openai_server.py): a raw
        completion, a chat reply, the interactive chat, a missing key
        variable, a wrong key, an unknown model, a stall (--timeout),
        Ctrl-C mid-reply (the server sees the disconnect), a server killed
        mid-reply (what arrived is printed, the error follows).

    cli_remote_test.py --hearth PATH hearth-serve [--model GGUF]
        a real `hearth serve` (this build, one slot, an API key) on SmolLM2:
        the model list (an unknown id names the served one), a streamed
        reply, greedy output through the remote path equals `hearth run`
        locally, a wrong key, Ctrl-C mid-stream (the server sees the
        disconnect: its /metrics show the request cancelled and no slot
        busy, and the next request is served at once on the one slot), a
        stall (the server stopped with SIGSTOP), the server killed
        mid-reply. Skips (77) without the model.

    cli_remote_test.py --hearth PATH llama-cpp [--python VENV_PYTHON] [--model GGUF]
        llama-cpp-python's OpenAI-compatible server on SmolLM2: greedy output
        through the remote path equals `hearth run` locally; the model list;
        a wrong key; Ctrl-C mid-stream (the server drops the request: the next
        one is answered at once); a stall (the server stopped with SIGSTOP);
        the server killed mid-reply; TLS with a self-signed certificate
        refused until --cacert names it. The server's Python: --python, else
        $HEARTH_REF_PYTHON, else the reference venv's. Skips (77) without it
        (scripts/setup-reference), its server extra or the model.
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
FAILURES = []
# A reply that goes on: greedy SmolLM2 counts on for hundreds of tokens, so a
# stall or a kill lands mid-reply. ("Tell me about cats." sampled at random
# could end after a dozen tokens, before the stall: a test that failed at
# random under load.)
LONG_PROMPT = "Count from 1 to 1000: 1, 2, 3, 4, 5,"


def check_stall_then_kill(server, base, key):
    """A server that stalls mid-stream (SIGSTOP: a timeout, the text so far
    kept), then one killed mid-reply (what arrived kept, the error shown);
    leaves the server dead."""
    # A stall: the server process stopped mid-stream.
    # (The timeout is well above a loaded machine's wait for the first token,
    # which the server sends nothing during: seconds for llama-cpp-python.)
    proc = start_stream(["run"] + base + ["-m", "smollm2", "-p", LONG_PROMPT, "--temp", "0", "-n", "1500",
                                           "--timeout", "20"], key)
    got = read_until(proc, ",", timeout=60)  # " 6,": some text first
    server.send_signal(signal.SIGSTOP)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        server.send_signal(signal.SIGCONT)
    check(proc.returncode == 1 and "sent nothing for 20 s" in err and (got + out).strip(),
          "a stalled server: timeout, the text so far kept", got + out + err)

    # Killed mid-reply.
    proc = start_stream(["run"] + base + ["-m", "smollm2", "-p", LONG_PROMPT, "--temp", "0", "-n", "1500"], key)
    got = read_until(proc, ",", timeout=60)
    server.kill()
    out, err = proc.communicate(timeout=30)
    check(proc.returncode == 1 and (got + out).strip() and
          ("before the reply was complete" in err or "closed before" in err),
          "a server killed mid-reply: what arrived is kept, the error is shown", got + out + err)


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILURES.append(what)
        if detail:
            print("     " + detail.replace("\n", "\n     ")[-3000:], flush=True)


def hearth(args, env_extra=None, stdin=None, timeout=120):
    env = dict(os.environ, **(env_extra or {}))
    p = subprocess.run([ARGS.hearth] + args, input=stdin, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def start_stream(args, env_extra=None):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.Popen([ARGS.hearth] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def read_until(proc, needle, timeout=60):
    """Reads proc's stdout char by char until `needle` appeared; returns what was read."""
    os.set_blocking(proc.stdout.fileno(), False)
    got, deadline = "", time.time() + timeout
    while needle not in got and time.time() < deadline and proc.poll() is None:
        try:
            chunk = proc.stdout.read()
        except (BlockingIOError, TypeError):
            chunk = None
        if chunk:
            got += chunk
        else:
            time.sleep(0.02)
    return got


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_http(url, timeout=120, headers=None):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            req = urllib.request.Request(url, headers=headers or {})
            with urllib.request.urlopen(req, timeout=2) as r:
                return r.read()
        except Exception:
            time.sleep(0.3)
    return None


def fake():
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "fake_openai_server.py"), "--api-key", "sesame"],
                              stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline().split()[1])
        url = "http://127.0.0.1:%d" % port
        key = {"FAKE_KEY": "sesame"}
        base = ["--endpoint", url, "--api-key-env", "FAKE_KEY"]

        rc, out, err = hearth(["run"] + base + ["-m", "echo", "-p", "<|im_start|>raw words", "--temp", "0"], key)
        check(rc == 0 and out == "You said: <|im_start|>raw words\n", "run: raw prompt to /v1/completions", out + err)
        check("generated: 3 tokens" in err and "server's" in err, "run: statistics from the server's usage", err)

        rc, out, err = hearth(["run", "--chat"] + base + ["-m", "echo", "-p", "as chat"], key)
        check(rc == 0 and out == "You said: as chat\n", "run --chat: a user message to /v1/chat/completions", out + err)

        rc, out, err = hearth(["chat"] + base + ["-m", "echo", "--system", "Be brief."], key,
                              stdin="first line\nsecond line\n/exit\n")
        check(rc == 0 and "You said: first line" in out and "You said: second line" in out,
              "chat: two turns", out + err)

        rc, out, err = hearth(["run"] + base + ["-m", "echo", "-p", "x"], {})
        check(rc == 1 and "FAKE_KEY is not set" in err, "a missing key variable is named", err)

        rc, out, err = hearth(["run"] + base + ["-m", "echo", "-p", "x"], {"FAKE_KEY": "wrong"})
        check(rc == 1 and "refused the API key (HTTP 401)" in err, "a wrong key: a clear message", err)

        rc, out, err = hearth(["run"] + base + ["-m", "gpt-9", "-p", "x"], key)
        check(rc == 1 and "does not serve the model 'gpt-9'" in err and "echo" in err,
              "an unknown model: the served ones are listed", err)

        rc, out, err = hearth(["run"] + base + ["-m", "echo", "-p", "word " * 100], key)
        check(rc == 1 and "longer than the model's context" in err, "a prompt over the server's context", err)

        rc, out, err = hearth(["run"] + base + ["-m", "stall", "-p", "x", "--timeout", "1"], key, timeout=30)
        check(rc == 1 and out.startswith("first") and "sent nothing for 1 s" in err, "a stalled server times out",
              out + err)

        proc = start_stream(["run"] + base + ["-m", "slow", "-p", "x"], key)
        got = read_until(proc, "w5")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        got += out
        check(proc.returncode == 0 and "w5" in got and "w199" not in got and "stop: stopped" in err,
              "Ctrl-C stops the reply", got + err)
        saw = False
        for _ in range(100):
            with urllib.request.urlopen(url + "/_events") as r:
                if b"disconnected slow" in r.read():
                    saw = True
                    break
            time.sleep(0.05)
        check(saw, "the server saw the client disconnect")

        rc, out, err = hearth(["run"] + base + ["-m", "kill", "-p", "x"], key, timeout=30)
        check(rc == 1 and out.startswith("one two three") and "before the reply was complete" in err,
              "a server killed mid-reply: what arrived is kept, the error is shown", out + err)
    finally:
        server.kill()
        server.wait()


def default_model():
    if ARGS.model:
        return ARGS.model
    base = os.environ.get("HEARTH_MODELS_DIR") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "hearth", "models")
    return os.path.join(base, "SmolLM2-135M-Instruct.Q4_1.gguf")


def metrics(url, key):
    """hearth serve's /metrics as {name: value} (summed over labels)."""
    req = urllib.request.Request(url + "/metrics", headers={"Authorization": "Bearer " + key})
    with urllib.request.urlopen(req, timeout=10) as r:
        text = r.read().decode()
    out = {}
    for line in text.splitlines():
        if line.startswith("hearth:"):
            name, value = line.split(" ", 1)
            name = name.split("{", 1)[0][len("hearth:"):]
            out[name] = out.get(name, 0.0) + float(value)
    return out


def hearth_serve():
    model = default_model()
    if not os.path.exists(model):
        print("SKIP: %s not found (scripts/setup)" % model)
        return SKIP
    threads = os.environ.get("HEARTH_TEST_THREADS", "2")
    server = subprocess.Popen([ARGS.hearth, "serve", "-m", model, "--alias", "smollm2", "--port", "0", "-np", "1",
                               "-c", "2048", "-t", threads, "--api-key", "sesame"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in server.stderr:  # "hearth serve: listening on http://127.0.0.1:PORT"
            if "listening on http://" in line:
                port = int(line.rsplit(":", 1)[1])
                break
        check(port is not None, "hearth serve started")
        if port is None:
            return 1
        # Keep reading its stderr so it never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
        url = "http://127.0.0.1:%d" % port
        if wait_http(url + "/health", timeout=180) is None:
            check(False, "hearth serve became ready")
            return 1
        key = {"SERVE_KEY": "sesame"}
        base = ["--endpoint", url, "--api-key-env", "SERVE_KEY"]

        listed = wait_http(url + "/v1/models", headers={"Authorization": "Bearer sesame"})
        check(listed is not None and b'"smollm2"' in listed, "the server lists the model", repr(listed))
        rc, out, err = hearth(["run"] + base + ["-m", "gpt-9", "-p", "x"], key)
        check(rc == 1 and "does not serve the model 'gpt-9'" in err and "smollm2" in err,
              "an unknown model: the served one is named", err)

        prompt = "The capital of France is"
        rc, local, err = hearth(["run", "-m", model, "-p", prompt, "--temp", "0", "-n", "32", "-t", threads])
        check(rc == 0 and local.strip(), "hearth run locally", err)
        rc, remote, err = hearth(["run"] + base + ["-m", "smollm2", "-p", prompt, "--temp", "0", "-n", "32"], key)
        check(rc == 0 and remote.strip() and "generated: " in err, "hearth run --endpoint streams a reply",
              remote + err)
        check(remote == local, "greedy output through hearth serve equals hearth run",
              "local:  %r\nremote: %r" % (local, remote))
        rc, chat, err = hearth(["run", "--chat"] + base + ["-m", "smollm2", "-p", "Say hello.", "--temp", "0", "-n",
                                                             "16"], key)
        check(rc == 0 and chat.strip(), "hearth run --chat --endpoint: a chat reply", chat + err)

        rc, out, err = hearth(["run"] + base + ["-m", "smollm2", "-p", prompt], {"SERVE_KEY": "wrong"})
        check(rc == 1 and "refused the API key (HTTP 401)" in err, "a wrong key: a clear message", err)

        # Ctrl-C mid-stream: the server must see the disconnect and free its one slot.
        before = metrics(url, "sesame")
        # (A raw prompt whose greedy continuation runs on: a story opening.)
        story = "Once upon a time, in a small village by the sea, there lived"
        proc = start_stream(["run"] + base + ["-m", "smollm2", "-p", story, "-n", "1500", "--temp", "0"], key)
        got = read_until(proc, " ", timeout=60)
        time.sleep(0.3)
        busy = metrics(url, "sesame").get("requests_processing", 0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        check(proc.returncode == 0 and "stop: stopped" in err and (got + out).strip(),
              "Ctrl-C stops the remote reply, the text so far kept", got + out + err)
        check(busy == 1, "the slot was busy while the reply streamed (requests_processing %g)" % busy)
        freed, after = False, {}
        for _ in range(100):
            after = metrics(url, "sesame")
            if after.get("requests_processing", 1) == 0 and \
                    after.get("requests_cancelled_total", 0) > before.get("requests_cancelled_total", 0):
                freed = True
                break
            time.sleep(0.05)
        check(freed, "the server saw the disconnect: the request cancelled, its slot free", repr(after))
        check(after.get("tokens_predicted_total", 0) - before.get("tokens_predicted_total", 0) < 1500,
              "the server stopped generating for the client that left")
        start = time.time()
        rc, out, err = hearth(["run"] + base + ["-m", "smollm2", "-p", prompt, "--temp", "0", "-n", "4"], key)
        elapsed = time.time() - start
        check(rc == 0 and elapsed < 8, "the next request is served on the one slot (%.1f s)" % elapsed, err)

        check_stall_then_kill(server, base, key)
    finally:
        if server.poll() is None:
            server.kill()
        server.wait()
    return 0


def llama_server(python, model, port, extra=()):
    cmd = [python, "-m", "llama_cpp.server", "--model", model, "--model_alias", "smollm2", "--host", "127.0.0.1",
           "--port", str(port), "--n_ctx", "2048", "--n_threads", "2", "--verbose", "false"] + list(extra)
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def llama_cpp():
    python = ARGS.python or os.environ.get("HEARTH_REF_PYTHON") or os.path.join(os.environ.get("HEARTH_CACHE_DIR", os.path.expanduser("~/.cache/hearth")),
                                         "ref-venv", "bin", "python")
    if not os.path.exists(python):
        print("SKIP: no reference venv at %s (scripts/setup-reference)" % python)
        return SKIP
    if subprocess.run([python, "-c", "import llama_cpp.server.app, uvicorn, sse_starlette"],
                      capture_output=True).returncode != 0:
        print("SKIP: llama-cpp-python's server extra is not installed (scripts/setup-reference)")
        return SKIP
    model = default_model()
    if not os.path.exists(model):
        print("SKIP: %s not found (scripts/setup)" % model)
        return SKIP

    port = free_port()
    server = llama_server(python, model, port, ["--api_key", "sesame"])
    url = "http://127.0.0.1:%d" % port
    key = {"REF_KEY": "sesame"}
    base = ["--endpoint", url, "--api-key-env", "REF_KEY"]
    try:
        listed = wait_http(url + "/v1/models", headers={"Authorization": "Bearer sesame"})
        if listed is None:
            print(server.stderr.read() if server.poll() is not None else "")
            check(False, "llama-cpp-python's server started")
            return 1
        check(b"smollm2" in listed, "the server lists the model")

        prompt = "The capital of France is"
        rc, local, err = hearth(["run", "-m", model, "-p", prompt, "--temp", "0", "-n", "32"])
        check(rc == 0 and local.strip(), "hearth run locally", err)
        rc, remote, err = hearth(["run"] + base + ["-m", "smollm2", "-p", prompt, "--temp", "0", "-n", "32"], key)
        check(rc == 0, "hearth run --endpoint", err)
        check(remote == local, "greedy output through the server equals hearth run",
              "local:  %r\nremote: %r" % (local, remote))
        print("remote stats: " + err.strip().splitlines()[-1] if err.strip() else "", flush=True)

        rc, out, err = hearth(["run"] + base + ["-m", "smollm2", "-p", prompt], {"REF_KEY": "wrong"})
        check(rc == 1 and "refused the API key" in err, "a wrong key: a clear message", err)

        # Ctrl-C mid-stream: the server must drop the long request, so the next is answered at once.
        # "At once" is against the same short request timed now: the machine may be loaded (a
        # 1,500-token reply the server kept generating would take far longer).
        start = time.time()
        hearth(["run"] + base + ["-m", "smollm2", "-p", prompt, "--temp", "0", "-n", "4"], key)
        baseline = time.time() - start
        proc = start_stream(["run"] + base + ["-m", "smollm2", "-p", LONG_PROMPT, "-n", "1500", "--temp", "0"], key)
        got = read_until(proc, ",", timeout=60)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        check(proc.returncode == 0 and "stop: stopped" in err, "Ctrl-C stops the remote reply", got + out + err)
        start = time.time()
        rc, out, err = hearth(["run"] + base + ["-m", "smollm2", "-p", prompt, "--temp", "0", "-n", "4"], key)
        elapsed = time.time() - start
        check(rc == 0 and elapsed < 3 * baseline + 5,
              "the server saw the disconnect (next request answered in %.1f s, %.1f s before)" % (elapsed, baseline),
              err)

        check_stall_then_kill(server, base, key)
    finally:
        server.kill()
        server.wait()

    # TLS with a self-signed certificate.
    with tempfile.TemporaryDirectory() as tmp:
        cert, keyfile = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-keyout", keyfile, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], check=True, capture_output=True)
        port = free_port()
        server = llama_server(python, model, port, ["--ssl_keyfile", keyfile, "--ssl_certfile", cert])
        try:
            import ssl
            ctx = ssl.create_default_context(cafile=cert)
            deadline = time.time() + 120
            while time.time() < deadline:
                try:
                    urllib.request.urlopen("https://127.0.0.1:%d/v1/models" % port, context=ctx, timeout=2)
                    break
                except Exception:
                    time.sleep(0.3)
            tls = ["--endpoint", "https://127.0.0.1:%d" % port, "-m", "smollm2", "-p", "Hi", "-n", "4", "--temp", "0"]
            rc, out, err = hearth(["run"] + tls)
            check(rc == 1 and "is not trusted" in err and "add its certificate" in err,
                  "TLS: a self-signed certificate is refused with a clear message", err)
            rc, out, err = hearth(["run"] + tls + ["--cacert", cert])
            check(rc == 0 and out.strip(), "TLS: trusted once the certificate is added", out + err)
        finally:
            server.kill()
            server.wait()
    return 0


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--hearth", required=True)
    ap.add_argument("--python")
    ap.add_argument("--model")
    ap.add_argument("server", choices=["fake", "hearth-serve", "llama-cpp"])
    ARGS = ap.parse_args()
    rc = {"fake": fake, "hearth-serve": hearth_serve, "llama-cpp": llama_cpp}[ARGS.server]()
    if rc == SKIP:
        return SKIP
    if FAILURES:
        print("%d failed: %s" % (len(FAILURES), "; ".join(FAILURES)))
        return 1
    return rc or 0


if __name__ == "__main__":
    sys.exit(main())
