#!/usr/bin/env python3
"""The desktop app's local server end to end (run inside
tests/common/with_keyring.sh): Hearth starts under Xvfb with the real
SmolLM2 and Settings → Local server switched on with "allow other devices"
(settings.ini); the app makes an API key and stores it in the keychain
through QtKeychain; this test reads the key back from the Secret Service,
sends a request without it (401) and with it (200, a chat completion),
then stops the app and checks that nothing listens any more.
Skips (77) without the model, Xvfb or the secretstorage module."""

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from e2e_support import SKIP, gui_keyring_model


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(url, body=None, key=None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    req = urllib.request.Request(url, data=json.dumps(body).encode() if body else None, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")
    except (urllib.error.URLError, ConnectionError):
        return 0, None


def keychain_key(service):
    import secretstorage
    conn = secretstorage.dbus_init()
    for coll in secretstorage.get_all_collections(conn):
        if coll.is_locked():
            coll.unlock()
        for item in coll.get_all_items():
            attrs = item.get_attributes()
            if "server/api-key" in attrs.values() and service in attrs.values():
                return item.get_secret().decode()
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--hearth", required=True)
    p.add_argument("--timeout", type=int, default=240)
    a = p.parse_args()
    model = gui_keyring_model()
    if not model:
        return SKIP

    work = tempfile.mkdtemp(prefix="hearth-server-e2e-")
    data = os.path.join(work, "data")
    os.makedirs(data)
    port = free_port()
    with open(os.path.join(data, "settings.ini"), "w") as f:
        f.write(f"[server]\nenabled=true\nport={port}\nallowOtherDevices=true\n")
    service = "Hearth e2e " + str(os.getpid())
    env = dict(os.environ, HEARTH_KEYCHAIN_SERVICE=service, QT_QPA_PLATFORM="xcb")
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", a.hearth, "--data-dir", data, "--engine", "cpu",
           "--events", "--quit-after", str(a.timeout * 1000), model]
    app = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.time() + a.timeout
        while time.time() < end and request(base + "/health")[0] != 200:
            if app.poll() is not None:
                raise SystemExit("Hearth exited:\n" + app.stderr.read()[-3000:])
            time.sleep(0.2)
        status, _ = request(base + "/health")
        if status != 200:
            raise SystemExit("the app's server never answered /health")
        key = keychain_key(service)
        if not key:
            raise SystemExit("no server/api-key in the keychain")
        status, body = request(base + "/v1/models")
        if status != 401:
            raise SystemExit(f"without the key: {status} {body}")
        status, body = request(base + "/v1/chat/completions",
                               {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 4, "temperature": 0},
                               key)
        if status != 200 or body["object"] != "chat.completion" or body["usage"]["completion_tokens"] < 1:
            raise SystemExit(f"with the key: {status} {body}")
        print(f"the app served {body['model']} on port {port} behind the keychain's key: "
              f"{body['choices'][0]['message']['content']!r}")
    finally:
        if app.poll() is None:
            os.killpg(app.pid, signal.SIGTERM)
            try:
                app.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(app.pid, signal.SIGKILL)
                app.wait()
    if request(base + "/health")[0] != 0:
        raise SystemExit("the server still answers after the app stopped")
    print("stopped: nothing listens any more")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
