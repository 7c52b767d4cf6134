#include "protocol_writer.h"

#include "jsontext/object_writer.h"

namespace arizuko::guest {
namespace {

std::string line(jsontext::ObjectWriter &&writer)
{
    std::string text = std::move(writer).finish();
    text.push_back('\n');
    return text;
}

void addPiece(jsontext::ObjectWriter &writer, const LinePiece &piece)
{
    writer.add("line", piece.text);
    if (piece.continued)
        writer.add("continued", true);
}

const char *reasonName(ExitReport::Reason reason)
{
    switch (reason) {
    case ExitReport::Reason::Exited:
        return "exited";
    case ExitReport::Reason::Signaled:
        return "signal";
    case ExitReport::Reason::Timeout:
        return "timeout";
    case ExitReport::Reason::Cancelled:
        return "cancelled";
    case ExitReport::Reason::Error:
        return "error";
    }
    return "error";
}

int exitCode(const ExitReport &report)
{
    switch (report.reason) {
    case ExitReport::Reason::Exited:
        return report.code;
    case ExitReport::Reason::Signaled:
        return 128 + report.signal;
    case ExitReport::Reason::Timeout:
        return timeoutExitCode;
    case ExitReport::Reason::Cancelled:
        return cancelledExitCode;
    case ExitReport::Reason::Error:
        return errorExitCode;
    }
    return errorExitCode;
}

} // namespace

std::string ProtocolWriter::status(const StatusReport &report)
{
    jsontext::ObjectWriter writer;
    writer.add("type", "status")
        .add("seq", takeSeq())
        .add("state", report.state)
        .add("uptime_ms", report.uptimeMs);
    if (!report.kernel.empty())
        writer.add("kernel", report.kernel);
    if (!report.image.empty())
        writer.add("image", report.image);
    return line(std::move(writer));
}

std::string ProtocolWriter::event(const LinePiece &piece)
{
    jsontext::ObjectWriter writer;
    writer.add("type", "event").add("seq", takeSeq());
    addPiece(writer, piece);
    return line(std::move(writer));
}

std::string ProtocolWriter::log(std::string_view source, const LinePiece &piece)
{
    jsontext::ObjectWriter writer;
    writer.add("type", "log").add("seq", takeSeq()).add("source", source);
    addPiece(writer, piece);
    return line(std::move(writer));
}

std::string ProtocolWriter::exit(const ExitReport &report)
{
    jsontext::ObjectWriter writer;
    writer.add("type", "exit")
        .add("seq", takeSeq())
        .add("reason", reasonName(report.reason))
        .add("code", std::int64_t{exitCode(report)});
    if (report.reason == ExitReport::Reason::Signaled)
        writer.add("signal", std::int64_t{report.signal});
    if (!report.message.empty())
        writer.add("message", report.message);
    writer.add("duration_ms", report.durationMs);
    return line(std::move(writer));
}

} // namespace arizuko::guest
