#!/usr/bin/env python3
"""End-to-end: the first launch of Hearth with no model, through a download
from a local fake Hugging Face hub, to a streamed reply from that model.

    get_models_e2e.py --hearth PATH [--model FILE] [--out DIR] [--timeout S]

Everything the app could find on its own is empty and temporary (HOME, the
XDG folders, HEARTH_MODELS_DIR, the data folder); HF_ENDPOINT points at
tests/app/fake_hub.py on loopback, which serves the real SmolLM2 file
(a symlink in the hub's data, with its LFS SHA-256) in a repository that a
search for "smollm2" finds, beside one it must not. The app runs with
--get-model (app/desktop/Automation.h): the Get models page that the first
launch offers (with drop and Open) searches, opens the repository, checks
the recommended file's header, downloads it; the app verifies and loads it,
and --send gets a reply. The test then checks the events, the file in the
models folder (hash, nothing half-written left), what the hub served, and
the reply's provenance. The app waits on signals at every step; this
script only waits for it to exit. Skips (77) without the real engine, the
model, or Xvfb.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request

from e2e_support import SKIP, engines, events_of, first, gui_command, has_display, models_dir, sha256

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_HUB = os.path.join(HERE, '..', 'app', 'fake_hub.py')
REPO = 'HuggingFaceTB/SmolLM2-135M-Instruct-GGUF'
DECOY = 'example/Other-Model-GGUF'


def start_hub(work, model):
    """The fake hub with the model in its data; returns (process, endpoint)."""
    data = os.path.join(work, 'hub')
    os.makedirs(data)
    served = os.path.join(data, os.path.basename(model))
    os.symlink(os.path.realpath(model), served)
    config = os.path.join(work, 'hub.json')
    with open(config, 'w') as f:
        json.dump({'repos': {
            REPO: {'files': {os.path.basename(model): served}, 'downloads': 5000, 'likes': 40},
            # More downloads, but not what the search asks for.
            DECOY: {'files': {'other-Q4_K_M.gguf': served}, 'downloads': 90000, 'likes': 900},
        }}, f)
    hub = subprocess.Popen([sys.executable, FAKE_HUB, '--config', config], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True)
    line = hub.stdout.readline()  # blocks until the hub listens (it hashes the file first)
    if not line.startswith('PORT '):
        hub.kill()
        raise SystemExit(f'the fake hub did not start: {line!r}')
    return hub, f'http://127.0.0.1:{int(line.split()[1])}'


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--hearth', required=True)
    p.add_argument('--model')
    p.add_argument('--out', default='.')
    p.add_argument('--timeout', type=int, default=400)
    a = p.parse_args()

    built = engines(a.hearth)
    if 'cpu' not in built:
        print(f'SKIP: Hearth has no "cpu" engine built in (it has: {", ".join(built)})')
        return SKIP
    model = a.model or os.path.join(models_dir(), 'SmolLM2-135M-Instruct.Q4_1.gguf')
    if not os.path.exists(model):
        print(f'SKIP: {model} not found: run scripts/setup (or set HEARTH_MODELS_DIR)')
        return SKIP
    if not has_display() and not shutil.which('xvfb-run'):
        print('SKIP: no display and no xvfb-run (package xvfb)')
        return SKIP
    expected_sha = sha256(model)
    size = os.path.getsize(model)

    work = tempfile.mkdtemp(prefix='hearth-getmodels-e2e-')
    home = os.path.join(work, 'home')
    target = os.path.join(work, 'models')  # empty: the first launch
    for d in (home, target, os.path.join(work, 'run')):
        os.makedirs(d)
    os.chmod(os.path.join(work, 'run'), 0o700)
    hub, endpoint = start_hub(work, model)
    try:
        env = {k: v for k, v in os.environ.items() if k not in ('HF_TOKEN', 'HEARTH_DATA_DIR')}
        env.update(HOME=home, XDG_DATA_HOME=os.path.join(home, '.local/share'),
                   XDG_CONFIG_HOME=os.path.join(home, '.config'), XDG_CACHE_HOME=os.path.join(home, '.cache'),
                   XDG_RUNTIME_DIR=os.path.join(work, 'run'), HEARTH_MODELS_DIR=target, HF_ENDPOINT=endpoint)
        os.makedirs(a.out, exist_ok=True)
        shot = os.path.join(a.out, 'e2e-get-models-reply.png')
        cmd = [a.hearth, '--events', '--quit-when-done', '--data-dir', os.path.join(work, 'data'),
               '--engine', 'cpu', '--get-model', 'smollm2',
               '--send', 'What is a hearth? Answer in one sentence.', '--screenshot', shot]
        cmd, env = gui_command(cmd, env)
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout)
        events = events_of(proc.stdout)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr[-4000:])
            raise SystemExit(f'Hearth exited with {proc.returncode}; events: {events}')
        with urllib.request.urlopen(endpoint + '/_stats') as r:
            stats = json.load(r)
    finally:
        hub.stdin.close()  # the hub stops when its stdin closes
        hub.wait(timeout=30)

    # The offer: the Get models page on its own, with drop and Open.
    shown = first(events, 'get-models-shown')
    offer = shown['offer'].lower()
    if not shown['first_launch'] or 'drop' not in offer or 'open' not in offer or not shown['open_button']:
        raise SystemExit(f'the first launch did not offer Get models / drop / Open: {shown}')
    # Search, repository, recommended file, its header (only the header read).
    results = first(events, 'hub-results')
    if results['first'] != REPO or results['count'] != 1:
        raise SystemExit(f'the search should find {REPO} alone: {results}')
    files = first(events, 'hub-files')
    if files['recommended'] != os.path.basename(model):
        raise SystemExit(f'unexpected recommended file: {files}')
    header = first(events, 'hub-header')
    if header['architecture'] != 'llama' or not header['fits'] or not 0 < header['bytes_read'] < size // 10:
        raise SystemExit(f'the header check is wrong: {header}')
    # The download: states in order, verified, the file in place and whole.
    states = [e['state'] for e in events if e.get('event') == 'download-state']
    if 'downloading' not in states or states[-1] != 'done' or 'failed' in states:
        raise SystemExit(f'the download did not run to "done": {states}')
    done = first(events, 'download-done')
    path = done['path']
    if not os.path.realpath(path).startswith(os.path.realpath(target) + os.sep):
        raise SystemExit(f'the model was not put in the models folder: {path}')
    if sha256(path) != expected_sha:
        raise SystemExit(f'{path} differs from the hub\'s file')
    leftovers = [f for _, _, names in os.walk(target) for f in names if '.part' in f]
    if leftovers:
        raise SystemExit(f'partial files left in the models folder: {leftovers}')
    blob_bytes = stats['total_bytes']  # file bytes served: the header check's and the download's
    if not size <= blob_bytes <= size + header['bytes_read'] + (1 << 20):
        raise SystemExit(f'the hub served {blob_bytes} bytes for a {size}-byte file (downloaded twice?)')
    # The downloaded model is the one loaded, and it answered.
    loading = first(events, 'model-loading')
    if os.path.realpath(loading['path']) != os.path.realpath(path):
        raise SystemExit(f'the app loaded {loading["path"]}, not the download {path}')
    first(events, 'model-loaded')
    first(events, 'sent')
    texts = [e['chars'] for e in events if e.get('event') == 'reply-text']
    reply = first(events, 'reply-finished')
    if len(texts) < 2 or texts != sorted(texts):
        raise SystemExit(f'the reply did not stream: text batches {texts}')
    if reply['state'] != 'complete' or reply['chars'] <= 0 or reply['chars'] != texts[-1]:
        raise SystemExit(f'the reply did not finish cleanly: {reply}')
    prov = reply['provenance']
    if prov['sha256'] != expected_sha or prov['engine'] != 'cpu' or prov['generated_tokens'] <= 0:
        raise SystemExit(f'the reply is not from the downloaded model: {prov}')
    if not first(events, 'screenshot')['ok']:
        raise SystemExit('the screenshot failed')
    print(f'first launch offered Get models; {REPO}: {files["recommended"]} (header {header["bytes_read"]:.0f} '
          f'bytes read), downloaded {size} bytes and verified (states {" > ".join(states)}); loaded; reply '
          f'streamed in {len(texts)} batches, {reply["chars"]} characters, {prov["generated_tokens"]} tokens; '
          f'screenshot {shot}')
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
