// Bundles pi's CLI with everything it imports into a few files, run by
// installer/build-guest-image on the build host with the image's Node.
// Unbundled, pi's start resolves, reads and compiles ~1,500 files of its
// ~200 MB module tree, which under TCG took minutes (docs/agents.md, "pi's
// start"); the bundle is read in one go.
//
// pi's behaviour stays the installed tree's: every module keeps the
// location it has there. import.meta.url, __dirname and __filename are
// replaced, module by module, with the module's own path in the guest, so
// pi finds its package.json, themes, docs, templates and the photon wasm
// where it always did, and what stays outside the bundle (photon, modules
// loaded at run time by name) resolves from the same node_modules. Lazy
// imports (the model providers) stay lazy: each is a chunk of its own.
//
// Usage: node bundle-pi.mjs ESBUILD_DIR NODE_MODULES GUEST_NODE_MODULES OUT_DIR
//   ESBUILD_DIR         the esbuild package (installer/pi/bundler, npm ci)
//   NODE_MODULES        pi's installed tree on the build host
//   GUEST_NODE_MODULES  where that tree is in the guest
//   OUT_DIR             the bundle's directory (inside that tree's parent in the guest)
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [esbuildDir, modulesDir, guestModulesDir, outDir] = process.argv.slice(2);
if (!outDir) {
    console.error("usage: bundle-pi.mjs ESBUILD_DIR NODE_MODULES GUEST_NODE_MODULES OUT_DIR");
    process.exit(2);
}
const esbuild = createRequire(path.resolve(esbuildDir, "package.json"))(path.resolve(esbuildDir));
const hostModules = path.resolve(modulesDir);
const entry = path.join(hostModules, "@mariozechner/pi-coding-agent/dist/cli.js");

const guestPath = (file) => path.posix.join(guestModulesDir, path.relative(hostModules, file));
const guestUrl = (file) => JSON.stringify(pathToFileURL(guestPath(file)).href);
// A module that declares its own __dirname (an ES module deriving it from
// import.meta.url) keeps its declaration.
const declaresDirname = /\b(?:const|let|var|function)\s+__(?:dirname|filename)\b/;

const keepModuleLocation = {
    name: "keep-module-location",
    setup(build) {
        build.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
            let text = await readFile(args.path, "utf8");
            if (text.includes("import.meta.url"))
                text = text.replaceAll("import.meta.url", guestUrl(args.path));
            if (/\b__(?:dirname|filename)\b/.test(text) && !declaresDirname.test(text)) {
                const file = guestPath(args.path);
                text = `var __filename = ${JSON.stringify(file)}, __dirname = ${JSON.stringify(path.posix.dirname(file))};\n${text}`;
            }
            return { contents: text, loader: "js", resolveDir: path.dirname(args.path) };
        });
    },
};

const result = await esbuild.build({
    entryPoints: { cli: entry },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    outdir: outDir,
    // ES modules by their name: no package.json to say so, no reparse.
    outExtension: { ".js": ".mjs" },
    external: [
        // Loads its wasm beside its own file: imported from the tree as before.
        "@silvia-odwyer/photon-node",
        // An optional peer of the Mistral SDK that pi does not install: its
        // import fails at run time as it does unbundled.
        "@opentelemetry/api",
    ],
    // The CommonJS modules inside call require for Node's own modules and
    // the externals: one resolving from cli.js's place in the tree.
    banner: {
        js: `import { createRequire as __piCreateRequire } from "node:module"; const require = __piCreateRequire(${guestUrl(entry)});`,
    },
    plugins: [keepModuleLocation],
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
});
const outputs = Object.values(result.metafile.outputs);
const bytes = outputs.reduce((sum, output) => sum + output.bytes, 0);
console.error(`bundle-pi: ${Object.keys(result.metafile.inputs).length} modules into ${outputs.length} files, ${(bytes / 1048576).toFixed(1)} MiB`);
