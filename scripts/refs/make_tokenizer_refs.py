#!/usr/bin/env python3
"""Regenerates the tokenizer golden files in tests/data/tokenizer/ from
llama.cpp (llama-cpp-python, see scripts/setup-reference):

  corpus.bin          the test corpus (scripts/refs/tokenizer_corpus.py)
  smollm2.ids         ids + detokenization for SmolLM2-135M-Instruct (BPE, smollm)
  gemma3.ids          the same for gemma-3-270m (SPM, 262k vocabulary)
  shared/NAME.ids     the same for ../shared/testdata/vocab/ggml-vocab-NAME.gguf
                      (every 3rd case)
  pretokenizers.ids   ggml-vocab-gpt-2.gguf relabelled with each tokenizer.ggml.pre
                      name, every 4th case, without special tokens
  synthetic/*.gguf    small vocabularies made here (special-token rules,
                      unigram, SPM-style BPE) and their .ids (every 3rd case)
  facts.txt           per vocabulary: special ids, add_bos/add_eos, the
                      end-of-generation set, checksums of attributes and pieces

Run with the reference interpreter:
  ~/.cache/hearth/ref-venv/bin/python scripts/refs/make_tokenizer_refs.py
"""

import argparse
import os
import pathlib
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tokenizer_corpus  # noqa: E402
import tokref  # noqa: E402
import synthetic_vocabs  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODES = [(False, False), (True, True)]


def variants(reference, name=""):
    return [(name, reference, add, parse) for add, parse in MODES]

# Pre-tokenizer names checked against llama.cpp on the GPT-2 vocabulary.
PRE_NAMES = [
    "default", "llama3", "llama-bpe", "dbrx", "smaug-bpe", "deepseek-llm", "deepseek-coder", "deepseek-v3",
    "falcon", "mpt", "starcoder", "gpt-2", "refact", "command-r", "qwen2", "stablelm2", "olmo", "poro-chat",
    "chatglm-bpe", "viking", "jais", "tekken", "smollm", "codeshell", "bloom", "gpt3-finnish", "exaone",
    "chameleon", "minerva-7b", "gpt-4o", "superbpe", "trillion", "bailingmoe", "llama4", "pixtral",
    "seed-coder", "hunyuan", "hunyuan-dense", "grok-2", "minimax-m2", "tiny_aya", "qwen35", "jais-2",
    "granite-docling", "roberta-bpe", "exaone-moe", "ufakzeka", "laguna", "minicpm5", "spark2_5", "youtu",
    "granite-embed-multi-97m", "solar-open", "megrez", "kanana2", "mellum2", "afmoe", "cohere2moe", "f2llmv2",
    "hy_v4", "joyai-llm", "lfm2", "talkie", "kormo", "midm-2.0", "a.x-4.0", "exaone4", "gigachat", "phi-2",
    "jina-v2-code", "modern-bert", "glm4", "sarvam-moe", "deepseek-r1-qwen", "llada-moe", "falcon-h1",
]


def models_dir():
    env = os.environ.get("HEARTH_MODELS_DIR")
    if env:
        return pathlib.Path(env)
    xdg = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
    return pathlib.Path(xdg) / "hearth" / "models"


def testdata_dir():
    return pathlib.Path(os.environ.get("HEARTH_TESTDATA_DIR", ROOT.parent / "shared" / "testdata"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "tests" / "data" / "tokenizer"))
    parser.add_argument("--only", help="comma-separated parts: corpus,models,shared,pre,synthetic,facts")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    parts = set((args.only or "corpus,models,shared,pre,synthetic,facts").split(","))
    cases = tokenizer_corpus.cases()

    if "corpus" in parts:
        out.mkdir(parents=True, exist_ok=True)
        tokref.write_corpus(out / "corpus.bin", cases)
        print(f"corpus: {len(cases)} cases")
    if "models" in parts:
        for name, file in [("smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"), ("gemma3", "gemma-3-270m-q4_k_m.gguf")]:
            tokref.write_ids(out / f"{name}.ids", cases, variants(tokref.Reference(models_dir() / file)))
            print(f"{name}: done")
    if "shared" in parts:
        (out / "shared").mkdir(parents=True, exist_ok=True)
        for vocab in sorted((testdata_dir() / "vocab").glob("ggml-vocab-*.gguf")):
            name = vocab.name[len("ggml-vocab-"):-len(".gguf")]
            tokref.write_ids(out / "shared" / f"{name}.ids", cases, variants(tokref.Reference(vocab)), stride=3)
            print(f"shared/{name}: done")
    if "pre" in parts:
        base = testdata_dir() / "vocab" / "ggml-vocab-gpt-2.gguf"
        with tempfile.TemporaryDirectory() as tmp:
            pres = []
            for pre in PRE_NAMES:
                path = pathlib.Path(tmp) / f"{pre}.gguf"
                tokref.relabel_gguf(base, path, {"tokenizer.ggml.pre": pre})
                pres.append((pre, tokref.Reference(path), False, False))
            tokref.write_ids(out / "pretokenizers.ids", cases, pres, stride=4)
            print(f"pretokenizers: {len(pres)} done")
    if "synthetic" in parts:
        (out / "synthetic").mkdir(parents=True, exist_ok=True)
        for name, path in synthetic_vocabs.write_all(out / "synthetic"):
            tokref.write_ids(out / "synthetic" / f"{name}.ids", cases, variants(tokref.Reference(path)), stride=3)
            print(f"synthetic/{name}: done")
    if "facts" in parts:
        lines = []
        for name, file in [("smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"), ("gemma3", "gemma-3-270m-q4_k_m.gguf")]:
            lines.append(f"model/{name} " + tokref.vocab_facts(tokref.Reference(models_dir() / file)))
        for vocab in sorted((testdata_dir() / "vocab").glob("ggml-vocab-*.gguf")):
            name = vocab.name[len("ggml-vocab-"):-len(".gguf")]
            lines.append(f"shared/{name} " + tokref.vocab_facts(tokref.Reference(vocab)))
        for path in sorted((out / "synthetic").glob("*.gguf")):
            lines.append(f"synthetic/{path.stem} " + tokref.vocab_facts(tokref.Reference(path)))
        (out / "facts.txt").write_text("\n".join(lines) + "\n")
        print("facts: done")


if __name__ == "__main__":
    main()
