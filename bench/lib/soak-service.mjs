// The soak's moving parts outside the load itself (bench/soak.mjs, bench/SOAK.md): the fixture
// server, the webhook receiver, the soaked `wrangler dev` — which the restart fault kills and
// starts again on the same port, secrets and --persist-to directory, the way an operator's
// restart would — and what the soak reads from the service's Chromium: its processes, their RSS
// and, over CDP, its open browser contexts.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import WebSocket from "ws";
import { createService, serviceChromium } from "../../scripts/lib/service.mjs";
import { spawnFixture } from "./fixture-client.mjs";

export { freePort, serviceChromium } from "../../scripts/lib/service.mjs";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every child process the soak started, killed by `cleanup` (process groups for wrangler). */
const children = [];

export async function startFixture(port) {
  const { child, ready } = spawnFixture(port);
  children.push(child);
  await ready;
}

/**
 * Webhook receiver: every delivery id's first try gets 500 (the fault), later ones 200. The
 * subject of a delivery is its job, batch or watch run.
 */
export function startReceiver(faults, port = 0) {
  const byDelivery = new Map(); // deliveryId -> {event, subject, tries, ok}
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const id = String(req.headers["x-service-delivery-id"] ?? "");
      const event = String(req.headers["x-service-event"] ?? "");
      let subject = "";
      try {
        const json = JSON.parse(body);
        const d = json.data ?? json;
        subject = d.jobId ?? d.batchId ?? d.runId ?? json.jobId ?? json.batchId ?? json.runId ?? "";
      } catch {}
      const seen = byDelivery.get(id) ?? { event, subject, tries: 0, ok: 0 };
      seen.tries++;
      const fail = faults && seen.tries === 1;
      if (!fail) seen.ok++;
      byDelivery.set(id, seen);
      res.writeHead(fail ? 500 : 200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () =>
      resolve({ server, byDelivery, port: server.address().port }),
    ),
  );
}

/** The soaked service, killed by `cleanup` with the other children. */
let soaked = null;

/**
 * The soaked `wrangler dev` (scripts/lib/service.mjs). Ports and secrets are chosen once, so a
 * restart (`kill()` then `start()`) comes back where clients, signed URLs and persisted state
 * expect it. `vars` are extra `--var NAME:value`.
 */
export async function soakedService({ root, tmp, port, inspectorPort, allow, vars }) {
  const adminToken = randomBytes(24).toString("base64url");
  const secret = () => randomBytes(24).toString("base64url");
  const log = join(tmp, "wrangler.log");
  const service = await createService({
    cwd: root,
    port,
    inspectorPort,
    persistTo: join(tmp, "state"),
    output: log,
    vars: {
      ADMIN_TOKEN: adminToken,
      URL_SIGNING_SECRET: secret(),
      WEBHOOK_SIGNING_SECRET: secret(),
      STORAGE_ENCRYPTION_KEY: secret(),
      TARGET_ALLOWLIST: allow.join(","),
      ...vars,
    },
  });
  soaked = Object.assign(service, { adminToken, log });
  return soaked;
}

// ─────────────────────── Chromium: the service's browsers, RSS, contexts ───────────────────────

/**
 * Open browser contexts of each of the service's browsers, asked of Chromium itself: miniflare
 * launches it with --remote-debugging-port=0, and Chromium writes the port it took to
 * DevToolsActivePort in its --user-data-dir; a second CDP client there calls
 * Target.getBrowserContexts (every context but the default one, whoever created it). `spares`:
 * those that are a BrowserHost's spare page, opened ahead of the next capture (one blank page).
 */
async function browserContexts(browsers) {
  const out = [];
  for (const b of browsers) {
    const dir = /--user-data-dir=([^\0]+)/.exec(b.cmd)?.[1];
    let port, path;
    try {
      [port, path] = readFileSync(join(dir, "DevToolsActivePort"), "utf8").split("\n");
    } catch {
      out.push({ pid: b.pid, contexts: null, error: "no DevToolsActivePort" });
      continue;
    }
    try {
      const ws = `ws://127.0.0.1:${port}${path}`;
      const { browserContextIds } = await cdpCall(ws, "Target.getBrowserContexts");
      const { targetInfos } = await cdpCall(ws, "Target.getTargets");
      // The BrowserHost's spare (src/capture/host/blank-page.ts): one context holding one blank page.
      const byContext = browserContextIds.map((id) =>
        targetInfos
          // Chromium's own UI targets (type browser_ui: omnibox pop-ups) come with every page.
          .filter((t) => t.browserContextId === id && t.type !== "browser_ui")
          .map((t) => `${t.type} ${t.url.slice(0, 80)}`),
      );
      const spare = (targets) => targets.length === 1 && targets[0] === "page about:blank";
      out.push({
        pid: b.pid,
        contexts: browserContextIds.length,
        spares: byContext.filter(spare).length,
        // What the other contexts hold: the first place to look when one is left open.
        others: byContext.filter((targets) => !spare(targets)),
      });
    } catch (err) {
      out.push({ pid: b.pid, contexts: null, error: String(err) });
    }
  }
  return out;
}

/** Chromium's idle RSS, processes and open contexts under the service `svc`, after 5 s quiet. */
export async function idleChromium(svc) {
  await sleep(5000);
  const chromium = serviceChromium(svc.pid);
  return { ...chromium, contexts: await browserContexts(chromium.browsers) };
}

/**
 * During the load: Chromium's RSS every 2 s, and its open contexts every 10 s (non-zero while
 * captures run: shows the measurement sees the captures' contexts), `t` in seconds since
 * `started`. `svc.pid` is read each time: the restart fault starts a new process.
 */
export function sampleChromium(svc, started) {
  const rss = [];
  const contextSamples = [];
  const rssTimer = setInterval(() => {
    const c = serviceChromium(svc.pid);
    const t = Math.round((Date.now() - started) / 1000);
    rss.push({ t, rss: c.rss, processes: c.processes, browsers: c.browsers.length });
  }, 2000);
  const contextTimer = setInterval(async () => {
    const browsers = serviceChromium(svc.pid).browsers;
    const t = Math.round((Date.now() - started) / 1000);
    contextSamples.push({ t, contexts: await browserContexts(browsers) });
  }, 10_000);
  const stop = () => (clearInterval(rssTimer), clearInterval(contextTimer));
  return { rss, contextSamples, stop };
}

function cdpCall(url, method) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const timer = setTimeout(() => (ws.terminate(), reject(new Error("CDP timeout"))), 10_000);
    ws.once("error", (e) => (clearTimeout(timer), reject(e)));
    ws.once("open", () => ws.send(JSON.stringify({ id: 1, method })));
    ws.on("message", (data) => {
      const msg = JSON.parse(String(data));
      if (msg.id !== 1) return;
      clearTimeout(timer);
      ws.close();
      if (msg.error) reject(new Error(msg.error.message));
      else resolve(msg.result);
    });
  });
}

/**
 * Kills every child the soak started. The service's Chromium is launched in a session of its
 * own, so killing wrangler's process group would leave it running, orphaned: it is killed first,
 * found while the process tree still leads to it.
 */
export function cleanup() {
  for (const c of [...children, soaked?.child].filter(Boolean)) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const dev = c.spawnargs.includes("dev");
    const chromium = dev ? serviceChromium(c.pid).all : [];
    for (const p of [...chromium, { pid: dev ? -c.pid : c.pid }])
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {}
  }
}
