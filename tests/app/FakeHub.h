// Runs tests/app/fake_hub.py (a stand-in for the Hugging Face Hub on
// loopback) over GGUF files this helper writes, and talks to its control
// surface: faults (cuts, stalls, throttling) and the bytes it served.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>
#include <QUrl>

class FakeHub {
public:
    // The repositories (all under "test/"):
    //   Tiny-GGUF     tiny-Q4_K_M.gguf, tiny-Q8_0.gguf, tiny-F16-0000{1,2}-of-00002.gguf, README.md
    //   Private-GGUF  tiny-Q4_K_M.gguf, readable with token() only
    //   Wrong-GGUF    tiny-Q4_K_M.gguf, with a wrong LFS SHA-256 listed
    //   Junk-GGUF     junk.gguf (random bytes)
    FakeHub();
    ~FakeHub();

    bool start(); // false (with error()) when python3 or the script is missing
    QString error() const { return m_error; }
    QUrl endpoint() const;
    static QString token() { return QStringLiteral("hf_fake_token"); }

    QString filePath(const QString& name) const; // the local original
    qint64 fileSize(const QString& name) const;
    QString sha256(const QString& name) const;

    void control(const QJsonObject& settings);
    QJsonObject stats();
    qint64 bytesServed(); // all files, since the last reset
    void reset()
    {
        control({{QStringLiteral("reset_stats"), true},
                 {QStringLiteral("cuts"), QJsonArray()},
                 {QStringLiteral("stall_after"), QJsonValue::Null},
                 {QStringLiteral("rate"), QJsonValue::Null}});
    }

private:
    QJsonObject http(const QByteArray& method, const QString& path, const QByteArray& body);

    QTemporaryDir m_dir;
    QProcess m_process;
    int m_port = 0;
    QString m_error;
};
