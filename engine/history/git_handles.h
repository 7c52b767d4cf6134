#pragma once

// Owning handles for libgit2 objects, and libgit2's last error as an Error:
// every libgit2 call of the history goes through these, so nothing leaks on
// an early return.

#include "core/result.h"

#include <git2.h>
#include <memory>

namespace arizuko::history {

template<typename T, void (*Free)(T *)>
struct GitFree
{
    void operator()(T *object) const { Free(object); }
};

template<typename T, void (*Free)(T *)>
using GitHandle = std::unique_ptr<T, GitFree<T, Free>>;

using Repository = GitHandle<git_repository, git_repository_free>;
using Tree = GitHandle<git_tree, git_tree_free>;
using TreeEntry = GitHandle<git_tree_entry, git_tree_entry_free>;
using TreeBuilder = GitHandle<git_treebuilder, git_treebuilder_free>;
using Commit = GitHandle<git_commit, git_commit_free>;
using Reference = GitHandle<git_reference, git_reference_free>;
using Blob = GitHandle<git_blob, git_blob_free>;
using Diff = GitHandle<git_diff, git_diff_free>;
using Patch = GitHandle<git_patch, git_patch_free>;
using Signature = GitHandle<git_signature, git_signature_free>;
using RevWalk = GitHandle<git_revwalk, git_revwalk_free>;
using ReferenceIterator = GitHandle<git_reference_iterator, git_reference_iterator_free>;

// Keeps libgit2 initialised while alive (reference-counted by libgit2).
class GitLibrary
{
public:
    GitLibrary()
    {
        git_libgit2_init();
        // Every object a history tree names was written by the same walk
        // (or an earlier one, whose objects a pruning keeps while the
        // snapshot index names them: history_pruning.h), so libgit2 need
        // not look each one up again: that lookup per file made a snapshot
        // of a large home cost seconds.
        git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION, 0);
    }
    ~GitLibrary() { git_libgit2_shutdown(); }
    GitLibrary(const GitLibrary &) = delete;
    GitLibrary &operator=(const GitLibrary &) = delete;
};

// history.git with `what` and libgit2's message for the last failed call.
Error gitError(const QString &what);

} // namespace arizuko::history
