// Starts tests/app/remote/fake_openai_server.py (or another OpenAI-compatible
// server script) on loopback for a test, reads the port it printed, and
// asks it what it saw (/_events, /_last). Header-only. Needs python3.
#pragma once

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

class FakeOpenAiServer {
public:
    static QString script() { return QStringLiteral(HEARTH_FAKE_SERVER); }

    // "" when started, else why not.
    QString start(const QStringList& extraArgs = {})
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            return QStringLiteral("python3 not found");
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(python, QStringList{script()} + extraArgs);
        if (!m_process.waitForStarted(10000))
            return QStringLiteral("cannot start python3");
        const QDeadlineTimer deadline(30000);
        QByteArray line;
        while (!line.endsWith('\n') && !deadline.hasExpired()) {
            if (!m_process.waitForReadyRead(200) && m_process.state() != QProcess::Running)
                return QStringLiteral("the fake server exited: ") + QString::fromUtf8(m_process.readAll());
            line += m_process.readLine();
        }
        if (!line.startsWith("PORT "))
            return QStringLiteral("the fake server printed '%1'").arg(QString::fromUtf8(line));
        m_port = line.mid(5).trimmed().toInt();
        return {};
    }

    ~FakeOpenAiServer()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    int port() const { return m_port; }
    QString url(const QString& scheme = QStringLiteral("http")) const
    {
        return QStringLiteral("%1://127.0.0.1:%2").arg(scheme).arg(m_port);
    }
    bool running() const { return m_process.state() == QProcess::Running; }
    QProcess& process() { return m_process; }

    // GET a control route (/_events, /_last) as JSON.
    QJsonObject control(const QString& route) const
    {
        QNetworkAccessManager network;
        QNetworkReply* reply = network.get(QNetworkRequest(QUrl(url() + route)));
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return o;
    }

    // Whether /_events lists `event` within `ms`.
    bool waitForEvent(const QString& event, int ms = 5000) const
    {
        const QDeadlineTimer deadline(ms);
        while (!deadline.hasExpired()) {
            if (control(QStringLiteral("/_events"))
                    .value(QLatin1String("events"))
                    .toVariant()
                    .toStringList()
                    .contains(event))
                return true;
            QTest::qWait(50);
        }
        return false;
    }

private:
    QProcess m_process;
    int m_port = 0;
};
