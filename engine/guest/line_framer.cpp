#include "line_framer.h"

#include "jsontext/utf8.h"

#include <stdexcept>

namespace arizuko::guest {

LineFramer::LineFramer(std::size_t maxPieceBytes)
    : m_maxPieceBytes(maxPieceBytes)
{
    // Backing up to a UTF-8 boundary needs room for one whole sequence.
    if (maxPieceBytes < 4)
        throw std::invalid_argument("line pieces must hold at least 4 bytes");
}

std::vector<LinePiece> LineFramer::feed(std::string_view data)
{
    std::vector<LinePiece> pieces;
    while (!data.empty()) {
        const std::size_t newline = data.find('\n');
        if (newline != std::string_view::npos) {
            m_pending.append(data.substr(0, newline));
            data.remove_prefix(newline + 1);
        } else {
            m_pending.append(data);
            data = {};
        }
        while (m_pending.size() > m_maxPieceBytes) {
            const std::size_t cut = utf8::boundaryAtOrBefore(m_pending, m_maxPieceBytes);
            pieces.push_back({m_pending.substr(0, cut), true});
            m_pending.erase(0, cut);
        }
        if (newline != std::string_view::npos) {
            pieces.push_back({std::move(m_pending), false});
            m_pending.clear();
        }
    }
    return pieces;
}

std::vector<LinePiece> LineFramer::finish()
{
    std::vector<LinePiece> pieces;
    if (!m_pending.empty())
        pieces.push_back({std::move(m_pending), false});
    m_pending.clear();
    return pieces;
}

} // namespace arizuko::guest
