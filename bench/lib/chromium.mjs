// The floor's browser: the same binary and the same flags as the service's local browser.
//
// The service's Chromium is started by miniflare (`launchBrowser` in miniflare's index.js) through
// the wrapper that scripts/setup-browser.mjs writes at the path miniflare expects. So the exact
// command line is: <binary> <wrapper flags> <miniflare args> --user-data-dir=<tmp>. We read both
// from the installed files rather than copying them here, so the floor follows the service when
// either changes; a built-in copy is only the fallback (and the run says when it was used).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** miniflare 4.x args as of wrangler 4.156 — used only if parsing the installed source fails. */
const FALLBACK_MINIFLARE_ARGS = [
  "--allow-pre-commit-input",
  "--disable-background-networking",
  "--disable-background-timer-throttling",
  "--disable-backgrounding-occluded-windows",
  "--disable-breakpad",
  "--disable-client-side-phishing-detection",
  "--disable-component-extensions-with-background-pages",
  "--disable-crash-reporter",
  "--disable-default-apps",
  "--disable-dev-shm-usage",
  "--disable-hang-monitor",
  "--disable-infobars",
  "--disable-ipc-flooding-protection",
  "--disable-popup-blocking",
  "--disable-prompt-on-repost",
  "--disable-renderer-backgrounding",
  "--disable-search-engine-choice-screen",
  "--disable-sync",
  "--enable-automation",
  "--export-tagged-pdf",
  "--force-color-profile=srgb",
  "--generate-pdf-document-outline",
  "--metrics-recording-only",
  "--no-first-run",
  "--password-store=basic",
  "--use-mock-keychain",
  "--disable-features=Translate,AcceptCHFrame,MediaRouter,OptimizationHints,ProcessPerSiteUpToMainFrameThreshold,IsolateSandboxedIframes",
  "--headless=new",
  "--hide-scrollbars",
  "--mute-audio",
  "--disable-extensions",
  "about:blank",
  "--remote-debugging-port=0",
];

/** @returns {{version: string|null, args: string[], source: string}} */
function miniflareArgs(root) {
  const file = join(root, "node_modules", "miniflare", "dist", "src", "index.js");
  try {
    const src = readFileSync(file, "utf8");
    const version = /var BROWSER_VERSION = "([^"]+)"/.exec(src)?.[1] ?? null;
    const start = src.indexOf("async function launchBrowser(");
    if (start < 0) throw new Error("launchBrowser not found");
    const body = src.slice(start, start + 8000);
    const feat = /const disabledFeatures = \[([\s\S]*?)\];/.exec(body);
    const argsBlock = /const args = \[([\s\S]*?)\n\s*\];/.exec(body);
    if (!feat || !argsBlock) throw new Error("args block not found");
    const strings = (s) =>
      [...s.replace(/\/\/[^\n]*/g, "").matchAll(/"([^"]*)"/g)].map((m) => m[1]);
    const features = strings(feat[1]);
    const args = [];
    // Walk the block in order: string literals, the disable-features template, the headless spread.
    for (const line of argsBlock[1].replace(/\/\/[^\n]*/g, "").split("\n")) {
      if (line.includes("--disable-features="))
        args.push(`--disable-features=${features.join(",")}`);
      else if (line.includes("headful ?")) {
        const m = /:\s*\[([^\]]*)\]/.exec(line);
        if (m) args.push(...strings(m[1]));
      } else args.push(...strings(line));
    }
    if (!args.includes("--remote-debugging-port=0") || args.length < 20)
      throw new Error("unexpected args shape");
    return { version, args, source: file };
  } catch (err) {
    return {
      version: null,
      args: FALLBACK_MINIFLARE_ARGS,
      source: `built-in fallback (${err.message})`,
    };
  }
}

/** The wrapper miniflare runs: `exec "<binary>" <flags> "$@"`. */
export function wrapper(version) {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  const path = join(base, ".wrangler", "chrome", `linux-${version}`, "chrome-linux64", "chrome");
  if (!version || !existsSync(path))
    throw new Error(`browser wrapper not found at ${path}; run \`npm run setup\``);
  const text = readFileSync(path, "utf8");
  const m = /^exec\s+"([^"]+)"\s+(.*?)\s+"\$@"\s*$/m.exec(text);
  if (!m) throw new Error(`cannot parse the browser wrapper ${path}`);
  // `set -- <args> "$@"` lines put their args in front of the caller's (miniflare's) args.
  const prepended = [];
  for (const line of text.split("\n")) {
    const set = /^set\s+--\s+(.*?)\s+"\$@"\s*$/.exec(line);
    if (set) prepended.unshift(...shellWords(set[1]));
  }
  return { path, binary: m[1], flags: [...shellWords(m[2]), ...prepended] };
}

/** Splits a POSIX shell word list with '…' and "…" quoting (enough for the wrapper). */
function shellWords(src) {
  const words = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (const m of src.matchAll(re)) words.push(m[1] ?? m[2]?.replace(/\\(.)/g, "$1") ?? m[3]);
  return words;
}

export function chromiumVersion(binary) {
  try {
    return execFileSync(binary, ["--version"], { encoding: "utf8", timeout: 10_000 }).trim();
  } catch {
    return "unknown";
  }
}

/**
 * The floor's launch plan: same binary, same flags, same order as the service's browser,
 * with its own profile dir.
 */
export function floorLaunchPlan(root, profileDir) {
  const mf = miniflareArgs(root);
  const w = wrapper(mf.version ?? "");
  const args = [...w.flags, ...mf.args, `--user-data-dir=${profileDir}`];
  if (process.env.CI) args.push("--no-sandbox"); // as miniflare does under CI
  return {
    binary: w.binary,
    args,
    wrapperPath: w.path,
    miniflareSource: mf.source,
    browserVersion: mf.version,
  };
}

/** Flags that legitimately differ between two browsers of the same configuration. */
const VOLATILE = /^--(user-data-dir|remote-debugging-port)=/;

/** Compares two Chromium command lines (argv arrays without argv[0]) as flag sets. */
export function diffFlags(a, b) {
  const sa = new Set(a.filter((x) => !VOLATILE.test(x)));
  const sb = new Set(b.filter((x) => !VOLATILE.test(x)));
  return {
    onlyFloor: [...sa].filter((x) => !sb.has(x)),
    onlyService: [...sb].filter((x) => !sa.has(x)),
  };
}
