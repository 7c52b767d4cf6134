"""`arizukoctl run` on a terminal asks inline (issue 36): a real command
turn of a folder that asks requests once.test twice through its --ask
proxy; the run, its stdin and stderr a pseudo-terminal, prints the
question while the request waits; "o" lets the first through, "d" denies
the second (403 user-denied). The host names 127.0.0.1 in the engine's own
mount namespace, where this test's server answers."""

import os
import pathlib
import select
import subprocess
import sys
import time
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import confinement_support as c  # noqa: E402
from ask_support import asked_results, asking_engine  # noqa: E402
from https_origin import Origin  # noqa: E402


class AskOnTerminal(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.engine = asking_engine()
        engine = cls.engine
        origin = Origin()
        master, slave = os.openpty()
        prefix = c.hosts_file_prefix(engine.directory.name, {"once.test": "127.0.0.1"})
        url = f"http://once.test:{origin.port}"
        command = [*prefix, *engine.command("run", "--agent", "command", "--deadline", "300",
                                            "corp", f"bash $HOME/ask_requests.sh first {url}/first "
                                            f"second {url}/second")]
        cls.terminal = b""
        try:
            process = subprocess.Popen(command, stdin=slave, stderr=slave, stdout=subprocess.PIPE,
                                       env=engine.environment)
            os.close(slave)
            answers = [b"o\n", b"d\n"]
            deadline = time.monotonic() + 480
            while process.poll() is None and time.monotonic() < deadline:
                ready, _, _ = select.select([master], [], [], 0.5)
                if not ready:
                    continue
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                cls.terminal += chunk
                asked = cls.terminal.count(b"or [d]eny?")
                if answers and asked > 2 - len(answers):
                    os.write(master, answers.pop(0))
            cls.out, _ = process.communicate(timeout=120)
            cls.returncode = process.returncode
        finally:
            os.close(master)
            origin.close()
        cls.name = h.turn_name_from(cls.terminal.decode(errors="replace"))
        cls.results = {step: result[:2] for step, result in asked_results(engine.events(cls.name)).items()}
        print(cls.results, file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        cls.engine.close()

    def test_the_question_is_asked_on_the_terminal(self):
        text = self.terminal.decode(errors="replace")
        self.assertEqual(self.returncode, 0, text[-3000:])
        self.assertEqual(text.count("asks for once.test:"), 2, text[-3000:])
        self.assertIn(" GET /first\r\n", text)
        self.assertIn(" GET /second\r\n", text)
        self.assertIn("[a]lways for corp (*.once.test)", text)

    def test_the_answers_typed_decide_the_requests(self):
        self.assertEqual(self.results, {"first": ("http-200", "reason=none"),
                                        "second": ("http-403", "reason=user-denied")})


if __name__ == "__main__":
    h.main()
