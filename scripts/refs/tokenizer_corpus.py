"""The tokenizer test corpus: varied text cases, generated deterministically.

Snippets in many scripts and formats (prose, code, emoji, numbers, odd white
space, invalid UTF-8, text that looks like special tokens) are combined with a
seeded generator, so the same cases come out on every machine and Python 3
version. `cases()` returns a list of bytes objects.
"""

import random

PROSE = [
    "The quick brown fox jumps over the lazy dog.",
    "Hello world! How's it going? I'm fine, thanks; you're kind. We'll see, they'd say.",
    "It's 3:45 p.m. on Tuesday, 14 March 2023 - the meeting's been moved (again).",
    "\"Quoted text,\" she said, 'and single quotes too.'",
    "Don't stop believing; DON'T STOP. I'LL be there. She'S here. They'RE gone. We'VE won. He'D go.",
    "Mr. O'Neil's dog isn't Mrs. O'Hara's cat... or is it?!",
    "e-mail: someone@example.com, web: https://www.example.org/path?q=1&r=two#frag",
    "Prices: $1,234.56, EUR 99.99, 50% off, #1 seller, 3/4 cup, x^2 + y^2 = z^2",
    "In 1492, Columbus sailed; in 1969, Apollo 11 landed; in 2024, who knows?",
    "café, naïve, résumé, coöperate, façade, jalapeño, Zürich, Øresund, Æsir, smörgåsbord",
    "Ünïcödé àccénts: àáâãäå èéêë ìíîï òóôõö ùúûü ýÿ ñ ç ß Œ œ",
    "Straße, İstanbul, ıi, Ǆ ǅ ǆ, ﬁ ﬂ, Ⅻ, ①②③, ½ ¼, ™ ©, µ, Å, Ω",
    "ΑΒΓΔ αβγδ — Ἀθῆναι ἐστὶν ἡ πόλις. Καλημέρα κόσμε!",
    "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "Привет, мир! Как дела? Всё хорошо.",
    "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy.",
    "Árvíztűrő tükörfúrógép. Pchnąć w tę łódź jeża lub ośm skrzyń fig.",
    "Der schnelle braune Fuchs springt über den faulen Hund. Größe, Maß, Fuß.",
    "Le cœur a ses raisons que la raison ne connaît point. Où est l'hôtel ?",
    "¿Qué tal? ¡Muy bien! El niño comió piña en la montaña.",
    "Vietnamese: Tiếng Việt có dấu, người Việt Nam, chữ Quốc ngữ.",
    "Türkçe: Çok güzel bir gün, ışık ve şeker; İyi günler!",
]

CJK = [
    "你好，世界！今天天气很好。",
    "我爱自然语言处理和机器学习。这是一个测试句子，包含标点符号：“引号”、（括号）。",
    "中华人民共和国成立于1949年10月1日。",
    "繁體中文測試：臺灣、香港、澳門。",
    "日本語のテキストです。ひらがな、カタカナ、漢字が混ざっています。",
    "東京都は日本の首都です。今日はいい天気ですね！",
    "ｶﾀｶﾅ半角とカタカナ全角、ＡＢＣ全角英字、１２３全角数字。",
    "한국어 문장입니다. 안녕하세요, 세계! 대한민국 서울특별시.",
    "漢字かな交じり文：私は学生です。",
    "𠀀𠀁𪚥 𡃁 — rare CJK extension characters",
    "「かぎ括弧」『二重』【隅付き】〈山括弧〉《二重山括弧》",
    "Mixed 中文 and English 混合 text 123 数字。",
]

RTL_INDIC = [
    "مرحبا بالعالم! كيف حالك اليوم؟",
    "اللغة العربية جميلة، وهي لغة القرآن الكريم. ١٢٣٤٥٦٧٨٩٠",
    "شَكْلٌ بِالتَّشْكِيلِ الكَامِلِ",
    "עברית: שלום עולם! מה שלומך?",
    "हिन्दी: नमस्ते दुनिया! आप कैसे हैं? ०१२३४५६७८९",
    "বাংলা ভাষা, தமிழ் மொழி, తెలుగు భాష, ಕನ್ನಡ, മലയാളം",
    "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ สวัสดีครับ",
    "ქართული ენა, Հայերեն լեզու, አማርኛ ቋንቋ",
    "فارسی: سلام دنیا! ۱۲۳۴۵",
    "Mixed العربية with English and ١٢٣ digits.",
]

EMOJI = [
    "I love it! 😀😃😄😁 🎉🎊 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 🇺🇸🇯🇵",
    "🦙 llama 🐍 python 🚀 rocket ❤️ heart ☕ coffee ✨",
    "Newer emoji: 🫠 🫡 🥹 🫶 🩷 🪿 🫎 🪼 🐦‍🔥 🍋‍🟩",
    "Skin tones: 👋🏻👋🏼👋🏽👋🏾👋🏿, keycaps: 1️⃣ #️⃣ *️⃣",
    "Symbols: ★☆♠♣♥♦ ←↑→↓ ∀∃∅∇∈∉ ≤≥≠≈ ∑∏√∞ ⊕⊗ ⌘⌥",
    "Box: ┌─┬─┐│ │ │└─┴─┘ ░▒▓█ ▁▂▃▄▅▆▇",
    "Math: 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝐁𝐨𝐥𝐝 𝑰𝒕𝒂𝒍𝒊𝒄 ℝ ℕ ℤ ℚ ℂ",
]

CODE = [
    "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
    "for (int i = 0; i < n; ++i) {\n\tsum += a[i] * b[i];\n}\n",
    "#include <stdio.h>\n\nint main(void) {\n    printf(\"Hello, %s!\\n\", \"world\");\n    return 0;\n}\n",
    "const x = {a: 1, 'b': [2, 3], \"c\": null}; // comment\nconsole.log(x?.a ?? 0);",
    "{\"name\": \"hearth\", \"version\": \"0.1.0\", \"tags\": [\"llm\", \"local\"], \"n\": 3.14e-10}",
    "<html>\n  <body>\n    <div class=\"x\">&amp; &lt;tag&gt; &#x1F600;</div>\n  </body>\n</html>",
    "SELECT id, name FROM users WHERE age >= 18 AND name LIKE '%o%' ORDER BY id DESC;",
    "if [ -f \"$HOME/.bashrc\" ]; then source ~/.bashrc; fi && echo $PATH | tr ':' '\\n'",
    "fn main() -> Result<(), Box<dyn Error>> {\n    let v: Vec<u8> = vec![0xFF; 16];\n    Ok(())\n}",
    "x = [i**2 for i in range(10) if i % 2 == 0]  # squares\r\nprint(f\"{x!r:>20}\")\r\n",
    "a+=b;c-=d;e*=f;g/=h;i%=j;k<<=1;l>>=2;m&=n;o|=p;q^=r;s&&t||!u",
    "    indented with spaces\n\tindented with a tab\n  \t mixed\n",
    "@decorator\nclass Foo(Base, metaclass=Meta):\n    \"\"\"Docstring.\"\"\"\n    pass\n",
    "$ git commit -m 'Fix #123: handle CRLF'\r\n[main 1a2b3c4] Fix #123\r\n",
    "matrix = [[1, 2, 3],\n          [4, 5, 6]]\nprint(matrix[1][2])",
    "<?xml version=\"1.0\"?><root><item id='1'/></root>",
    "key: value\nlist:\n  - one\n  - two\n# yaml comment\n",
]

NUMBERS = [
    "1234567890",
    "3.14159265358979323846264338327950288419716939937510",
    "0.5 .5 5. 1e10 1E-5 0x1F 0b1010 0o777 1_000_000",
    "12345 678 9 10 11111 222222 3333333 44444444",
    "Phone: +1 (555) 123-4567, ZIP 90210-1234",
    "٠١٢٣٤٥٦٧٨٩ ۰۱۲۳ ０１２３ 𝟘𝟙𝟚 ① ⑴ ⒈ Ⅳ ¹²³",
    "Version 2.0.1-beta+build.42, IPv4 192.168.0.1, IPv6 ::1",
    "2024-01-31T23:59:59Z 12:30 PM 9.99% 1/2 3:2",
    "99999999999999999999999999999999999999999999",
]

SPACES = [
    "  leading spaces",
    "trailing spaces   ",
    "multiple   spaces    between     words",
    "\ttab\tseparated\tvalues\t",
    "\n\nleading newlines",
    "trailing newlines\n\n\n",
    "line one\nline two\r\nline three\rline four",
    "    \n    \n\n\t\t\n   ",
    " ",
    "\n",
    "\t",
    "  ",
    "\u00a0non\u00a0breaking\u00a0spaces\u00a0",
    "ideographic\u3000space\u3000here",
    "em\u2003space en\u2002space thin\u2009space hair\u200aspace",
    "line\u2028separator and paragraph\u2029separator",
    "next\u0085line and\u000bvertical\u000ctab form feed",
    "zero\u200bwidth\u200cnon\u200djoiner\ufeffbom",
    "\u200e\u200fmarks \u202adirectional\u202c",
    "a\x1cb\x1dc\x1ed\x1fe",
    "null\x00byte and bell\x07 and escape\x1b[0m and del\x7f",
    "                                                                ",
    "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n",
    "\t\t\t\t\t\t\t\t\t\t\t\t",
    " \n \n \n",
    "word \n\n word\n \n",
]

SPECIAL_LOOKALIKES = [
    "<|im_start|>user\nHello!<|im_end|>\n<|im_start|>assistant\n",
    "<|im_start|>system\nYou are helpful.<|im_end|>",
    "<start_of_turn>user\nWhat is 2+2?<end_of_turn>\n<start_of_turn>model\n",
    "<s>[INST] <<SYS>>\nsystem\n<</SYS>>\n\nquestion [/INST] answer </s>",
    "<bos><eos><pad><unk><mask>",
    "<|endoftext|>",
    "text<|endoftext|>more text<|endoftext|>",
    "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|>",
    "<|user|>\nhello<|end|>\n<|assistant|>\n",
    "partial markers: <|im_sta <|im_end <start_of <end_of_tu <| |> <s </s <b os>",
    "nested <<|im_start|>> and <<s>> and <s><s></s></s>",
    "<|im_start|><|im_start|><|im_end|><|im_end|>",
    " <|im_start|> spaced <|im_end|> ",
    "<repo_name>hearth<file_sep>main.cpp<filename>x.py<gh_stars>10",
    "<unused0> <unused99> [multimodal] <start_of_image>",
    "<|fim_prefix|>def f():<|fim_suffix|>\n<|fim_middle|>",
    "<think>reasoning</think> answer",
    "<tool_call>{\"name\": \"f\"}</tool_call>",
    "[CLS] [SEP] [MASK] [PAD] [UNK]",
    "▁ ▁▁ ▁word Ġ Ċ ĉ",
    "<0x0A><0xFF>",
]

# (No code points above U+10FFFF, such as F4 90 80 80: llama.cpp aborts on them.)
INVALID = [
    b"invalid \x80 continuation",
    b"truncated \xe4\xbd",
    b"\xff\xfe bytes",
    b"overlong \xc0\x80 and \xe0\x80\x80",
    b"surrogate \xed\xa0\x80 half",
    b"truncated emoji \xf0\x9f\x98 here",
    b"\xf8\x88\x80\x80\x80 five",
    b"ok \xc3\xa9 then bad \xc3",
    b"\xe2\x82",
    b"mixed \xe4\xbd\xa0\xe5\xa5 good \xe5\xa5\xbd",
]

SEPARATORS = [" ", "  ", "\n", "\n\n", "\t", " \n", "\r\n", "", ", ", ". ", " - ", "   \n\t ",
              "<|im_start|>", "<|im_end|>\n", "<start_of_turn>", "<end_of_turn>\n", "<s>", "</s>",
              "<|endoftext|>", "<bos>", "<eos>", "\u3000", "\u00a0", " <|im_sta", "<|"]

WORDS = ("the of and to in is was that for it with as his on be at by had are but from or have an they which "
         "one you were all we there when your can said use each she do how their if will up other about out many "
         "then them these so some her would make like into him time has two more write go see number no way could "
         "people my than first water been call who oil its now find long down day did get come made may part "
         "Hello World OpenAI LLaMA Gemma Hearth tokenizer GGUF CamelCase snake_case kebab-case UPPER lower "
         "naïve über straße ñandú çava l'été").split()


def _snippets():
    groups = [PROSE, CJK, RTL_INDIC, EMOJI, CODE, NUMBERS, SPACES, SPECIAL_LOOKALIKES]
    out = []
    for group in groups:
        out.extend(s.encode("utf-8") for s in group)
    out.extend(INVALID)
    return out


def _word_salad(rng):
    n = rng.randint(1, 30)
    words = []
    for _ in range(n):
        w = rng.choice(WORDS)
        r = rng.random()
        if r < 0.1:
            w = w.upper()
        elif r < 0.2:
            w = w.capitalize()
        elif r < 0.25:
            w += rng.choice(["'s", "'t", "'re", "'ll", "'D", "'VE", "'M"])
        elif r < 0.3:
            w += str(rng.randint(0, 100000))
        words.append(w)
    seps = [" ", " ", " ", "  ", ", ", ". ", "\n", "\t", "-", "_", "/", " ("]
    text = words[0]
    for w in words[1:]:
        text += rng.choice(seps) + w
    return text.encode("utf-8")


def _random_chars(rng):
    # Characters from many blocks, including combining marks and unassigned
    # or private-use code points.
    ranges = [(0x20, 0x7E), (0xA0, 0x24F), (0x300, 0x36F), (0x370, 0x3FF), (0x400, 0x4FF), (0x590, 0x6FF),
              (0x900, 0x97F), (0xE00, 0xE7F), (0x1100, 0x11FF), (0x2000, 0x206F), (0x2190, 0x23FF),
              (0x3000, 0x30FF), (0x4E00, 0x4FFF), (0xAC00, 0xAD00), (0xE000, 0xE0FF), (0xFF00, 0xFFEF),
              (0x1F300, 0x1F6FF), (0x1F900, 0x1FAFF), (0x20000, 0x200FF), (0xE0000, 0xE007F)]
    n = rng.randint(1, 40)
    chars = []
    for _ in range(n):
        lo, hi = rng.choice(ranges)
        cp = rng.randint(lo, hi)
        if 0xD800 <= cp <= 0xDFFF:
            cp = 0x41
        chars.append(chr(cp))
    return "".join(chars).encode("utf-8")


def cases(count=2400, seed=20240611):
    """The corpus: every snippet alone, then seeded mixtures up to `count`."""
    rng = random.Random(seed)
    snippets = _snippets()
    result = list(snippets)
    seps = [s.encode("utf-8") for s in SEPARATORS]
    while len(result) < count:
        kind = rng.random()
        if kind < 0.45:
            parts = [rng.choice(snippets) for _ in range(rng.randint(2, 4))]
            text = parts[0]
            for p in parts[1:]:
                text += rng.choice(seps) + p
        elif kind < 0.7:
            text = _word_salad(rng)
        elif kind < 0.85:
            text = _random_chars(rng)
        else:
            # A snippet with white space or a marker glued on either side.
            text = rng.choice(seps) + rng.choice(snippets) + rng.choice(seps)
        result.append(text)
    return result


if __name__ == "__main__":
    all_cases = cases()
    print(len(all_cases), "cases,", sum(len(c) for c in all_cases), "bytes")
