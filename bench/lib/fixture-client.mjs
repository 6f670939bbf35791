// The fixture server (test/fixtures/server.ts) from the bench's and the soak's side: started in a
// child process of its own (bench/fixture.mjs), a fresh URL into it per request, its request log;
// and the crawl scenario's site (test/fixtures/crawl-site.ts, bench/crawl-site.mjs), likewise.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";

/**
 * Spawns the fixture server on `port` (and more listeners on `extraPorts`: the real page's other
 * origins, bench/fixture.mjs); `ready` resolves once it listens.
 */
export function spawnFixture(port, extraPorts = []) {
  return spawnServer("../fixture.mjs", [port, ...extraPorts].map(String), "fixture server");
}

/** Spawns the crawl site (bench/crawl-site.mjs) of `pages` tree pages on `port`. */
export function spawnCrawlSite(port, pages, flavour = null) {
  const args = [String(port), String(pages), ...(flavour ? [flavour] : [])];
  return spawnServer("../crawl-site.mjs", args, "crawl site");
}

/** A server script of bench/ in a Node child (TypeScript fixtures loaded); `ready` once it listens. */
function spawnServer(script, args, what) {
  const child = spawn(
    process.execPath,
    [
      "--experimental-strip-types",
      "--no-warnings",
      "--import",
      fileURLToPath(new URL("./ts-register.mjs", import.meta.url)),
      fileURLToPath(new URL(script, import.meta.url)),
      ...args,
    ],
    {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const ready = new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`${what} exited with ${code}`)));
  });
  return { child, ready };
}

let seqCounter = 0;
const runId = randomBytes(4).toString("hex");

/** A fresh URL per request: `run=` is unique, so no cache answers and the fixture log can tell requests apart. */
export function fixtureUrl(fixtureBase, path) {
  const sep = path.includes("?") ? "&" : "?";
  const run = `bench-${runId}-${++seqCounter}`;
  return { url: `${fixtureBase}${path}${sep}run=${run}`, run };
}

/**
 * Requests one capture (`run`) made, per fixture port, from each port's request log: `ports` are
 * the fixture listeners to ask. Returns the total and the count per port.
 */
export async function requestsFetched(ports, run) {
  const perPort = await Promise.all(
    ports.map(async (port) => {
      const res = await fetch(`http://127.0.0.1:${port}/__log?run=${encodeURIComponent(run)}`, {
        signal: AbortSignal.timeout(10_000),
      });
      return (await res.json()).length;
    }),
  );
  return { total: perPort.reduce((a, b) => a + b, 0), perPort };
}

/** How many of the lazy page's images the browser fetched for one capture (fixture server log). */
export async function lazyImagesFetched(fixtureBase, run) {
  const res = await fetch(`${fixtureBase}/__log?run=${encodeURIComponent(run)}`, {
    signal: AbortSignal.timeout(10_000),
  });
  const entries = await res.json();
  return new Set(entries.filter((e) => e.path.startsWith("/img/lazy-")).map((e) => e.path)).size;
}
