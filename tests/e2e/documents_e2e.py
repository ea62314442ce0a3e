#!/usr/bin/env python3
"""End-to-end: documents in the desktop app. Hearth under Xvfb opens the
Documents panel, adds a folder of documents (a six-page PDF town guide, a
Markdown diary, a DOCX recipe book written by --writer), reports indexing
progress, asks a question about one page of the PDF, and the answer lists
a citation of that page; a click on it opens the PDF inside Hearth at that
page with the passage highlighted. Screenshots of the panel, the answer and
the viewer go to --out (scripts/screenshots puts them in docs/screenshots).

    documents_e2e.py --hearth PATH --engine cpu|fake --writer PATH [--tiny-writer PATH] [--out DIR]

--engine cpu uses SmolLM2, which writes no citations of its own: the ones
shown are matched by Hearth (docs/documents.md). --engine fake cites as a
large model does. Both need the embedding model (scripts/convert-models);
without it or the chat model the test is skipped (exit 77).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from e2e_support import SKIP, check_png, engines, events_of, first, gui_command, models_dir

QUESTION = "What is the name of the lighthouse keeper's cat?"
PDF = 'varnholm-guide.pdf'
PAGE = 3  # the lighthouse page of the guide


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--hearth', required=True)
    p.add_argument('--engine', required=True)
    p.add_argument('--writer', required=True)
    p.add_argument('--tiny-writer')
    p.add_argument('--out', default='.')
    p.add_argument('--name', default='documents', help='screenshot base name in --out')
    p.add_argument('--keep-data', action='store_true', help='leave the data folder (for a second run)')
    p.add_argument('--timeout', type=int, default=400)
    a = p.parse_args()

    if a.engine not in engines(a.hearth):
        print(f'SKIP: Hearth has no "{a.engine}" engine built in')
        return SKIP
    embedding = os.path.join(models_dir(), 'all-MiniLM-L6-v2.F16.gguf')
    if not os.path.exists(embedding):
        print(f'SKIP: {embedding} not found: run scripts/setup and scripts/convert-models')
        return SKIP
    work = tempfile.mkdtemp(prefix='hearth-docs-e2e-')
    if a.engine == 'cpu':
        model = os.path.join(models_dir(), 'SmolLM2-135M-Instruct.Q4_1.gguf')
        if not os.path.exists(model):
            print(f'SKIP: {model} not found: run scripts/setup')
            return SKIP
    else:
        model = os.path.join(work, 'tiny.gguf')
        subprocess.run([a.tiny_writer, model], check=True)
    docs = os.path.join(work, 'Town papers')
    subprocess.run([a.writer, docs], check=True, env=dict(os.environ, QT_QPA_PLATFORM='offscreen'))
    os.makedirs(a.out, exist_ok=True)
    shot = os.path.join(a.out, f'{a.name}.png')  # the viewer; the panel and the answer beside it
    base = shot[:-len('.png')]
    data = os.path.join(work, 'data')
    os.makedirs(data)
    # A fixed seed and a low temperature, as one sets for questions on
    # documents: the same reply every run.
    with open(os.path.join(data, 'settings.ini'), 'w') as f:
        f.write('[generation]\nseed=7\ntemperature=0.2\n')

    cmd, env = gui_command([a.hearth, '--events', '--quit-when-done', '--data-dir', data, '--engine', a.engine,
                            '--size', '1100x760', '--documents', docs, '--send', QUESTION,
                            '--screenshot', shot, model], os.environ)
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.timeout)
    ev = events_of(proc.stdout)
    errors = [e for e in ev if e.get('event') == 'error']
    if proc.returncode != 0 or errors:
        sys.stderr.write(proc.stderr[-4000:])
        raise SystemExit(f'Hearth exited with {proc.returncode}: {errors}')

    # Indexing: progress was reported, every file read, the collection used.
    first(ev, 'documents-added')
    progress = [e for e in ev if e.get('event') == 'documents-progress']
    if not progress:
        raise SystemExit('no indexing progress was reported')
    indexed = first(ev, 'documents-indexed')
    rows = indexed['collections']
    if len(rows) != 1 or rows[0]['documents'] != 3 or rows[0]['indexed'] != 3 or rows[0]['problems'] != 0:
        raise SystemExit(f'the folder was not indexed whole: {rows}')
    if indexed['used'] != 1 or not rows[0]['used']:
        raise SystemExit(f'the new collection is not used by the chat: {indexed}')
    print(f'indexed: {rows[0]["documents"]} documents, {rows[0]["chunks"]} passages '
          f'({len(progress)} progress events; {indexed["report"]})')

    # The answer: streamed, complete, with a citation of the lighthouse page.
    done = first(ev, 'reply-finished')
    if done['state'] != 'complete' or done['chars'] <= 0:
        raise SystemExit(f'the reply did not finish cleanly: {done}')
    cited = [s for s in done.get('sources', []) if s['cited']]
    page = [s for s in cited if s['path'].endswith(PDF) and s['page'] == PAGE]
    if not page:
        raise SystemExit(f'no citation of {PDF} page {PAGE}: {done.get("sources")}\n{done.get("text")}')
    if f'[{page[0]["n"]}]' not in done['text']:
        raise SystemExit(f'the answer does not carry [{page[0]["n"]}]: {done["text"]}')
    matched = all(s['attributed'] for s in cited)
    print(f'answer ({done["provenance"]["generated_tokens"]} tokens): {done["text"].strip()!r}; cited '
          + ', '.join(f'[{s["n"]}] {s["label"]}' for s in cited) + (' (matched by Hearth)' if matched else ''))

    # The click: the PDF at the cited page, the passage highlighted.
    clicked = first(ev, 'source-clicked')
    opened = first(ev, 'source-opened')
    if not opened['pdf'] or opened['page'] != clicked['page'] or opened['highlights'] < 1:
        raise SystemExit(f'the source did not open at its page: clicked {clicked}, shown {opened}')
    if clicked['page'] != PAGE:
        raise SystemExit(f'the first PDF citation is not page {PAGE}: {clicked}')
    print(f'opened {opened["title"]!r}: page {opened["page"]} of {opened["pages"]}, '
          f'{opened["highlights"]} highlight(s)')

    shots = [e['file'] for e in ev if e.get('event') == 'screenshot' and e.get('file')] + [shot]
    for f in (base + '-panel.png', base + '-answer.png', shot):
        if f not in shots and f != shot:
            raise SystemExit(f'{f} was not saved')
        check_png(f)
    print('screenshots: ' + ', '.join(os.path.basename(f) for f in (base + '-panel.png', base + '-answer.png', shot)))
    if not a.keep_data:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
