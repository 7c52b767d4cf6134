"""Command line and environment of arizuko-egress: bad values exit 2 naming
the flag, --help exits 0, a flag wins over its environment variable."""

from egress_clients import absolute_get, raw_request
from egress_common import LOOPBACK, OTHER_LOOPBACK
from egress_harness import EgressTestCase, main
from egress_process import run_egress

SAFE_LISTEN = ["--listen", LOOPBACK + ":0"]


class FlagsTest(EgressTestCase):
    def assertRejected(self, args, names, env=None):
        """Exit status 2 and a message naming the flag (or its variable) and the value."""
        status, output = run_egress(args, env)
        self.assertIsNotNone(status, "still running with %r; output:\n%s" % (args, output))
        self.assertEqual(status, 2, output)
        self.assertTrue(any(name in output for name in names),
                        "message does not name %s: %r" % (" or ".join(names), output))
        return output

    def test_unparsable_client_exits_2(self):
        for value in ("not-an-ip", "10.0.0.300", "10.0.0.0/8"):
            with self.subTest(value=value):
                output = self.assertRejected(SAFE_LISTEN + ["--client", value], ["--client"])
                self.assertIn(value, output)

    def test_invalid_allow_entry_exits_2(self):
        invalid = ("bad host", "https://github.com/", "github.com/path", "exa mple.com,github.com")
        for value in invalid:
            with self.subTest(value=value):
                self.assertRejected(SAFE_LISTEN + ["--allow", value], ["--allow"])

    def test_invalid_deny_entry_exits_2(self):
        self.assertRejected(SAFE_LISTEN + ["--allow", "github.com", "--deny", "http://x.test"],
                            ["--deny"])

    def test_bad_listen_port_exits_2(self):
        for value in (LOOPBACK + ":99999", LOOPBACK + ":http", LOOPBACK + ":-1", LOOPBACK):
            with self.subTest(value=value):
                output = self.assertRejected(["--listen", value, "--allow", "github.com"],
                                             ["--listen"])
                self.assertIn(value, output)

    def test_bad_numbers_exit_2(self):
        for flag in ("--max-connections", "--header-timeout", "--connect-timeout",
                     "--idle-timeout", "--max-header-bytes", "--drain-timeout"):
            with self.subTest(flag=flag):
                self.assertRejected(SAFE_LISTEN + ["--allow", "github.com", flag, "many"], [flag])

    def test_numbers_out_of_range_exit_2(self):
        out_of_range = [("--max-connections", "0"), ("--max-connections", "1000001"),
                        ("--header-timeout", "0"), ("--idle-timeout", "-1"),
                        ("--connect-timeout", "604801"), ("--drain-timeout", "-0.5"),
                        ("--max-header-bytes", "255")]
        for flag, value in out_of_range:
            with self.subTest(flag=flag, value=value):
                output = self.assertRejected(SAFE_LISTEN + ["--allow", "github.com", flag, value],
                                             [flag])
                self.assertIn(value, output)

    def test_bad_environment_value_exits_2(self):
        self.assertRejected(SAFE_LISTEN + ["--allow", "github.com"],
                            ["EGRESS_CLIENT", "--client"], env={"EGRESS_CLIENT": "nope"})
        self.assertRejected(SAFE_LISTEN + ["--allow", "github.com"],
                            ["EGRESS_DENY_PRIVATE", "--deny-private"],
                            env={"EGRESS_DENY_PRIVATE": "maybe"})

    def test_unknown_flag_exits_2(self):
        self.assertRejected(SAFE_LISTEN + ["--allow", "github.com", "--no-such-flag"],
                            ["--no-such-flag"])

    def test_help_exits_0_and_describes_the_flags(self):
        status, output = run_egress(["--help"])
        self.assertEqual(status, 0, output)
        for flag in ("--listen", "--allow", "--deny", "--client", "--deny-private",
                     "--drain-timeout"):
            self.assertIn(flag, output)

    def test_flag_wins_over_environment(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy(
            "--client", LOOPBACK,
            env={"EGRESS_CLIENT": OTHER_LOOPBACK, "EGRESS_ALLOW": LOOPBACK},
        )
        authority = "%s:%d" % (LOOPBACK, upstream.port)
        served = raw_request(proxy.port, absolute_get(authority, "/hello"))
        self.assertEqual(served.status, 200, served)

    def test_values_after_equals_sign(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy("--allow=" + LOOPBACK, "--client=" + LOOPBACK,
                                 "--deny-private=false", "--max-connections=4")
        authority = "%s:%d" % (LOOPBACK, upstream.port)
        self.assertEqual(raw_request(proxy.port, absolute_get(authority, "/hello")).status, 200)

    def test_environment_sets_the_lists(self):
        upstream = self.start_upstream()
        proxy = self.start_proxy(env={"EGRESS_ALLOW": "localhost," + LOOPBACK,
                                      "EGRESS_DENY": "localhost"})
        authority = "%s:%d" % (LOOPBACK, upstream.port)
        self.assertEqual(raw_request(proxy.port, absolute_get(authority, "/hello")).status, 200)
        self.assertRefused(
            raw_request(proxy.port, absolute_get("localhost:%d" % upstream.port, "/hello")),
            403, "host-denied",
        )


if __name__ == "__main__":
    main()
