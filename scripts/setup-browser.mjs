#!/usr/bin/env node
// Makes the local `BROWSER` binding work offline.
//
// miniflare's browser binding downloads Chrome for Testing into
// ~/.cache/.wrangler/chrome/linux-<BROWSER_VERSION>/chrome-linux64/chrome on first use; with no
// internet that download fails. We place an executable wrapper at that path (for every
// miniflare installed, reading its BROWSER_VERSION rather than hard-coding it) that execs the
// system Chromium with the flags a root, GPU-less, closed-network machine needs.
// Idempotent; silent when there is nothing to do.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  writeFileSync,
  chmodSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

const root = join(dirname(new URL(import.meta.url).pathname), "..");

function findChromium() {
  const candidates = [process.env.CHROME_PATH, "/usr/lib/chromium/chromium", "/usr/bin/chromium"];
  for (const c of candidates) if (c && existsSync(c)) return c;
  return null;
}

function installChromium() {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !existsSync("/usr/bin/apt-get")) return false;
  console.log("[setup] Chromium not found; installing Debian's chromium package…");
  try {
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * The Debian font packages a capture needs for real glyphs beyond Latin (docs/CAPTURE.md,
 * "Fonts"), the smallest that cover each script (about 12 MB to download, all of them):
 * colour emoji; Chinese, Japanese and Korean (WenQuanYi Micro Hei, 1.6 MB, against 57 MB for
 * Noto CJK); Devanagari (Lohit). Arabic and Hebrew are in DejaVu Sans. Noto Sans (fonts-noto-core)
 * would cover more, but fontconfig prefers it over DejaVu Sans as `sans-serif`: every Latin text
 * in every capture, and every pixel test written against it, would change.
 */
const FONT_PACKAGES = {
  "fonts-dejavu-core": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "fonts-noto-color-emoji": "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
  "fonts-wqy-microhei": "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
  "fonts-lohit-deva": "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf",
};

/** Installs the font packages not installed yet (root with apt-get only; else says what is missing). */
function installFonts() {
  const missing = Object.entries(FONT_PACKAGES)
    .filter(([, file]) => !existsSync(file))
    .map(([pkg]) => pkg);
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot || !existsSync("/usr/bin/apt-get")) {
    console.warn(
      `[setup] Missing fonts (emoji, CJK or Devanagari render as boxes): apt-get install ${missing.join(" ")}`,
    );
    return;
  }
  console.log(`[setup] Installing fonts: ${missing.join(" ")}…`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const install = () =>
    execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...missing], {
      stdio: "inherit",
      env,
    });
  try {
    install();
  } catch {
    try {
      execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
      install();
    } catch {
      console.warn(
        `[setup] Could not install ${missing.join(" ")}; those scripts render as boxes.`,
      );
    }
  }
}

/** The real ELF binary: Debian's /usr/bin/chromium is a shell launcher around it. */
function realBinary(path) {
  if (path === "/usr/bin/chromium" && existsSync("/usr/lib/chromium/chromium")) {
    return "/usr/lib/chromium/chromium";
  }
  return realpathSync(path);
}

function miniflareVersions() {
  const versions = new Set();
  const walk = (dir, depth) => {
    if (depth > 4 || !existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const p = join(dir, entry.name);
      if (entry.name === "miniflare") {
        const file = join(p, "dist", "src", "index.js");
        if (existsSync(file)) {
          const m = /var BROWSER_VERSION = "([^"]+)"/.exec(readFileSync(file, "utf8"));
          if (m) versions.add(m[1]);
        }
      } else if (entry.name === "node_modules" || entry.name.startsWith("@") || depth < 4) {
        walk(entry.name === "node_modules" ? p : join(p, "node_modules"), depth + 1);
        if (entry.name.startsWith("@")) walk(p, depth + 1);
      }
    }
  };
  walk(join(root, "node_modules"), 0);
  return [...versions];
}

function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, ".wrangler", "chrome");
}

let chromium = findChromium();
if (!chromium && installChromium()) chromium = findChromium();
if (!chromium) {
  console.error(
    "[setup] No Chromium found. Install it (Debian: apt-get install -y chromium) or set CHROME_PATH " +
      "to a Chromium/Chrome binary; the local BROWSER binding cannot render without one.",
  );
  process.exit(1);
}
installFonts();
const binary = realBinary(chromium);
const flags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--disable-component-update",
  "--no-default-browser-check",
];
// Test-only names: *.rebind.example.com (IANA-reserved) resolves to loopback in the local browser,
// so the DNS-check tests can show a name with a private address is never reached (the fake DoH
// resolver in test/fixtures/fakes/doh.ts answers for the same names). Kept off the exec line,
// which bench/lib/chromium.mjs parses for the floor's flags.
const testResolverRules = `set -- '--host-resolver-rules=MAP *.rebind.example.com 127.0.0.1' "$@"\n`;
const script = `#!/bin/sh\n# Written by scripts/setup-browser.mjs: the system Chromium behind wrangler's local browser binding.\n${testResolverRules}exec ${JSON.stringify(binary)} ${flags.join(" ")} "$@"\n`;

const versions = miniflareVersions();
if (versions.length === 0) {
  console.error("[setup] miniflare is not installed; run `npm ci` first.");
  process.exit(1);
}
for (const version of versions) {
  const target = join(cacheDir(), `linux-${version}`, "chrome-linux64", "chrome");
  if (existsSync(target) && readFileSync(target, "utf8") === script) continue;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, script);
  chmodSync(target, 0o755);
  console.log(`[setup] browser for miniflare (Chrome ${version}) → ${binary}`);
}
