#!/usr/bin/env node
// Edgeshot soak: the whole service under mixed load while things break, then count everything.
// See bench/SOAK.md. Usage: npm run soak [-- --duration 300] [-- --concurrency 8] [-- --faults]
//   [-- --no-faults] [-- --report file.json] [-- --fixture-port 4520]
// The JSON report goes to bench/results/soak-<time>.json (git-ignored) unless --report says.
//
// Starts the fixture server (bench/fixture.mjs), a local webhook receiver (answers 500 to the
// first try of every delivery id, then 200) and `wrangler dev` with its own --persist-to dir.
// N customers on different plans send a mix of captures, extractions, async jobs and batches
// with webhooks, and invalid requests. Faults (--faults, the default): the service's Chromium
// browser process killed mid-capture, a slow target past its timeout, the webhook 500s.
// After the load stops it waits (≤ 60 s) for every job to end, then checks the invariants and
// exits non-zero when one is broken. Writes a JSON report.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function options(argv) {
  const opt = { duration: 300, concurrency: 8, faults: true, report: null };
  opt.fixturePort = Number(process.env.FIXTURE_PORT ?? 4520);
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i];
    if (flag === "--duration") opt.duration = Number(value());
    else if (flag === "--concurrency") opt.concurrency = Number(value());
    else if (flag === "--faults") opt.faults = true;
    else if (flag === "--no-faults") opt.faults = false;
    else if (flag === "--report") opt.report = value();
    else if (flag === "--fixture-port") opt.fixturePort = Number(value());
    else throw new Error(`unknown option ${argv[i]} (see bench/SOAK.md)`);
  }
  opt.report ??= join(
    ROOT,
    "bench/results",
    `soak-${new Date().toISOString().replace(/[:.]/g, "-")}.json`,
  );
  if (!(opt.duration > 0) || !(opt.concurrency > 0))
    throw new Error("bad --duration/--concurrency");
  return opt;
}

const opt = options(process.argv.slice(2));
const tmp = mkdtempSync(join(os.tmpdir(), "edgeshot-soak-"));
const children = [];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createNetServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function startFixture(port) {
  const child = spawn(
    process.execPath,
    [
      ...["--import", join(ROOT, "bench/lib/ts-register.mjs")],
      ...["--experimental-strip-types", "--no-warnings"],
      ...[join(ROOT, "bench/fixture.mjs"), String(port)],
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(child);
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => String(d).includes("ready") && resolve());
    child.once("exit", (code) => reject(new Error(`fixture server exited with ${code}`)));
  });
}

/** Webhook receiver: every delivery id's first try gets 500 (fault), later ones 200. */
function startReceiver(faults) {
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
        subject = json.jobId ?? json.batchId ?? json.data?.jobId ?? json.data?.batchId ?? "";
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
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, byDelivery, port: server.address().port }),
    ),
  );
}

async function startService(allow) {
  const port = await freePort();
  const inspector = await freePort();
  const adminToken = randomBytes(24).toString("base64url");
  const secret = () => randomBytes(24).toString("base64url");
  const log = join(tmp, "wrangler.log");
  const fd = openSync(log, "a");
  const args = [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    ...["--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector)],
    ...["--persist-to", join(tmp, "state"), "--show-interactive-dev-session=false"],
    ...["--var", `ADMIN_TOKEN:${adminToken}`, "--var", `URL_SIGNING_SECRET:${secret()}`],
    ...[
      "--var",
      `WEBHOOK_SIGNING_SECRET:${secret()}`,
      "--var",
      `STORAGE_ENCRYPTION_KEY:${secret()}`,
    ],
    ...["--var", `TARGET_ALLOWLIST:${allow.join(",")}`],
    // wrangler.toml ships the production pool (8 browsers); on a laptop or CI box every browser
    // shares the same cores, and the RSS invariant compares like with like only when the pool
    // is warm from the start. SOAK_BROWSER_HOSTS overrides (as BENCH_BROWSER_HOSTS for the bench).
    ...["--var", `BROWSER_HOSTS:${process.env.SOAK_BROWSER_HOSTS || "1"}`],
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", fd, fd],
    env: {
      ...process.env,
      PATH: `${join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
      WRANGLER_SEND_METRICS: "false",
    },
  });
  closeSync(fd);
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 180_000; Date.now() < until; await sleep(500)) {
    if (child.exitCode !== null)
      throw new Error(`wrangler dev exited:\n${readFileSync(log, "utf8").slice(-3000)}`);
    const ok = await fetch(`${base}/health`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { base, adminToken, pid: child.pid };
  }
  throw new Error("wrangler dev did not answer /health within 180 s");
}

// ─────────────────────── Chromium: the service's browsers, RSS, the kill fault ───────────────────────

function procs() {
  const out = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      out.push({ pid: Number(pid), ppid, rss, cmd });
    } catch {}
  }
  return out;
}

/** Chromium processes descending from our wrangler dev: browsers (no --type) and all RSS. */
function serviceChromium(rootPid) {
  const all = procs();
  const children = new Map();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const mine = [];
  const stack = [rootPid];
  while (stack.length) {
    for (const c of children.get(stack.pop()) ?? []) {
      if (/chrom/i.test(c.cmd)) mine.push(c);
      stack.push(c.pid);
    }
  }
  const browsers = mine.filter((p) => !p.cmd.includes("--type="));
  return { browsers, rss: mine.reduce((s, p) => s + p.rss, 0), processes: mine.length };
}

// ─────────────────────────────── the load ───────────────────────────────

const PLANS = ["pro", "starter", "pro", "basic", "pro", "starter", "pro", "pro"];

async function main() {
  const started = Date.now();
  await startFixture(opt.fixturePort);
  const FIX = `http://127.0.0.1:${opt.fixturePort}`;
  const receiver = await startReceiver(opt.faults);
  const HOOK = `http://127.0.0.1:${receiver.port}/hook`;
  const svc = await startService([`127.0.0.1:${opt.fixturePort}`, `127.0.0.1:${receiver.port}`]);
  console.log(`[soak] service ${svc.base}, fixtures ${FIX}, webhooks ${HOOK}`);
  const admin = (path, init = {}) =>
    fetch(`${svc.base}/admin${path}`, {
      ...init,
      headers: { authorization: `Bearer ${svc.adminToken}`, "content-type": "application/json" },
    }).then((r) => r.json());

  const customers = [];
  for (let i = 0; i < opt.concurrency; i++) {
    const plan = PLANS[i % PLANS.length];
    const { data } = await admin("/accounts", { method: "POST", body: JSON.stringify({ plan }) });
    customers.push({
      plan,
      accountId: data.accountId,
      key: data.apiKey,
      billable: 0,
      jobs: new Set(),
      batches: new Set(),
      hooked: new Set(),
    });
  }

  const stats = new Map(); // route -> {statuses: {}, times: []}
  const record = (route, status, ms) => {
    const s = stats.get(route) ?? { statuses: {}, times: [] };
    s.statuses[status] = (s.statuses[status] ?? 0) + 1;
    s.times.push(ms);
    stats.set(route, s);
  };
  const unexpected5xx = [];
  const injected = [];

  const small = { width: 400, height: 300, deviceScaleFactor: 1, blockAds: false };
  const MIX = [
    [
      "screenshot.bin",
      4,
      () => ({
        path: "/v1/screenshot",
        body: { ...small, url: `${FIX}/article?words=300`, waitUntil: "load" },
      }),
    ],
    [
      "screenshot.json.html",
      3,
      () => ({
        path: "/v1/screenshot/json",
        body: { ...small, html: "<h1>hello</h1><p>soak</p>" },
      }),
    ],
    [
      "extract",
      2,
      () => ({ path: "/v1/extract", body: { url: `${FIX}/article?words=800`, waitUntil: "load" } }),
    ],
    [
      "async",
      2,
      () => ({
        path: "/v1/screenshot",
        body: {
          ...small,
          url: `${FIX}/article?words=100`,
          waitUntil: "load",
          async: true,
          webhookUrl: HOOK,
        },
      }),
    ],
    [
      "batch",
      1,
      () => ({
        path: "/v1/screenshot/batch",
        body: {
          urls: [`${FIX}/article?words=50`, `${FIX}/article?words=60`],
          defaults: { ...small, waitUntil: "load" },
          webhookUrl: HOOK,
        },
      }),
    ],
    ["invalid", 2, () => ({ path: "/v1/screenshot", body: { url: `${FIX}/x`, width: 5 } })],
    ...(opt.faults
      ? [
          [
            "slow-target",
            1,
            () => ({
              path: "/v1/screenshot",
              body: { ...small, url: `${FIX}/slow?ms=9000`, timeout: 5, bestAttempt: false },
            }),
          ],
        ]
      : []),
  ];
  const weights = MIX.reduce((s, m) => s + m[1], 0);
  const pick = () => {
    let r = Math.random() * weights;
    for (const m of MIX) if ((r -= m[1]) < 0) return m;
    return MIX[0];
  };

  // Warm-up: one capture per customer, then the idle RSS every later value is compared with.
  await Promise.all(
    customers.map((c) =>
      fetch(`${svc.base}/v1/screenshot`, {
        method: "POST",
        headers: { authorization: `Bearer ${c.key}`, "content-type": "application/json" },
        body: JSON.stringify({ ...small, html: "<p>warm-up</p>" }),
      }).then(async (r) => {
        await r.arrayBuffer();
        if (r.status === 200) c.billable++;
      }),
    ),
  );
  const idle = async () => {
    await sleep(5000);
    return serviceChromium(svc.pid);
  };
  const warm = await idle();
  console.log(`[soak] warm: Chromium idle RSS ${mb(warm.rss)} in ${warm.processes} processes`);
  const rss = [];
  let killed = 0;
  const kills = [];
  const stopAt = Date.now() + opt.duration * 1000;
  const sampler = setInterval(() => {
    const c = serviceChromium(svc.pid);
    rss.push({
      t: Math.round((Date.now() - started) / 1000),
      rss: c.rss,
      processes: c.processes,
      browsers: c.browsers.length,
    });
  }, 2000);
  const killer = opt.faults
    ? setInterval(
        () => {
          const [browser] = serviceChromium(svc.pid).browsers;
          if (browser && Date.now() < stopAt - 10_000) {
            try {
              process.kill(browser.pid, "SIGKILL");
              killed++;
              kills.push(Date.now());
              console.log(`[soak] fault: killed Chromium ${browser.pid}`);
            } catch {}
          }
        },
        Math.max(15_000, (opt.duration * 1000) / 4),
      )
    : null;

  async function customer(c) {
    while (Date.now() < stopAt) {
      const [route, , make] = pick();
      const { path, body } = make();
      const t = Date.now();
      let status = 0;
      try {
        const res = await fetch(`${svc.base}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${c.key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(240_000),
        });
        status = res.status;
        const buf = Buffer.from(await res.arrayBuffer());
        if (status === 200) c.billable++;
        if (status === 202) {
          const json = JSON.parse(buf.toString());
          if (json.data.jobId) (c.jobs.add(json.data.jobId), c.hooked.add(json.data.jobId));
          if (json.data.batchId) {
            c.batches.add(json.data.batchId);
            c.hooked.add(json.data.batchId);
            for (const j of json.data.jobs) c.jobs.add(j.jobId);
          }
        }
        if (status >= 500) {
          const code = JSON.parse(buf.toString() || "{}")?.error?.code;
          // Injected: a capture on a browser we killed (retried once, else failed and refunded:
          // the credit invariant checks the refund); SERVICE_BUSY is the documented overload answer.
          const killedUnder = kills.some((k) => k >= t - 5000 && k <= Date.now());
          if (code === "SERVICE_BUSY") injected.push({ route, status, code });
          else if (code === "CAPTURE_FAILED" && killedUnder) injected.push({ route, status, code });
          else unexpected5xx.push({ route, status, code });
        }
      } catch (err) {
        unexpected5xx.push({ route, status: "network", code: String(err) });
      }
      record(route, status, Date.now() - t);
      if (status === 429) await sleep(2000);
    }
  }
  await Promise.all(customers.map(customer));
  if (killer) clearInterval(killer);
  console.log(`[soak] load stopped after ${opt.duration} s; draining (≤ 60 s)`);

  // ─────────────────────────── drain, then count ───────────────────────────
  const get = (c, path) =>
    fetch(`${svc.base}${path}`, { headers: { authorization: `Bearer ${c.key}` } }).then((r) =>
      r.json(),
    );
  const drainUntil = Date.now() + 60_000;
  let open = [];
  do {
    open = [];
    for (const c of customers)
      for (const id of c.jobs) {
        const { data } = await get(c, `/v1/jobs/${id}`);
        if (data?.status === "completed") (c.billable++, c.jobs.delete(id));
        else if (data?.status === "failed") c.jobs.delete(id);
        else open.push(id);
      }
    if (open.length === 0) break;
    await sleep(2000);
  } while (Date.now() < drainUntil);
  // Webhook retries after the 500 fault (first retry ≈ 5 s): until each hooked job/batch has a
  // delivery that got a 200, at most 45 s.
  const hookedAll = customers.flatMap((c) => [...c.hooked]);
  const delivered = () => {
    const ok = new Set(
      [...receiver.byDelivery.values()].filter((d) => d.ok > 0).map((d) => d.subject),
    );
    return hookedAll.every((s) => ok.has(s));
  };
  for (const until = Date.now() + 45_000; !delivered() && Date.now() < until;) await sleep(1000);
  clearInterval(sampler);
  const endIdle = await idle();

  const accounts = [];
  for (const c of customers) {
    const { data } = await get(c, "/v1/account");
    const { data: summary } = await admin(`/accounts/${c.accountId}`);
    const u = data.usage;
    accounts.push({
      plan: c.plan,
      accountId: c.accountId,
      charged: u.used,
      billableDelivered: c.billable,
      openReservations: u.limit - u.used - u.remaining,
      activeJobs: summary.activeJobs,
    });
  }
  const deliveriesBySubject = new Map();
  for (const [id, d] of receiver.byDelivery) {
    deliveriesBySubject.set(d.subject, [...(deliveriesBySubject.get(d.subject) ?? []), id]);
  }
  const hooked = customers.flatMap((c) => [...c.hooked]);
  const webhookProblems = hooked
    .map((s) => ({ subject: s, deliveries: (deliveriesBySubject.get(s) ?? []).length }))
    .filter((w) => w.deliveries !== 1);
  const neverOk = [...receiver.byDelivery].filter(([, d]) => d.ok < 1).map(([id]) => id);
  const end = endIdle;
  const rssGrowth = warm.rss > 0 ? end.rss / warm.rss - 1 : 0;

  const routes = Object.fromEntries(
    [...stats].map(([route, s]) => {
      const sorted = [...s.times].sort((a, b) => a - b);
      const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
      return [route, { statuses: s.statuses, count: sorted.length, p50: q(0.5), p95: q(0.95) }];
    }),
  );
  const invariants = {
    "0 unexpected 5xx": unexpected5xx.length === 0,
    "credits charged = billable outputs delivered": accounts.every(
      (a) => a.charged === a.billableDelivered,
    ),
    "0 open reservations": accounts.every((a) => a.openReservations === 0),
    "0 active-job slots after drain": accounts.every((a) => a.activeJobs === 0),
    "0 jobs non-terminal 60 s after the load": open.length === 0,
    "every job/batch event: exactly one delivery id": webhookProblems.length === 0,
    "every delivery id received with 200 at least once": neverOk.length === 0,
    "Chromium RSS at the end within 20% of warm-up": rssGrowth <= 0.2,
  };
  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      memGB: Math.round(os.totalmem() / 2 ** 30),
    },
    options: opt,
    routes,
    unexpected5xx,
    accounts,
    jobsOpenAfterDrain: open,
    webhooks: { deliveries: receiver.byDelivery.size, problems: webhookProblems, neverOk },
    faults: { chromiumKilled: killed, injected5xx: injected },
    chromium: {
      warmIdle: { rss: warm.rss, processes: warm.processes, browsers: warm.browsers.length },
      endIdle: { rss: end.rss, processes: end.processes, browsers: end.browsers.length },
      growth: rssGrowth,
      samples: rss,
    },
    invariants,
    // What the service logged as errors and warnings (sanitized answers hide them).
    serviceLog: readFileSync(join(tmp, "wrangler.log"), "utf8")
      .split("\n")
      .filter((l) => /"level":"(error|warn)"/.test(l))
      .slice(-100),
  };
  mkdirSync(dirname(opt.report), { recursive: true });
  writeFileSync(opt.report, JSON.stringify(report, null, 2));

  console.log("\nroute                  count  p50 ms  p95 ms  statuses");
  for (const [route, r] of Object.entries(routes))
    console.log(
      `${route.padEnd(22)} ${String(r.count).padStart(5)} ${String(r.p50).padStart(7)} ${String(r.p95).padStart(7)}  ${JSON.stringify(r.statuses)}`,
    );
  console.log("\naccount plan      charged  delivered  reserved  activeJobs");
  for (const a of accounts)
    console.log(
      `${a.accountId.slice(0, 7)} ${a.plan.padEnd(9)} ${String(a.charged).padStart(7)} ${String(a.billableDelivered).padStart(10)} ${String(a.openReservations).padStart(9)} ${String(a.activeJobs).padStart(11)}`,
    );
  console.log(
    `\nfaults: Chromium killed ${killed}×; injected 5xx: ${injected.length} ${JSON.stringify(injected.map((i) => i.code))}`,
  );
  console.log(
    `Chromium idle RSS: warm ${mb(warm.rss)} (${warm.processes} procs) → end ${mb(end.rss)} (${end.processes} procs): ${(rssGrowth * 100).toFixed(1)}%`,
  );
  console.log(`webhook deliveries ${receiver.byDelivery.size}; report: ${opt.report}\n`);
  let ok = true;
  for (const [name, held] of Object.entries(invariants)) {
    console.log(`${held ? "PASS" : "FAIL"}  ${name}`);
    ok &&= held;
  }
  return ok;
}

const mb = (b) => (b ? `${(b / 2 ** 20).toFixed(0)} MB` : "n/a");

function cleanup() {
  for (const c of children) {
    try {
      if (c.exitCode === null)
        process.kill(c.spawnargs.includes("dev") ? -c.pid : c.pid, "SIGKILL");
    } catch {}
  }
  rmSync(tmp, { recursive: true, force: true });
}

main().then(
  (ok) => {
    cleanup();
    process.exit(ok ? 0 : 1);
  },
  (err) => {
    console.error(err);
    cleanup();
    process.exit(2);
  },
);
