// Bundles pi's CLI with everything it imports into a few files, run by
// installer/build-guest-image on the build host with the image's Node.
// Unbundled, pi's start resolves, reads and compiles ~1,500 files of its
// ~200 MB module tree, which under TCG took minutes (docs/agents.md, "pi's
// start"); the bundle is read in one go.
//
// pi's behaviour stays the installed tree's: every module keeps the
// location it has there. import.meta.url, __dirname and __filename are
// replaced, module by module, with the module's own place in the tree,
// written relative to the bundle (which sits beside node_modules), so pi
// finds its package.json, themes, docs, templates and the photon wasm where
// it always did, and what stays outside the bundle (photon, modules loaded
// at run time by name) resolves from the same node_modules. Being relative,
// the bundle also runs where it is built, which fills Node's compile cache
// there (fill-compile-cache.mjs). Lazy imports (the model providers) stay
// lazy: each is a chunk of its own.
//
// Writes OUT_DIR/cli.mjs and its chunks, and OUT_DIR/pi.mjs, the program
// the image links as pi: it turns on Node's compile cache in
// OUT_DIR/../compile-cache before it imports cli.mjs.
//
// Usage: node bundle-pi.mjs ESBUILD_DIR NODE_MODULES OUT_DIR
//   ESBUILD_DIR   the esbuild package (installer/pi/bundler, npm ci)
//   NODE_MODULES  pi's installed tree
//   OUT_DIR       the bundle's directory, a sibling of NODE_MODULES
import { createRequire } from "node:module";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

const [esbuildDir, modulesDir, outDirArgument] = process.argv.slice(2);
if (!outDirArgument) {
    console.error("usage: bundle-pi.mjs ESBUILD_DIR NODE_MODULES OUT_DIR");
    process.exit(2);
}
const esbuild = createRequire(path.resolve(esbuildDir, "package.json"))(path.resolve(esbuildDir));
const outDir = path.resolve(outDirArgument);
const entry = path.join(path.resolve(modulesDir), "@mariozechner/pi-coding-agent/dist/cli.js");

// A module's place in the tree as an expression: its path relative to the
// chunk that holds it (every chunk is in OUT_DIR), resolved by the banner's
// __piPlace. A call, not import.meta: esbuild would take a CommonJS module
// that says import.meta for an ES module.
const placeOf = (file) => `__piPlace(${JSON.stringify(path.relative(outDir, file).split(path.sep).join("/"))})`;
// A module that declares its own __dirname (an ES module deriving it from
// import.meta.url) keeps its declaration.
const declaresDirname = /\b(?:const|let|var|function)\s+__(?:dirname|filename)\b/;

const keepModuleLocation = {
    name: "keep-module-location",
    setup(build) {
        build.onLoad({ filter: /\.[cm]?js$/ }, async (args) => {
            let text = await readFile(args.path, "utf8");
            if (text.includes("import.meta.url"))
                text = text.replaceAll("import.meta.url", `${placeOf(args.path)}.href`);
            if (/\b__(?:dirname|filename)\b/.test(text) && !declaresDirname.test(text)) {
                const here = (file) => `decodeURIComponent(${placeOf(file)}.pathname)`;
                text = `var __filename = ${here(args.path)}, __dirname = ${here(path.dirname(args.path))};\n${text}`;
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
    // Each chunk resolves the modules' places against its own URL; the
    // CommonJS modules inside call require for Node's own modules and the
    // externals: one resolving from cli.js's place in the tree.
    banner: {
        js: [
            `import { createRequire as __piCreateRequire } from "node:module";`,
            `const __piPlace = (relative) => new URL(relative, import.meta.url);`,
            `const require = __piCreateRequire(${placeOf(entry)});`,
        ].join(" "),
    },
    plugins: [keepModuleLocation],
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
});
// The program pi is: Node's compile cache first, then pi. The cache's
// directory is read-only in the guest; Node then skips writing to it.
await writeFile(path.join(outDir, "pi.mjs"), `#!/usr/bin/env node
import { enableCompileCache } from "node:module";
import { fileURLToPath } from "node:url";
enableCompileCache(fileURLToPath(new URL("../compile-cache", import.meta.url)));
await import("./cli.mjs");
`, { mode: 0o755 });
const outputs = Object.values(result.metafile.outputs);
const bytes = outputs.reduce((sum, output) => sum + output.bytes, 0);
console.error(`bundle-pi: ${Object.keys(result.metafile.inputs).length} modules into ${outputs.length} files, ${(bytes / 1048576).toFixed(1)} MiB`);
