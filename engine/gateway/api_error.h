#pragma once

// Errors in the shape the Anthropic API gives them, so Claude Code reports
// a refusal by the gateway or the scripted model as it would the real API's;
// and in the OpenAI API's shape, for the scripted model's Responses API.

#include <QByteArray>
#include <QString>

namespace arizuko::gateway {

// "authentication_error" for 401, "rate_limit_error" for 429, and so on.
QString anthropicErrorType(int status);
// {"type":"error","error":{"type":…,"message":…}}
QByteArray anthropicErrorBody(const QString &type, const QString &message);
QByteArray anthropicErrorBody(int status, const QString &message);
// {"error":{"message":…,"type":…,"param":null,"code":…}}; `type` empty:
// the one OpenAI documents for the status.
QByteArray openAIErrorBody(int status, const QString &message, const QString &type = {});

} // namespace arizuko::gateway
