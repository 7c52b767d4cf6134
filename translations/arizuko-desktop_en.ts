<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
<context>
    <name>arizuko::desktop::AuditLogViewer</name>
    <message numerus="yes">
        <source>%n entries; new ones appear as they are written.</source>
        <translation>
            <numerusform>%n entry; new ones appear as they are written.</numerusform>
            <numerusform>%n entries; new ones appear as they are written.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::ChangesPanel</name>
    <message numerus="yes">
        <source>%n file(s) changed in the home.</source>
        <translation>
            <numerusform>%n file changed in the home.</numerusform>
            <numerusform>%n files changed in the home.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Undone: %n file(s) restored</source>
        <translation>
            <numerusform>Undone: %n file restored</numerusform>
            <numerusform>Undone: %n files restored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n changed since and left alone</source>
        <translation>
            <numerusform>; %n changed since and left alone</numerusform>
            <numerusform>; %n changed since and left alone</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::Composer</name>
    <message numerus="yes">
        <source>%n prompt(s) queued</source>
        <translation>
            <numerusform>%n prompt queued</numerusform>
            <numerusform>%n prompts queued</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::EgressQuestionBar</name>
    <message numerus="yes">
        <source>%n more waiting.</source>
        <translation>
            <numerusform>%n more waiting.</numerusform>
            <numerusform>%n more waiting.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::ExportDialog</name>
    <message numerus="yes">
        <source>%n row(s) have no server equivalent and are left out (listed below).</source>
        <translation>
            <numerusform>%n row has no server equivalent and is left out (listed below).</numerusform>
            <numerusform>%n rows have no server equivalent and are left out (listed below).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::FolderTreePanel</name>
    <message numerus="yes">
        <source>Move &quot;%1&quot; to &quot;%2&quot;?

These folders move, with %n topic(s), their turns, network rules, grants, routes, secrets and home directories:

%3</source>
        <translation>
            <numerusform>Move &quot;%1&quot; to &quot;%2&quot;?

These folders move, with %n topic, their turns, network rules, grants, routes, secrets and home directories:

%3</numerusform>
            <numerusform>Move &quot;%1&quot; to &quot;%2&quot;?

These folders move, with %n topics, their turns, network rules, grants, routes, secrets and home directories:

%3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::ImportDialog</name>
    <message numerus="yes">
        <source>Write the %n planned change(s) to this desktop&apos;s store? They are written together or not at all.</source>
        <translation>
            <numerusform>Write the %n planned change to this desktop&apos;s store?</numerusform>
            <numerusform>Write the %n planned changes to this desktop&apos;s store? They are written together or not at all.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Applied %n change(s).</source>
        <translation>
            <numerusform>Applied %n change.</numerusform>
            <numerusform>Applied %n changes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n change(s) planned. Nothing is written until you apply.</source>
        <translation>
            <numerusform>%n change planned. Nothing is written until you apply.</numerusform>
            <numerusform>%n changes planned. Nothing is written until you apply.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::LedgerViewer</name>
    <message numerus="yes">
        <source>The newest %n requests; older ones follow as you scroll down.</source>
        <translation>
            <numerusform>The newest %n request; older ones follow as you scroll down.</numerusform>
            <numerusform>The newest %n requests; older ones follow as you scroll down.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n requests.</source>
        <translation>
            <numerusform>%n request.</numerusform>
            <numerusform>%n requests.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %n requests to %1.</source>
        <translation>
            <numerusform>Exported %n request to %1.</numerusform>
            <numerusform>Exported %n requests to %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::SettingsDialog</name>
    <message numerus="yes">
        <source>Saved %n setting(s). arizukoctl uses them from its next command; this window&apos;s turns use them after a restart.</source>
        <translation>
            <numerusform>Saved %n setting. arizukoctl uses it from its next command; this window&apos;s turns use it after a restart.</numerusform>
            <numerusform>Saved %n settings. arizukoctl uses them from its next command; this window&apos;s turns use them after a restart.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::TranscriptText</name>
    <message numerus="yes">
        <source>%n added</source>
        <translation>
            <numerusform>%n added</numerusform>
            <numerusform>%n added</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n modified</source>
        <translation>
            <numerusform>%n modified</numerusform>
            <numerusform>%n modified</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n deleted</source>
        <translation>
            <numerusform>%n deleted</numerusform>
            <numerusform>%n deleted</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n skipped</source>
        <translation>
            <numerusform>%n skipped</numerusform>
            <numerusform>%n skipped</numerusform>
        </translation>
    </message>
</context>
</TS>
