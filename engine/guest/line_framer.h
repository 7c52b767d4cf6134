#pragma once

// Cuts a byte stream (an agent's stdout or stderr) into lines for the
// protocol. A line longer than the piece limit leaves in several pieces, cut
// on UTF-8 boundaries; every piece but the last is marked as continued.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace arizuko::guest {

struct LinePiece
{
    std::string text;       // without the newline
    bool continued = false; // the line goes on in the next piece
};

class LineFramer
{
public:
    explicit LineFramer(std::size_t maxPieceBytes);

    // The pieces completed by `data`, in order.
    std::vector<LinePiece> feed(std::string_view data);
    // What is left at end of stream: an unterminated last line, if any.
    std::vector<LinePiece> finish();

private:
    std::size_t m_maxPieceBytes;
    std::string m_pending;
};

} // namespace arizuko::guest
