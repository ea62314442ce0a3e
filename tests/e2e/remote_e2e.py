#!/usr/bin/env python3
"""A remote engine in the desktop app, end to end (run inside
tests/common/with_keyring.sh): a real `hearth serve` on SmolLM2 behind an
API key on a loopback port; Hearth starts under Xvfb and, through its
Settings → Engines dialog (--add-endpoint: the fields typed, Add pressed),
adds that server with the key, loads the server's model from the picker's
list and sends a message. The test checks that the reply streamed and that
its provenance names the endpoint's URL and the model; that the key is in
the keychain (read back here from the Secret Service) and not in the
settings file; then starts Hearth again with no key anywhere on its command
line or environment: the session reloads the remote model with the key read
back through QtKeychain and a second message is answered by the server,
which refuses requests without it.

    remote_e2e.py --hearth HEARTH_DESKTOP --serve HEARTH_CLI [--out DIR]

Skips (77) without the model, Xvfb or the secretstorage module."""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from e2e_support import SKIP, XVFB, events_of, first, gui_keyring_model

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from hearth_server import Server  # noqa: E402

MODEL_ID = "smol"


def keychain_secret(service, name):
    """The secret stored under `name` for `service`, from the Secret Service."""
    import secretstorage
    conn = secretstorage.dbus_init()
    for coll in secretstorage.get_all_collections(conn):
        if coll.is_locked():
            coll.unlock()
        for item in coll.get_all_items():
            values = item.get_attributes().values()
            if name in values and service in values:
                return item.get_secret().decode()
    return None


def run_app(hearth, args, env, timeout):
    cmd = XVFB + [hearth, "--events", "--quit-when-done"] + args
    proc = subprocess.Popen(cmd, env=dict(env, QT_QPA_PLATFORM="xcb"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        sys.stderr.write(err[-4000:])
        raise SystemExit(f"Hearth did not finish in {timeout} s; events: {events_of(out)}")
    events = events_of(out)
    if proc.returncode != 0:
        sys.stderr.write(err[-4000:])
        raise SystemExit(f"Hearth exited with {proc.returncode}; events: {events}")
    return events


def check_reply(events, base, messages):
    loaded = first(events, "model-loaded")
    first(events, "sent")
    done = first(events, "reply-finished")
    texts = [e["chars"] for e in events if e.get("event") == "reply-text"]
    prov = done["provenance"]
    if done["state"] != "complete" or done["chars"] <= 0 or done["messages"] != messages:
        raise SystemExit(f"the reply did not finish cleanly: {done}")
    if not texts or texts != sorted(texts) or texts[-1] != done["chars"]:
        raise SystemExit(f"the reply did not stream: text batches {texts}")
    if prov["engine"] != "remote" or prov["model"] != MODEL_ID or prov["generated_tokens"] <= 0:
        raise SystemExit(f"the provenance does not name the remote model: {prov}")
    if not prov["path"].startswith(base + "/") or not prov["path"].endswith("/models/" + MODEL_ID):
        raise SystemExit(f"the provenance does not name the endpoint ({base}): {prov['path']}")
    return loaded, done, texts


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--hearth", required=True, help="the desktop app")
    p.add_argument("--serve", required=True, help="the hearth CLI (hearth serve)")
    p.add_argument("--out", default=".")
    p.add_argument("--timeout", type=int, default=300)
    a = p.parse_args()
    model = gui_keyring_model()
    if not model:
        return SKIP

    key = "e2e-" + os.urandom(12).hex()
    work = tempfile.mkdtemp(prefix="hearth-remote-e2e-")
    data = os.path.join(work, "data")
    service = "Hearth remote e2e " + str(os.getpid())
    env = {k: v for k, v in os.environ.items() if k != "HEARTH_ENDPOINT_KEY"}
    env["HEARTH_KEYCHAIN_SERVICE"] = service
    os.makedirs(a.out, exist_ok=True)
    # Short replies: the test is about the path, not the model's prose.
    os.makedirs(data)
    with open(os.path.join(data, "settings.ini"), "w", encoding="utf-8") as f:
        f.write("[generation]\nmaxTokens=64\n")
    server = Server(["-m", model, "--alias", MODEL_ID, "--api-key", key, "-np", "1", "-c", "2048", "-t", "2"],
                    hearth=a.serve)
    try:
        if server.request("GET", "/v1/models")[0] != 401 or server.request(
                "GET", "/v1/models", headers={"Authorization": f"Bearer {key}"})[0] != 200:
            raise SystemExit("the server does not guard its models with the key")
        base = server.base + "/v1"

        # First start: the endpoint added in Settings → Engines, its model loaded, a message.
        shot = os.path.join(a.out, "e2e-remote-reply.png")
        ev = run_app(a.hearth, ["--data-dir", data, "--add-endpoint", base, "--remote-model", MODEL_ID,
                                "--send", "Name three colours.", "--screenshot", shot],
                     dict(env, HEARTH_ENDPOINT_KEY=key), a.timeout)
        added = first(ev, "endpoint-added")
        saved = first(ev, "endpoint-saved")
        if not added["with_key"] or saved["error"]:
            raise SystemExit(f"the endpoint was not saved with its key: {added} {saved}")
        listed = first(ev, "remote-models")
        if MODEL_ID not in listed["names"]:
            raise SystemExit(f"the endpoint's models were not listed: {listed}")
        loaded, done, texts = check_reply(ev, base, 2)
        if not first(ev, "screenshot")["ok"] or not os.path.getsize(shot):
            raise SystemExit("the screenshot failed")
        print(f"first start: endpoint {added['url']} added ({saved['id']}), models {listed['names']}; "
              f"{loaded['name']} loaded ({loaded['summary']}); reply streamed in {len(texts)} batches, "
              f"{done['provenance']['generated_tokens']} tokens; provenance {done['provenance']['path']}")

        # The key: in the keychain under the endpoint's name, nowhere in the settings.
        stored = keychain_secret(service, f"endpoint/{saved['id']}/api-key")
        if stored != key:
            raise SystemExit(f"the keychain does not hold the endpoint's key (found {stored!r})")
        with open(os.path.join(data, "settings.ini"), encoding="utf-8") as f:
            settings = f.read()
        if key in settings or server.base not in settings:
            raise SystemExit("the settings file holds the key, or not the endpoint:\n" + settings)
        print("the key is in the keychain, not in settings.ini")

        # Second start: no key given; the session reloads the remote model
        # with the keychain's key and the server answers.
        ev = run_app(a.hearth, ["--data-dir", data, "--send", "And three fruits?"], env, a.timeout)
        restored = first(ev, "conversation-restored")
        if restored.get("messages") != 2:
            raise SystemExit(f"the conversation was not restored: {restored}")
        loaded, done, texts = check_reply(ev, base, 4)
        print(f"second start: {loaded['name']} reloaded with the keychain's key; "
              f"reply of {done['provenance']['generated_tokens']} tokens in {len(texts)} batches")
    finally:
        server.stop()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
