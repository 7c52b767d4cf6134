// Fills Node's compile cache for pi's bundle at image build, so that pi in
// the guest starts without compiling its modules (docs/agents.md, "pi's
// start"). Run with the image's own Node: the cache is Node's and V8's,
// version for version.
//
// The bundle (bundle-pi.mjs) runs where it was built, so `pi.mjs --version`
// there loads every module pi's start loads and, at exit, Node writes their
// code into BUNDLE_DIR/../compile-cache/<node version, flags>/<key>. Node
// 22 names an entry by crc32(type ‖ the module's URL) — type 1 for an ES
// module — and keeps no path inside it, so each entry is renamed from the
// key of its file's build-host URL to the key of the same file's URL in the
// guest. An entry of no bundle file fails the build: the naming changed.
//
// Usage: node fill-compile-cache.mjs BUNDLE_DIR GUEST_BUNDLE_DIR
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { crc32 } from "node:zlib";

const [bundleArgument, guestBundleDir] = process.argv.slice(2);
if (!guestBundleDir) {
    console.error("usage: fill-compile-cache.mjs BUNDLE_DIR GUEST_BUNDLE_DIR");
    process.exit(2);
}
const bundleDir = path.resolve(bundleArgument);
const cacheRoot = path.join(path.dirname(bundleDir), "compile-cache");

// pi.mjs names the cache itself; a cache of the caller's would win. pi
// gets a home of its own and no network: nothing of the builder's is read.
const { NODE_COMPILE_CACHE, NODE_DISABLE_COMPILE_CACHE, ...environment } = process.env;
const home = mkdtempSync(path.join(tmpdir(), "pi-compile-cache-"));
try {
    execFileSync(process.execPath, [path.join(bundleDir, "pi.mjs"), "--version"],
                 { stdio: "pipe", env: { ...environment, HOME: home, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" } });
} finally {
    rmSync(home, { recursive: true, force: true });
}

const esModuleKey = (url) => crc32(url, crc32(Buffer.from([1]))).toString(16).padStart(8, "0");
const guestKeyOf = new Map(readdirSync(bundleDir).filter((name) => name.endsWith(".mjs")).map((name) => [
    esModuleKey(pathToFileURL(path.join(bundleDir, name)).href),
    esModuleKey(`file://${path.posix.join(guestBundleDir, name)}`),
]));

const [cacheDir, ...others] = readdirSync(cacheRoot);
if (!cacheDir || others.length)
    throw new Error(`${cacheRoot} should hold one directory of Node's, not [${readdirSync(cacheRoot)}]`);
const entries = readdirSync(path.join(cacheRoot, cacheDir));
// Two passes through temporary names: a guest key may equal another
// file's build-host key.
for (const entry of entries) {
    if (!guestKeyOf.has(entry))
        throw new Error(`compile cache entry ${entry} belongs to no file of ${bundleDir}: has Node's naming changed?`);
    renameSync(path.join(cacheRoot, cacheDir, entry), path.join(cacheRoot, cacheDir, `${entry}.moving`));
}
for (const entry of entries)
    renameSync(path.join(cacheRoot, cacheDir, `${entry}.moving`), path.join(cacheRoot, cacheDir, guestKeyOf.get(entry)));
console.error(`fill-compile-cache: ${entries.length} modules compiled into ${path.join(cacheRoot, cacheDir)}`);
