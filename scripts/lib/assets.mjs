// The Worker's static assets (wrangler.toml [assets], directory public/): the files it serves or
// reads through its ASSETS binding rather than bundling them. The dashboard's own files are kept
// in public/ (tracked); the package files below are copied there from node_modules (gitignored),
// by `npm start`, `npm test`, `npm run deploy`, the benchmarks and vitest.config.ts.
import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import esbuild from "esbuild";

const ROOT = join(import.meta.dirname, "../..");
const ASSETS_DIR = join(ROOT, "public");

/** Asset path (under public/) → the package file it is copied from (under node_modules/). */
const PACKAGE_ASSETS = {
  // The API reference's browser bundle, GET /docs/scalar.js (src/http/routes/docs.ts).
  "docs/scalar.js": "@scalar/api-reference/dist/browser/standalone.js",
  // The GIF encoder of animated captures, inlined into the page's script (src/capture/outputs/animation.ts).
  "encoders/gifenc.esm.js": "gifenc/dist/gifenc.esm.js",
  // The artifact fonts (src/artifacts/fonts.ts): Latin subset, regular and bold.
  "fonts/inter-400.woff2": "@fontsource/inter/files/inter-latin-400-normal.woff2",
  "fonts/inter-700.woff2": "@fontsource/inter/files/inter-latin-700-normal.woff2",
  "fonts/merriweather-400.woff2":
    "@fontsource/merriweather/files/merriweather-latin-400-normal.woff2",
  "fonts/merriweather-700.woff2":
    "@fontsource/merriweather/files/merriweather-latin-700-normal.woff2",
  "fonts/jetbrains-mono-400.woff2":
    "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2",
  "fonts/jetbrains-mono-700.woff2":
    "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-700-normal.woff2",
};

/**
 * Asset path → a bundle built from a package: only the exports named, tree-shaken and minified
 * by esbuild, its licence comments kept at its end.
 */
const BUNDLED_ASSETS = {
  // The WebM and MP4 muxers of video recordings where the page has WebCodecs, inlined into the
  // page's script likewise (src/capture/outputs/animation-scripts.ts `streamStartScript`): 213 kB
  // instead of the whole library's 690 kB (its demuxers, decoders, audio), parsed in the page
  // before every recording.
  "encoders/mediabunny.min.mjs": {
    package: "mediabunny",
    exports: [
      "BufferTarget",
      "canEncodeVideo",
      "Mp4OutputFormat",
      "Output",
      "VideoSample",
      "VideoSampleSource",
      "WebMOutputFormat",
    ],
  },
};

/**
 * Asset path → the repository file it is copied from: the OpenAPI document, GET /openapi.json
 * (src/http/routes/meta.ts). Served as an asset, not bundled: 47 kB of the Worker's gzipped
 * upload budget (scripts/upload-size.mjs) when it moved out.
 */
const REPO_ASSETS = {
  "openapi.json": "schemas/openapi.json",
};

/**
 * Copies every package asset into public/ that is missing or differs. A file already in place is
 * left untouched: `wrangler dev` watches the directory and restarts the Worker on any write, which
 * fails the requests in flight ("Your worker restarted mid-request"). A changed file is written
 * beside its target and renamed over it, so a reader meanwhile never sees half a file.
 */
export function buildAssets() {
  const sources = [
    ...Object.entries(PACKAGE_ASSETS).map(([target, source]) => [
      target,
      join("node_modules", source),
    ]),
    ...Object.entries(REPO_ASSETS),
  ];
  for (const [target, source] of sources) {
    const from = join(ROOT, source);
    const to = join(ASSETS_DIR, target);
    if (sameBytes(readFileSync(from), to)) continue;
    place(to, (partial) => copyFileSync(from, partial));
  }
  for (const [target, bundle] of Object.entries(BUNDLED_ASSETS)) {
    const to = join(ASSETS_DIR, target);
    const bytes = bundled(bundle);
    if (sameBytes(bytes, to)) continue;
    place(to, (partial) => writeFileSync(partial, bytes));
  }
}

/** Written beside `to`, then renamed over it. */
function place(to, write) {
  const partial = `${to}.${process.pid}.partial`;
  mkdirSync(dirname(to), { recursive: true });
  write(partial);
  renameSync(partial, to);
}

/** One ES module with `exports` of `pkg` (its version in the first line). */
function bundled({ package: pkg, exports }) {
  const { version } = JSON.parse(
    readFileSync(join(ROOT, "node_modules", pkg, "package.json"), "utf8"),
  );
  const result = esbuild.buildSync({
    stdin: {
      contents: `export { ${exports.join(", ")} } from ${JSON.stringify(pkg)};`,
      resolveDir: ROOT,
      loader: "js",
    },
    bundle: true,
    format: "esm",
    minify: true,
    legalComments: "eof",
    banner: { js: `/* ${pkg} ${version}: ${exports.join(", ")} only (scripts/lib/assets.mjs) */` },
    write: false,
    logLevel: "error",
  });
  return Buffer.from(result.outputFiles[0].contents);
}

function sameBytes(bytes, file) {
  try {
    return bytes.equals(readFileSync(file));
  } catch {
    return false; // the target is missing
  }
}
