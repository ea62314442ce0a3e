#!/usr/bin/env python3
"""End-to-end: Stop under load. Hearth under Xvfb loads a model, then
(--stop-stress N) sends "Write a long story about a cat." N times and stops
each reply at a random moment, alternately with Esc in the message box and
a click on Stop, while busy processes keep every core loaded. Every stop must
end its reply within the app's watchdog (10 s), the window must quit on its
own, and the whole run must end within --timeout: a stop that deadlocks the
engine fails the test instead of hanging it.

    stop_stress_e2e.py --hearth PATH --engine cpu|fake [--model FILE]
                       [--tiny-writer PATH] [--tries N] [--timeout S]

--engine cpu needs the real engine and SmolLM2 (skipped, exit 77, without
them); --engine fake runs the same UI path on a tiny file.
"""
import argparse
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile

from e2e_support import SKIP, engines, events_of, gui_command, models_dir


def busy():
    while True:
        pass


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--hearth', required=True)
    p.add_argument('--engine', required=True)
    p.add_argument('--model')
    p.add_argument('--tiny-writer')
    p.add_argument('--tries', type=int, default=50)
    p.add_argument('--timeout', type=int, default=400)
    a = p.parse_args()

    built = engines(a.hearth)
    if a.engine not in built:
        print(f'SKIP: Hearth has no "{a.engine}" engine built in (it has: {", ".join(built)})')
        return SKIP
    work = tempfile.mkdtemp(prefix='hearth-stop-')
    model = a.model
    if a.engine == 'cpu' and not model:
        model = os.path.join(models_dir(), 'SmolLM2-135M-Instruct.Q4_1.gguf')
    if model and not os.path.exists(model):
        print(f'SKIP: {model} not found: run scripts/setup (or set HEARTH_MODELS_DIR)')
        return SKIP
    if not model:
        model = os.path.join(work, 'tiny.gguf')
        subprocess.run([a.tiny_writer, model], check=True)

    cmd = [a.hearth, '--data-dir', os.path.join(work, 'data'), '--engine', a.engine,
           '--stop-stress', str(a.tries), model]
    cmd, env = gui_command(cmd, os.environ)

    # The load: one busy process per core, for the whole run.
    load = [multiprocessing.Process(target=busy, daemon=True) for _ in range(os.cpu_count() or 1)]
    for proc in load:
        proc.start()
    try:
        try:
            run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout)
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or '')
            tail = '\n'.join(out.splitlines()[-5:])
            raise SystemExit(f'Hearth did not finish {a.tries} stops within {a.timeout} s (a hang?); '
                             f'last events:\n{tail}')
    finally:
        for proc in load:
            proc.terminate()
    events = events_of(run.stdout)
    hung = [e for e in events if e.get('event') == 'stop-hung']
    if hung:
        raise SystemExit(f'a stop did not end its reply within 10 s: {hung[0]} '
                         f'(replay with HEARTH_STRESS_SEED={hung[0]["seed"]})')
    if run.returncode != 0:
        sys.stderr.write(run.stderr[-4000:])
        raise SystemExit(f'Hearth exited with {run.returncode}; events: {events[-5:]}')
    done = [e for e in events if e.get('event') == 'stop-stress']
    if not done:
        raise SystemExit(f'no "stop-stress" report; got: {[e.get("event") for e in events]}')
    r = done[0]
    if r['tries'] != a.tries or r['stopped'] + r['finished_first'] != a.tries:
        raise SystemExit(f'not every try was counted: {r}')
    if r['stopped'] < a.tries // 2:
        raise SystemExit(f'most replies ended before their stop ({r}); the test would not test Stop')
    print(f'{a.tries} replies under load ({len(load)} busy processes): {r["stopped"]} stopped, '
          f'{r["finished_first"]} ended first; stop to end median {r["stop_ms_median"]} ms, '
          f'max {r["stop_ms_max"]} ms; {r["total_ms"] / 1000:.1f} s in all (seed {r["seed"]})')
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
