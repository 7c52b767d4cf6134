// A GoogleTest binary whose only test skips itself: GTEST_SKIP() prints
// "[  SKIPPED ]" and exits 0, which the skip gate must still see as a skip
// (test_check_skips.py runs it through CTest and check_skips.py).

#include <gtest/gtest.h>

TEST(SkipProbe, SkipsItself)
{
    GTEST_SKIP() << "this machine cannot run the probe";
}
