"""After the turn tests: no az-* domain, network, bridge, proxy process or
nwfilter binding is left on the host."""

import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "harness"))
import turns_harness as h  # noqa: E402


class NoLeftovers(unittest.TestCase):
    def test_nothing_named_like_a_turn_is_left(self):
        # Teardown of the last turn may still be settling in libvirtd.
        def clean():
            left = h.leftovers()
            return left if not any(left.values()) else None

        try:
            h.wait_for(clean, timeout=15, what="no az-* objects")
        except AssertionError:
            self.fail(f"left on the host: {h.leftovers()}")


if __name__ == "__main__":
    h.main()
