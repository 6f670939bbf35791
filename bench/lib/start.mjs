// What a bench run starts besides the floor: the fixture server (on the preferred port, or a free
// one), the crawl scenario's site, and the service — a snapshot of the source in the run's temp
// dir, started as `wrangler dev` through the one launcher (scripts/lib/service.mjs) with its own
// state, port and secrets — and the tail of the service's log for error reports.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createService, freePort } from "../../scripts/lib/service.mjs";
import { spawnCrawlSite, spawnFixture } from "./fixture-client.mjs";
import { state, withTimeout } from "./lifecycle.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Starts the fixture server on `preferredPort`, or a free port if it is taken, with three more
 * listeners (free ports from `preferredPort + 21`): the real page's static.localhost,
 * img.localhost and localhost origins (bench/fixture.mjs). Returns the ports and the
 * TARGET_ALLOWLIST entries of all four: each name:port, and 127.0.0.1:port (the address the
 * service's guard sees in the responses).
 */
export async function startFixture(preferredPort) {
  const port = await freePort(preferredPort);
  const realPorts = [];
  for (let p = preferredPort + 21; realPorts.length < 3; p = realPorts.at(-1) + 1)
    realPorts.push(await freePort(p));
  const fixture = spawnFixture(port, realPorts);
  state.fixture = fixture.child;
  await withTimeout(fixture.ready, 20_000, "fixture server start");
  const names = ["static.localhost", "img.localhost", "localhost"];
  const allowlist = [port, ...realPorts].map((p) => `127.0.0.1:${p}`);
  allowlist.push(...realPorts.map((p, i) => `${names[i]}:${p}`));
  return { port, realPorts, allowlist };
}

/** Starts the crawl scenario's site of `pages` tree pages, on `preferredPort` or a free one. */
export async function startCrawlSite(preferredPort, pages, flavour = null) {
  const port = await freePort(preferredPort);
  const site = spawnCrawlSite(port, pages, flavour);
  state.crawlSite = site.child;
  await withTimeout(site.ready, 20_000, "crawl site start");
  return port;
}

export function logTail() {
  try {
    return readFileSync(state.wranglerLog, "utf8").split("\n").slice(-40).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * The service runs from a snapshot of the source, never from the live checkout: wrangler dev
 * watches its files and would reload the Worker (dropping warm browsers) whenever someone edits
 * src/ during a run. Default: the working tree as it is now (tracked + untracked, not ignored);
 * --rev <commit>: that commit (git archive). node_modules is a symlink to the checkout's.
 */
export function prepareSnapshot(rev) {
  const dir = join(state.tmp, "service");
  mkdirSync(dir, { recursive: true });
  const git = (args, opts = {}) =>
    execFileSync("git", args, { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 2 ** 20, ...opts });
  let source;
  if (rev) {
    const commit = git(["rev-parse", "--verify", `${rev}^{commit}`]).trim();
    const tar = execFileSync("git", ["archive", "--format=tar", commit], {
      cwd: ROOT,
      maxBuffer: 512 * 2 ** 20,
    });
    execFileSync("tar", ["-x", "-C", dir], { input: tar });
    source = { kind: "commit", commit, subject: git(["log", "-1", "--format=%s", commit]).trim() };
  } else {
    const files = git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
      .split("\0")
      .filter((f) => f && !f.startsWith("bench/") && existsSync(join(ROOT, f)));
    for (const f of files) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      copyFileSync(join(ROOT, f), join(dir, f));
    }
    const head = git(["rev-parse", "HEAD"]).trim();
    const dirty =
      git([
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        "src",
        "wrangler.toml",
        "package.json",
      ]).trim() !== "";
    source = { kind: "working tree", commit: head, dirty, files: files.length };
  }
  rmSync(join(dir, "node_modules"), { recursive: true, force: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  // The static assets copied from node_modules (gitignored, so not in the copy above): the
  // recordings' encoders among them.
  if (existsSync(join(dir, "scripts/assets.mjs")))
    execFileSync(process.execPath, ["scripts/assets.mjs"], { cwd: dir, stdio: "inherit" });
  return { dir, source };
}

/**
 * `allowlist`: the TARGET_ALLOWLIST entries (host:port); `env`: more environment for wrangler
 * (the CDP proxy's browser cache dir, bench/lib/cdp-rtt.mjs).
 */
export async function startService(allowlist, serviceDir, env = {}) {
  const adminToken = randomBytes(24).toString("base64url"); // 32 chars
  const secret = () => randomBytes(24).toString("base64url");
  state.wranglerLog = join(state.tmp, "wrangler.log");
  const service = await createService({
    cwd: serviceDir,
    persistTo: join(state.tmp, "state"),
    output: state.wranglerLog,
    args: ["--log-level", "log"],
    env,
    vars: {
      ADMIN_TOKEN: adminToken,
      URL_SIGNING_SECRET: secret(),
      WEBHOOK_SIGNING_SECRET: secret(),
      STORAGE_ENCRYPTION_KEY: secret(),
      TARGET_ALLOWLIST: allowlist.join(","),
      // wrangler.toml ships the production pool (8); locally every browser shares the same cores.
      BROWSER_HOSTS: process.env.BENCH_BROWSER_HOSTS || "1",
    },
  });
  const started = service.start();
  state.wrangler = service.child; // spawned at once: cleanup() stops it from here on
  await started;
  return { base: service.base, port: service.port, adminToken, pid: service.pid };
}
