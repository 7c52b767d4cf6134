"""The egress ledger of a real turn: a command turn fetches an allowed, a
denied (a deny rule of its own folder) and an unlisted host, all names of
the outside namespace's server; the ledger holds one row for each with the
rule that decided it (the allow inherited from the parent folder, the
folder's own deny, none for the unlisted one) and the allowed exchange's
totals, and `arizukoctl network log` prints them as JSON Lines, OCSF and a
table."""

import datetime
import json
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
from confinement_support import h  # noqa: E402

ALLOWED, DENIED, UNLISTED = "allowed.test", "denied.test", "unlisted.test"
COMMAND = " ; ".join(
    f'if wget -q -O - "http://{host}:8080/{host}?token=s3cret" >/dev/null 2>&1; '
    f'then echo "FETCH {host} ok"; else echo "FETCH {host} failed"; fi'
    for host in (ALLOWED, DENIED, UNLISTED))


class EgressLedger(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        c.require_root_and_libvirt()
        h.set_up_engine(cls)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    @classmethod
    def _run(cls):
        engine = cls.engine
        engine.add_folder("corp")
        engine.add_folder("corp/eng")
        for arguments in (("allow", "corp", ALLOWED), ("deny", "corp/eng", DENIED)):
            result = engine.run("network", *arguments)
            if result.returncode != 0:
                raise AssertionError(f"network {arguments}: {result.stderr}")
        # Rows of an earlier turn: one past the default retention (30 days),
        # one within it. The engine prunes after the turn ends.
        now = datetime.datetime.now(datetime.timezone.utc)
        with engine.database() as db:
            for seq, days in ((1, 40), (2, 10)):
                at = (now - datetime.timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
                db.execute("INSERT INTO egress_ledger (time, turn, event_seq, folder, topic, source, "
                           "host, decision, reason) VALUES (?, 'earlier', ?, 'corp/eng', 'main', "
                           "'proxy', ?, 'allow', 'allowed')", (at, seq, f"{days}-days.test"))
        prefix = c.hosts_file_prefix(engine.directory.name, outside_names=(ALLOWED, DENIED, UNLISTED))
        with c.OutsideNamespace():
            run = engine.start("run", "--agent", "command", "corp/eng", COMMAND, prefix=prefix)
            try:
                cls.out, cls.err = run.communicate(timeout=600)
            finally:
                run.kill()
                run.communicate()
        cls.returncode = run.returncode
        cls.name = h.turn_name_from(cls.err)
        cls.turn = engine.turn(cls.name)
        with engine.database() as db:
            cls.rows = {row["host"]: dict(row) for row in db.execute(
                "SELECT * FROM egress_ledger WHERE turn = ? AND source = 'proxy'", (cls.turn["id"],))}
            cls.earlier = [row["host"] for row in db.execute(
                "SELECT host FROM egress_ledger WHERE turn = 'earlier'")]
        cls.log = engine.run("network", "log", "--turn", cls.name, "--format", "jsonl")
        cls.ocsf = engine.run("network", "log", "--turn", cls.name, "--format", "ocsf")
        cls.table = engine.run("network", "log", "--folder", "corp/eng", "--decision", "deny")

    def test_the_guest_fetched_only_the_allowed_host(self):
        self.assertEqual(self.returncode, 0, self.err)
        self.assertIn(f"FETCH {ALLOWED} ok", self.out)
        self.assertIn(f"FETCH {DENIED} failed", self.out)
        self.assertIn(f"FETCH {UNLISTED} failed", self.out)

    def test_the_ledger_holds_each_request_with_the_rule_that_decided(self):
        self.assertEqual(set(self.rows), {ALLOWED, DENIED, UNLISTED}, self.rows)
        allowed, denied, unlisted = (self.rows[host] for host in (ALLOWED, DENIED, UNLISTED))
        for row in (allowed, denied, unlisted):
            self.assertEqual(row["folder"], "corp/eng")
            self.assertEqual(row["method"], "GET")
            self.assertEqual(row["port"], 8080)
            # The proxy names the path once it logs one; never the query.
            if row["path"] is not None:
                self.assertEqual(row["path"], "/" + row["host"])
        self.assertEqual((allowed["decision"], allowed["reason"], allowed["status"]),
                         ("allow", "allowed", 200))
        self.assertEqual((allowed["rule_text"], allowed["rule_folder"]), (f"allow {ALLOWED}", "corp"))
        self.assertGreater(allowed["bytes_down"], 0)
        self.assertIsNotNone(allowed["duration_ms"])
        self.assertEqual((denied["decision"], denied["reason"], denied["status"]),
                         ("deny", "host-denied", 403))
        self.assertEqual((denied["rule_text"], denied["rule_folder"]), (f"deny {DENIED}", "corp/eng"))
        self.assertEqual((denied["bytes_up"], denied["bytes_down"]), (0, 0))
        self.assertEqual((unlisted["decision"], unlisted["reason"]), ("deny", "host-not-allowed"))
        self.assertIsNone(unlisted["rule_text"])
        self.assertIsNone(unlisted["rule_id"])

    def test_rows_past_the_retention_went_after_the_turn(self):
        self.assertEqual(self.earlier, ["10-days.test"])

    def test_the_ledger_matches_the_transcript(self):
        decisions = [e["json"] for e in self.engine.events(self.name)
                     if e["kind"] == "network" and e["json"].get("event") == "decision"]
        self.assertEqual(sorted(d["host"] for d in decisions), sorted(self.rows))

    def test_network_log_prints_them(self):
        self.assertEqual(self.log.returncode, 0, self.log.stderr)
        lines = [json.loads(line) for line in self.log.stdout.splitlines()]
        proxy = {line["host"]: line for line in lines if line["source"] == "proxy"}
        self.assertEqual(set(proxy), {ALLOWED, DENIED, UNLISTED})
        self.assertTrue(all(line["schema"] == "arizuko.egress-ledger/1" for line in lines))
        self.assertEqual(proxy[DENIED]["rule"]["text"], f"deny {DENIED}")
        self.assertIsNone(proxy[UNLISTED]["rule"])
        self.assertNotIn("s3cret", self.log.stdout)

        self.assertEqual(self.ocsf.returncode, 0, self.ocsf.stderr)
        events = [json.loads(line) for line in self.ocsf.stdout.splitlines()]
        http = [e for e in events if e["dst_endpoint"]["hostname"] in proxy]
        self.assertEqual(len(http), 3)
        for event in http:
            self.assertEqual(event["class_uid"], 4002)
            self.assertEqual(event["http_request"]["http_method"], "GET")
        self.assertEqual({e["dst_endpoint"]["hostname"]: e["disposition_id"] for e in http},
                         {ALLOWED: 1, DENIED: 2, UNLISTED: 2})

        self.assertEqual(self.table.returncode, 0, self.table.stderr)
        table = self.table.stdout.splitlines()
        self.assertTrue(table[0].startswith("TIME"))
        self.assertEqual(len(table), 3, self.table.stdout)
        self.assertTrue(any(f"deny {DENIED} (corp/eng)" in line for line in table), table)


if __name__ == "__main__":
    h.main()
