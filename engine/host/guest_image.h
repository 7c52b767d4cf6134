#pragma once

// Where the guest image lives and whether it is complete. The image is a
// slow, reusable artifact, so it sits in the user's cache, not a build tree.

#include <QString>
#include <QStringList>

namespace arizuko::host {

struct GuestImageStatus
{
    QString directory;
    bool present = false;
    QStringList missing; // file names absent from the directory
};

// $ARIZUKO_GUEST_IMAGE_DIR, else $XDG_CACHE_HOME/arizuko-desktop/guest.
QString guestImageDirectory();

GuestImageStatus inspectGuestImage(const QString &directory = guestImageDirectory());

// What to tell a person whose image is missing or stale.
QString guestImageBuildHint();

} // namespace arizuko::host
