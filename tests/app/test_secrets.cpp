// SecretStore against a real Secret Service (GNOME Keyring on a private
// D-Bus session, tests/common/with_keyring.sh): write, read back, overwrite,
// remove, and a missing key reported as not found; the blocking and the
// asynchronous calls agree.

#include "secrets/SecretStore.h"

#include <QSignalSpy>
#include <QTest>
#include <QUuid>

class TestSecrets : public QObject {
    Q_OBJECT

private:
    SecretStore m_store;

private slots:
    void initTestCase()
    {
        m_store.setService(QStringLiteral("Hearth test ") + QUuid::createUuid().toString(QUuid::WithoutBraces));
        const SecretResult probe = m_store.readBlocking(QStringLiteral("probe"));
        if (probe.status == SecretResult::Status::Unavailable)
            QSKIP(qPrintable(probe.error));
    }

    void writeReadRemove()
    {
        const QString key = QStringLiteral("server/api-key");
        QVERIFY2(m_store.writeBlocking(key, QStringLiteral("sk-first")).ok(), "write");
        SecretResult r = m_store.readBlocking(key);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.value, QStringLiteral("sk-first"));

        QVERIFY(m_store.writeBlocking(key, QStringLiteral("sk-second \u00e9\u4e2d")).ok());
        QCOMPARE(m_store.readBlocking(key).value, QStringLiteral("sk-second \u00e9\u4e2d"));

        QVERIFY(m_store.removeBlocking(key).ok());
        QCOMPARE(m_store.readBlocking(key).status, SecretResult::Status::NotFound);
        // Removing again is not an error.
        QVERIFY(m_store.removeBlocking(key).ok());
    }

    void asynchronousCallsReportOnTheEventLoop()
    {
        const QString key = QStringLiteral("hub/token");
        bool written = false;
        m_store.write(key, QStringLiteral("hf_abc"), [&](const SecretResult& r) { written = r.ok(); });
        QTRY_VERIFY(written);
        QString value;
        m_store.read(key, [&](const SecretResult& r) { value = r.value; });
        QTRY_COMPARE(value, QStringLiteral("hf_abc"));
        bool removed = false;
        m_store.remove(key, [&](const SecretResult& r) { removed = r.ok(); });
        QTRY_VERIFY(removed);
    }

    void missingKeyIsNotFound()
    {
        const SecretResult r = m_store.readBlocking(QStringLiteral("never/written"));
        QCOMPARE(r.status, SecretResult::Status::NotFound);
        QVERIFY(r.value.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSecrets)
#include "test_secrets.moc"
