#!/usr/bin/env python3
"""Load and throughput of `hearth serve` next to llama.cpp's server.

    bench/server/server_load.py --hearth build/dev/app/cli/hearth --model M.gguf \
        [--threads 2] [--np 4] [--levels 1,4,8] [--tokens 64] [--load 64] \
        [--temperature 0] [--ref-venv ~/.cache/hearth/ref-venv]

For each concurrency level it starts that many streaming chat clients at
once (each asks for --tokens tokens, greedy unless --temperature says
otherwise; end tokens are banned with logit_bias where the server honours
it) and reports the aggregate generated tokens per
second (tokens from usage / wall time of the level). With --load N it then
sends N streaming clients at once to hearth (-np as given): every one must
end with [DONE] or a 503, none lost; RSS before and after is printed.

The references, each on the same file, threads, context and slots:
llama.cpp's own `llama-server` (continuous batching over -np slots), built
from the llama.cpp that llama-cpp-python vendors by `scripts/setup-reference
server` (or --ref-server PATH); and llama-cpp-python's server (`python -m
llama_cpp.server` from the reference venv), which serves one request at a
time (started with --interrupt_requests false, so that a new request queues
instead of cutting the one being served short). Each is skipped when it is
not there. The run ends with one table of the aggregate t/s side by side. A
benchmark, not a test: figures depend on the machine and its load.
Stdlib only (urllib, threads)."""

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_health(port, proc, timeout=300, path="/health"):
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise RuntimeError("server exited")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", path)
            if c.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("server never became ready")


def stream_one(port, tokens, ban, results, i, temperature=0.0):
    body = {"model": "m", "messages": [{"role": "user", "content": f"Tell me a long story about ship {i}."}],
            "max_tokens": tokens, "temperature": temperature, "seed": i, "stream": True,
            "stream_options": {"include_usage": True}}
    if ban:
        body["logit_bias"] = {str(t): -100 for t in ban}
    t0 = time.time()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        c.request("POST", "/v1/chat/completions", json.dumps(body), {"Content-Type": "application/json"})
        r = c.getresponse()
        if r.status != 200:
            r.read()
            results[i] = ("status", r.status, 0, time.time() - t0)
            return
        usage, chunks, done = None, 0, False
        for raw in r:
            line = raw.decode("utf-8", "replace").strip()
            if not line.startswith("data: "):
                continue
            data = line[6:]
            if data == "[DONE]":
                done = True
                break
            j = json.loads(data)
            if j.get("usage"):
                usage = j["usage"]
            if j.get("choices") and j["choices"][0].get("delta", {}).get("content"):
                chunks += 1
        n = usage["completion_tokens"] if usage else chunks
        results[i] = ("done" if done else "cut", 200, n, time.time() - t0)
    except Exception as e:  # noqa: BLE001 - a lost client is a finding, reported below
        results[i] = ("error", str(e), 0, time.time() - t0)


def level(port, clients, tokens, ban, temperature=0.0):
    results = [None] * clients
    threads = [threading.Thread(target=stream_one, args=(port, tokens, ban, results, i, temperature))
               for i in range(clients)]
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.time() - t0
    return results, wall


def rss_kb(pid):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def start_hearth(args, port):
    cmd = [args.hearth, "serve", "-m", args.model, "-t", str(args.threads), "-np", str(args.np), "-c",
           str(args.ctx), "--port", str(port), "--max-queue", str(args.max_queue)]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start_llama_server(args, port):
    exe = Path(args.ref_server)
    if not exe.is_file():
        return None
    cmd = [str(exe), "-m", args.model, "-t", str(args.threads), "-np", str(args.np), "-c", str(args.ctx),
           "--port", str(port), "--host", "127.0.0.1"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def start_llama_cpp_python(args, port):
    py = Path(args.ref_venv) / "bin" / "python"
    if not py.exists() or subprocess.run([str(py), "-c", "import llama_cpp.server"],
                                         capture_output=True).returncode != 0:
        return None
    # Its context is one sequence's: the per-slot share the others get.
    cmd = [str(py), "-m", "llama_cpp.server", "--model", args.model, "--n_threads", str(args.threads),
           "--n_ctx", str(args.ctx // args.np), "--port", str(port), "--host", "127.0.0.1",
           "--interrupt_requests", "false"]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# (label, start, readiness path): llama-cpp-python's server has no /health.
REFERENCES = [("llama-server", start_llama_server, "/health"),
              ("llama-cpp-python", start_llama_cpp_python, "/v1/models")]


def run_levels(name, port, args, ban):
    rows = []
    for n in args.levels:
        results, wall = level(port, n, args.tokens, ban, args.temperature)
        toks = sum(r[2] for r in results if r)
        ok = sum(1 for r in results if r and r[0] == "done")
        rows.append((name, n, ok, toks, wall, toks / wall if wall > 0 else 0.0))
        print(f"{name:>16} | {n:>3} clients | {ok:>3} done | {toks:>6} tokens | {wall:7.2f} s | "
              f"{toks / wall:8.1f} t/s aggregate", flush=True)
    return rows


def stop(proc):
    if proc and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hearth", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--np", type=int, default=4)
    ap.add_argument("--ctx", type=int, default=2048)
    ap.add_argument("--levels", default="1,4,8")
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--load", type=int, default=0, help="clients of the load check (0: skip)")
    ap.add_argument("--max-queue", type=int, default=64)
    ap.add_argument("--temperature", type=float, default=0.0, help="0: greedy")
    ap.add_argument("--ban", default="0,2", help="token ids banned so replies run to --tokens (SmolLM2's ends)")
    cache = Path(os.environ.get("HEARTH_CACHE_DIR") or
                 Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hearth")
    ap.add_argument("--ref-venv", default=str(cache / "ref-venv"))
    ap.add_argument("--ref-server", default=str(cache / "llama-server" / "bin" / "llama-server"),
                    help="llama.cpp's llama-server binary (scripts/setup-reference server)")
    args = ap.parse_args()
    args.levels = [int(x) for x in args.levels.split(",") if x]
    ban = [int(x) for x in args.ban.split(",") if x]

    port = free_port()
    proc = start_hearth(args, port)
    try:
        wait_health(port, proc)
        ours = run_levels("hearth serve", port, args, ban)
        if args.load:
            before = rss_kb(proc.pid)
            results, wall = level(port, args.load, args.tokens, ban, args.temperature)
            kinds = {}
            for r in results:
                key = "lost" if r is None else (r[0] if r[0] != "status" else f"http {r[1]}")
                kinds[key] = kinds.get(key, 0) + 1
            after = rss_kb(proc.pid)
            print(f"load: {args.load} streaming clients, -np {args.np}: {kinds} in {wall:.1f} s; "
                  f"RSS {before // 1024} MiB -> {after // 1024} MiB; server alive: {proc.poll() is None}")
            bad = {k: v for k, v in kinds.items() if k not in ("done", "http 503")}
            if bad or proc.poll() is not None:
                print("load check FAILED", file=sys.stderr)
                return 1
    finally:
        stop(proc)

    columns = [("hearth serve", ours)]
    for label, start, ready in REFERENCES:
        ref_port = free_port()
        ref = start(args, ref_port)
        if ref is None:
            print(f"reference {label}: not found (scripts/setup-reference server builds llama-server; "
                  "the reference venv holds llama-cpp-python's server); skipped")
            continue
        try:
            wait_health(ref_port, ref, path=ready)
            columns.append((label, run_levels(label, ref_port, args, ban)))
        finally:
            stop(ref)
    print("\n| clients | " + " | ".join(f"{label} t/s" for label, _ in columns) +
          (" | hearth / " + columns[1][0] if len(columns) > 1 else "") + " |")
    print("|---:|" + "---:|" * (len(columns) + (1 if len(columns) > 1 else 0)))
    for i, n in enumerate(args.levels):
        cells = [f"{rows[i][5]:.1f} ({rows[i][2]}/{n} done)" for _, rows in columns]
        if len(columns) > 1:
            ref = columns[1][1][i][5]
            cells.append(f"{columns[0][1][i][5] / ref:.2f}" if ref > 0 else "n/a")
        print(f"| {n} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
