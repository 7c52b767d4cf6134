// The console lines a boot-limit error quotes: the last ones, as text a
// terminal and the transcript show safely (the guest writes what it likes).

#include "turns/console_tail.h"

#include <QTemporaryDir>
#include <QTest>

using namespace arizuko::turns;

class TestConsoleTail : public QObject
{
    Q_OBJECT

    QTemporaryDir m_directory;

    QString logWith(const QByteArray &bytes)
    {
        const QString path = m_directory.filePath(QStringLiteral("console.log"));
        QFile log(path);
        if (!log.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            log.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

private slots:
    void theLastLinesInOrderWithoutBlankOnes()
    {
        const QString path = logWith("one\r\ntwo\r\n\r\nthree\r\nfour\r\n");
        QCOMPARE(consoleTail(path, 3), (QStringList{QStringLiteral("two"), QStringLiteral("three"),
                                                    QStringLiteral("four")}));
        QCOMPARE(consoleTail(path, 10).size(), 4);
    }

    void controlCharactersAreSpelledOut()
    {
        const QString path = logWith("\x1b]0;owned\x07title\x1b[2Kgone\tkept\n");
        QCOMPARE(consoleTail(path, 5),
                 QStringList{QStringLiteral("\\x1b]0;owned\\x07title\\x1b[2Kgone\tkept")});
    }

    void aLongLogIsReadFromItsEnd()
    {
        QByteArray bytes;
        for (int line = 0; line < 20000; ++line)
            bytes += "line " + QByteArray::number(line) + '\n';
        QCOMPARE(consoleTail(logWith(bytes), 2),
                 (QStringList{QStringLiteral("line 19998"), QStringLiteral("line 19999")}));
    }

    void aMissingOrEmptyLogHasNoTail()
    {
        QVERIFY(consoleTail(m_directory.filePath(QStringLiteral("absent.log")), 5).isEmpty());
        QVERIFY(consoleTail(logWith(""), 5).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestConsoleTail)
#include "test_console_tail.moc"
