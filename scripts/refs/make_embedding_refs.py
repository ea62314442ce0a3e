#!/usr/bin/env python3
"""Writes tests/data/engine/embeddings/minilm.json: for 50 sentences (English
and Chinese, short to long) the token ids of Hugging Face's own tokenizer
(`tokenizers`, from the model's tokenizer.json) and the sentence embedding of
a numpy float64 BERT forward pass over the model's safetensors (mean pooled,
L2 normalized: sentence-transformers' all-MiniLM-L6-v2), rounded to 6
decimals. test_embedder compares `Embedder` (core/runtime) on the converted
Q8_0 file with them.

    ~/.cache/hearth/venv/bin/python scripts/refs/make_embedding_refs.py [SOURCE_FOLDER]
SOURCE_FOLDER defaults to ~/.cache/hearth/hf/all-MiniLM-L6-v2 (scripts/setup).
"""
import json
import sys
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_convert_with_llama_cpp import SOURCE, bert_embedding, read_safetensors  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "engine" / "embeddings" / "minilm.json"

ENGLISH = [
    "This is an example sentence",
    "Each sentence is converted",
    "The cat sits on the mat.",
    "A dog is running through the park.",
    "How do I reset my password?",
    "The quarterly report shows revenue grew by twelve percent.",
    "Photosynthesis turns light, water and carbon dioxide into sugar and oxygen.",
    "Please submit the expense claim before the end of the month.",
    "The warranty covers parts and labour for two years.",
    "Rain is expected in the north on Thursday afternoon.",
    "What is the boiling point of water at sea level?",
    "The committee approved the new budget unanimously.",
    "Insert the battery with the positive terminal facing up.",
    "She played the violin at the concert last night.",
    "Hearth runs large language models offline on your own computer.",
    "Unicode: naïve café, Ünïcödé, and résumé.",
    "Numbers like 3.14159, 2,718 and 1e-9 appear in text too.",
    "ALL CAPS TEXT IS LOWERCASED BY THIS TOKENIZER",
    "e-mail addresses such as someone@example.com and URLs like https://example.org/a?b=c",
    "Tokenization splits unaffordable words into word pieces.",
    "The mitochondria is the powerhouse of the cell.",
    "In 1969, Apollo 11 landed on the Moon.",
    "Change the oil filter every ten thousand kilometres.",
    "The library opens at nine and closes at five on weekdays.",
    "Employees accrue one and a half days of leave per month.",
    "def add(a, b): return a + b  # a small Python function",
    "Quick brown foxes jump over lazy dogs; sphinxes of black quartz judge my vow.",
    "Emoji 🦙 and symbols ∑ ∫ √ are rare in the vocabulary.",
    "x",
    " ".join(["The indexing job reads every page of every document, splits the text into passages at "
              "paragraph and sentence boundaries, embeds each passage and stores the vectors with their "
              "page numbers so that answers can cite the page they came from."] * 2),
]

CHINESE = [
    "今天天气很好。",
    "我喜欢吃苹果和香蕉。",
    "这是一个例句。",
    "请在月底之前提交报销申请。",
    "北京是中国的首都。",
    "机器学习是人工智能的一个分支。",
    "保修期为两年，包括零件和人工。",
    "图书馆周一到周五上午九点开门。",
    "他昨天晚上在音乐会上拉小提琴。",
    "如何重置我的密码？",
    "水在海平面的沸点是一百摄氏度。",
    "委员会一致通过了新的预算。",
    "光合作用把光、水和二氧化碳变成糖和氧气。",
    "每行驶一万公里更换一次机油滤清器。",
    "员工每月累积一天半的假期。",
    "中文和 English 混合的句子。",
    "长江是亚洲最长的河流。",
    "请把电池的正极朝上放入。",
    "季度报告显示收入增长了百分之十二。",
    "离线运行大型语言模型可以保护隐私。",
]


def main() -> int:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    cfg = json.loads((source / "config.json").read_text())
    weights = read_safetensors(source / "model.safetensors")
    tok = Tokenizer.from_file(str(source / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    texts = ENGLISH + CHINESE
    assert len(texts) == 50
    items = []
    for text in texts:
        ids = tok.encode(text).ids
        vec = bert_embedding(weights, ids, cfg)
        items.append({"text": text, "ids": ids, "vector": [round(float(x), 6) for x in vec]})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    doc = {"model": "sentence-transformers/all-MiniLM-L6-v2", "pooling": "mean", "normalized": True,
           "reference": "numpy float64 BERT forward pass over model.safetensors (scripts/refs/make_embedding_refs.py)",
           "items": items}
    OUT.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({len(items)} sentences)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
