#include "engine/FakeMarkdown.h"

#include <QHash>
#include <QRegularExpression>

#include <random>

namespace FakeMarkdown {
namespace {

struct Code {
    const char* language;
    const char* body;
};

// Snippets with comments, strings holding slashes and nested brackets: the
// cases that trip highlighters.
const Code kCode[] = {
    {"python",
     "import statistics\n\n\ndef summarize(samples: list[float]) -> dict:\n"
     "    \"\"\"Mean and spread of the samples (ms/token).\"\"\"\n"
     "    # an empty run has no statistics\n    if not samples:\n        return {}\n"
     "    return {\"mean\": statistics.fmean(samples), \"p99\": sorted(samples)[int(len(samples) * 0.99)]}\n\n"
     "print(summarize([4.1, 3.9, 4.4]))  # {'mean': 4.13, ...}\n"},
    {"cpp", "#include <vector>\n\n// Sums a row of weights; see docs/kernels.md for the layout.\n"
            "float rowSum(const std::vector<float>& row)\n{\n    float sum = 0.0f; /* accumulate in order */\n"
            "    for (float w : row)\n        sum += w;\n    return sum;\n}\n"},
    {"rust",
     "use std::collections::HashMap;\n\n/// Counts words in a line.\nfn count(line: &str) -> HashMap<&str, usize> {\n"
     "    let mut counts = HashMap::new();\n    for word in line.split_whitespace() {\n"
     "        *counts.entry(word).or_insert(0) += 1; // one more\n    }\n    counts\n}\n"},
    {"javascript", "// Fetch a page and report its size.\nasync function pageSize(url) {\n"
                   "  const response = await fetch(url); /* e.g. https://example.org/a/b */\n"
                   "  const text = await response.text();\n  return `${url}: ${text.length} bytes`;\n}\n\n"
                   "pageSize('https://example.org/').then(console.log);\n"},
    {"bash",
     "#!/usr/bin/env bash\n# Back up the models folder, keeping a week of copies.\nset -euo pipefail\n"
     "dest=\"$HOME/backups/models-$(date +%F)\"\nmkdir -p \"$dest\"\ncp -r ~/.local/share/hearth/models/* \"$dest\"/\n"
     "find \"$HOME/backups\" -maxdepth 1 -mtime +7 -exec rm -rf {} +\n"},
    {"json", "{\n  \"model\": \"SmolLM2-135M-Instruct\",\n  \"quant\": \"Q4_1\",\n  \"context\": 8192,\n"
             "  \"sampler\": { \"temperature\": 0.7, \"top_k\": 40, \"top_p\": 0.95 },\n  \"path\": "
             "\"/models/smol.gguf\"\n}\n"},
    {"sql",
     "-- Conversations with the most replies this week\nSELECT c.title, count(m.id) AS replies\n"
     "FROM conversations c JOIN messages m ON m.conversation_id = c.id\n"
     "WHERE m.created_at > strftime('%s', 'now', '-7 days') * 1000\nGROUP BY c.id\nORDER BY replies DESC\nLIMIT 10;\n"},
    {"go", "package main\n\nimport \"fmt\"\n\n// Fib returns the n-th Fibonacci number.\nfunc Fib(n int) int {\n"
           "\ta, b := 0, 1\n\tfor i := 0; i < n; i++ {\n\t\ta, b = b, a+b\n\t}\n\treturn a\n}\n\n"
           "func main() { fmt.Println(Fib(10)) }\n"},
};

const char* kEnglishParagraphs[] = {
    "Here is a short answer, and then the details. The idea is to keep the **common case fast** and to make the "
    "rare case *correct*, so that nothing surprises you later.",
    "In practice this means measuring first. A change that looks faster on paper can be slower once caches, "
    "branch prediction and memory bandwidth have their say, so run the benchmark before and after.",
    "The simplest version is often the best starting point: it is easy to test, and once it works you can make "
    "the slow parts faster with a reference to compare against.",
    "Keep in mind that local models run entirely on your machine. Nothing you type leaves it, which is why the "
    "model file and its settings are recorded with every reply.",
    "If something goes wrong, the error message names the file and what was expected there. That is usually "
    "enough to find the problem in a minute instead of an hour.",
};

const char* kChineseParagraphs[] = {
    "先给出简短的回答，再说明细节。关键是让**常见情况足够快**，同时保证少见的情况*完全正确*。",
    "实际操作时要先测量。纸面上更快的改动，在缓存、分支预测和内存带宽的影响下可能反而更慢，所以改动前后都要运行基准测试"
    "。",
    "最简单的版本往往是最好的起点：它容易测试，等它可以工作之后，再对照参考实现去优化慢的部分。",
    "请记住，本地模型完全在你的电脑上运行，你输入的内容不会离开这台机器，所以每条回复都会记录模型文件和参数。",
};

const char* kEnglishBullets[] = {
    "**Measure** the current behaviour with a benchmark you can repeat.",
    "Write down the *expected* result before you change anything.",
    "Change one thing at a time and keep the `git diff` small.",
    "Prefer clear names over comments that repeat the code.",
    "Keep a reference implementation around; see [the docs](https://example.org/docs) for details.",
    "Check the edge cases: empty input, a single item, and very large inputs.",
};

const char* kChineseBullets[] = {
    "用可重复的基准测试**测量**当前表现。",           "动手之前先写下*预期*结果。",
    "每次只改一处，保持 `git diff` 简短。",           "清晰的命名胜过重复代码的注释。",
    "检查边界情况：空输入、单个元素和非常大的输入。",
};

struct Writer {
    std::mt19937_64 rng;
    bool chinese;
    QString out;
    QHash<const void*, QList<int>> unused; // per repertoire: items not used lately

    int pick(int n) { return int(rng() % quint64(n)); }
    // An item not used since the repertoire was last exhausted, so
    // paragraphs repeat only in very long replies.
    template <typename T, size_t N>
    QString any(const T (&items)[N])
    {
        QList<int>& left = unused[items];
        if (left.isEmpty())
            for (int i = 0; i < int(N); ++i)
                left.append(i);
        return QString::fromUtf8(items[left.takeAt(pick(int(left.size())))]);
    }

    void paragraph() { out += (chinese ? any(kChineseParagraphs) : any(kEnglishParagraphs)) + QStringLiteral("\n\n"); }
    void heading()
    {
        static const char* en[] = {"## How it works", "## Step by step", "### A worked example", "## Why this helps"};
        static const char* zh[] = {"## 工作原理", "## 分步说明", "### 一个完整的例子", "## 为什么有用"};
        out += (chinese ? any(zh) : any(en)) + QStringLiteral("\n\n");
    }
    void bullets(bool numbered)
    {
        // Distinct items: a list never repeats itself.
        QList<int> order;
        const int size = chinese ? int(std::size(kChineseBullets)) : int(std::size(kEnglishBullets));
        for (int i = 0; i < size; ++i)
            order.insert(pick(int(order.size()) + 1), i);
        auto item = [&](int i) {
            return QString::fromUtf8(chinese ? kChineseBullets[order[i]] : kEnglishBullets[order[i]]);
        };
        const int n = std::min(size - 1, 3 + pick(2));
        for (int i = 0; i < n; ++i) {
            out += (numbered ? QStringLiteral("%1. ").arg(i + 1) : QStringLiteral("- ")) + item(i) + QLatin1Char('\n');
            if (!numbered && i == 1 && pick(2) == 0)
                out += QStringLiteral("  - ") + item(n) + QLatin1Char('\n');
        }
        out += QLatin1Char('\n');
    }
    void code()
    {
        const Code& c = kCode[pick(int(std::size(kCode)))];
        out += QStringLiteral("```%1\n%2```\n\n").arg(QLatin1String(c.language), QString::fromUtf8(c.body));
    }
    void quote()
    {
        out += chinese ? QStringLiteral("> 先让它正确，再让它快。\n\n")
                       : QStringLiteral("> Make it work, make it right, make it fast — in that order.\n\n");
    }
    void table()
    {
        out +=
            chinese
                ? QStringLiteral(
                      "| 量化 | 大小 | 质量 |\n|---|---:|---|\n| Q4_K_M | 4.1 GB | 好 |\n| Q8_0 | 7.2 GB | 很好 |\n\n")
                : QStringLiteral("| Quant | Size | Quality |\n|---|---:|---|\n| Q4_K_M | 4.1 GB | good |\n"
                                 "| Q8_0 | 7.2 GB | very good |\n\n");
    }

    // One natural reply: opening, then four to six varied sections, closing.
    void section()
    {
        switch (pick(7)) {
        case 0:
            heading();
            paragraph();
            break;
        case 1: bullets(false); break;
        case 2: bullets(true); break;
        case 3:
            paragraph();
            code();
            break;
        case 4: code(); break;
        case 5:
            quote();
            paragraph();
            break;
        default: table(); break;
        }
    }
};

bool isCjk(QChar c)
{
    const ushort u = c.unicode();
    return (u >= 0x3000 && u <= 0x9fff) || (u >= 0xff00 && u <= 0xffef);
}

} // namespace

// The answer to a document question (see reply()); empty when `prompt` has
// no numbered sources.
static QString answerFromSources(const QString& prompt, bool cite)
{
    if (!prompt.startsWith(QLatin1String("Sources:\n")))
        return {};
    static const QRegularExpression entry(QStringLiteral("^\\[(\\d+)\\] [^\\n]*\\n([^\\n]*)"),
                                          QRegularExpression::MultilineOption);
    QString out;
    int count = 0;
    for (auto it = entry.globalMatch(prompt); it.hasNext();) {
        const auto m = it.next();
        const QStringList words = m.captured(2).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        const QString quote = QStringList(words.mid(0, 12)).join(QLatin1Char(' '));
        out += cite ? QStringLiteral("The sources say: %1 [%2].\n\n").arg(quote, m.captured(1))
                    : QStringLiteral("The sources say: %1.\n\n").arg(quote);
        count = std::max(count, m.captured(1).toInt());
    }
    if (count == 0)
        return {};
    return cite ? out + QStringLiteral("More may be found in [%1].\n").arg(count + 1) : out;
}

QString reply(const QString& prompt, quint64 seed, int minPieces, bool cite)
{
    if (const QString answer = answerFromSources(prompt, cite); !answer.isEmpty())
        return answer;
    Writer w{std::mt19937_64(seed ^ qHash(prompt)), false, {}, {}};
    for (QChar c : prompt)
        w.chinese = w.chinese || isCjk(c);
    w.paragraph();
    const int sections = 4 + w.pick(3);
    for (int i = 0; i < sections; ++i)
        w.section();
    while (minPieces > 0 && countTokens(w.out) < minPieces)
        w.section();
    w.paragraph();
    return w.out.trimmed() + QLatin1Char('\n');
}

// Walks `text` piece by piece, calling sink(start, length) for each.
template <typename Sink>
static void splitPieces(const QString& text, Sink sink)
{
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const qsizetype start = i;
        const QChar c = text[i];
        if (c == QLatin1Char('\n')) {
            ++i;
        } else if (c.isHighSurrogate() && i + 1 < n) {
            i += 2;
        } else if (isCjk(c)) {
            ++i;
        } else {
            if (c == QLatin1Char(' ') && i + 1 < n && text[i + 1].isLetterOrNumber() && !isCjk(text[i + 1]))
                ++i; // a word keeps its leading space
            if (text[i].isLetterOrNumber() && !isCjk(text[i])) {
                const qsizetype wordStart = i;
                while (i < n && text[i].isLetterOrNumber() && !isCjk(text[i]) && i - wordStart < 7)
                    ++i;
            } else {
                ++i;
            }
        }
        sink(start, i - start);
    }
}

QStringList pieces(const QString& text)
{
    QStringList out;
    splitPieces(text, [&](qsizetype start, qsizetype length) { out.append(text.mid(start, length)); });
    return out;
}

int countTokens(const QString& text)
{
    int count = 0;
    splitPieces(text, [&](qsizetype, qsizetype) { ++count; });
    return count;
}

} // namespace FakeMarkdown
