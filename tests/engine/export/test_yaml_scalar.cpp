// How yaml.v3 prints strings, from the reference's own examples (§3). The
// arzcheck test compares many more against the real yaml.v3.

#include "export/yaml_scalar.h"

#include <QTest>

using arizuko::manifest::yamlScalar;

class TestYamlScalar : public QObject
{
    Q_OBJECT

private slots:
    void quoting_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("written");
        const QList<std::pair<const char *, const char *>> cases = {
            {"", "\"\""},
            {"12", "\"12\""},
            {"-1", "\"-1\""},
            {"true", "\"true\""},
            {"yes", "\"yes\""},
            {"Off", "\"Off\""},
            {"y", "\"y\""},
            {"null", "\"null\""},
            {"~", "\"~\""},
            {"2026-03-01T09:00:00Z", "\"2026-03-01T09:00:00Z\""},
            {"2026-03-01T09:00:00.123Z", "\"2026-03-01T09:00:00.123Z\""},
            {"12:30:00", "\"12:30:00\""},
            {"a\tb", "\"a\\tb\""},
            {"bell\x07", "\"bell\\a\""},
            {"*", "'*'"},
            {"**", "'**'"},
            {"-", "'-'"},
            {"{\"open\":1}", "'{\"open\":1}'"},
            {"x: y", "'x: y'"},
            {"a #b", "'a #b'"},
            {" lead", "' lead'"},
            {"trail ", "'trail '"},
            {"@home", "'@home'"},
            {"`id`", "'`id`'"},
            {"it's", "it's"},
            {"'quoted'", "'''quoted'''"},
            {"role:operator", "role:operator"},
            {"mcp:*", "mcp:*"},
            {"acme/**", "acme/**"},
            {"acme#observe", "acme#observe"},
            {"0 2 * * *", "0 2 * * *"},
            {"-dash", "-dash"},
            {"x,y", "x,y"},
            {"b\xc3\xbc"
             "cher",
             "b\xc3\xbc"
             "cher"},
            {"<<", "!!merge <<"},
            {"a\nb", "|-\n      a\n      b"},
            {"a\nb\n", "|\n      a\n      b\n"},
        };
        for (const auto &[text, written] : cases)
            QTest::newRow(text) << QByteArray(text) << QByteArray(written);
    }

    void quoting()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, written);
        QCOMPARE(yamlScalar(text, 4), written);
    }
};

QTEST_GUILESS_MAIN(TestYamlScalar)
#include "test_yaml_scalar.moc"
