// Writes a small folder of documents for the documents end-to-end test and
// the screenshots in docs/: a town guide as a six-page PDF (one fact a page,
// written by QPdfWriter as tests/app/DocumentCorpus does), a Markdown garden
// diary and a DOCX recipe book with page breaks.
//   write_documents DIR
#include "DocumentCorpus.h"

#include <QDir>
#include <QGuiApplication>

int main(int argc, char* argv[])
{
    QGuiApplication app(argc, argv); // QPdfWriter lays out text with the platform's fonts
    if (argc != 2 || !QDir().mkpath(QString::fromLocal8Bit(argv[1])))
        return 1;
    const QDir dir(QString::fromLocal8Bit(argv[1]));
    corpus::writePdf(
        dir.filePath(QStringLiteral("varnholm-guide.pdf")),
        {{QStringLiteral("Welcome to Varnholm"),
          {QStringLiteral("Varnholm is a fishing town on a narrow bay, reached by the coast road or by the ferry."),
           QStringLiteral("This guide lists what a visitor asks about most often.")}},
         {QStringLiteral("The harbour"),
          {QStringLiteral("The harbour was dredged in 1911 so that steamships could tie up at the stone quay."),
           QStringLiteral("Small boats still land their catch at the wooden pier on the north side.")}},
         {QStringLiteral("The lighthouse"),
          {QStringLiteral("The lighthouse keeper kept a grey cat called Admiral Pepper, who slept beside the "
                          "lamp every winter night."),
           QStringLiteral("The tower has 142 steps and is open to visitors on Sundays.")}},
         {QStringLiteral("The fish market"),
          {QStringLiteral("On Thursdays the fish market opens at four in the morning, before the boats return."),
           QStringLiteral("Herring and cod are sold by the crate; smoked eel is the local speciality.")}},
         {QStringLiteral("Getting around"),
          {QStringLiteral("The ferry to Selby Island leaves every two hours from the east jetty."),
           QStringLiteral("Bicycles can be hired at the railway station for eight crowns a day.")}},
         {QStringLiteral("Festivals"),
          {QStringLiteral("The lantern festival takes place on the last Saturday of August."),
           QStringLiteral("Hundreds of paper lanterns are floated across the bay at dusk.")}}});
    corpus::writeMarkdown(
        dir.filePath(QStringLiteral("garden-diary.md")), QStringLiteral("Garden diary"),
        {{QStringLiteral("Roses"), {QStringLiteral("The climbing roses on the south wall are pruned in February.")}},
         {QStringLiteral("Soil"), {QStringLiteral("The vegetable beds get a layer of compost every October.")}}});
    corpus::writeDocx(dir.filePath(QStringLiteral("recipes.docx")),
                      {{QStringLiteral("Fish soup"),
                        {QStringLiteral("The fish soup simmers for forty minutes with fennel and saffron.")}},
                       {QStringLiteral("Rye bread"),
                        {QStringLiteral("The rye bread dough rests overnight in a cool larder before baking.")}}});
    return 0;
}
