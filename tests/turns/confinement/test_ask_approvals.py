"""A folder that asks about hosts on no allow entry, end to end: a real
command turn's guest sends plain HTTP requests through its real proxy
(started with --ask) to hosts the folder does not list, while this test
answers the questions from another process with `arizukoctl network
pending|approve|deny`, as a script would:

- once.test: approved once; its next request asks again and is denied
  (403 user-denied);
- turn.test: approved for the turn; its next request asks nothing;
- always.test: approved always: the folder's allow rule exists afterwards,
  audited as the CLI's user;
- silent.test: never answered: 403 no-answer at the folder's timeout (5 s).

The hosts name 127.0.0.1 in the engine's own mount namespace, where a
server of this test answers (ARIZUKO_PROXY_ALLOW_LOOPBACK=1, as the
confinement test has it); every other proxy flag is the engine's."""

import json
import pathlib
import sys
import threading
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
from ask_support import asked_results, asking_engine  # noqa: E402
from https_origin import Origin  # noqa: E402

HOSTS = ("once.test", "turn.test", "always.test", "silent.test")
STEPS = (("once-1", "once.test", "one"), ("once-2", "once.test", "two"),
         ("turn-1", "turn.test", "one"), ("turn-2", "turn.test", "two"),
         ("always-1", "always.test", "one"), ("silent-1", "silent.test", "one"))


class Answerer:
    """Polls `network pending` and answers each question by its host."""

    def __init__(self, engine):
        self.engine = engine
        self.seen = []  # (id, host) in the order asked
        self.errors = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _answer(self, question):
        host = question["host"]
        earlier = sum(1 for _, seen in self.seen if seen == host)
        self.seen.append((question["id"], host))
        qid = str(question["id"])
        if host == "once.test":
            return ["approve", qid] if earlier == 0 else ["deny", qid]
        if host == "turn.test":
            return ["approve", qid, "--turn"]
        if host == "always.test":
            return ["approve", qid, "--always"]
        return None  # silent.test: no one answers

    def _run(self):
        answered = set()
        while not self.stop.is_set():
            result = self.engine.run("--json", "network", "pending", timeout=60)
            if result.returncode != 0:
                self.errors.append(result.stderr)
            else:
                for question in json.loads(result.stdout or "[]"):
                    if question["id"] in answered:
                        continue
                    answered.add(question["id"])
                    answer = self._answer(question)
                    if answer:
                        reply = self.engine.run("network", *answer, timeout=60)
                        if reply.returncode != 0:
                            self.errors.append(reply.stderr)
            time.sleep(0.3)

    def close(self):
        self.stop.set()
        self.thread.join(timeout=30)


class AskApprovals(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.engine = asking_engine("--ask-timeout", "5")
        engine = cls.engine
        origin = Origin()
        answerer = Answerer(engine)
        try:
            steps = " ".join(f"{step} http://{host}:{origin.port}/{path}"
                             for step, host, path in STEPS)
            turn = engine.start("run", "--agent", "command", "--deadline", "300", "corp",
                                f"bash $HOME/ask_requests.sh {steps}",
                                prefix=c.hosts_file_prefix(engine.directory.name,
                                                           {host: "127.0.0.1" for host in HOSTS}))
            try:
                cls.out, cls.err = turn.communicate(timeout=480)
                cls.returncode = turn.returncode
            finally:
                turn.kill()
        finally:
            answerer.close()
            origin.close()
        cls.answerer = answerer
        cls.name = h.turn_name_from(cls.err)
        cls.events = engine.events(cls.name)
        cls.results = asked_results(cls.events)
        for step, outcome in sorted(cls.results.items()):
            print(f"{step}: {outcome}", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_turn_ran_every_request(self):
        self.assertEqual(self.returncode, 0, self.err[-3000:])
        self.assertEqual(self.answerer.errors, [])
        self.assertEqual(sorted(self.results),
                         ["always-1", "once-1", "once-2", "silent-1", "turn-1", "turn-2"])

    def test_once_lets_one_request_through_and_the_next_asks_again(self):
        self.assertEqual(self.results["once-1"][0], "http-200", self.results)
        self.assertEqual(self.results["once-1"][2], "body=origin /one")
        self.assertEqual(self.results["once-2"][:2], ("http-403", "reason=user-denied"))
        self.assertEqual([host for _, host in self.answerer.seen].count("once.test"), 2)

    def test_turn_allows_the_host_for_the_rest_of_the_turn(self):
        self.assertEqual(self.results["turn-1"][0], "http-200", self.results)
        self.assertEqual(self.results["turn-2"][0], "http-200", self.results)
        self.assertEqual([host for _, host in self.answerer.seen].count("turn.test"), 1)

    def test_always_adds_the_folders_rule_audited_as_the_user(self):
        self.assertEqual(self.results["always-1"][0], "http-200", self.results)
        with self.engine.database() as db:
            rules = [dict(row) for row in db.execute(
                "SELECT target, kind, created_by FROM network_rules WHERE folder = 'corp'")]
        self.assertEqual(rules, [{"target": "always.test", "kind": "allow", "created_by": "user:cli"}])

    def test_an_unanswered_question_is_denied_at_the_timeout(self):
        self.assertEqual(self.results["silent-1"][:2], ("http-403", "reason=no-answer"))
        with self.engine.database() as db:
            row = db.execute("SELECT answer, reason, answered_by, forwarded FROM egress_questions "
                             "WHERE host = 'silent.test'").fetchone()
        self.assertEqual(tuple(row), ("deny", "no-answer", "system:turns", 1))

    def test_the_proxy_ran_with_ask(self):
        network = [e["json"] for e in self.events if e["kind"] == "network"
                   and e["json"].get("event") == "decision"]
        asked = [d for d in network if d.get("asked")]
        self.assertEqual(sorted((d["host"], d["answer"]) for d in asked),
                         sorted([("once.test", "once"), ("once.test", "deny"),
                                 ("turn.test", "turn"), ("always.test", "turn"),
                                 ("silent.test", "deny")]), network)


if __name__ == "__main__":
    h.main()
