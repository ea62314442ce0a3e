// Writes test documents the way real programs lay them out: PDFs through
// QPdfWriter (headings set larger, paragraphs word-wrapped), DOCX and ODT as
// zip archives with heading styles and page breaks, Markdown and HTML with
// headed sections; and the synthetic retrieval corpus of
// tests/data/documents/facts.tsv (one fact per page or section among filler).
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace corpus {

struct Section {
    QString heading; // a page's (or section's) heading
    QStringList paragraphs;
};

void writePdf(const QString& path, const QList<Section>& pages);
// Each section on its own page (page breaks between them).
void writeDocx(const QString& path, const QList<Section>& pages);
void writeOdt(const QString& path, const QList<Section>& pages);
void writeMarkdown(const QString& path, const QString& title, const QList<Section>& sections);
void writeHtml(const QString& path, const QString& title, const QList<Section>& sections);
// A zip archive of (name, bytes) members, deflated.
void writeZip(const QString& path, const QList<QPair<QString, QByteArray>>& members);

struct Fact {
    QString file;  // document file name
    int page = 0;  // paged documents
    QString place; // the page number or section heading, as in facts.tsv
    QString fact, question;
};

// The small documents of the chat tests: a town guide of three pages
// (harbour, lighthouse, market; one fact each: the lighthouse keeper's cat
// is Admiral Pepper) and a garden diary of two sections (roses, soil).
QList<Section> townPages();
QList<Section> gardenSections();

QList<Fact> loadFacts(const QString& tsvPath);
// Writes every document of the facts into `dir`; returns their paths.
QStringList writeCorpus(const QString& dir, const QList<Fact>& facts);

} // namespace corpus
