#pragma once

// Where the guest image lives and whether it can be used: complete, of the
// manifest format this engine reads, its files as the manifest lists them,
// and carrying this engine's own arizuko-guest. The image is a slow,
// reusable artifact, so it sits in the user's cache, not a build tree.

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace arizuko::host {

// One agent the image carries, as its manifest lists it.
struct GuestAgent
{
    QString name;    // a kind of agent's name (agent/agent_profile.h)
    QString version; // "2.1.332"
    QString entry;   // the program a turn starts: "/usr/local/bin/claude"

    bool operator==(const GuestAgent &) const = default;
};

struct GuestImageStatus
{
    QString directory;
    bool present = false;  // complete and consistent: turns may boot it
    QStringList missing;   // file names absent from the directory
    QString problem;       // why a complete image does not fit this engine
    // What its manifest lists, in the manifest's order; none for an image
    // built before the list existed (a stale one).
    QList<GuestAgent> agents;
    qint64 bytes = 0;  // what its boot files take, those present
    QDateTime builtAt; // as its manifest says; invalid without one

    bool hasAgent(QStringView name) const;
};

// $ARIZUKO_GUEST_IMAGE_DIR, else $XDG_CACHE_HOME/arizuko-desktop/guest.
QString guestImageDirectory();

// The arizuko-guest of this build or package (helper_programs.h), when there
// is one; the image must carry that program.
QString siblingGuestProgram();

GuestImageStatus inspectGuestImage(const QString &directory = guestImageDirectory(),
                                   const QString &guestProgram = siblingGuestProgram());

// Why the image cannot be used ("missing root.img", or the mismatch), or
// empty when it can.
QString guestImageFault(const GuestImageStatus &status);

// What to tell a person whose image is missing or stale: the command that
// builds it (arizukoctl image build), and the window's button.
QString guestImageBuildHint();

// "the guest image in DIR cannot be used (FAULT); HINT": the error a turn
// and `arizukoctl image status` give for an image that cannot boot.
QString guestImageUnusable(const GuestImageStatus &status);

} // namespace arizuko::host
