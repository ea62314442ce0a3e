// HeaderFacts::displayName: a model is shown by the file's clear name when
// general.name says something else (a training-run name), by general.name
// or basename + size label + finetune when they agree with the file name or
// when the file name says nothing.

#include "engine/HeaderFacts.h"
#include "gguf/model_info.h"

#include <QTest>

class TestDisplayName : public QObject {
    Q_OBJECT

private slots:
    void names_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("generalName");
        QTest::addColumn<QStringList>("parts"); // basename, size label, finetune
        QTest::addColumn<QString>("shown");
        QTest::newRow("odd general.name")
            << QStringLiteral("/m/SmolLM2-135M-Instruct.Q4_1.gguf") << QStringLiteral("Smollm2 135M 8k Lc100K Mix1 Ep2")
            << QStringList{"Smollm2", "135M", "8k-lc100k-mix1-ep2"} << QStringLiteral("SmolLM2-135M-Instruct");
        QTest::newRow("agreeing general.name")
            << QStringLiteral("/m/gemma-3-270m-it-Q4_K_M.gguf") << QStringLiteral("Gemma 3 270m It") << QStringList{}
            << QStringLiteral("Gemma 3 270m It");
        QTest::newRow("file name part of it") << QStringLiteral("/m/tiny.gguf") << QStringLiteral("Tiny Test Model")
                                              << QStringList{} << QStringLiteral("Tiny Test Model");
        QTest::newRow("generic file, parts")
            << QStringLiteral("/m/model.gguf") << QStringLiteral("qwen2.5 run 7")
            << QStringList{"Qwen2.5", "0.5B", "Instruct"} << QStringLiteral("Qwen2.5 0.5B Instruct");
        QTest::newRow("generic file, name") << QStringLiteral("/m/ggml-model-q4_0.gguf") << QStringLiteral("LLaMA v2")
                                            << QStringList{} << QStringLiteral("LLaMA v2");
        QTest::newRow("agreeing parts") << QStringLiteral("/m/Qwen2.5-0.5B-Instruct-f16.gguf")
                                        << QStringLiteral("odd-run-name") << QStringList{"Qwen2.5", "0.5B", "Instruct"}
                                        << QStringLiteral("Qwen2.5 0.5B Instruct");
        QTest::newRow("split file, no name")
            << QStringLiteral("/m/Mistral-7B-v0.1.Q8_0-00001-of-00003.gguf") << QStringLiteral("") << QStringList{}
            << QStringLiteral("Mistral-7B-v0.1");
        QTest::newRow("underscores") << QStringLiteral("/m/my_model_v2.IQ4_XS.gguf") << QStringLiteral("")
                                     << QStringList{} << QStringLiteral("my model v2");
        QTest::newRow("nothing at all") << QStringLiteral("/m/model.gguf") << QStringLiteral("") << QStringList{}
                                        << QStringLiteral("model");
    }

    void names()
    {
        QFETCH(QString, path);
        QFETCH(QString, generalName);
        QFETCH(QStringList, parts);
        QFETCH(QString, shown);
        hearth::gguf::ModelInfo info;
        info.path = path.toStdString();
        info.name = generalName.toStdString();
        info.baseName = parts.value(0).toStdString();
        info.sizeLabel = parts.value(1).toStdString();
        info.finetune = parts.value(2).toStdString();
        QCOMPARE(HeaderFacts::displayName(info), shown);
    }
};

QTEST_MAIN(TestDisplayName)
#include "test_display_name.moc"
