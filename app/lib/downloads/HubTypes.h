// Plain data the hub client and the download manager exchange: what the
// Hugging Face Hub says about repositories and files, and how a file name
// tells its quant and its place in a split set.
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

// One repository in search results.
struct HubModel {
    QString id; // "owner/name"
    qint64 downloads = 0;
    qint64 likes = 0;
    QDateTime lastModified; // UTC; invalid when the hub did not say
    bool gated = false;
    bool isPrivate = false;
};

// One file of a repository at a revision.
struct HubFile {
    QString path; // inside the repository ("Q4_K_M/model-00001-of-00002.gguf")
    qint64 size = 0;
    QString sha256; // lower-case hex of the LFS object; empty for a non-LFS file
};

struct RepoFiles {
    QString repo;
    QString revision; // as asked ("main")
    QString commit;   // the commit the hub resolved it to ("" if not given)
    QList<HubFile> files;
};

// A model one can download: a single GGUF file or every part of a split set
// (NAME-00001-of-0000N.gguf ...), in part order.
struct ModelFileChoice {
    QString name;  // the first part's path, or the file's
    QString quant; // from the file name ("Q4_K_M"; "" when it names none)
    QList<HubFile> parts;

    qint64 size() const;
    bool isSplit() const { return parts.size() > 1; }
};

namespace HubNames {

// The quant label in a GGUF file name, upper-cased ("Q4_K_M", "IQ3_XXS",
// "BF16"), or "" when the name carries none.
QString quantOf(const QString& fileName);
// Groups a repository's GGUF files into downloadable models; a split set
// becomes one choice (and is left out if a part is missing). Sorted by size.
QList<ModelFileChoice> ggufChoices(const QList<HubFile>& files);
// Whether `path` is the 2nd or later part of a split set.
bool isLaterSplitPart(const QString& path);
// The index of the choice `want` names: a file's path or file name, else a
// quant label ("q4_k_m" matches Q4_K_M); -1 when none does.
int findChoice(const QList<ModelFileChoice>& choices, const QString& want);
// Memory a model needs, guessed from its file size before its header is read
// (weights plus a fifth for the KV cache and scratch).
qint64 roughMemoryFor(qint64 fileSize);
// The file to offer first: Q4_K_M when it fits in `availableBytes`, else the
// largest that fits, else the smallest; -1 for no choices.
int recommendedChoice(const QList<ModelFileChoice>& choices, qint64 availableBytes);

} // namespace HubNames
