// The bounded buffer behind request heads and forwarded bodies: room, compaction, growth for
// composed heads, and no storage while empty.

#include "byte_buffer.hpp"

#include <cstring>
#include <gtest/gtest.h>

namespace arizuko::egress {
namespace {

void fill(ByteBuffer &buffer, std::string_view bytes)
{
    const auto space = buffer.writable();
    ASSERT_GE(space.size(), bytes.size());
    std::memcpy(space.data(), bytes.data(), bytes.size());
    buffer.commit(bytes.size());
}

TEST(ByteBuffer, ReadsUpToItsCapacity)
{
    ByteBuffer buffer(8);
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.room(), 8u);
    fill(buffer, "abcdef");
    EXPECT_EQ(buffer.view(), "abcdef");
    EXPECT_EQ(buffer.room(), 2u);
    EXPECT_EQ(buffer.writable().size(), 2u);
    buffer.consume(4);
    EXPECT_EQ(buffer.view(), "ef");
    EXPECT_EQ(buffer.room(), 6u);
    // Compacts rather than growing: room after consuming is usable at once.
    fill(buffer, "ghijkl");
    EXPECT_EQ(buffer.view(), "efghijkl");
    EXPECT_EQ(buffer.room(), 0u);
    EXPECT_TRUE(buffer.writable().empty());
}

TEST(ByteBuffer, AppendGrowsPastTheCapacityForComposedHeads)
{
    ByteBuffer buffer(4);
    buffer.append("0123456789");
    EXPECT_EQ(buffer.view(), "0123456789");
    EXPECT_EQ(buffer.room(), 0u);
    buffer.consume(100);
    EXPECT_TRUE(buffer.empty());
    EXPECT_EQ(buffer.room(), 4u);
}

TEST(ByteBuffer, ReleasesOnlyWhenEmpty)
{
    ByteBuffer buffer(16);
    buffer.append("keep");
    buffer.releaseIfEmpty();
    EXPECT_EQ(buffer.view(), "keep");
    buffer.consume(4);
    buffer.releaseIfEmpty();
    EXPECT_TRUE(buffer.empty());
    fill(buffer, "again");
    EXPECT_EQ(buffer.view(), "again");
}

} // namespace
} // namespace arizuko::egress
