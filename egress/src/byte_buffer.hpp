#pragma once

// A bounded byte buffer whose storage is allocated on first use and can be handed back, so an idle
// connection or a spliced tunnel holds no buffer memory at all.

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

namespace arizuko::egress {

class ByteBuffer
{
public:
    explicit ByteBuffer(size_t capacity)
        : capacity_(capacity)
    {}

    std::string_view view() const { return {storage_.get() + begin_, end_ - begin_}; }
    size_t size() const { return end_ - begin_; }
    bool empty() const { return begin_ == end_; }
    // How many more bytes reading may add before the buffer is full.
    size_t room() const { return size() >= capacity_ ? 0 : capacity_ - size(); }

    // Free space to read into (at most room()); call commit() with what was written.
    std::span<char> writable();
    void commit(size_t count) { end_ += count; }
    void consume(size_t count);
    // Appends `bytes`, growing past the capacity if needed (for heads the proxy composes).
    void append(std::string_view bytes);
    // Frees the storage once nothing is left in it.
    void releaseIfEmpty();

private:
    void reserve(size_t needed);

    std::unique_ptr<char[]> storage_;
    size_t allocated_ = 0;
    size_t capacity_;
    size_t begin_ = 0;
    size_t end_ = 0;
};

} // namespace arizuko::egress
