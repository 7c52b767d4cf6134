<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>QObject</name>
    <message>
        <source>%1 (replaces the server&apos;s whole %1 table)</source>
        <translation>%1 (ersetzt die ganze Tabelle %1 des Servers)</translation>
    </message>
    <message>
        <source>secrets (names only, never values)</source>
        <translation>Geheimnisse (nur Namen, nie Werte)</translation>
    </message>
    <message>
        <source>add</source>
        <translation>hinzufügen</translation>
    </message>
    <message>
        <source>change</source>
        <translation>ändern</translation>
    </message>
    <message>
        <source>remove</source>
        <translation>entfernen</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::AllowlistEditor</name>
    <message>
        <source>Rules that apply to the folder</source>
        <translation>Regeln, die für den Ordner gelten</translation>
    </message>
    <message>
        <source>&amp;Add rule</source>
        <translation>Regel hinzu&amp;fügen</translation>
    </message>
    <message>
        <source>&amp;Remove rule</source>
        <translation>Regel &amp;entfernen</translation>
    </message>
    <message>
        <source>Allowlist</source>
        <translation>Zulassungsliste</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Host to add</source>
        <translation>Hinzuzufügender Host</translation>
    </message>
    <message>
        <source>github.com, *.example.org, 203.0.113.7</source>
        <translation>github.com, *.example.org, 203.0.113.7</translation>
    </message>
    <message>
        <source>Allow or deny</source>
        <translation>Erlauben oder verweigern</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Erlauben</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Verweigern</translation>
    </message>
    <message>
        <source>Host to test</source>
        <translation>Zu testender Host</translation>
    </message>
    <message>
        <source>api.github.com</source>
        <translation>api.github.com</translation>
    </message>
    <message>
        <source>What the proxy would do</source>
        <translation>Was der Proxy tun würde</translation>
    </message>
    <message>
        <source>The next turn&apos;s proxy arguments</source>
        <translation>Die Proxy-Argumente des nächsten Durchlaufs</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>&amp;Host:</translation>
    </message>
    <message>
        <source>Test a host</source>
        <translation>Host testen</translation>
    </message>
    <message>
        <source>&amp;Test host:</source>
        <translation>Host &amp;testen:</translation>
    </message>
    <message>
        <source>The next turn&apos;s proxy starts with</source>
        <translation>Der Proxy des nächsten Durchlaufs startet mit</translation>
    </message>
    <message>
        <source>Allowlist of %1</source>
        <translation>Zulassungsliste von %1</translation>
    </message>
    <message>
        <source>Will be stored as %1</source>
        <translation>Wird gespeichert als %1</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <source>Not added: %1</source>
        <translation>Nicht hinzugefügt: %1</translation>
    </message>
    <message>
        <source>Type a host to see what this folder&apos;s proxy would do with it.</source>
        <translation>Geben Sie einen Host ein, um zu sehen, was der Proxy dieses Ordners damit tun würde.</translation>
    </message>
    <message>
        <source>Not a host: %1</source>
        <translation>Kein Host: %1</translation>
    </message>
    <message>
        <source>ALLOWED %1: %2</source>
        <translation>ERLAUBT %1: %2</translation>
    </message>
    <message>
        <source>DENIED %1: %2</source>
        <translation>VERWEIGERT %1: %2</translation>
    </message>
    <message>
        <source>allow: %1
</source>
        <translation>erlaubt: %1
</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>deny: %1
</source>
        <translation>verweigert: %1
</translation>
    </message>
    <message>
        <source>every other host: allowed by the egress grant</source>
        <translation>jeder andere Host: erlaubt durch die Egress-Freigabe</translation>
    </message>
    <message>
        <source>every other host: denied</source>
        <translation>jeder andere Host: verweigert</translation>
    </message>
    <message>
        <source>What the folder&apos;s turns do with hosts on no allow entry</source>
        <translation>Was die Turns des Ordners mit Hosts ohne Eintrag in der Erlaubnisliste tun</translation>
    </message>
    <message>
        <source>Inherited</source>
        <translation>Geerbt</translation>
    </message>
    <message>
        <source>Deny at once</source>
        <translation>Sofort ablehnen</translation>
    </message>
    <message>
        <source>Ask while the request waits</source>
        <translation>Fragen, während die Anfrage wartet</translation>
    </message>
    <message>
        <source>Seconds a question waits before the request is denied</source>
        <translation>Sekunden, die eine Frage wartet, bevor die Anfrage abgelehnt wird</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Hosts on no allow entry</source>
        <translation>Hosts ohne Eintrag in der Erlaubnisliste</translation>
    </message>
    <message>
        <source>&amp;Unlisted hosts:</source>
        <translation>&amp;Nicht gelistete Hosts:</translation>
    </message>
    <message>
        <source>&amp;Question timeout:</source>
        <translation>&amp;Zeitlimit der Frage:</translation>
    </message>
    <message>
        <source>Saved; the folder&apos;s next turn starts with it.</source>
        <translation>Gespeichert; der nächste Turn des Ordners startet damit.</translation>
    </message>
    <message>
        <source>Days the egress ledger keeps the folder&apos;s requests</source>
        <translation>Tage, die das Egress-Protokoll die Anfragen des Ordners aufbewahrt</translation>
    </message>
    <message>
        <source> days</source>
        <translation> Tage</translation>
    </message>
    <message>
        <source>Egress ledger</source>
        <translation>Egress-Protokoll</translation>
    </message>
    <message>
        <source>&amp;Keep requests for:</source>
        <translation>Anfragen &amp;aufbewahren:</translation>
    </message>
    <message>
        <source>Saved; older requests are deleted when the engine starts and after turns end.</source>
        <translation>Gespeichert; ältere Anfragen werden beim Start der Engine und nach dem Ende von Durchläufen gelöscht.</translation>
    </message>
    <message>
        <source>&amp;Edit rule</source>
        <translation>Regel &amp;bearbeiten</translation>
    </message>
    <message>
        <source>Methods the rule covers</source>
        <translation>Methoden, die die Regel abdeckt</translation>
    </message>
    <message>
        <source>any; or GET,HEAD</source>
        <translation>alle; oder GET,HEAD</translation>
    </message>
    <message>
        <source>Path pattern the rule covers</source>
        <translation>Pfadmuster, das die Regel abdeckt</translation>
    </message>
    <message>
        <source>any; or /repos/acme/**</source>
        <translation>alle; oder /repos/acme/**</translation>
    </message>
    <message>
        <source>Method of the request to test</source>
        <translation>Methode der zu testenden Anfrage</translation>
    </message>
    <message>
        <source>Host of the request to test</source>
        <translation>Host der zu testenden Anfrage</translation>
    </message>
    <message>
        <source>Path of the request to test</source>
        <translation>Pfad der zu testenden Anfrage</translation>
    </message>
    <message>
        <source>/repos/acme/tool/pulls</source>
        <translation>/repos/acme/tool/pulls</translation>
    </message>
    <message>
        <source>What the proxy would do with the request</source>
        <translation>Was der Proxy mit der Anfrage tun würde</translation>
    </message>
    <message>
        <source>&amp;Methods:</source>
        <translation>&amp;Methoden:</translation>
    </message>
    <message>
        <source>&amp;Path:</source>
        <translation>&amp;Pfad:</translation>
    </message>
    <message>
        <source>Test a request</source>
        <translation>Eine Anfrage testen</translation>
    </message>
    <message>
        <source>Metho&amp;d:</source>
        <translation>Metho&amp;de:</translation>
    </message>
    <message>
        <source>Ho&amp;st:</source>
        <translation>Ho&amp;st:</translation>
    </message>
    <message>
        <source>Path &amp;in the request:</source>
        <translation>Pfad &amp;in der Anfrage:</translation>
    </message>
    <message>
        <source>Type a host name or an IP address; a name covers its subdomains. Methods or a path narrow the rule to those requests, and the host becomes inspected.</source>
        <translation>Geben Sie einen Hostnamen oder eine IP-Adresse ein; ein Name schließt seine Subdomains ein. Methoden oder ein Pfad beschränken die Regel auf diese Anfragen, und der Host wird geprüft.</translation>
    </message>
    <message>
        <source>Will be stored as %1 %2 %3: the rule covers those requests only, and the proxy inspects every request to %2.</source>
        <translation>Wird gespeichert als %1 %2 %3: Die Regel gilt nur für diese Anfragen, und der Proxy prüft jede Anfrage an %2.</translation>
    </message>
    <message>
        <source>Not changed: %1</source>
        <translation>Nicht geändert: %1</translation>
    </message>
    <message>
        <source>Changed to %1; it applies from the folder&apos;s next turn.</source>
        <translation>Geändert in %1; gilt ab dem nächsten Durchlauf des Ordners.</translation>
    </message>
    <message>
        <source>Added %1; it applies from the folder&apos;s next turn.</source>
        <translation>%1 hinzugefügt; gilt ab dem nächsten Durchlauf des Ordners.</translation>
    </message>
    <message>
        <source>%1 was already a rule of this folder.</source>
        <translation>%1 war bereits eine Regel dieses Ordners.</translation>
    </message>
    <message>
        <source>Sa&amp;ve change</source>
        <translation>Änderung spei&amp;chern</translation>
    </message>
    <message>
        <source>Ca&amp;ncel edit</source>
        <translation>&amp;Bearbeiten abbrechen</translation>
    </message>
    <message>
        <source>Editing %1: change it above, then save.</source>
        <translation>%1 wird bearbeitet: oben ändern, dann speichern.</translation>
    </message>
    <message>
        <source>Removed %1.</source>
        <translation>%1 entfernt.</translation>
    </message>
    <message>
        <source>Type a method, a host and a path to see whether this folder&apos;s proxy would let the request through, and which rule decides.</source>
        <translation>Geben Sie eine Methode, einen Host und einen Pfad ein, um zu sehen, ob der Proxy dieses Ordners die Anfrage durchlassen würde und welche Regel entscheidet.</translation>
    </message>
    <message>
        <source>Not a request: %1</source>
        <translation>Keine Anfrage: %1</translation>
    </message>
    <message>
        <source>Decided by %1, a rule of this folder.</source>
        <translation>Entschieden durch %1, eine Regel dieses Ordners.</translation>
    </message>
    <message>
        <source>Decided by %1, inherited from %2.</source>
        <translation>Entschieden durch %1, geerbt von %2.</translation>
    </message>
    <message>
        <source>Decided by the folder&apos;s egress grant.</source>
        <translation>Entschieden durch die Egress-Freigabe des Ordners.</translation>
    </message>
    <message>
        <source>No rule allows it.</source>
        <translation>Keine Regel erlaubt sie.</translation>
    </message>
    <message>
        <source>%1 is inspected: the proxy judges each request to it.</source>
        <translation>%1 wird geprüft: Der Proxy beurteilt jede Anfrage daran einzeln.</translation>
    </message>
    <message>
        <source>%1 is not inspected: its allow and deny entries decide for the whole connection.</source>
        <translation>%1 wird nicht geprüft: Seine Erlaubnis- und Verbotseinträge entscheiden für die ganze Verbindung.</translation>
    </message>
    <message>
        <source>ALLOWED</source>
        <translation>ERLAUBT</translation>
    </message>
    <message>
        <source>DENIED</source>
        <translation>VERWEIGERT</translation>
    </message>
    <message>
        <source>The proxy&apos;s reason: %1</source>
        <translation>Begründung des Proxys: %1</translation>
    </message>
    <message>
        <source>What the rule will be stored as</source>
        <translation>Wie die Regel gespeichert wird</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::AuditLogViewer</name>
    <message>
        <source>Audit log entries</source>
        <translation>Einträge im Prüfprotokoll</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>Prüfprotokoll</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>(every kind)</source>
        <translation>(alle Arten)</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Art:</translation>
    </message>
    <message>
        <source>&amp;Since:</source>
        <translation>&amp;Zeitraum:</translation>
    </message>
    <message>
        <source>(every subject)</source>
        <translation>(alle Gegenstände)</translation>
    </message>
    <message numerus="yes">
        <source>%n entries; new ones appear as they are written.</source>
        <translation>
            <numerusform>%n Eintrag; neue erscheinen, sobald sie geschrieben werden.</numerusform>
            <numerusform>%n Einträge; neue erscheinen, sobald sie geschrieben werden.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::ChangesPanel</name>
    <message>
        <source>&amp;Undo this turn…</source>
        <translation>Diesen Turn &amp;rückgängig machen…</translation>
    </message>
    <message>
        <source>Files the turn changed</source>
        <translation>Vom Turn geänderte Dateien</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Unified diff</source>
        <translation>Unified Diff</translation>
    </message>
    <message>
        <source>No turn selected.</source>
        <translation>Kein Turn ausgewählt.</translation>
    </message>
    <message>
        <source>Reading the home&apos;s history…</source>
        <translation>Der Verlauf des Home-Verzeichnisses wird gelesen…</translation>
    </message>
    <message>
        <source>The changes are recorded when the turn&apos;s VM is gone.</source>
        <translation>Die Änderungen werden aufgezeichnet, sobald die VM des Turns beendet ist.</translation>
    </message>
    <message>
        <source>The turn changed no file in the home.</source>
        <translation>Der Turn hat keine Datei im Home-Verzeichnis geändert.</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) changed in the home.</source>
        <translation>
            <numerusform>%n Datei im Home-Verzeichnis geändert.</numerusform>
            <numerusform>%n Dateien im Home-Verzeichnis geändert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Restore these files to their state before the turn?</source>
        <translation>Diese Dateien auf ihren Stand vor dem Turn zurücksetzen?</translation>
    </message>
    <message>
        <source>Changed since the turn, left alone:</source>
        <translation>Seit dem Turn geändert, bleiben unverändert:</translation>
    </message>
    <message>
        <source>Undo this turn</source>
        <translation>Turn rückgängig machen</translation>
    </message>
    <message numerus="yes">
        <source>Undone: %n file(s) restored</source>
        <translation>
            <numerusform>Rückgängig gemacht: %n Datei wiederhergestellt</numerusform>
            <numerusform>Rückgängig gemacht: %n Dateien wiederhergestellt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n changed since and left alone</source>
        <translation>
            <numerusform>; %n seitdem geändert und unverändert gelassen</numerusform>
            <numerusform>; %n seitdem geändert und unverändert gelassen</numerusform>
        </translation>
    </message>
    <message>
        <source>Turn(s) %1 of this home ran at the same time; their writes may be among these changes.</source>
        <translation>Turn(s) %1 dieses Home-Verzeichnisses liefen gleichzeitig; deren Schreibzugriffe können unter diesen Änderungen sein.</translation>
    </message>
    <message>
        <source>Restore the files changed since the turn too (their current content stays in the history)</source>
        <translation>Auch die seit dem Turn geänderten Dateien zurücksetzen (ihr jetziger Inhalt bleibt im Verlauf)</translation>
    </message>
    <message>
        <source>History of this folder&apos;s home: %1.</source>
        <translation>Verlauf des Home-Verzeichnisses dieses Ordners: %1.</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::Composer</name>
    <message>
        <source>&amp;Send</source>
        <translation>&amp;Senden</translation>
    </message>
    <message>
        <source>Cance&amp;l turn</source>
        <translation>Durchlauf abbre&amp;chen</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>Write a prompt; Ctrl+Enter sends, Esc cancels the running turn</source>
        <translation>Prompt eingeben; Strg+Eingabe sendet, Esc bricht den laufenden Durchlauf ab</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>default model</source>
        <translation>Standardmodell</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Send the prompt</source>
        <translation>Prompt senden</translation>
    </message>
    <message>
        <source>Send (Ctrl+Enter)</source>
        <translation>Senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Cancel the running turn</source>
        <translation>Laufenden Durchlauf abbrechen</translation>
    </message>
    <message>
        <source>Cancel the running turn (Esc)</source>
        <translation>Laufenden Durchlauf abbrechen (Esc)</translation>
    </message>
    <message>
        <source>Agent:</source>
        <translation>Agent:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message numerus="yes">
        <source>%n prompt(s) queued</source>
        <translation>
            <numerusform>%n Prompt wartet</numerusform>
            <numerusform>%n Prompts warten</numerusform>
        </translation>
    </message>
    <message>
        <source>No model is set up for this folder (no API key or OAuth token). Run the prompt on the demo model (scripted, no AI), or set an Anthropic API key: it stays sealed on this machine and never enters a VM.</source>
        <translation>Für diesen Ordner ist kein Modell eingerichtet (kein API-Schlüssel und kein OAuth-Token). Führen Sie den Prompt mit dem Demo-Modell aus (geskriptet, keine KI), oder setzen Sie einen Anthropic-API-Schlüssel: Er bleibt versiegelt auf diesem Rechner und gelangt nie in eine VM.</translation>
    </message>
    <message>
        <source>Run it on the &amp;demo model</source>
        <translation>Mit dem &amp;Demo-Modell ausführen</translation>
    </message>
    <message>
        <source>Run the prompt again on the demo model</source>
        <translation>Den Prompt erneut mit dem Demo-Modell ausführen</translation>
    </message>
    <message>
        <source>Set an API &amp;key…</source>
        <translation>API-Schlüssel set&amp;zen…</translation>
    </message>
    <message>
        <source>Set an API key in the secrets editor</source>
        <translation>Einen API-Schlüssel im Geheimnis-Editor setzen</translation>
    </message>
    <message>
        <source>%1 has no MCP: the folder&apos;s host tools (grants) do not reach it.</source>
        <translation>%1 kennt kein MCP: Die Host-Werkzeuge des Ordners (Freigaben) erreichen es nicht.</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::ConnectorsEditor</name>
    <message>
        <source>Connectors</source>
        <translation>Konnektoren</translation>
    </message>
    <message>
        <source>Set &amp;secret…</source>
        <translation>&amp;Geheimnis setzen…</translation>
    </message>
    <message>
        <source>The connector&apos;s operations</source>
        <translation>Die Operationen des Konnektors</translation>
    </message>
    <message>
        <source>Try a read operation</source>
        <translation>Eine lesende Operation ausprobieren</translation>
    </message>
    <message>
        <source>&amp;Try</source>
        <translation>&amp;Ausprobieren</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>The answer, with the secret scrubbed</source>
        <translation>Die Antwort, ohne das Geheimnis</translation>
    </message>
    <message>
        <source>Re&amp;load definitions</source>
        <translation>Definitionen neu &amp;laden</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>Choose a folder…</source>
        <translation>Ordner wählen…</translation>
    </message>
    <message>
        <source>Reading the connectors…</source>
        <translation>Die Konnektoren werden gelesen…</translation>
    </message>
    <message>
        <source>Definition files left out (the others are in use):
%1</source>
        <translation>Ausgelassene Definitionsdateien (die übrigen sind in Gebrauch):
%1</translation>
    </message>
    <message>
        <source>Partly shown: %1</source>
        <translation>Teilweise angezeigt: %1</translation>
    </message>
    <message>
        <source>Choose a folder to see whether its secrets are set.</source>
        <translation>Wählen Sie einen Ordner, um zu sehen, ob seine Geheimnisse gesetzt sind.</translation>
    </message>
    <message>
        <source>Secrets for %1: %2</source>
        <translation>Geheimnisse für %1: %2</translation>
    </message>
    <message>
        <source>Operations of %1; choose a folder to see which its agent will see.</source>
        <translation>Operationen von %1; wählen Sie einen Ordner, um zu sehen, welche sein Agent sieht.</translation>
    </message>
    <message>
        <source>Operations of %1, and whether %2&apos;s agent will see each in its next turn, and why:</source>
        <translation>Operationen von %1, ob der Agent von %2 sie im nächsten Durchlauf sieht, und warum:</translation>
    </message>
    <message>
        <source>optional: %1</source>
        <translation>optional: %1</translation>
    </message>
    <message>
        <source>%1 (required):</source>
        <translation>%1 (erforderlich):</translation>
    </message>
    <message>
        <source>Choose an operation to try.</source>
        <translation>Wählen Sie eine Operation zum Ausprobieren.</translation>
    </message>
    <message>
        <source>Only a read (GET) operation can be tried here: %1 would change the service.</source>
        <translation>Hier lässt sich nur eine lesende (GET) Operation ausprobieren: %1 würde den Dienst verändern.</translation>
    </message>
    <message>
        <source>Choose the folder whose secret the call uses.</source>
        <translation>Wählen Sie den Ordner, dessen Geheimnis der Aufruf verwendet.</translation>
    </message>
    <message>
        <source>The host makes the call with %1&apos;s secret, as you: the grants are not asked.</source>
        <translation>Der Host macht den Aufruf mit dem Geheimnis von %1 in Ihrem Namen: die Freigaben werden nicht gefragt.</translation>
    </message>
    <message>
        <source>Calling %1 %2…</source>
        <translation>Rufe %1 %2 auf…</translation>
    </message>
    <message>
        <source>The folders cannot be read: %1</source>
        <translation>Die Ordner können nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::EgressQuestionBar</name>
    <message>
        <source>Allow &amp;once</source>
        <translation>Einmal &amp;erlauben</translation>
    </message>
    <message>
        <source>Allow for this &amp;turn</source>
        <translation>Für diesen &amp;Turn erlauben</translation>
    </message>
    <message>
        <source>&amp;Deny</source>
        <translation>&amp;Ablehnen</translation>
    </message>
    <message>
        <source>Network question</source>
        <translation>Netzwerkfrage</translation>
    </message>
    <message>
        <source>Allow this request once</source>
        <translation>Diese Anfrage einmal erlauben</translation>
    </message>
    <message>
        <source>Allow the host for the rest of this turn</source>
        <translation>Den Host für den Rest dieses Turns erlauben</translation>
    </message>
    <message>
        <source>Always allow the host for this folder</source>
        <translation>Den Host für diesen Ordner immer erlauben</translation>
    </message>
    <message>
        <source>Deny this request</source>
        <translation>Diese Anfrage ablehnen</translation>
    </message>
    <message>
        <source>A turn in %1 asks for %2</source>
        <translation>Ein Turn in %1 fragt nach %2</translation>
    </message>
    <message>
        <source>Port %1. Answer in Arizuko&apos;s window; denied in %2 s without an answer.</source>
        <translation>Port %1. Antworten Sie im Fenster von Arizuko; ohne Antwort in %2 s abgelehnt.</translation>
    </message>
    <message>
        <source>The turn %1 in %2 (topic %3) asks to reach %4, port %5%6.</source>
        <translation>Der Turn %1 in %2 (Thema %3) möchte %4 erreichen, Port %5%6.</translation>
    </message>
    <message numerus="yes">
        <source>%n more waiting.</source>
        <translation>
            <numerusform>%n weitere wartet.</numerusform>
            <numerusform>%n weitere warten.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Always for %1 (%2)</source>
        <translation>&amp;Immer für %1 (%2)</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::ExportDialog</name>
    <message>
        <source>Export to an arizuko server</source>
        <translation>Auf einen arizuko-Server exportieren</translation>
    </message>
    <message>
        <source>Folders to export</source>
        <translation>Zu exportierende Ordner</translation>
    </message>
    <message>
        <source>Each checked folder is exported with its subfolders; none checked exports every folder and the base rules.</source>
        <translation>Jeder markierte Ordner wird mit seinen Unterordnern exportiert; ist keiner markiert, werden alle Ordner und die Basisregeln exportiert.</translation>
    </message>
    <message>
        <source>&amp;Manifest (arizuko plan/apply)</source>
        <translation>&amp;Manifest (arizuko plan/apply)</translation>
    </message>
    <message>
        <source>&amp;Script of arizuko commands</source>
        <translation>Skript mit arizuko-&amp;Befehlen</translation>
    </message>
    <message>
        <source>Also export</source>
        <translation>Außerdem exportieren</translation>
    </message>
    <message>
        <source>Rows the server cannot hold</source>
        <translation>Zeilen, die der Server nicht aufnehmen kann</translation>
    </message>
    <message>
        <source>Leave them out and list them</source>
        <translation>Auslassen und auflisten</translation>
    </message>
    <message>
        <source>Refuse to export</source>
        <translation>Export ablehnen</translation>
    </message>
    <message>
        <source>Preview of what will be written</source>
        <translation>Vorschau dessen, was geschrieben wird</translation>
    </message>
    <message>
        <source>Rows left out</source>
        <translation>Ausgelassene Zeilen</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>&amp;Speichern…</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>&amp;Folders:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>Format:</translation>
    </message>
    <message>
        <source>&amp;Unrepresentable rows:</source>
        <translation>&amp;Nicht darstellbare Zeilen:</translation>
    </message>
    <message>
        <source>Reading the store…</source>
        <translation>Der Speicher wird gelesen…</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>Nicht exportiert: %1</translation>
    </message>
    <message>
        <source>Everything selected can be exported.</source>
        <translation>Alles Ausgewählte kann exportiert werden.</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) have no server equivalent and are left out (listed below).</source>
        <translation>
            <numerusform>%n Zeile hat keine Entsprechung auf dem Server und wird ausgelassen (unten aufgeführt).</numerusform>
            <numerusform>%n Zeilen haben keine Entsprechung auf dem Server und werden ausgelassen (unten aufgeführt).</numerusform>
        </translation>
    </message>
    <message>
        <source>Save the export</source>
        <translation>Export speichern</translation>
    </message>
    <message>
        <source>Shell scripts (*.sh)</source>
        <translation>Shell-Skripte (*.sh)</translation>
    </message>
    <message>
        <source>Manifests (*.yaml *.yml)</source>
        <translation>Manifeste (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Export not saved</source>
        <translation>Export nicht gespeichert</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation>In %1 gespeichert.</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::FirstRunGuide</name>
    <message>
        <source>Check &amp;again</source>
        <translation>Erneut &amp;prüfen</translation>
    </message>
    <message>
        <source>Run a &amp;demo turn</source>
        <translation>&amp;Demo-Durchlauf starten</translation>
    </message>
    <message>
        <source>Welcome to Arizuko Desktop</source>
        <translation>Willkommen bei Arizuko Desktop</translation>
    </message>
    <message>
        <source>Each agent turn runs in its own throw-away virtual machine. Three things are needed; this guide checks them and says what to do for each one that is missing.</source>
        <translation>Jeder Durchlauf eines Agenten läuft in einer eigenen virtuellen Wegwerfmaschine. Dafür sind drei Dinge nötig; diese Anleitung prüft sie und sagt Ihnen für jedes fehlende, was zu tun ist.</translation>
    </message>
    <message>
        <source>1. libvirt access</source>
        <translation>1. Zugriff auf libvirt</translation>
    </message>
    <message>
        <source>2. The guest image</source>
        <translation>2. Das Gast-Image</translation>
    </message>
    <message>
        <source>3. A model</source>
        <translation>3. Ein Modell</translation>
    </message>
    <message>
        <source>Open &amp;secrets…</source>
        <translation>&amp;Geheimnisse öffnen…</translation>
    </message>
    <message>
        <source>4. Try it</source>
        <translation>4. Ausprobieren</translation>
    </message>
    <message>
        <source>A demo turn runs the real agent in a real VM against the built-in demo model (no key, no network to a model): it runs a command, reaches an allowed host and is denied another. It runs in a new folder &quot;demo&quot; and shows in the main window.</source>
        <translation>Ein Demo-Durchlauf führt den echten Agenten in einer echten VM mit dem eingebauten Demo-Modell aus (kein Schlüssel, keine Netzwerkverbindung zu einem Modell): Er führt einen Befehl aus, erreicht einen erlaubten Host, und ein anderer wird ihm verweigert. Er läuft in einem neuen Ordner „demo“ und erscheint im Hauptfenster.</translation>
    </message>
    <message>
        <source>Ready.</source>
        <translation>Bereit.</translation>
    </message>
    <message>
        <source>To do: press Build guest image above, or run `arizukoctl image build` in a terminal.</source>
        <translation>Zu tun: Klicken Sie oben auf „Gast-Image erstellen“ oder führen Sie `arizukoctl image build` in einem Terminal aus.</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>%1 wird geprüft…</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>Wird geprüft…</translation>
    </message>
    <message>
        <source>Ready: %1 answers (libvirt %2); turns run under %3 — %4</source>
        <translation>Bereit: %1 antwortet (libvirt %2); Durchläufe laufen unter %3 — %4</translation>
    </message>
    <message>
        <source>Missing: %1 does not answer: %2</source>
        <translation>Fehlt: %1 antwortet nicht: %2</translation>
    </message>
    <message>
        <source>To do: %1.
When it answers &quot;permission denied&quot;: `sudo adduser $USER libvirt`, then log in again. Then press Check again.</source>
        <translation>Zu tun: %1.
Lautet die Antwort „permission denied“: Führen Sie `sudo adduser $USER libvirt` aus und melden Sie sich neu an. Klicken Sie dann auf „Erneut prüfen“.</translation>
    </message>
    <message>
        <source>Ready: the model provider is the offline demo model.</source>
        <translation>Bereit: Der Modellanbieter ist das Offline-Demo-Modell.</translation>
    </message>
    <message>
        <source>For real work, set a key (below) and choose another provider in File → Settings.</source>
        <translation>Für echte Arbeit setzen Sie einen Schlüssel (unten) und wählen unter Datei → Einstellungen einen anderen Anbieter.</translation>
    </message>
    <message>
        <source>Ready: %1.</source>
        <translation>Bereit: %1.</translation>
    </message>
    <message>
        <source>Missing: no Anthropic API key or OAuth token is set.</source>
        <translation>Fehlt: Es ist weder ein Anthropic-API-Schlüssel noch ein OAuth-Token gesetzt.</translation>
    </message>
    <message>
        <source>Cannot tell: %1</source>
        <translation>Nicht feststellbar: %1</translation>
    </message>
    <message>
        <source>To do: press Open secrets… and set ANTHROPIC_API_KEY (or ANTHROPIC_OAUTH_TOKEN) for every folder, or run `arizukoctl secret set ANTHROPIC_API_KEY` and paste the key. The demo turn below needs neither.</source>
        <translation>Zu tun: Klicken Sie auf „Geheimnisse öffnen…“ und setzen Sie ANTHROPIC_API_KEY (oder ANTHROPIC_OAUTH_TOKEN) für alle Ordner, oder führen Sie `arizukoctl secret set ANTHROPIC_API_KEY` aus und fügen Sie den Schlüssel ein. Der Demo-Durchlauf unten braucht keins von beiden.</translation>
    </message>
    <message>
        <source>Everything is ready.</source>
        <translation>Alles ist bereit.</translation>
    </message>
    <message>
        <source>Some pieces are missing: see each To do.</source>
        <translation>Einiges fehlt: Beachten Sie die einzelnen „Zu tun“-Hinweise.</translation>
    </message>
    <message>
        <source>Cannot create the demo folder: %1</source>
        <translation>Der Demo-Ordner kann nicht erstellt werden: %1</translation>
    </message>
    <message>
        <source>Demo turn asked for in folder %1; it shows in the main window.</source>
        <translation>Demo-Durchlauf im Ordner %1 angefordert; er erscheint im Hauptfenster.</translation>
    </message>
    <message>
        <source>Creating the demo folder…</source>
        <translation>Der Demo-Ordner wird erstellt…</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::FolderTreePanel</name>
    <message>
        <source>%1  ● running</source>
        <translation>%1  ● läuft</translation>
    </message>
    <message>
        <source>%1  ○ queued</source>
        <translation>%1  ○ wartet</translation>
    </message>
    <message>
        <source>%1, running</source>
        <translation>%1, läuft</translation>
    </message>
    <message>
        <source>%1, queued</source>
        <translation>%1, wartet</translation>
    </message>
    <message>
        <source>New &amp;folder…</source>
        <translation>Neuer &amp;Ordner…</translation>
    </message>
    <message>
        <source>New &amp;topic…</source>
        <translation>Neues &amp;Thema…</translation>
    </message>
    <message>
        <source>Filter folders and topics</source>
        <translation>Ordner und Themen filtern</translation>
    </message>
    <message>
        <source>Folders and topics</source>
        <translation>Ordner und Themen</translation>
    </message>
    <message>
        <source>Folder actions</source>
        <translation>Ordneraktionen</translation>
    </message>
    <message>
        <source>New folder</source>
        <translation>Neuer Ordner</translation>
    </message>
    <message>
        <source>Folder path (a/b/c):</source>
        <translation>Ordnerpfad (a/b/c):</translation>
    </message>
    <message>
        <source>Folder path (inside %1 by default):</source>
        <translation>Ordnerpfad (standardmäßig in %1):</translation>
    </message>
    <message>
        <source>Select a folder for the new topic first.</source>
        <translation>Wählen Sie zuerst einen Ordner für das neue Thema.</translation>
    </message>
    <message>
        <source>New topic</source>
        <translation>Neues Thema</translation>
    </message>
    <message>
        <source>Topic name in %1:</source>
        <translation>Name des Themas in %1:</translation>
    </message>
    <message>
        <source>Rename topic</source>
        <translation>Thema umbenennen</translation>
    </message>
    <message>
        <source>New name for %1:</source>
        <translation>Neuer Name für %1:</translation>
    </message>
    <message>
        <source>Remove folder</source>
        <translation>Ordner entfernen</translation>
    </message>
    <message>
        <source>Remove the folder &quot;%1&quot;, its subfolders, topics, network rules, folder secrets and its home directory with every file in it?

This cannot be undone.</source>
        <translation>Den Ordner „%1“ mit seinen Unterordnern, Themen, Netzwerkregeln und Ordnergeheimnissen sowie sein Home-Verzeichnis mit allen Dateien darin entfernen?

Das kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>&amp;Umbenennen…</translation>
    </message>
    <message>
        <source>Mo&amp;ve folder…</source>
        <translation>Ordner &amp;verschieben…</translation>
    </message>
    <message>
        <source>Re&amp;move…</source>
        <translation>E&amp;ntfernen…</translation>
    </message>
    <message>
        <source>Rename folder</source>
        <translation>Ordner umbenennen</translation>
    </message>
    <message>
        <source>Move folder</source>
        <translation>Ordner verschieben</translation>
    </message>
    <message>
        <source>New path for %1 and its subfolders (a/b/c):</source>
        <translation>Neuer Pfad für %1 und seine Unterordner (a/b/c):</translation>
    </message>
    <message numerus="yes">
        <source>Move &quot;%1&quot; to &quot;%2&quot;?

These folders move, with %n topic(s), their turns, network rules, grants, routes, secrets and home directories:

%3</source>
        <translation>
            <numerusform>„%1“ nach „%2“ verschieben?

Diese Ordner werden mit %n Thema sowie ihren Durchläufen, Netzwerkregeln, Freigaben, Routen, Geheimnissen und Home-Verzeichnissen verschoben:

%3</numerusform>
            <numerusform>„%1“ nach „%2“ verschieben?

Diese Ordner werden mit %n Themen sowie ihren Durchläufen, Netzwerkregeln, Freigaben, Routen, Geheimnissen und Home-Verzeichnissen verschoben:

%3</numerusform>
        </translation>
    </message>
    <message>
        <source>Remove topic</source>
        <translation>Thema entfernen</translation>
    </message>
    <message>
        <source>Remove the topic &quot;%1&quot; of &quot;%2&quot; with its messages, its turns and their transcripts?

The files the agent left in the folder&apos;s home stay. This cannot be undone.</source>
        <translation>Das Thema „%1“ im Ordner „%2“ mit seinen Nachrichten, seinen Durchläufen und deren Transkripten entfernen?

Die Dateien, die der Agent im Home-Verzeichnis des Ordners hinterlassen hat, bleiben erhalten. Das kann nicht rückgängig gemacht werden.</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::GrantsEditor</name>
    <message>
        <source>Reply in this folder&apos;s chats</source>
        <translation>In den Chats dieses Ordners antworten</translation>
    </message>
    <message>
        <source>Send files from this folder</source>
        <translation>Dateien aus diesem Ordner senden</translation>
    </message>
    <message>
        <source>Every tool in this folder</source>
        <translation>Jedes Werkzeug in diesem Ordner</translation>
    </message>
    <message>
        <source>Every tool in this folder and below</source>
        <translation>Jedes Werkzeug in diesem Ordner und darunter</translation>
    </message>
    <message>
        <source>Reach every host (egress)</source>
        <translation>Jeden Host erreichen (Egress)</translation>
    </message>
    <message>
        <source>Deny a tool (type its name)</source>
        <translation>Ein Werkzeug verweigern (Namen eingeben)</translation>
    </message>
    <message>
        <source>Grants that apply to the folder</source>
        <translation>Freigaben, die für den Ordner gelten</translation>
    </message>
    <message>
        <source>May &amp;delegate it onward</source>
        <translation>&amp;Darf sie weitergeben</translation>
    </message>
    <message>
        <source>&amp;Add grant</source>
        <translation>Freigabe &amp;hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Remove grant</source>
        <translation>Freigabe &amp;entfernen</translation>
    </message>
    <message>
        <source>Tools the agent will see</source>
        <translation>Werkzeuge, die der Agent sieht</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Preset</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>Choose a preset…</source>
        <translation>Vorlage wählen…</translation>
    </message>
    <message>
        <source>Principal</source>
        <translation>Prinzipal</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Geltungsbereich</translation>
    </message>
    <message>
        <source>Effect</source>
        <translation>Wirkung</translation>
    </message>
    <message>
        <source>Params</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Confirm a broad grant</source>
        <translation>Weitreichende Freigabe bestätigen</translation>
    </message>
    <message>
        <source>May delegate</source>
        <translation>Darf weitergeben</translation>
    </message>
    <message>
        <source>corp/eng, role:member, corp/*</source>
        <translation>corp/eng, role:member, corp/*</translation>
    </message>
    <message>
        <source>mcp:send_file, mcp:*, egress, interact, admin, *</source>
        <translation>mcp:send_file, mcp:*, egress, interact, admin, *</translation>
    </message>
    <message>
        <source>corp (exactly), corp/* (children), corp/** (subtree), **</source>
        <translation>corp (genau), corp/* (Unterordner), corp/** (ganzer Teilbaum), **</translation>
    </message>
    <message>
        <source>optional: jid=telegram:*</source>
        <translation>optional: jid=telegram:*</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Erlauben</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Verweigern</translation>
    </message>
    <message>
        <source>&amp;Preset:</source>
        <translation>&amp;Vorlage:</translation>
    </message>
    <message>
        <source>P&amp;rincipal:</source>
        <translation>P&amp;rinzipal:</translation>
    </message>
    <message>
        <source>A&amp;ction:</source>
        <translation>A&amp;ktion:</translation>
    </message>
    <message>
        <source>&amp;Scope:</source>
        <translation>&amp;Geltungsbereich:</translation>
    </message>
    <message>
        <source>&amp;Effect:</source>
        <translation>&amp;Wirkung:</translation>
    </message>
    <message>
        <source>Para&amp;ms:</source>
        <translation>Para&amp;meter:</translation>
    </message>
    <message>
        <source>New grant</source>
        <translation>Neue Freigabe</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>(every grant)</source>
        <translation>(alle Freigaben)</translation>
    </message>
    <message>
        <source>Grants</source>
        <translation>Freigaben</translation>
    </message>
    <message>
        <source>Grants of %1</source>
        <translation>Freigaben von %1</translation>
    </message>
    <message>
        <source>Choose a folder to see the tools its agent will see.</source>
        <translation>Wählen Sie einen Ordner, um die Werkzeuge zu sehen, die sein Agent sieht.</translation>
    </message>
    <message>
        <source>Tools %1&apos;s agent will see in its next turn, and why:</source>
        <translation>Werkzeuge, die der Agent von %1 im nächsten Durchlauf sieht, und warum:</translation>
    </message>
    <message>
        <source>I want this broad grant: %1</source>
        <translation>Ich möchte diese weitreichende Freigabe: %1</translation>
    </message>
    <message>
        <source>Will add: %1 %2 %3 on %4</source>
        <translation>Wird hinzugefügt: %1 %2 %3 auf %4</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <source>Not added: %1</source>
        <translation>Nicht hinzugefügt: %1</translation>
    </message>
    <message>
        <source>Not added: confirm the broad grant first.</source>
        <translation>Nicht hinzugefügt: Bestätigen Sie zuerst die weitreichende Freigabe.</translation>
    </message>
    <message>
        <source>Added %1; the folder&apos;s next tool call is decided with it.</source>
        <translation>%1 hinzugefügt; der nächste Werkzeugaufruf des Ordners wird damit entschieden.</translation>
    </message>
    <message>
        <source>Removed %1.</source>
        <translation>%1 entfernt.</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::GuestImagePanel</name>
    <message>
        <source>&amp;Build guest image</source>
        <translation>Gast-Image &amp;erstellen</translation>
    </message>
    <message>
        <source>Cancel build</source>
        <translation>Erstellung abbrechen</translation>
    </message>
    <message>
        <source>Guest image build log</source>
        <translation>Protokoll der Gast-Image-Erstellung</translation>
    </message>
    <message>
        <source>%p% — %1</source>
        <translation>%p% — %1</translation>
    </message>
    <message>
        <source>Checking the guest image in %1…</source>
        <translation>Das Gast-Image in %1 wird geprüft…</translation>
    </message>
    <message>
        <source>Present and up to date in %1.</source>
        <translation>Vorhanden und aktuell in %1.</translation>
    </message>
    <message>
        <source>Cannot be used in %1: %2. Press Build guest image (several minutes the first time: it downloads Debian packages and Claude Code).</source>
        <translation>In %1 nicht verwendbar: %2. Klicken Sie auf „Gast-Image erstellen“ (beim ersten Mal dauert das einige Minuten: Debian-Pakete und Claude Code werden heruntergeladen).</translation>
    </message>
    <message>
        <source>Cannot build: %1</source>
        <translation>Erstellung nicht möglich: %1</translation>
    </message>
    <message>
        <source>The guest image builder was not found; see the log below.</source>
        <translation>Das Programm zum Erstellen des Gast-Images wurde nicht gefunden; siehe Protokoll unten.</translation>
    </message>
    <message>
        <source>Built.</source>
        <translation>Erstellt.</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::HostStatusPanel</name>
    <message>
        <source>&amp;Check again</source>
        <translation>Erneut &amp;prüfen</translation>
    </message>
    <message>
        <source>libvirt:</source>
        <translation>libvirt:</translation>
    </message>
    <message>
        <source>Accelerator:</source>
        <translation>Beschleuniger:</translation>
    </message>
    <message>
        <source>Guest image:</source>
        <translation>Gast-Image:</translation>
    </message>
    <message>
        <source>Checking this machine…</source>
        <translation>Dieser Rechner wird geprüft…</translation>
    </message>
    <message>
        <source>%1 reachable (libvirt %2)</source>
        <translation>%1 erreichbar (libvirt %2)</translation>
    </message>
    <message>
        <source>%1 NOT reachable: %2
%3</source>
        <translation>%1 NICHT erreichbar: %2
%3</translation>
    </message>
    <message>
        <source>present in %1</source>
        <translation>vorhanden in %1</translation>
    </message>
    <message>
        <source>cannot be used in %1 (%2): %3</source>
        <translation>in %1 nicht verwendbar (%2): %3</translation>
    </message>
    <message>
        <source>This machine is ready to run turns.</source>
        <translation>Dieser Rechner ist bereit für Durchläufe.</translation>
    </message>
    <message>
        <source>This machine cannot run turns yet.</source>
        <translation>Dieser Rechner kann noch keine Durchläufe ausführen.</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::ImportDialog</name>
    <message>
        <source>No manifest chosen.</source>
        <translation>Kein Manifest gewählt.</translation>
    </message>
    <message>
        <source>Import from an arizuko manifest</source>
        <translation>Aus einem arizuko-Manifest importieren</translation>
    </message>
    <message>
        <source>Planned changes</source>
        <translation>Geplante Änderungen</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Notes and what the desktop does not import</source>
        <translation>Hinweise und was der Desktop nicht importiert</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>&amp;Anwenden</translation>
    </message>
    <message>
        <source>Open a manifest</source>
        <translation>Manifest öffnen</translation>
    </message>
    <message>
        <source>Manifests (*.yaml *.yml)</source>
        <translation>Manifeste (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Planning…</source>
        <translation>Wird geplant…</translation>
    </message>
    <message>
        <source>Apply the import?</source>
        <translation>Import anwenden?</translation>
    </message>
    <message numerus="yes">
        <source>Write the %n planned change(s) to this desktop&apos;s store? They are written together or not at all.</source>
        <translation>
            <numerusform>Die %n geplante Änderung in den Speicher dieses Desktops schreiben? Sie wird ganz oder gar nicht geschrieben.</numerusform>
            <numerusform>Die %n geplanten Änderungen in den Speicher dieses Desktops schreiben? Sie werden alle zusammen oder gar nicht geschrieben.</numerusform>
        </translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>Wird angewendet…</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message numerus="yes">
        <source>Applied %n change(s).</source>
        <translation>
            <numerusform>%n Änderung angewendet.</numerusform>
            <numerusform>%n Änderungen angewendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>The store already holds everything in this manifest.</source>
        <translation>Der Speicher enthält bereits alles aus diesem Manifest.</translation>
    </message>
    <message numerus="yes">
        <source>%n change(s) planned. Nothing is written until you apply.</source>
        <translation>
            <numerusform>%n Änderung geplant. Nichts wird geschrieben, bevor Sie anwenden.</numerusform>
            <numerusform>%n Änderungen geplant. Nichts wird geschrieben, bevor Sie anwenden.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::LedgerViewer</name>
    <message>
        <source>Egress ledger requests</source>
        <translation>Anfragen im Egress-Protokoll</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xportieren…</translation>
    </message>
    <message>
        <source>Egress ledger</source>
        <translation>Egress-Protokoll</translation>
    </message>
    <message>
        <source>Whose requests</source>
        <translation>Wessen Anfragen</translation>
    </message>
    <message>
        <source>The shown turn (none)</source>
        <translation>Der gezeigte Durchlauf (keiner)</translation>
    </message>
    <message>
        <source>The turn %1</source>
        <translation>Der Durchlauf %1</translation>
    </message>
    <message>
        <source>The folder %1</source>
        <translation>Der Ordner %1</translation>
    </message>
    <message>
        <source>Every folder</source>
        <translation>Alle Ordner</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <source>allowed and denied</source>
        <translation>erlaubt und verweigert</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>erlaubt</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>verweigert</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Export the requests the filter shows to a file</source>
        <translation>Die Anfragen, die der Filter zeigt, in eine Datei exportieren</translation>
    </message>
    <message>
        <source>&amp;Of:</source>
        <translation>&amp;Von:</translation>
    </message>
    <message>
        <source>&amp;Decision:</source>
        <translation>&amp;Entscheidung:</translation>
    </message>
    <message>
        <source>&amp;Since:</source>
        <translation>&amp;Zeitraum:</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>Wird gelesen…</translation>
    </message>
    <message>
        <source>%1, %2, %3</source>
        <translation>%1, %2, %3</translation>
    </message>
    <message numerus="yes">
        <source>The newest %n requests; older ones follow as you scroll down.</source>
        <translation>
            <numerusform>Die neueste %n Anfrage; ältere folgen beim Hinunterscrollen.</numerusform>
            <numerusform>Die neuesten %n Anfragen; ältere folgen beim Hinunterscrollen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n requests.</source>
        <translation>
            <numerusform>%n Anfrage.</numerusform>
            <numerusform>%n Anfragen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Export the egress ledger: %1</source>
        <translation>Egress-Protokoll exportieren: %1</translation>
    </message>
    <message>
        <source>JSON Lines, schema arizuko.egress-ledger/1 (*.jsonl)</source>
        <translation>JSON Lines, Schema arizuko.egress-ledger/1 (*.jsonl)</translation>
    </message>
    <message>
        <source>OCSF events, one a line (*.ocsf.jsonl *.jsonl)</source>
        <translation>OCSF-Ereignisse, eines pro Zeile (*.ocsf.jsonl *.jsonl)</translation>
    </message>
    <message>
        <source>Exporting %1 to %2…</source>
        <translation>%1 wird nach %2 exportiert…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Cancel the export; no file is left</source>
        <translation>Export abbrechen; es bleibt keine Datei zurück</translation>
    </message>
    <message>
        <source>Export the egress ledger</source>
        <translation>Egress-Protokoll exportieren</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n requests to %1.</source>
        <translation>
            <numerusform>%n Anfrage nach %1 exportiert.</numerusform>
            <numerusform>%n Anfragen nach %1 exportiert.</numerusform>
        </translation>
    </message>
    <message>
        <source>The export was cancelled; %1 was not written.</source>
        <translation>Der Export wurde abgebrochen; %1 wurde nicht geschrieben.</translation>
    </message>
    <message>
        <source>The export failed: %1</source>
        <translation>Der Export ist fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::MainWindow</name>
    <message>
        <source>Arizuko Desktop</source>
        <translation>Arizuko Desktop</translation>
    </message>
    <message>
        <source>&amp;Machine</source>
        <translation>R&amp;echner</translation>
    </message>
    <message>
        <source>Allowed %1 for %2 from its next turn</source>
        <translation>%1 für %2 ab dem nächsten Durchlauf erlaubt</translation>
    </message>
    <message>
        <source>Engine ready: turns run under %1</source>
        <translation>Engine bereit: Durchläufe laufen unter %1</translation>
    </message>
    <message>
        <source>The engine cannot run turns: %1</source>
        <translation>Die Engine kann keine Durchläufe ausführen: %1</translation>
    </message>
    <message>
        <source>Starting the engine…</source>
        <translation>Die Engine wird gestartet…</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Export to arizuko…</source>
        <translation>Nach arizuko e&amp;xportieren…</translation>
    </message>
    <message>
        <source>&amp;Import from arizuko…</source>
        <translation>Aus arizuko &amp;importieren…</translation>
    </message>
    <message>
        <source>S&amp;ettings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Find in transcript…</source>
        <translation>Im Transkript &amp;suchen…</translation>
    </message>
    <message>
        <source>&amp;Copy transcript as Markdown</source>
        <translation>Transkript als Markdown &amp;kopieren</translation>
    </message>
    <message>
        <source>F&amp;older</source>
        <translation>&amp;Ordner</translation>
    </message>
    <message>
        <source>&amp;Allowlist…</source>
        <translation>&amp;Zulassungsliste…</translation>
    </message>
    <message>
        <source>&amp;Grants…</source>
        <translation>&amp;Freigaben…</translation>
    </message>
    <message>
        <source>&amp;Secrets…</source>
        <translation>&amp;Geheimnisse…</translation>
    </message>
    <message>
        <source>&amp;Routes…</source>
        <translation>&amp;Routen…</translation>
    </message>
    <message>
        <source>Audit &amp;log…</source>
        <translation>&amp;Prüfprotokoll…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>Go to &amp;folders</source>
        <translation>Zu den &amp;Ordnern</translation>
    </message>
    <message>
        <source>F&amp;ilter folders</source>
        <translation>Ordner &amp;filtern</translation>
    </message>
    <message>
        <source>Go to &amp;prompt</source>
        <translation>Zum &amp;Prompt</translation>
    </message>
    <message>
        <source>&amp;Check this machine again</source>
        <translation>Diesen Rechner &amp;erneut prüfen</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Arizuko Desktop</source>
        <translation>&amp;Über Arizuko Desktop</translation>
    </message>
    <message>
        <source>About Arizuko Desktop</source>
        <translation>Über Arizuko Desktop</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Arizuko Desktop %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Runs AI coding agents on this machine without trusting them: every turn in its own throw-away virtual machine whose only way out is a proxy that allows a fixed list of hosts.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Arizuko Desktop %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Führt KI-Programmieragenten auf diesem Rechner aus, ohne ihnen zu vertrauen: jeder Durchlauf in einer eigenen virtuellen Wegwerfmaschine, deren einziger Weg nach draußen ein Proxy ist, der eine feste Liste von Hosts erlaubt.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Arizuko Desktop: no turn running</source>
        <translation>Arizuko Desktop: kein Durchlauf aktiv</translation>
    </message>
    <message>
        <source>&amp;Show window</source>
        <translation>Fenster &amp;anzeigen</translation>
    </message>
    <message>
        <source>Arizuko Desktop
%1</source>
        <translation>Arizuko Desktop
%1</translation>
    </message>
    <message>
        <source>Turn %1</source>
        <translation>Durchlauf %1</translation>
    </message>
    <message>
        <source>%1 in %2/%3</source>
        <translation>%1 in %2/%3</translation>
    </message>
    <message>
        <source>Host denied</source>
        <translation>Host verweigert</translation>
    </message>
    <message>
        <source>%1 was refused %2 (%3)</source>
        <translation>%1 wurde %2 verweigert (%3)</translation>
    </message>
    <message>
        <source>Show me what you can do in this sandbox.</source>
        <translation>Zeigen Sie mir, was Sie in dieser Sandbox tun können.</translation>
    </message>
    <message>
        <source>&amp;First-run guide…</source>
        <translation>&amp;Erste Schritte…</translation>
    </message>
    <message>
        <source>C&amp;hanges</source>
        <translation>Än&amp;derungen</translation>
    </message>
    <message>
        <source>&amp;Connectors…</source>
        <translation>&amp;Konnektoren…</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::RoutesEditor</name>
    <message>
        <source>&amp;Add route</source>
        <translation>Route &amp;hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Remove route</source>
        <translation>Route &amp;entfernen</translation>
    </message>
    <message>
        <source>Routes</source>
        <translation>Routen</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Reihenfolge</translation>
    </message>
    <message>
        <source>Match</source>
        <translation>Bedingung</translation>
    </message>
    <message>
        <source>platform=telegram chat=team-*  (empty: every message)</source>
        <translation>platform=telegram chat=team-*  (leer: jede Nachricht)</translation>
    </message>
    <message>
        <source>Target folder</source>
        <translation>Zielordner</translation>
    </message>
    <message>
        <source>corp/eng or corp/eng#observe</source>
        <translation>corp/eng oder corp/eng#observe</translation>
    </message>
    <message>
        <source>Test message attributes</source>
        <translation>Attribute der Testnachricht</translation>
    </message>
    <message>
        <source>platform=telegram chat=team-eng</source>
        <translation>platform=telegram chat=team-eng</translation>
    </message>
    <message>
        <source>&amp;Order:</source>
        <translation>&amp;Reihenfolge:</translation>
    </message>
    <message>
        <source>&amp;Match:</source>
        <translation>&amp;Bedingung:</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>New route (lower order is tried first)</source>
        <translation>Neue Route (niedrigere Reihenfolge wird zuerst versucht)</translation>
    </message>
    <message>
        <source>Test a message</source>
        <translation>Eine Nachricht testen</translation>
    </message>
    <message>
        <source>&amp;Attributes:</source>
        <translation>&amp;Attribute:</translation>
    </message>
    <message>
        <source>Type the folder the matching messages go to.</source>
        <translation>Geben Sie den Ordner ein, an den passende Nachrichten gehen.</translation>
    </message>
    <message>
        <source>Will add: order %1, %2 → %3</source>
        <translation>Wird hinzugefügt: Reihenfolge %1, %2 → %3</translation>
    </message>
    <message>
        <source>every message</source>
        <translation>jede Nachricht</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <source>Not added: %1</source>
        <translation>Nicht hinzugefügt: %1</translation>
    </message>
    <message>
        <source>Added route #%1.</source>
        <translation>Route #%1 hinzugefügt.</translation>
    </message>
    <message>
        <source>Removed the route.</source>
        <translation>Route entfernt.</translation>
    </message>
    <message>
        <source>Not a message: %1</source>
        <translation>Keine Nachricht: %1</translation>
    </message>
    <message>
        <source>No route takes this message: it is not delivered to any folder.</source>
        <translation>Keine Route nimmt diese Nachricht: Sie wird an keinen Ordner zugestellt.</translation>
    </message>
    <message>
        <source>Goes to %1%2 by route #%3 (order %4, the first whose predicates all match); the table says why each earlier route did not.</source>
        <translation>Geht an %1%2 über Route #%3 (Reihenfolge %4, die erste, deren Bedingungen alle zutreffen); die Tabelle zeigt, warum jede frühere Route nicht passte.</translation>
    </message>
    <message>
        <source> (observe only)</source>
        <translation> (nur beobachten)</translation>
    </message>
    <message>
        <source>Routes in the order they are tried; drag a row to move it</source>
        <translation>Routen in der Reihenfolge, in der sie versucht werden; ziehen Sie eine Zeile, um sie zu verschieben</translation>
    </message>
    <message>
        <source>Not moved: %1</source>
        <translation>Nicht verschoben: %1</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::SecretBindingDialog</name>
    <message>
        <source>In a &amp;header:</source>
        <translation>Im Hea&amp;der:</translation>
    </message>
    <message>
        <source>As HTTP Basic&apos;s &amp;password (git over HTTPS)</source>
        <translation>Als &amp;Passwort von HTTP Basic (git über HTTPS)</translation>
    </message>
    <message>
        <source>Bind %1 of %2</source>
        <translation>%1 von %2 binden</translation>
    </message>
    <message>
        <source>Hosts the secret is bound to</source>
        <translation>Hosts, an die das Geheimnis gebunden ist</translation>
    </message>
    <message>
        <source>api.github.com, github.com</source>
        <translation>api.github.com, github.com</translation>
    </message>
    <message>
        <source>Header template, {} where the secret goes</source>
        <translation>Header-Vorlage, {} wo das Geheimnis hingehört</translation>
    </message>
    <message>
        <source>&amp;Bind</source>
        <translation>&amp;Binden</translation>
    </message>
    <message>
        <source>A turn of a folder that sees %1 gets a placeholder under that name, never the value. The turn&apos;s proxy puts the value in requests to these hosts only, where you say; the placeholder sent anywhere else is blocked.</source>
        <translation>Ein Durchlauf eines Ordners, der %1 sieht, erhält unter diesem Namen einen Platzhalter, nie den Wert. Der Proxy des Durchlaufs setzt den Wert nur in Anfragen an diese Hosts ein, an der angegebenen Stelle; der Platzhalter wird überall sonst blockiert.</translation>
    </message>
    <message>
        <source>&amp;Hosts:</source>
        <translation>&amp;Hosts:</translation>
    </message>
    <message>
        <source>Name at least one host.</source>
        <translation>Nennen Sie mindestens einen Host.</translation>
    </message>
    <message>
        <source>The proxy will put the value into requests to %1.</source>
        <translation>Der Proxy wird den Wert in Anfragen an %1 einsetzen.</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::SecretsEditor</name>
    <message>
        <source>Opening the key store…</source>
        <translation>Der Schlüsselspeicher wird geöffnet…</translation>
    </message>
    <message>
        <source>Secret names</source>
        <translation>Namen der Geheimnisse</translation>
    </message>
    <message>
        <source>&amp;Set or replace</source>
        <translation>&amp;Setzen oder ersetzen</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>Secrets</source>
        <translation>Geheimnisse</translation>
    </message>
    <message>
        <source>Where the master key is</source>
        <translation>Wo der Hauptschlüssel liegt</translation>
    </message>
    <message>
        <source>Applies to folder</source>
        <translation>Gilt für Ordner</translation>
    </message>
    <message>
        <source>Secret name</source>
        <translation>Name des Geheimnisses</translation>
    </message>
    <message>
        <source>GITHUB_TOKEN</source>
        <translation>GITHUB_TOKEN</translation>
    </message>
    <message>
        <source>Secret value</source>
        <translation>Wert des Geheimnisses</translation>
    </message>
    <message>
        <source>the new value; it is never shown again</source>
        <translation>der neue Wert; er wird nie wieder angezeigt</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Value:</source>
        <translation>&amp;Wert:</translation>
    </message>
    <message>
        <source>Set a secret</source>
        <translation>Geheimnis setzen</translation>
    </message>
    <message>
        <source>&apos;&apos; (every folder)</source>
        <translation>&apos;&apos; (alle Ordner)</translation>
    </message>
    <message>
        <source>Master key: %1</source>
        <translation>Hauptschlüssel: %1</translation>
    </message>
    <message>
        <source>The secrets cannot be opened: %1</source>
        <translation>Die Geheimnisse können nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>Not changed: %1</source>
        <translation>Nicht geändert: %1</translation>
    </message>
    <message>
        <source>A name like an environment variable: GITHUB_TOKEN.</source>
        <translation>Ein Name wie eine Umgebungsvariable: GITHUB_TOKEN.</translation>
    </message>
    <message>
        <source>The value is sealed under the master key and never shown again.</source>
        <translation>Der Wert wird mit dem Hauptschlüssel versiegelt und nie wieder angezeigt.</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <source>%1 set for %2.</source>
        <translation>%1 für %2 gesetzt.</translation>
    </message>
    <message>
        <source>%1 removed from %2.</source>
        <translation>%1 aus %2 entfernt.</translation>
    </message>
    <message>
        <source>The folders cannot be read: %1</source>
        <translation>Die Ordner können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>&amp;Bind to hosts…</source>
        <translation>An Hosts &amp;binden…</translation>
    </message>
    <message>
        <source>&amp;Unbind</source>
        <translation>Bindung a&amp;ufheben</translation>
    </message>
    <message>
        <source>The bindings cannot be read: %1</source>
        <translation>Die Bindungen können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>%1 of %2 bound.</source>
        <translation>%1 von %2 gebunden.</translation>
    </message>
    <message>
        <source>%1 of %2 unbound: turns get no placeholder for it.</source>
        <translation>Bindung von %1 von %2 aufgehoben: Durchläufe erhalten keinen Platzhalter dafür.</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::SettingsDialog</name>
    <message>
        <source>KVM (forced)</source>
        <translation>KVM (erzwungen)</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Guest image</source>
        <translation>Gast-Image</translation>
    </message>
    <message>
        <source>C&amp;heck connection</source>
        <translation>Verbindung &amp;prüfen</translation>
    </message>
    <message>
        <source>&amp;libvirt URI:</source>
        <translation>&amp;libvirt-URI:</translation>
    </message>
    <message>
        <source>&amp;Accelerator:</source>
        <translation>&amp;Beschleuniger:</translation>
    </message>
    <message>
        <source>auto: KVM when a guest really boots under it, else TCG</source>
        <translation>automatisch: KVM, wenn ein Gast damit tatsächlich startet, sonst TCG</translation>
    </message>
    <message>
        <source>TCG (forced; slower, works everywhere)</source>
        <translation>TCG (erzwungen; langsamer, funktioniert überall)</translation>
    </message>
    <message>
        <source>&amp;Subnet pool:</source>
        <translation>&amp;Subnetz-Pool:</translation>
    </message>
    <message>
        <source>&amp;Turns at once:</source>
        <translation>Gleichzeitige &amp;Durchläufe:</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Default &amp;deadline:</source>
        <translation>Standard-&amp;Zeitlimit:</translation>
    </message>
    <message>
        <source>&amp;Model provider:</source>
        <translation>&amp;Modellanbieter:</translation>
    </message>
    <message>
        <source>auto: the API key, else the OAuth token</source>
        <translation>automatisch: der API-Schlüssel, sonst das OAuth-Token</translation>
    </message>
    <message>
        <source>API key (secret ANTHROPIC_API_KEY)</source>
        <translation>API-Schlüssel (Geheimnis ANTHROPIC_API_KEY)</translation>
    </message>
    <message>
        <source>OAuth token (secret ANTHROPIC_OAUTH_TOKEN)</source>
        <translation>OAuth-Token (Geheimnis ANTHROPIC_OAUTH_TOKEN)</translation>
    </message>
    <message>
        <source>demo model (offline, no key)</source>
        <translation>Demo-Modell (offline, kein Schlüssel)</translation>
    </message>
    <message>
        <source>The key or token itself is a secret, never a setting.</source>
        <translation>Der Schlüssel oder das Token selbst ist ein Geheimnis, nie eine Einstellung.</translation>
    </message>
    <message>
        <source>Open &amp;secrets…</source>
        <translation>&amp;Geheimnisse öffnen…</translation>
    </message>
    <message>
        <source>Credential:</source>
        <translation>Zugangsdaten:</translation>
    </message>
    <message>
        <source>Compatible model &amp;URL:</source>
        <translation>&amp;URL eines kompatiblen Modells:</translation>
    </message>
    <message>
        <source>empty: the Anthropic API</source>
        <translation>leer: die Anthropic-API</translation>
    </message>
    <message>
        <source>Model &amp;name:</source>
        <translation>Modell&amp;name:</translation>
    </message>
    <message>
        <source>empty: Claude Code&apos;s default</source>
        <translation>leer: das Standardmodell von Claude Code</translation>
    </message>
    <message>
        <source>%1
Chosen before start: set ARIZUKO_DATA_DIR (arizukoctl: --data-dir) to use another directory; each directory has its own settings, folders and secrets.</source>
        <translation>%1
Wird vor dem Start festgelegt: Setzen Sie ARIZUKO_DATA_DIR (arizukoctl: --data-dir), um ein anderes Verzeichnis zu verwenden; jedes Verzeichnis hat eigene Einstellungen, Ordner und Geheimnisse.</translation>
    </message>
    <message>
        <source>Data directory:</source>
        <translation>Datenverzeichnis:</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Cannot read the saved settings: %1</source>
        <translation>Die gespeicherten Einstellungen können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Overridden by the environment: %1=%2 wins while it is set; the saved value applies without it.</source>
        <translation>Durch die Umgebung überschrieben: %1=%2 hat Vorrang, solange die Variable gesetzt ist; ohne sie gilt der gespeicherte Wert.</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <source>Nothing was saved: correct the fields marked Refused.</source>
        <translation>Nichts wurde gespeichert: Korrigieren Sie die mit „Abgelehnt“ markierten Felder.</translation>
    </message>
    <message>
        <source>Nothing to save: no field was changed.</source>
        <translation>Nichts zu speichern: Kein Feld wurde geändert.</translation>
    </message>
    <message numerus="yes">
        <source>Saved %n setting(s). arizukoctl uses them from its next command; this window&apos;s turns use them after a restart.</source>
        <translation>
            <numerusform>%n Einstellung gespeichert. arizukoctl verwendet sie ab seinem nächsten Befehl; die Durchläufe dieses Fensters verwenden sie nach einem Neustart.</numerusform>
            <numerusform>%n Einstellungen gespeichert. arizukoctl verwendet sie ab seinem nächsten Befehl; die Durchläufe dieses Fensters verwenden sie nach einem Neustart.</numerusform>
        </translation>
    </message>
    <message>
        <source>Not checked: %1</source>
        <translation>Nicht geprüft: %1</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>%1 wird geprüft…</translation>
    </message>
    <message>
        <source>Connected to %1 (libvirt %2). Turns run under %3: %4</source>
        <translation>Verbunden mit %1 (libvirt %2). Durchläufe laufen unter %3: %4</translation>
    </message>
    <message>
        <source>Cannot connect to %1: %2
%3</source>
        <translation>Keine Verbindung zu %1 möglich: %2
%3</translation>
    </message>
    <message>
        <source>&amp;Warm start:</source>
        <translation>&amp;Warmstart:</translation>
    </message>
    <message>
        <source>off: each turn boots its VM after the prompt</source>
        <translation>aus: jeder Durchlauf startet seine VM nach der Eingabe</translation>
    </message>
    <message>
        <source>on: boot the next turn&apos;s VM ahead (costs one idle VM&apos;s memory and CPU)</source>
        <translation>an: die VM des nächsten Durchlaufs vorab starten (kostet Speicher und CPU einer wartenden VM)</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>History &amp;file limit:</source>
        <translation>Verlauf: &amp;Dateigrenze:</translation>
    </message>
    <message>
        <source>History of .&amp;git:</source>
        <translation>Verlauf von .&amp;git:</translation>
    </message>
    <message>
        <source>off: a home&apos;s .git directories are left out of its history</source>
        <translation>aus: die .git-Verzeichnisse eines Home-Verzeichnisses bleiben aus seinem Verlauf heraus</translation>
    </message>
    <message>
        <source>on: recorded, shown and undone like any other files</source>
        <translation>an: aufgezeichnet, angezeigt und rückgängig gemacht wie alle anderen Dateien</translation>
    </message>
    <message>
        <source> turns</source>
        <translation> Turns</translation>
    </message>
    <message>
        <source>History &amp;keeps:</source>
        <translation>Verlauf be&amp;hält:</translation>
    </message>
    <message>
        <source>History si&amp;ze limit:</source>
        <translation>Verlauf: Größeng&amp;renze:</translation>
    </message>
    <message>
        <source>Reading the saved settings…</source>
        <translation>Die gespeicherten Einstellungen werden gelesen…</translation>
    </message>
    <message>
        <source>Nothing was saved: the saved settings are still being read.</source>
        <translation>Nichts wurde gespeichert: Die gespeicherten Einstellungen werden noch gelesen.</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Wird gespeichert…</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::SinceChoices</name>
    <message>
        <source>any time</source>
        <translation>beliebig</translation>
    </message>
    <message>
        <source>the last hour</source>
        <translation>letzte Stunde</translation>
    </message>
    <message>
        <source>the last 24 hours</source>
        <translation>letzte 24 Stunden</translation>
    </message>
    <message>
        <source>the last 7 days</source>
        <translation>letzte 7 Tage</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::TranscriptBridge</name>
    <message>
        <source>en</source>
        <comment>the code of the language the texts are in, for the page&apos;s lang</comment>
        <translation>de</translation>
    </message>
    <message>
        <source>Transcript</source>
        <translation>Transkript</translation>
    </message>
    <message>
        <source>Transcript</source>
        <comment>the accessible name of the page&apos;s message log</comment>
        <translation>Transkript</translation>
    </message>
    <message>
        <source>Select a topic, then write a prompt below.</source>
        <translation>Wählen Sie ein Thema und schreiben Sie dann unten einen Prompt.</translation>
    </message>
    <message>
        <source>Show earlier</source>
        <translation>Frühere anzeigen</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::TranscriptText</name>
    <message>
        <source>✗ denied %1:%2 (%3)</source>
        <translation>✗ verweigert %1:%2 (%3)</translation>
    </message>
    <message>
        <source>✓ allowed %1:%2 (%3)</source>
        <translation>✓ erlaubt %1:%2 (%3)</translation>
    </message>
    <message>
        <source>cancelled: %1</source>
        <translation>abgebrochen: %1</translation>
    </message>
    <message>
        <source>agent %1, status %2</source>
        <translation>Agent %1, Status %2</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <comment>a turn&apos;s end state and how long it took</comment>
        <translation>%1 in %2</translation>
    </message>
    <message>
        <source>**You:** %1</source>
        <comment>the user&apos;s prompt in an exported transcript</comment>
        <translation>**Sie:** %1</translation>
    </message>
    <message>
        <source>✗ failed %1:%2 (%3)</source>
        <translation>✗ fehlgeschlagen %1:%2 (%3)</translation>
    </message>
    <message>
        <source>%1 %2 → HTTP %3 · %4 ms</source>
        <comment>a connector call: method, path, HTTP status, latency</comment>
        <translation>%1 %2 → HTTP %3 · %4 ms</translation>
    </message>
    <message>
        <source>%1 %2 refused by the grants</source>
        <comment>a connector call: method, tool</comment>
        <translation>%1 %2 von den Freigaben abgelehnt</translation>
    </message>
    <message>
        <source>%1 %2 failed: %3</source>
        <comment>a connector call: method, path or tool, why</comment>
        <translation>%1 %2 fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>added</source>
        <comment>a file a turn made</comment>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <source>deleted</source>
        <comment>a file a turn removed</comment>
        <translation>gelöscht</translation>
    </message>
    <message>
        <source>skipped</source>
        <comment>a name the home&apos;s history did not record</comment>
        <translation>übersprungen</translation>
    </message>
    <message>
        <source>modified</source>
        <comment>a file a turn changed</comment>
        <translation>geändert</translation>
    </message>
    <message>
        <source>The turn&apos;s changes could not be read: %1</source>
        <translation>Die Änderungen des Durchlaufs konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>its diff is in the turn panel&apos;s Changes tab</source>
        <translation>sein Diff steht im Reiter „Änderungen“ des Durchlaufs</translation>
    </message>
    <message numerus="yes">
        <source>%n added</source>
        <translation>
            <numerusform>%n hinzugefügt</numerusform>
            <numerusform>%n hinzugefügt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n modified</source>
        <translation>
            <numerusform>%n geändert</numerusform>
            <numerusform>%n geändert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n deleted</source>
        <translation>
            <numerusform>%n gelöscht</numerusform>
            <numerusform>%n gelöscht</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n skipped</source>
        <translation>
            <numerusform>%n übersprungen</numerusform>
            <numerusform>%n übersprungen</numerusform>
        </translation>
    </message>
    <message>
        <source>Changes: the turn changed no file in the home.</source>
        <translation>Änderungen: Der Durchlauf hat keine Datei im Home-Verzeichnis geändert.</translation>
    </message>
    <message>
        <source>Changes in the home: %1</source>
        <translation>Änderungen im Home-Verzeichnis: %1</translation>
    </message>
    <message>
        <source>(the first %1 listed)</source>
        <translation>(die ersten %1 aufgeführt)</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::TranscriptView</name>
    <message>
        <source>Transcript</source>
        <translation>Transkript</translation>
    </message>
    <message>
        <source>Find in the transcript</source>
        <translation>Im Transkript suchen</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <source>Find next</source>
        <translation>Weitersuchen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Close the find bar</source>
        <translation>Suchleiste schließen</translation>
    </message>
    <message>
        <source>Earlier events could not be read: %1</source>
        <translation>Frühere Ereignisse konnten nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::TurnChangesReader</name>
    <message>
        <source>over the history file limit: recorded by its size and time only</source>
        <translation>über der Dateigrenze des Verlaufs: nur mit Größe und Änderungszeit erfasst</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::TurnErrorText</name>
    <message>
        <source>No model is set up for this folder: no API key or OAuth token is set. Run the prompt on the demo model, or set an API key, with the buttons above the prompt.</source>
        <translation>Für diesen Ordner ist kein Modell eingerichtet: Es ist weder ein API-Schlüssel noch ein OAuth-Token gesetzt. Führen Sie den Prompt mit dem Demo-Modell aus, oder setzen Sie einen API-Schlüssel – mit den Schaltflächen über dem Prompt.</translation>
    </message>
</context>
<context>
    <name>arizuko::desktop::TurnPanel</name>
    <message>
        <source>&amp;Allow for this folder…</source>
        <translation>Für diesen Ordner er&amp;lauben…</translation>
    </message>
    <message>
        <source>Phase timeline</source>
        <translation>Phasenverlauf</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>At</source>
        <translation>Um</translation>
    </message>
    <message>
        <source>Took</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Network decisions</source>
        <translation>Netzwerkentscheidungen</translation>
    </message>
    <message>
        <source>Allow the selected denied host for this folder</source>
        <translation>Den ausgewählten verweigerten Host für diesen Ordner erlauben</translation>
    </message>
    <message>
        <source>Serial console</source>
        <translation>Serielle Konsole</translation>
    </message>
    <message>
        <source>T&amp;urn</source>
        <translation>Durchla&amp;uf</translation>
    </message>
    <message>
        <source>&amp;Network</source>
        <translation>&amp;Netzwerk</translation>
    </message>
    <message>
        <source>C&amp;onsole</source>
        <translation>&amp;Konsole</translation>
    </message>
    <message>
        <source>Accelerator: %1 — %2</source>
        <translation>Beschleuniger: %1 — %2</translation>
    </message>
    <message>
        <source>No turn in this topic yet.</source>
        <translation>Noch kein Durchlauf in diesem Thema.</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Turn %1 (%2)
VM: %3
Subnet: %4
Proxy port: %5%6</source>
        <translation>Durchlauf %1 (%2)
VM: %3
Subnetz: %4
Proxy-Port: %5%6</translation>
    </message>
    <message>
        <source>not booted</source>
        <translation>nicht gestartet</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>noch nicht vergeben</translation>
    </message>
    <message>
        <source>
Error: %1</source>
        <translation>
Fehler: %1</translation>
    </message>
    <message>
        <source>Allow a host</source>
        <translation>Einen Host erlauben</translation>
    </message>
    <message>
        <source>Add this network rule?

    allow %1

to the folder &quot;%2&quot;. The next turns of %2 and of its subfolders may reach %1 and its subdomains through their proxy.</source>
        <translation>Diese Netzwerkregel hinzufügen?

    allow %1

im Ordner „%2“. Die nächsten Durchläufe von %2 und seinen Unterordnern dürfen %1 und seine Subdomains über ihren Proxy erreichen.</translation>
    </message>
    <message>
        <source>Add the rule</source>
        <translation>Regel hinzufügen</translation>
    </message>
    <message>
        <source>Show ea&amp;rlier requests</source>
        <translation>Frühere Anf&amp;ragen zeigen</translation>
    </message>
    <message>
        <source>Show the turn&apos;s earlier network requests</source>
        <translation>Die früheren Netzwerkanfragen des Turns zeigen</translation>
    </message>
    <message>
        <source>Egress ledger and e&amp;xport…</source>
        <translation>Egress-Protokoll und E&amp;xport…</translation>
    </message>
    <message>
        <source>Open the egress ledger of this turn, its folder or every folder, to filter and export it</source>
        <translation>Das Egress-Protokoll dieses Durchlaufs, seines Ordners oder aller Ordner öffnen, um es zu filtern und zu exportieren</translation>
    </message>
</context>
<context>
    <name>arizuko::engine::EngineImpl</name>
    <message>
        <source>%1 is not a read (GET) operation of any connector</source>
        <translation>%1 ist keine lesende (GET) Operation eines Konnektors</translation>
    </message>
</context>
<context>
    <name>arizuko::models::AuditLogModel</name>
    <message>
        <source>Time (UTC)</source>
        <translation>Zeit (UTC)</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Gegenstand</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Details</translation>
    </message>
</context>
<context>
    <name>arizuko::models::ConnectorListModel</name>
    <message>
        <source>choose a folder</source>
        <translation>Ordner wählen</translation>
    </message>
    <message>
        <source>%1 not set</source>
        <translation>%1 nicht gesetzt</translation>
    </message>
    <message>
        <source>%1 set for %2</source>
        <translation>%1 gesetzt für %2</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>eingebaut</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>Dienst</translation>
    </message>
    <message>
        <source>Defined in</source>
        <translation>Definiert in</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Basis-URL</translation>
    </message>
    <message>
        <source>Auth</source>
        <translation>Anmeldung</translation>
    </message>
    <message>
        <source>Secrets it reads</source>
        <translation>Gelesene Geheimnisse</translation>
    </message>
    <message>
        <source>Set for the folder?</source>
        <translation>Für den Ordner gesetzt?</translation>
    </message>
</context>
<context>
    <name>arizuko::models::ConnectorOperationModel</name>
    <message>
        <source>choose a folder</source>
        <translation>Ordner wählen</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>Anfrage</translation>
    </message>
    <message>
        <source>Grant scope</source>
        <translation>Freigabe-Bereich</translation>
    </message>
    <message>
        <source>Agent sees it</source>
        <translation>Agent sieht es</translation>
    </message>
    <message>
        <source>Decided by</source>
        <translation>Entschieden durch</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Grund</translation>
    </message>
</context>
<context>
    <name>arizuko::models::EffectiveToolModel</name>
    <message>
        <source>visible</source>
        <translation>sichtbar</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>verborgen</translation>
    </message>
    <message>
        <source>no grant</source>
        <translation>keine Freigabe</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Werkzeug</translation>
    </message>
    <message>
        <source>Agent sees it</source>
        <translation>Agent sieht es</translation>
    </message>
    <message>
        <source>Decided by</source>
        <translation>Entschieden durch</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Warum</translation>
    </message>
</context>
<context>
    <name>arizuko::models::FolderTopicModel</name>
    <message>
        <source>Folder %1</source>
        <translation>Ordner %1</translation>
    </message>
    <message>
        <source>Folder %1 (a turn is %2)</source>
        <translation>Ordner %1 (ein Durchlauf %2)</translation>
    </message>
    <message>
        <source>Topic %1 in %2</source>
        <translation>Thema %1 in %2</translation>
    </message>
    <message>
        <source>Topic %1 in %2 (a turn is %3)</source>
        <translation>Thema %1 in %2 (ein Durchlauf %3)</translation>
    </message>
    <message>
        <source>folder %1</source>
        <translation>Ordner %1</translation>
    </message>
    <message>
        <source>topic %1</source>
        <translation>Thema %1</translation>
    </message>
</context>
<context>
    <name>arizuko::models::GrantModel</name>
    <message>
        <source>action * is every action, admin included</source>
        <translation>Aktion * ist jede Aktion, admin eingeschlossen</translation>
    </message>
    <message>
        <source>egress lets the turn reach every host the rules do not deny</source>
        <translation>egress lässt den Durchlauf jeden Host erreichen, den die Regeln nicht verweigern</translation>
    </message>
    <message>
        <source>scope ** is every folder</source>
        <translation>Geltungsbereich ** ist jeder Ordner</translation>
    </message>
    <message>
        <source>principal %1 is many folders</source>
        <translation>Prinzipal %1 umfasst viele Ordner</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Effect</source>
        <translation>Wirkung</translation>
    </message>
    <message>
        <source>Principal</source>
        <translation>Prinzipal</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Geltungsbereich</translation>
    </message>
    <message>
        <source>Params</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>May delegate</source>
        <translation>Darf weitergeben</translation>
    </message>
    <message>
        <source>Granted by</source>
        <translation>Erteilt von</translation>
    </message>
    <message>
        <source>%1 enters the agent&apos;s environment in the guest: its value leaves the host&apos;s control (the agent can send it to any host the allowlist allows); a connector keeps the key on the host and calls the API for the agent</source>
        <translation>%1 gelangt in die Umgebung des Agenten im Gast: Sein Wert entzieht sich der Kontrolle des Hosts (der Agent kann ihn an jeden Host senden, den die Zulassungsliste erlaubt); ein Konnektor behält den Schlüssel auf dem Host und ruft die API für den Agenten auf</translation>
    </message>
</context>
<context>
    <name>arizuko::models::LedgerModel</name>
    <message>
        <source>Time (UTC)</source>
        <translation>Zeit (UTC)</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>Durchlauf</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gesendet</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>Empfangen</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
</context>
<context>
    <name>arizuko::models::NetworkDecisionModel</name>
    <message>
        <source>allowed</source>
        <translation>erlaubt</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>verweigert</translation>
    </message>
    <message>
        <source>%1 up, %2 down</source>
        <translation>%1 gesendet, %2 empfangen</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>The request waited while you were asked about %1.</source>
        <translation>Die Anfrage wartete, während Sie zu %1 gefragt wurden.</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>keine Antwort</translation>
    </message>
    <message>
        <source>allowed once</source>
        <translation>einmal erlaubt</translation>
    </message>
    <message>
        <source>allowed for the turn</source>
        <translation>für den Durchlauf erlaubt</translation>
    </message>
    <message>
        <source>%1 (asked: %2)</source>
        <translation>%1 (gefragt: %2)</translation>
    </message>
</context>
<context>
    <name>arizuko::models::NetworkRuleModel</name>
    <message>
        <source>this folder</source>
        <translation>dieser Ordner</translation>
    </message>
    <message>
        <source>inherited from %1</source>
        <translation>geerbt von %1</translation>
    </message>
    <message>
        <source>A rule of this folder; remove it here.</source>
        <translation>Eine Regel dieses Ordners; hier entfernen.</translation>
    </message>
    <message>
        <source>Inherited from %1: change it there.</source>
        <translation>Geerbt von %1: dort ändern.</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Methods</source>
        <translation>Methoden</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Angelegt von</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
</context>
<context>
    <name>arizuko::models::RouteModel</name>
    <message>
        <source>not tried: an earlier route won</source>
        <translation>nicht versucht: eine frühere Route hat gewonnen</translation>
    </message>
    <message>
        <source>WINS: matches every message</source>
        <translation>GEWINNT: passt auf jede Nachricht</translation>
    </message>
    <message>
        <source>WINS: every predicate matches</source>
        <translation>GEWINNT: alle Bedingungen treffen zu</translation>
    </message>
    <message>
        <source>no match: %1</source>
        <translation>kein Treffer: %1</translation>
    </message>
    <message>
        <source>(every message)</source>
        <translation>(jede Nachricht)</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Reihenfolge</translation>
    </message>
    <message>
        <source>Match</source>
        <translation>Bedingung</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Test message</source>
        <translation>Testnachricht</translation>
    </message>
</context>
<context>
    <name>arizuko::models::SecretListModel</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Applies to</source>
        <translation>Gilt für</translation>
    </message>
    <message>
        <source>Sealed with key</source>
        <translation>Versiegelt mit Schlüssel</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Not bound: a turn gets no placeholder for it (a shell:env grant gives the value itself).</source>
        <translation>Nicht gebunden: Ein Durchlauf erhält keinen Platzhalter dafür (eine shell:env-Freigabe gibt den Wert selbst).</translation>
    </message>
    <message>
        <source>(not bound)</source>
        <translation>(nicht gebunden)</translation>
    </message>
    <message>
        <source>HTTP Basic password</source>
        <translation>Passwort von HTTP Basic</translation>
    </message>
    <message>
        <source>Bound to hosts</source>
        <translation>Gebunden an Hosts</translation>
    </message>
    <message>
        <source>Goes into</source>
        <translation>Wird eingesetzt in</translation>
    </message>
</context>
<context>
    <name>arizuko::models::TurnListModel</name>
    <message>
        <source>queued</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>preparing</source>
        <translation>wird vorbereitet</translation>
    </message>
    <message>
        <source>booting</source>
        <translation>startet</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>finishing</source>
        <translation>wird beendet</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 tokens in, %2 out</source>
        <translation>%1 Tokens Eingabe, %2 Ausgabe</translation>
    </message>
    <message>
        <source>cost unknown</source>
        <translation>Kosten unbekannt</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>Durchlauf</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Tokens and cost</source>
        <translation>Tokens und Kosten</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Arizuko Desktop does not run as root.

Its transcript view (Qt WebEngine) refuses to run as root with its sandbox on, and the agents&apos; virtual machines are meant to run as you, not as root.

Start Arizuko Desktop as your own user, a member of the libvirt group. To join the group once: sudo adduser YOUR-USER-NAME libvirt, then log out and in again.</source>
        <translation>Arizuko Desktop läuft nicht als root.

Seine Transkriptansicht (Qt WebEngine) verweigert den Start als root mit eingeschalteter Sandbox, und die virtuellen Maschinen der Agenten sollen als Sie laufen, nicht als root.

Starten Sie Arizuko Desktop als Ihr eigener Benutzer, Mitglied der Gruppe libvirt. Einmalig der Gruppe beitreten: sudo adduser IHR-BENUTZERNAME libvirt, dann ab- und wieder anmelden.</translation>
    </message>
    <message>
        <source>Arizuko Desktop</source>
        <translation>Arizuko Desktop</translation>
    </message>
</context>
</TS>
