#include "turn_error_text.h"

#include "turns/model_provider.h"

#include <QCoreApplication>

namespace arizuko::desktop {
namespace {

class TurnErrorText
{
    Q_DECLARE_TR_FUNCTIONS(arizuko::desktop::TurnErrorText)
};

} // namespace

QString turnErrorText(const QString &code, const QString &message)
{
    // The composer offers both fixes above the prompt (Composer::offerModelChoice).
    if (code == turns::noCredentialErrorCode)
        return TurnErrorText::tr("No model is set up for this folder: no API key or OAuth token "
                                 "is set. Run the prompt on the demo model, or set an API key, "
                                 "with the buttons above the prompt.");
    return message;
}

} // namespace arizuko::desktop
