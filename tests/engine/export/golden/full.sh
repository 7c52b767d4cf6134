#!/bin/sh
# Arizuko Desktop export: arizuko CLI commands. Usage: sh <this file> <instance>
set -eu
INST="${1:?usage: sh $0 <instance>}"
JID_PREFIX="${JID_PREFIX:-desktop}"
# warning: groups: arizuko has no display names; the names of acme are not exported
# warning: secrets: names only, never values; apply does not write secrets, set each one on the server with `arizuko secret <inst> set <folder> KEY --value V`
# warning: acl: arizuko does not carry WITH GRANT OPTION; these rows lose it: acme/support|egress|acme/support|allow|
# warning: acl: applying this manifest replaces EVERY acl row on the server with the 19 row(s) here; rows the server holds that are not listed are deleted
# warning: acl_membership: applying this manifest replaces EVERY acl_membership row on the server with the 5 row(s) here; rows the server holds that are not listed are deleted
# warning: routes: applying this manifest replaces EVERY routes row on the server with the 3 row(s) here; rows the server holds that are not listed are deleted
# left out: network_rules acme/support|tracker.example| (deny): a deny rule: arizuko has allow rules only
# left out: network_rules beta|localhost|: a single-label host: here it allows only 'localhost', on arizuko it would allow every host ending in '.localhost'
# left out: secrets folder|acme|lower_case|: arizuko secret names are upper case: [A-Z][A-Z0-9_]*
# left out: acl corp/*|interact|corp/**|allow|: a wildcard principal: arizuko matches principals exactly
# left out: routes 5|chat=corp/*|beta|: 'chat=corp/*': arizuko matches only platform, room, chat_jid, sender, verb, with globs where '*' and '**' stay within one '/' segment

# groups: `group add` needs a chat JID and also adds a route for it; this script uses "$JID_PREFIX:<folder>". It does not add the folder's role:member membership (see acl_membership below).
arizuko group "$INST" 'add' "$JID_PREFIX"':acme' 'acme'
# no CLI for groups.config of acme: {"model":"opus","open":1}
arizuko group "$INST" 'add' "$JID_PREFIX"':acme/support' 'acme/support'
arizuko group "$INST" 'add' "$JID_PREFIX"':acme/support/tier2' 'acme/support/tier2'
# no CLI for groups.config of acme/support/tier2: {"note":"\u003cb\u003e\u0026"}
arizuko group "$INST" 'add' "$JID_PREFIX"':beta' 'beta'
arizuko network "$INST" 'allow' '' 'api.anthropic.com'
arizuko network "$INST" 'allow' 'acme' 'github.com'
arizuko network "$INST" 'allow' 'acme/support' 'xn--bcher-kva.de'
arizuko network "$INST" 'allow' 'beta' 'pypi.org'
arizuko route "$INST" 'add' 'verb=mention' 'beta' --seq -1
arizuko route "$INST" 'add' 'platform=telegram room=group/42' 'acme' --seq 2
arizuko route "$INST" 'add' 'platform=slack' 'acme/support#observe' --seq 10
# no CLI for this grant (deny or params): allow folder:acme mcp:send_file acme/** params=jid=telegram:*
arizuko group "$INST" 'grant' 'folder:acme/support' 'acme/support' 'egress'
# no CLI for this grant (deny or params): deny folder:beta admin beta params=
arizuko group "$INST" 'grant' 'folder:acme' 'acme' 'ext:github:**'
# no CLI for this grant (deny or params): deny folder:beta ext:github:*:write beta params=
arizuko group "$INST" 'grant' 'folder:acme/support' 'acme/support' 'shell:env:GITHUB_TOKEN'
# no CLI for memberships: folder:acme -> role:member
# no CLI for memberships: folder:acme/support -> role:member
# no CLI for memberships: folder:acme/support -> role:support
# no CLI for memberships: folder:acme/support/tier2 -> role:member
# no CLI for memberships: folder:beta -> role:member
# secret GITHUB_TOKEN of folder acme: values are never exported; set it with arizuko secret "$INST" set <folder> GITHUB_TOKEN --value ...
