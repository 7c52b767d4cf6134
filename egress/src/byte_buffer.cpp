#include "byte_buffer.hpp"

#include <algorithm>
#include <cstring>

namespace arizuko::egress {

void ByteBuffer::reserve(size_t needed)
{
    if (begin_ > 0 && allocated_ - begin_ < needed) {
        std::memmove(storage_.get(), storage_.get() + begin_, size());
        end_ -= begin_;
        begin_ = 0;
    }
    if (allocated_ - end_ >= needed)
        return;
    const size_t grown = std::max(end_ + needed, capacity_);
    auto bigger = std::make_unique_for_overwrite<char[]>(grown);
    if (storage_)
        std::memcpy(bigger.get(), storage_.get(), end_);
    storage_ = std::move(bigger);
    allocated_ = grown;
}

std::span<char> ByteBuffer::writable()
{
    const size_t space = room();
    if (space == 0)
        return {};
    reserve(space);
    return {storage_.get() + end_, space};
}

void ByteBuffer::consume(size_t count)
{
    begin_ += std::min(count, size());
    if (begin_ == end_)
        begin_ = end_ = 0;
}

void ByteBuffer::append(std::string_view bytes)
{
    if (bytes.empty())
        return;
    reserve(bytes.size());
    std::memcpy(storage_.get() + end_, bytes.data(), bytes.size());
    end_ += bytes.size();
}

void ByteBuffer::releaseIfEmpty()
{
    if (!empty())
        return;
    storage_.reset();
    allocated_ = 0;
}

} // namespace arizuko::egress
