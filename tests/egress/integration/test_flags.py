"""Command line and environment of arizuko-egress: bad values exit 2 naming
the flag, --help exits 0, each variable alone takes effect, a flag wins over
its environment variable."""


from egress_clients import absolute_get, raw_request
from egress_common import LOOPBACK, OTHER_LOOPBACK, THIRD_LOOPBACK
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

    def start_from_environment(self, *flags, env):
        """The proxy configured by `env` and only the given flags; not even
        --listen is on the command line (EGRESS_LISTEN binds 127.0.0.1:0, and
        wait_listening() fails on any other address)."""
        proxy = self.start_proxy(*flags, env=dict(env, EGRESS_LISTEN=LOOPBACK + ":0"), listen=None)
        self.assertEqual(proxy.command[1:], list(flags))
        return proxy

    def get(self, proxy, host, upstream, source=LOOPBACK):
        return raw_request(proxy.port, absolute_get("%s:%d" % (host, upstream.port), "/hello"),
                           source=source)

    def test_environment_alone_pins_the_client(self):
        upstream = self.start_upstream()
        proxy = self.start_from_environment(
            env={"EGRESS_CLIENT": OTHER_LOOPBACK, "EGRESS_ALLOW": LOOPBACK})
        self.assertRefused(self.get(proxy, LOOPBACK, upstream, source=THIRD_LOOPBACK),
                           403, "client-not-allowed")
        proxy.wait_event(event="decision", client=THIRD_LOOPBACK, reason="client-not-allowed")
        self.assertEqual(upstream.recorded(), [])
        served = self.get(proxy, LOOPBACK, upstream, source=OTHER_LOOPBACK)
        self.assertEqual(served.status, 200, served)
        self.assertEqual(served.body, b"hello from upstream\n")

    def test_environment_alone_sets_deny_private_and_allow_loopback(self):
        upstream = self.start_upstream()
        lists = {"EGRESS_ALLOW": "localhost," + LOOPBACK}
        proxy = self.start_from_environment(env=dict(lists, EGRESS_DENY_PRIVATE="1"))
        for host in ("localhost", LOOPBACK):
            with self.subTest(host=host):
                self.assertRefused(self.get(proxy, host, upstream), 403, "private-address")
        self.assertEqual(upstream.recorded(), [])

        proxy = self.start_from_environment(
            env=dict(lists, EGRESS_DENY_PRIVATE="1", EGRESS_ALLOW_LOOPBACK="1"))
        for host in ("localhost", LOOPBACK):
            with self.subTest(host=host):
                served = self.get(proxy, host, upstream)
                self.assertEqual(served.status, 200, served)
        self.assertEqual(len(upstream.recorded("/hello")), 2)

    def test_environment_alone_names_the_list_files(self):
        upstream = self.start_upstream()
        proxy = self.start_from_environment(env={
            "EGRESS_ALLOW_FILE": self.write_list("# allow\n%s\nlocalhost\n" % LOOPBACK),
            "EGRESS_DENY_FILE": self.write_list("# deny\nlocalhost\n"),
        })
        served = self.get(proxy, LOOPBACK, upstream)
        self.assertEqual(served.status, 200, served)
        self.assertRefused(self.get(proxy, "localhost", upstream), 403, "host-denied")
        self.assertRefused(raw_request(proxy.port, absolute_get("other.invalid")),
                           403, "host-not-allowed")
        self.assertEqual(len(upstream.recorded()), 1)

    def test_flag_wins_over_environment(self):
        upstream = self.start_upstream()
        # a value, a list and a boolean, each set in the environment
        env = {"EGRESS_CLIENT": THIRD_LOOPBACK, "EGRESS_ALLOW": "localhost",
               "EGRESS_DENY_PRIVATE": "1"}

        # the environment alone is in force ...
        proxy = self.start_from_environment(env=env)
        self.assertRefused(self.get(proxy, "localhost", upstream, source=OTHER_LOOPBACK),
                           403, "client-not-allowed")
        self.assertRefused(self.get(proxy, "localhost", upstream, source=THIRD_LOOPBACK),
                           403, "private-address")
        self.assertRefused(self.get(proxy, LOOPBACK, upstream, source=THIRD_LOOPBACK),
                           403, "host-not-allowed")

        # ... and each flag replaces its variable: not merged with it
        proxy = self.start_from_environment(
            "--client", OTHER_LOOPBACK, "--allow", LOOPBACK, "--deny-private=false", env=env)
        served = self.get(proxy, LOOPBACK, upstream, source=OTHER_LOOPBACK)
        self.assertEqual(served.status, 200, served)
        self.assertRefused(self.get(proxy, "localhost", upstream, source=OTHER_LOOPBACK),
                           403, "host-not-allowed")
        self.assertRefused(self.get(proxy, LOOPBACK, upstream, source=THIRD_LOOPBACK),
                           403, "client-not-allowed")
        self.assertEqual(len(upstream.recorded()), 1)

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
