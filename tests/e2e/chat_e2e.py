#!/usr/bin/env python3
"""End-to-end: Hearth under Xvfb loads a model through the drop path, is sent
a message through its message box, streams the reply, saves a screenshot;
a second start shows the conversation restored with its provenance.

    chat_e2e.py --hearth PATH --engine cpu|fake [--model FILE] [--tiny-writer PATH] [--out DIR]

--engine cpu needs the real engine (the adapter over core/runtime) and the
SmolLM2 model; without them the test is skipped (exit 77) with the reason.
--engine fake runs the same path with the fake engine (on a tiny GGUF file
written by --tiny-writer when no model is given). The model named on the
command line goes through ModelLibrary::openFile, the code path of a drop.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from e2e_support import SKIP, check_png, engines, events_of, first, gui_command, models_dir



def run_hearth(args, hearth, timeout):
    """Runs Hearth under xvfb-run when there is no display; returns its events."""
    cmd, env = gui_command([hearth, '--events', '--quit-when-done'] + args, os.environ)
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f'Hearth exited with {proc.returncode}')
    return events_of(proc.stdout)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--hearth', required=True)
    p.add_argument('--engine', required=True)
    p.add_argument('--model')
    p.add_argument('--tiny-writer')
    p.add_argument('--out', default='.')
    p.add_argument('--timeout', type=int, default=300)
    a = p.parse_args()

    built = engines(a.hearth)
    if a.engine not in built:
        print(f'SKIP: Hearth has no "{a.engine}" engine built in (it has: {", ".join(built)}). '
              'The real engine adapter arrives with core/runtime (issue 6); '
              'until then the same path runs with --engine fake.')
        return SKIP
    work = tempfile.mkdtemp(prefix='hearth-e2e-')
    model = a.model
    if a.engine == 'cpu' and not model:
        model = os.path.join(models_dir(), 'SmolLM2-135M-Instruct.Q4_1.gguf')
    if model and not os.path.exists(model):
        print(f'SKIP: {model} not found: run scripts/setup (or set HEARTH_MODELS_DIR)')
        return SKIP
    if not model:
        model = os.path.join(work, 'tiny.gguf')
        subprocess.run([a.tiny_writer, model], check=True)
    data = os.path.join(work, 'data')
    os.makedirs(a.out, exist_ok=True)
    shot1 = os.path.join(a.out, f'e2e-{a.engine}-reply.png')
    shot2 = os.path.join(a.out, f'e2e-{a.engine}-restored.png')
    common = ['--data-dir', data, '--engine', a.engine]

    # First start: the model as a drop would open it, a message, the reply.
    ev = run_hearth(common + ['--send', 'What is a hearth? Answer in two sentences.', '--screenshot', shot1, model],
                    a.hearth, a.timeout)
    loaded = first(ev, 'model-loaded')
    first(ev, 'sent')
    texts = [e['chars'] for e in ev if e.get('event') == 'reply-text']
    done = first(ev, 'reply-finished')
    if len(texts) < 2 or texts != sorted(texts):
        raise SystemExit(f'the reply did not stream: text batches {texts}')
    if done['state'] != 'complete' or done['chars'] <= 0 or done['chars'] != texts[-1]:
        raise SystemExit(f'the reply did not finish cleanly: {done}')
    prov = done['provenance']
    if not re.fullmatch('[0-9a-f]{64}', prov['sha256']):
        raise SystemExit(f'no model hash in the provenance: {prov}')
    if prov['engine'] != a.engine or not prov['quant'] or prov['generated_tokens'] <= 0:
        raise SystemExit(f'incomplete provenance: {prov}')
    if not first(ev, 'screenshot')['ok']:
        raise SystemExit('the screenshot failed')
    check_png(shot1)
    print(f'first start: {loaded["name"]} loaded; reply streamed in {len(texts)} batches, '
          f'{done["chars"]} characters, {prov["generated_tokens"]} tokens; screenshot {shot1}')

    # Second start: the conversation is back, with the same provenance.
    ev = run_hearth(common + ['--screenshot', shot2], a.hearth, a.timeout)
    restored = first(ev, 'conversation-restored')
    if restored.get('messages') != 2 or restored.get('author') != 'assistant':
        raise SystemExit(f'conversation not restored: {restored}')
    if restored['chars'] != done['chars'] or restored['provenance'] != prov:
        raise SystemExit(f'restored reply differs:\n{restored}\nvs\n{done}')
    check_png(shot2)
    print(f'second start: conversation restored ({restored["messages"]} messages), provenance '
          f'sha256={prov["sha256"][:12]}… quant={prov["quant"]} seed={prov["seed"]}; screenshot {shot2}')
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
