#!/usr/bin/env node
// `npm start [-- wrangler dev flags]`: runs `wrangler dev` with local storage and the local
// browser. Every argument passes through to wrangler; defaults live in wrangler.toml [dev].
// Once /health answers, it makes sure one demo account per plan exists (scripts/lib/demo-seed)
// and prints their keys, their dashboard login and ready-to-run curl lines. Beside it runs the local demo site
// (scripts/lib/demo-site.mjs, on EDGESHOT_DEMO_PORT or 8788, else the first free of the nine
// after it, which the banner says loudly), allowlisted, so every line of the banner works offline.
import { readFileSync } from "node:fs";
import { devVar } from "./lib/admin-client.mjs";
import { demoBanner, seedDemoAccounts } from "./lib/demo-seed.mjs";
import { DEMO_PORT, startDemoSite } from "./lib/demo-site.mjs";
import { firstFreePort, serviceChromium, spawnWrangler, waitForHealth } from "./lib/service.mjs";
import { splitVars, varValue, withVar } from "./lib/start-args.mjs";

/**
 * Wrangler's own network calls a local run has no use for (docs/LOCAL-DEV.md): usage metrics,
 * and miniflare's fetch of workers.cloudflare.com/cf.json for `request.cf` (which nothing here
 * reads; offline it printed an ENOTFOUND trace).
 */
const QUIET_WRANGLER = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
const given = splitVars(process.argv.slice(2));
/** TARGET_ALLOWLIST as the caller set it (`--var`), else from .dev.vars; the demo site joins it. */
const allowlist = varValue(given.vars, "TARGET_ALLOWLIST") ?? devVar("TARGET_ALLOWLIST") ?? "";
/** The demo site's port: the one asked for, else the first free of the nine after it. */
const demoWanted = Number(process.env.EDGESHOT_DEMO_PORT ?? DEMO_PORT);
const demoPort = await firstFreePort(demoWanted, 10);
if (demoPort === null) {
  console.error(
    `[start] the demo site's ports ${demoWanted}–${demoWanted + 9} are all taken: ` +
      "set EDGESHOT_DEMO_PORT to a free port.",
  );
  process.exit(1);
}
const demo = await startDemoSite(demoPort);
const demoHost = new URL(demo.origin).host;
const passThrough = withVar(
  given,
  "TARGET_ALLOWLIST",
  [allowlist, demoHost].filter(Boolean).join(","),
);

/** The value of `--name v` or `--name=v` among wrangler's arguments (last one wins). */
function flag(args, name) {
  let value;
  args.forEach((arg, i) => {
    if (arg === `--${name}` && i + 1 < args.length) value = args[i + 1];
    else if (arg.startsWith(`--${name}=`)) value = arg.slice(name.length + 3);
  });
  return value;
}

/** ADMIN_TOKEN from `--var ADMIN_TOKEN:…` if given, else the environment or .dev.vars. */
function adminToken() {
  return varValue(given.vars, "ADMIN_TOKEN") || devVar("ADMIN_TOKEN");
}

const child = spawnWrangler(["dev", ...passThrough], {
  output: "inherit",
  detached: false,
  env: QUIET_WRANGLER,
});
let exited = false;
// The local browser binding starts Chromium in a session of its own: it outlives wrangler unless
// stopped here. The processes under wrangler are noted as they come (the tree is gone once
// wrangler has exited) and those still running are stopped when it exits.
const chromium = new Map();
const note = () => {
  for (const p of serviceChromium(child.pid).all) chromium.set(p.pid, p);
};
const watcher = setInterval(note, 2000);
watcher.unref();
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    note();
    child.kill(sig);
  });
child.on("exit", (code, signal) => {
  exited = true;
  clearInterval(watcher);
  for (const p of chromium.values()) {
    try {
      // Only the same process: a pid may have been reused since it was noted.
      if (readFileSync(`/proc/${p.pid}/cmdline`, "utf8") === p.cmd) process.kill(p.pid, "SIGKILL");
    } catch {}
  }
  demo.close();
  process.exit(signal ? 1 : (code ?? 0));
});

async function seed() {
  const ip = flag(passThrough, "ip") ?? "localhost";
  const host =
    ip === "0.0.0.0" || ip === "*" || ip === "::" ? "127.0.0.1" : ip.includes(":") ? `[${ip}]` : ip;
  const baseUrl = `http://${host}:${flag(passThrough, "port") ?? "8787"}`;
  const persistDir = flag(passThrough, "persist-to") ?? ".wrangler/state";
  const token = adminToken();
  if (!token) throw new Error("ADMIN_TOKEN is not set (.dev.vars or --var ADMIN_TOKEN:…)");
  await waitForHealth(baseUrl, { child, timeoutMs: 180_000 });
  const { accounts, password, created, path } = await seedDemoAccounts({
    baseUrl,
    token,
    persistDir,
  });
  const note = created > 0 ? `created ${created}, ` : "";
  console.log(
    `${demoBanner(baseUrl, accounts, demo.origin, password, demoWanted)}(${note}kept in ${path})\n`,
  );
}

seed().catch((err) => {
  if (!exited) console.error(`[start] demo accounts not seeded: ${err.message}`);
});
