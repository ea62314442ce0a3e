#!/usr/bin/env python3
"""Reference renders for Hearth's chat-template engine (tests/core/test_chat_*).

Renders, with Python's jinja2 configured the way Hugging Face's
apply_chat_template configures it (ImmutableSandboxedEnvironment with
trim_blocks, lstrip_blocks, the loopcontrols extension and a `generation`
tag; raise_exception, strftime_now and json.dumps-based tojson):

  - every ../shared/testdata/chat-templates/*.jinja, the chat template embedded
    in SmolLM2-135M-Instruct.Q4_1.gguf, and every built-in template in
    core/chat/templates/, each with every conversation of
    tests/data/chat/conversations.json;
  - every snippet of tests/data/chat/snippets.json (engine semantics).

and writes the outputs (or the error jinja2 raised) to tests/data/chat/expected/.
strftime_now() returns the fixed date of conversations.json, so outputs are
reproducible.

    ~/.cache/hearth/venv/bin/python scripts/refs/chat_templates.py \
        [--testdata ../shared/testdata] [--models ~/.local/share/hearth/models]
(the defaults also come from $HEARTH_TESTDATA_DIR and $HEARTH_MODELS_DIR).
"""
import argparse
import datetime
import hashlib
import json
import os
import sys
from pathlib import Path

import jinja2
import jinja2.ext
import jinja2.nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "chat"
SMOLLM2 = "SmolLM2-135M-Instruct.Q4_1.gguf"


class GenerationTag(jinja2.ext.Extension):
    """{% generation %}...{% endgeneration %}: Hugging Face marks assistant
    text with it (for training masks); rendering just outputs the body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    def _body(self, caller):
        return caller()


def make_env(now):
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(fmt):
        return now.strftime(fmt)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationTag, jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def outcome(render):
    try:
        return {"output": render()}
    except Exception as e:  # jinja2 raised: Hearth must raise too
        return {"error": type(e).__name__, "message": str(e)}


def render_conversations(env, source, conversations):
    try:
        template = env.from_string(source)
    except Exception as e:
        error = {"error": type(e).__name__, "message": str(e)}
        return [dict(case=c["name"], **error) for c in conversations["cases"]]
    results = []
    for case in conversations["cases"]:
        tools = conversations["tools"][case["tools"]] if "tools" in case else None
        kwargs = dict(
            messages=case["messages"],
            tools=tools,
            documents=None,
            add_generation_prompt=case["add_generation_prompt"],
            bos_token=conversations["bos_token"],
            eos_token=conversations["eos_token"],
        )
        if "enable_thinking" in case:
            kwargs["enable_thinking"] = case["enable_thinking"]
        results.append(dict(case=case["name"], **outcome(lambda: template.render(**kwargs))))
    return results


def write_expected(name, origin, source, results):
    out = DATA / "expected" / f"{name}.json"
    doc = {
        "template": name,
        "origin": origin,
        "sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(),
        "results": results,
    }
    out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def model_template(models_dir):
    from gguf import GGUFReader

    path = Path(models_dir) / SMOLLM2
    if not path.exists():
        sys.exit(f"{path} not found (run scripts/setup, or pass --models)")
    field = GGUFReader(str(path)).fields["tokenizer.chat_template"]
    return bytes(field.parts[field.data[0]]).decode("utf-8")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--testdata", default=os.environ.get("HEARTH_TESTDATA_DIR",
                                                         str(ROOT.parent / "shared" / "testdata")))
    ap.add_argument("--models", default=os.environ.get("HEARTH_MODELS_DIR",
                                                       str(Path.home() / ".local/share/hearth/models")))
    args = ap.parse_args()

    conversations = json.loads((DATA / "conversations.json").read_text(encoding="utf-8"))
    now = datetime.datetime.strptime(conversations["now"], "%Y-%m-%d %H:%M:%S")
    env = make_env(now)
    (DATA / "expected").mkdir(exist_ok=True)

    if not (Path(args.testdata) / "chat-templates").is_dir():
        sys.exit(f"{args.testdata}/chat-templates not found (pass --testdata or set HEARTH_TESTDATA_DIR)")
    sources = []
    for path in sorted((Path(args.testdata) / "chat-templates").glob("*.jinja")):
        sources.append((path.stem, "testdata:chat-templates/" + path.name, path.read_text(encoding="utf-8")))
    sources.append(("model-SmolLM2-135M-Instruct", "model:" + SMOLLM2, model_template(args.models)))
    for path in sorted((ROOT / "core" / "chat" / "templates").glob("*.jinja")):
        sources.append(("builtin-" + path.stem, "builtin:" + path.stem, path.read_text(encoding="utf-8")))
    for name, origin, source in sources:
        results = render_conversations(env, source, conversations)
        write_expected(name, origin, source, results)
        failed = sum("error" in r for r in results)
        print(f"{name}: {len(results) - failed} rendered, {failed} raised")

    snippets = json.loads((DATA / "snippets.json").read_text(encoding="utf-8"))
    context = snippets["context"]
    results = []
    for case in snippets["cases"]:
        variables = dict(context, **case.get("vars", {}))
        results.append(dict(name=case["name"], **outcome(lambda: env.from_string(case["template"]).render(**variables))))
    (DATA / "expected" / "snippets.json").write_text(
        json.dumps({"results": results}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"snippets: {len(results)} cases, {sum('error' in r for r in results)} raise")


if __name__ == "__main__":
    main()
