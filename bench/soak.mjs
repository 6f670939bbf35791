#!/usr/bin/env node
// Edgeshot soak: the whole service under mixed load while things break, then count everything.
// See bench/SOAK.md. Usage: npm run soak [-- --duration 300] [-- --concurrency 8] [-- --faults]
//   [-- --no-faults] [-- --report file.json] [-- --fixture-port 4520] [-- --port 4260]
// The JSON report goes to bench/results/soak-<time>.json (git-ignored) unless --report says.
//
// Starts the fixture server (bench/fixture.mjs), a local webhook receiver (answers 500 to the
// first try of every delivery id, then 200) and `wrangler dev` with its own --persist-to dir.
// N customers on different plans send a mix of captures, extractions, render links, artifacts,
// async jobs and batches with webhooks, watch runs and invalid requests. Faults (--faults, the
// default): the service's Chromium browser process killed mid-capture, `wrangler dev` killed
// and restarted once with jobs queued and processing, a slow target past its timeout, the
// webhook 500s. After the load stops it waits for every job to end, then checks the invariants
// and exits non-zero when one is broken. Writes a JSON report.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { browserContexts, cleanup, freePort, serviceChromium, sleep } from "./lib/soak-service.mjs";
import { soakedService, startFixture, startReceiver } from "./lib/soak-service.mjs";
import { mb, printReport } from "./lib/soak-report.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function options(argv) {
  const opt = { duration: 300, concurrency: 8, faults: true, report: null, port: null };
  opt.fixturePort = Number(process.env.FIXTURE_PORT ?? 4520);
  opt.stuckAfter = 45;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i];
    if (flag === "--duration") opt.duration = Number(value());
    else if (flag === "--concurrency") opt.concurrency = Number(value());
    else if (flag === "--faults") opt.faults = true;
    else if (flag === "--no-faults") opt.faults = false;
    else if (flag === "--report") opt.report = value();
    else if (flag === "--fixture-port") opt.fixturePort = Number(value());
    else if (flag === "--port") opt.port = Number(value());
    else if (flag === "--stuck-after") opt.stuckAfter = Number(value());
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
/** How long an unsettled credit reservation holds credits (TUNING.creditReservationTtlMs). */
const RESERVATION_TTL_MS = 10 * 60_000;

// ─────────────────────────────── the load ───────────────────────────────

const PLANS = ["pro", "starter", "pro", "basic", "pro", "starter", "pro", "pro"];
/** The plans' watch interval floors (src/accounts/plans.ts), in minutes. */
const WATCH_FLOOR = { basic: 180, starter: 60, pro: 30 };

async function main() {
  const started = Date.now();
  await startFixture(ROOT, opt.fixturePort);
  const FIX = `http://127.0.0.1:${opt.fixturePort}`;
  // --port P: wrangler dev on P, its inspector on P+1, the webhook receiver on P+2.
  const receiver = await startReceiver(opt.faults, opt.port ? opt.port + 2 : 0);
  const HOOK = `http://127.0.0.1:${receiver.port}/hook`;
  const svc = await soakedService({
    root: ROOT,
    tmp,
    port: opt.port ?? (await freePort()),
    inspectorPort: opt.port ? opt.port + 1 : await freePort(),
    allow: [`127.0.0.1:${opt.fixturePort}`, `127.0.0.1:${receiver.port}`],
    vars: {
      // wrangler.toml ships the production pool (8 browsers); on a laptop or CI box every
      // browser shares the same cores, and the RSS invariant compares like with like only when
      // the pool is warm from the start. SOAK_BROWSER_HOSTS overrides.
      BROWSER_HOSTS: process.env.SOAK_BROWSER_HOSTS || "1",
      // Jobs whose queue messages the restart lost are swept (re-enqueued, then failed and
      // refunded) after this, so they end within the drain rather than after 15 minutes.
      JOB_STUCK_AFTER_SECONDS: String(opt.stuckAfter),
    },
  });
  await svc.start();
  console.log(`[soak] service ${svc.base}, fixtures ${FIX}, webhooks ${HOOK}`);
  const admin = (path, init = {}) =>
    fetch(`${svc.base}/admin${path}`, {
      ...init,
      headers: { authorization: `Bearer ${svc.adminToken}`, "content-type": "application/json" },
    }).then((r) => r.json());
  const api = (c, path, init = {}) =>
    fetch(`${svc.base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${c.key}`, "content-type": "application/json" },
    });
  const setPage = (run, html) =>
    fetch(`${FIX}/__page`, { method: "POST", body: JSON.stringify({ run, html }) });

  const small = { width: 400, height: 300, deviceScaleFactor: 1, blockAds: false };
  const customers = [];
  for (let i = 0; i < opt.concurrency; i++) {
    const plan = PLANS[i % PLANS.length];
    const { data } = await admin("/accounts", { method: "POST", body: JSON.stringify({ plan }) });
    const c = {
      plan,
      accountId: data.accountId,
      key: data.apiKey,
      billable: 0,
      jobs: new Set(), // not seen terminal yet
      ended: new Set(),
      batches: new Set(),
      hooked: new Set(),
      inflight: new Set(),
      killedCredits: 0,
      watch: null,
    };
    // Every third customer watches a page of its own that the soak changes before each run.
    if (i % 3 === 0) {
      const run = `soak-${i}-${started}`;
      await setPage(run, `<h1>soak watch ${i}</h1><p>version 0</p>`);
      const res = await api(c, "/v1/watches", {
        method: "POST",
        body: JSON.stringify({
          url: `${FIX}/watched?run=${run}`,
          intervalMinutes: WATCH_FLOOR[plan],
          capture: { ...small, waitUntil: "load" },
          changeDetection: { mode: "text" },
          webhookUrl: HOOK,
        }),
      });
      const json = await res.json();
      if (res.status !== 201)
        throw new Error(`watch create: ${res.status} ${JSON.stringify(json)}`);
      c.watch = { id: json.data.id, run, version: 0 };
    }
    customers.push(c);
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
  const kills = [];
  /** The restart fault: when the process was killed and when the new one answered. */
  const restart = { killAt: null, upAt: null, openJobsAtKill: {}, trackedJobs: [] };
  const overlapsRestart = (t, end) =>
    restart.killAt !== null &&
    end >= restart.killAt &&
    (restart.upAt === null || t <= restart.upAt);
  const renderLinks = { miss: 0, hit: 0, repeatMiss: 0 };

  /**
   * One request of a customer: records route, status and time, and sorts 5xx and network
   * errors into injected (overlapping a fault) and unexpected. `cost` = credits a sync request
   * may hold while in flight (for the restart's reservation accounting).
   */
  async function call(c, route, path, init = {}, cost = 0) {
    const t = Date.now();
    const flight = { cost };
    c.inflight.add(flight);
    let status = 0;
    let res = null;
    let buf = Buffer.alloc(0);
    try {
      res = await (path.startsWith("http") ? fetch(path, init) : api(c, path, init));
      status = res.status;
      buf = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      c.inflight.delete(flight);
      record(route, "network", Date.now() - t);
      if (overlapsRestart(t, Date.now()))
        injected.push({ route, status: "network", fault: "restart" });
      else unexpected5xx.push({ route, status: "network", code: String(err.cause ?? err) });
      if (restart.killAt !== null && restart.upAt === null) await sleep(1000);
      return { status: 0, res: null, json: null };
    }
    c.inflight.delete(flight);
    record(route, status, Date.now() - t);
    const isJson = res.headers.get("content-type")?.includes("json");
    const json = isJson ? JSON.parse(buf.toString() || "{}") : null;
    if (status >= 500) {
      const code = json?.error?.code;
      // Injected: a capture on a browser we killed (retried once, else failed and refunded:
      // the credit invariant checks the refund); SERVICE_BUSY is the documented overload answer.
      const killedUnder = kills.some((k) => k >= t - 5000 && k <= Date.now());
      if (code === "SERVICE_BUSY") injected.push({ route, status, code, fault: "overload" });
      else if (code === "CAPTURE_FAILED" && killedUnder)
        injected.push({ route, status, code, fault: "browser kill" });
      else if (overlapsRestart(t, Date.now()))
        injected.push({ route, status, code, fault: "restart" });
      else unexpected5xx.push({ route, status, code });
    }
    if (status === 429) await sleep(2000);
    return { status, res, json, buf };
  }
  const post = (body) => ({ method: "POST", body: JSON.stringify(body) });
  const admitted = (c, data, hooked) => {
    if (data?.jobId) c.jobs.add(data.jobId);
    if (data?.batchId) {
      c.batches.add(data.batchId);
      for (const j of data.jobs) c.jobs.add(j.jobId);
    }
    if (hooked) c.hooked.add(data?.batchId ?? data?.jobId);
  };
  const capture = (route, path, body) => async (c) => {
    const { status } = await call(c, route, path, post(body()), 1);
    if (status === 200) c.billable++;
  };

  const MIX = [
    [
      "screenshot.bin",
      4,
      capture("screenshot.bin", "/v1/screenshot", () => ({
        ...small,
        url: `${FIX}/article?words=300`,
        waitUntil: "load",
      })),
    ],
    [
      "screenshot.json.html",
      3,
      capture("screenshot.json.html", "/v1/screenshot/json", () => ({
        ...small,
        html: "<h1>hello</h1><p>soak</p>",
      })),
    ],
    [
      "extract",
      2,
      capture("extract", "/v1/extract", () => ({
        url: `${FIX}/article?words=800`,
        waitUntil: "load",
      })),
    ],
    [
      // Mint a link to a page nobody rendered yet (first view: a miss, charged to the owner),
      // then view it again (a hit from the cache: free).
      "render-link",
      2,
      async (c) => {
        const html = `<h1>render link</h1><p>${Math.random().toString(36).slice(2)}</p>`;
        const minted = await call(c, "render.mint", "/v1/render/link", post({ ...small, html }));
        if (minted.status !== 200) return;
        for (const view of ["render.first", "render.repeat"]) {
          const { status, res } = await call(c, view, minted.json.data.url, {}, 1);
          if (status !== 200) continue;
          const cache = res.headers.get("x-service-cache");
          renderLinks[cache === "hit" ? "hit" : "miss"]++;
          if (view === "render.repeat" && cache !== "hit") renderLinks.repeatMiss++;
          if (cache === "miss") c.billable++;
        }
      },
    ],
    [
      // One credit per output delivered (a failed output is refunded and listed in `failed`).
      "artifact",
      1,
      async (c) => {
        const formats = Math.random() < 0.5 ? ["png"] : ["pdf", "png"];
        const body = { content: "# Soak\n\nA *branded* artifact.\n\n- one\n- two", formats };
        const { status, json } = await call(
          c,
          "artifact",
          "/v1/artifact",
          post(body),
          formats.length,
        );
        if (status === 200) c.billable += ["pdfUrl", "pngUrl"].filter((k) => json.data[k]).length;
      },
    ],
    [
      "async",
      2,
      async (c) => {
        const body = {
          ...small,
          url: `${FIX}/article?words=100`,
          waitUntil: "load",
          async: true,
          webhookUrl: HOOK,
        };
        const { status, json } = await call(c, "async", "/v1/screenshot", post(body));
        if (status === 202) admitted(c, json.data, true);
      },
    ],
    [
      "batch",
      1,
      async (c) => {
        const { status, json } = await call(c, "batch", "/v1/screenshot/batch", post(batchBody(2)));
        if (status === 202) admitted(c, json.data, true);
      },
    ],
    [
      // Change the watched page, then ask for a manual run: its job is charged like an async
      // job, and a changed run sends watch.changed (a failed one watch.failed).
      "watch-run",
      1,
      async (c) => {
        const w = c.watch;
        await setPage(w.run, `<h1>soak watch</h1><p>version ${++w.version}</p>`);
        const { status, json } = await call(c, "watch-run", `/v1/watches/${w.id}/run`, post({}));
        if (status === 202) c.jobs.add(json.data.jobId);
      },
    ],
    [
      "invalid",
      2,
      async (c) =>
        void (await call(c, "invalid", "/v1/screenshot", post({ url: `${FIX}/x`, width: 5 }))),
    ],
    ...(opt.faults
      ? [
          [
            "slow-target",
            1,
            capture("slow-target", "/v1/screenshot", () => ({
              ...small,
              url: `${FIX}/slow?ms=9000`,
              timeout: 5,
              bestAttempt: false,
            })),
          ],
        ]
      : []),
  ];
  function batchBody(n) {
    return {
      urls: Array.from({ length: n }, (_, i) => `${FIX}/article?words=${50 + i * 10}`),
      defaults: { ...small, waitUntil: "load" },
      webhookUrl: HOOK,
    };
  }
  const pick = (c) => {
    const mix = MIX.filter(([route]) => route !== "watch-run" || c.watch);
    let r = Math.random() * mix.reduce((s, m) => s + m[1], 0);
    for (const m of mix) if ((r -= m[1]) < 0) return m;
    return mix[0];
  };

  // Warm-up: one capture per customer, then the idle RSS every later value is compared with.
  await Promise.all(
    customers.map((c) =>
      capture("warm-up", "/v1/screenshot", () => ({ ...small, html: "<p>warm-up</p>" }))(c),
    ),
  );
  const idle = async () => {
    await sleep(5000);
    const chromium = serviceChromium(svc.pid);
    return { ...chromium, contexts: await browserContexts(chromium.browsers) };
  };
  const warm = await idle();
  console.log(
    `[soak] warm: Chromium idle RSS ${mb(warm.rss)} in ${warm.processes} processes, contexts ${JSON.stringify(warm.contexts)}`,
  );
  const rss = [];
  const contextSamples = [];
  let killed = 0;
  const loadStart = Date.now();
  const stopAt = loadStart + opt.duration * 1000;
  const sampler = setInterval(() => {
    const c = serviceChromium(svc.pid);
    const t = Math.round((Date.now() - started) / 1000);
    rss.push({ t, rss: c.rss, processes: c.processes, browsers: c.browsers.length });
  }, 2000);
  // Open contexts during the load too: shows the measurement sees the captures' contexts.
  const contextSampler = setInterval(async () => {
    const browsers = serviceChromium(svc.pid).browsers;
    const t = Math.round((Date.now() - started) / 1000);
    contextSamples.push({ t, contexts: await browserContexts(browsers) });
  }, 10_000);
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

  /**
   * The restart fault, once, early in the load (so that in a long run the reservations it
   * strands expire before the final count): a burst of batches so jobs are queued and
   * processing, then SIGKILL of the whole wrangler dev and a start on the same port and state.
   */
  async function restartFault() {
    await sleep(Math.max(15_000, opt.duration * 150));
    const paid = customers.filter((c) => c.plan !== "free").slice(0, 2);
    for (const c of paid) {
      const { status, json } = await call(c, "batch", "/v1/screenshot/batch", post(batchBody(4)));
      if (status === 202) admitted(c, json.data, true);
    }
    await sleep(2000);
    const open = customers.flatMap((c) => [...c.jobs].map((id) => [c, id]));
    const views = await Promise.all(
      open.map(([c, id]) =>
        api(c, `/v1/jobs/${id}`)
          .then((r) => r.json())
          .then((j) => [c, id, j.data?.status]),
      ),
    );
    for (const [, , st] of views)
      restart.openJobsAtKill[st] = (restart.openJobsAtKill[st] ?? 0) + 1;
    restart.trackedJobs = views
      .filter(([, , st]) => st === "queued" || st === "processing")
      .map(([c, id, st]) => ({ c, id, atKill: st, endedAfterUpMs: null, final: null }));
    restart.killAt = Date.now();
    for (const c of customers) c.killedCredits = [...c.inflight].reduce((s, f) => s + f.cost, 0);
    await svc.kill();
    console.log(
      `[soak] fault: killed wrangler dev (jobs open: ${JSON.stringify(restart.openJobsAtKill)}); restarting`,
    );
    await svc.start();
    restart.upAt = Date.now();
    console.log(
      `[soak] service back after ${((restart.upAt - restart.killAt) / 1000).toFixed(1)} s`,
    );
    // When each job open at the kill ends: right after the restart if its message survived,
    // only after the stuck deadline if the sweep had to re-enqueue it.
    while (restart.trackedJobs.some((j) => j.final === null) && Date.now() < stopAt + 300_000) {
      for (const j of restart.trackedJobs.filter((x) => x.final === null)) {
        const st = await api(j.c, `/v1/jobs/${j.id}`)
          .then((r) => r.json())
          .then(
            (x) => x.data?.status,
            () => null,
          );
        if (st === "completed" || st === "failed") {
          j.final = st;
          j.endedAfterUpMs = Date.now() - restart.upAt;
        }
      }
      await sleep(2000);
    }
  }
  const restarting = opt.faults ? restartFault() : Promise.resolve();

  async function customer(c) {
    while (Date.now() < stopAt) await pick(c)[2](c);
  }
  await Promise.all(customers.map(customer));
  if (killer) clearInterval(killer);
  console.log(`[soak] load stopped after ${opt.duration} s; draining`);

  // ─────────────────────────── drain, then count ───────────────────────────
  /**
   * A read after the load: the customers' plans still rate-limit it, so a 429 waits its
   * Retry-After and tries again; any other failure stops the soak with what it was.
   */
  const get = async (c, path) => {
    for (let tries = 1; ; tries++) {
      const res = await api(c, path);
      const json = await res.json().catch(() => null);
      if (res.ok && json) return json;
      if (res.status !== 429 || tries >= 30)
        throw new Error(`GET ${path} → ${res.status} ${json?.error?.code ?? ""}`);
      await sleep(1000 * Math.max(1, Number(res.headers.get("retry-after")) || 1));
    }
  };
  /** Every item of a listing, page by page. */
  const listAll = async (c, path) => {
    const items = [];
    for (let cursor = ""; cursor !== null;) {
      const { data } = await get(c, `${path}?limit=100${cursor && `&cursor=${cursor}`}`);
      items.push(...data.items);
      cursor = data.nextCursor;
    }
    return items;
  };
  const runsOf = (c) => (c.watch ? listAll(c, `/v1/watches/${c.watch.id}/runs`) : []);
  // The account's own list of its jobs: every watch run's (the scheduled baseline's too), and
  // any admitted by a request the restart killed before its 202 reached us — the sweep runs
  // those, so they are charged and counted like the others.
  let unansweredJobs = 0;
  for (const c of customers) {
    const unknown = (await listAll(c, "/v1/jobs")).filter(
      (job) => !c.jobs.has(job.jobId) && !c.ended.has(job.jobId),
    );
    if (unknown.length === 0) continue;
    const runJobs = new Set((await runsOf(c)).map((r) => r.jobId));
    for (const job of unknown) {
      c.jobs.add(job.jobId);
      if (!runJobs.has(job.jobId)) unansweredJobs++;
    }
  }
  // Jobs lost to the restart end only after the stuck deadline (twice, if re-enqueued and lost).
  const drainMs = 60_000 + (opt.faults ? 2 * opt.stuckAfter * 1000 : 0);
  const drainUntil = Date.now() + drainMs;
  let open = [];
  do {
    open = [];
    for (const c of customers)
      for (const id of c.jobs) {
        const { data } = await get(c, `/v1/jobs/${id}`);
        if (data?.status === "completed") c.billable++;
        if (data?.status === "completed" || data?.status === "failed")
          (c.jobs.delete(id), c.ended.add(id));
        else open.push(id);
      }
    if (open.length === 0) break;
    await sleep(2000);
  } while (Date.now() < drainUntil);
  const drainedMs = drainMs - Math.max(0, drainUntil - Date.now());
  await restarting;
  // Watch runs: every run terminal; a changed or failed one is hooked (watch.changed/failed).
  const runs = { total: 0, byStatus: {}, byOutcome: {}, notTerminal: [] };
  for (const c of customers)
    for (const run of await runsOf(c)) {
      runs.total++;
      runs.byStatus[run.status] = (runs.byStatus[run.status] ?? 0) + 1;
      if (run.outcome) runs.byOutcome[run.outcome] = (runs.byOutcome[run.outcome] ?? 0) + 1;
      if (!["completed", "failed", "skipped"].includes(run.status)) runs.notTerminal.push(run.id);
      if (run.outcome === "changed" || run.status === "failed") c.hooked.add(run.id);
    }
  // Webhook retries after the 500 fault (first retry ≈ 5 s): until each hooked job/batch/run
  // has a delivery that got a 200, at most 45 s.
  const hookedAll = customers.flatMap((c) => [...c.hooked]);
  const delivered = () => {
    const ok = new Set(
      [...receiver.byDelivery.values()].filter((d) => d.ok > 0).map((d) => d.subject),
    );
    return hookedAll.every((s) => ok.has(s));
  };
  for (const until = Date.now() + 45_000; !delivered() && Date.now() < until;) await sleep(1000);
  clearInterval(sampler);
  clearInterval(contextSampler);

  const readAccounts = () =>
    Promise.all(
      customers.map(async (c) => {
        const { data } = await get(c, "/v1/account");
        const { data: summary } = await admin(`/accounts/${c.accountId}`);
        const u = data.usage;
        return {
          plan: c.plan,
          accountId: c.accountId,
          charged: u.used,
          billableDelivered: c.billable,
          openReservations: u.limit - u.used - u.remaining,
          killedInFlight: c.killedCredits,
          activeJobs: summary.activeJobs,
        };
      }),
    );
  let accounts = await readAccounts();
  // Credits held by requests the restart killed expire with their reservation's TTL: when that
  // is near, wait for it and count again, so the long run's invariant is a plain 0.
  const reservationsExpireAt = restart.killAt === null ? null : restart.killAt + RESERVATION_TTL_MS;
  if (
    accounts.some((a) => a.openReservations > 0) &&
    reservationsExpireAt !== null &&
    reservationsExpireAt - Date.now() < 150_000
  ) {
    console.log(`[soak] waiting for the killed requests' reservations to expire`);
    await sleep(Math.max(0, reservationsExpireAt - Date.now()) + 2000);
    accounts = await readAccounts();
  }
  const endIdle = await idle();
  const deliveriesBySubject = new Map();
  for (const [id, d] of receiver.byDelivery) {
    deliveriesBySubject.set(d.subject, [...(deliveriesBySubject.get(d.subject) ?? []), id]);
  }
  const webhookProblems = hookedAll
    .map((s) => ({ subject: s, deliveries: (deliveriesBySubject.get(s) ?? []).length }))
    .filter((w) => w.deliveries !== 1);
  const neverOk = [...receiver.byDelivery].filter(([, d]) => d.ok < 1).map(([id]) => id);
  const end = endIdle;
  const rssGrowth = warm.rss > 0 ? end.rss / warm.rss - 1 : 0;
  // Each browser keeps one blank spare page open for its next capture: not a leak.
  const openContexts = end.contexts.reduce((s, b) => s + (b.contexts ?? NaN) - (b.spares ?? 0), 0);
  const sparesPerBrowser = Math.max(0, ...end.contexts.map((b) => b.spares ?? 0));

  const routes = Object.fromEntries(
    [...stats].map(([route, s]) => {
      const sorted = [...s.times].sort((a, b) => a - b);
      const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
      return [route, { statuses: s.statuses, count: sorted.length, p50: q(0.5), p95: q(0.95) }];
    }),
  );
  const stillHeld = reservationsExpireAt !== null && Date.now() < reservationsExpireAt;
  // The service stopped as an operator stops it; the launcher kills Chromium that outlives
  // wrangler's own exit (the browser binding starts it in a session of its own) and counts.
  const stopped = await svc.stop();
  console.log(
    `[soak] service stopped: ${stopped.chromium} Chromium process(es), ${stopped.outlived} outlived wrangler dev (killed), ${stopped.alive} still alive`,
  );
  const invariants = {
    "0 unexpected 5xx": unexpected5xx.length === 0,
    // A sync request the restart killed may have been settled before its answer was lost
    // (charged, never delivered) or not (its reservation held until the TTL): never both, never
    // more than it cost. Everyone else: charged = delivered exactly.
    "credits charged = billable outputs delivered": accounts.every(
      (a) =>
        a.charged >= a.billableDelivered &&
        a.charged - a.billableDelivered + (stillHeld ? a.openReservations : 0) <= a.killedInFlight,
    ),
    "0 open reservations": accounts.every(
      (a) => a.openReservations === 0 || (stillHeld && a.openReservations <= a.killedInFlight),
    ),
    "0 active-job slots after drain": accounts.every((a) => a.activeJobs === 0),
    "0 jobs non-terminal after the drain": open.length === 0,
    "every watch run terminal": runs.notTerminal.length === 0,
    "every job/batch/run event: exactly one delivery id": webhookProblems.length === 0,
    "every delivery id received with 200 at least once": neverOk.length === 0,
    "render links: every repeat view a hit": renderLinks.repeatMiss === 0,
    "0 open browser contexts at the end (besides ≤ 1 spare per browser)":
      openContexts === 0 && sparesPerBrowser <= 1,
    "Chromium RSS at the end within 20% of warm-up": rssGrowth <= 0.2,
    "no Chromium process outlives the service": stopped.chromium > 0 && stopped.alive === 0,
  };
  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model,
      memGB: Math.round(os.totalmem() / 2 ** 30),
      loadavg: os.loadavg(),
    },
    options: opt,
    routes,
    unexpected5xx,
    accounts,
    drainedMs,
    jobsOpenAfterDrain: open,
    unansweredJobs,
    watchRuns: runs,
    renderLinks,
    webhooks: { deliveries: receiver.byDelivery.size, problems: webhookProblems, neverOk },
    faults: {
      chromiumKilled: killed,
      injected5xx: injected,
      restart: {
        killAt: restart.killAt && new Date(restart.killAt).toISOString(),
        downMs: restart.upAt && restart.upAt - restart.killAt,
        openJobsAtKill: restart.openJobsAtKill,
        killedInFlightCredits: customers.reduce((s, c) => s + c.killedCredits, 0),
        jobsOpenAtKill: restart.trackedJobs.map(({ id, atKill, final, endedAfterUpMs }) => ({
          id,
          atKill,
          final,
          endedAfterUpMs,
        })),
      },
    },
    chromium: {
      warmIdle: { rss: warm.rss, processes: warm.processes, contexts: warm.contexts },
      endIdle: { rss: end.rss, processes: end.processes, contexts: end.contexts },
      growth: rssGrowth,
      afterStop: stopped,
      samples: rss,
      contextSamples,
    },
    invariants,
    // What the service logged as errors and warnings (sanitized answers hide them).
    serviceLog: readFileSync(svc.log, "utf8")
      .split("\n")
      .filter((l) => /"level":"(error|warn)"/.test(l))
      .slice(-100),
  };
  mkdirSync(dirname(opt.report), { recursive: true });
  writeFileSync(opt.report, JSON.stringify(report, null, 2));
  printReport(report);
  let ok = true;
  for (const [name, held] of Object.entries(invariants)) {
    console.log(`${held ? "PASS" : "FAIL"}  ${name}`);
    ok &&= held;
  }
  return ok;
}

main().then(
  (ok) => {
    cleanup();
    // A failed soak keeps the service's whole log beside its report, for the post-mortem.
    if (!ok) copyFileSync(join(tmp, "wrangler.log"), opt.report.replace(/\.json$/, ".log"));
    rmSync(tmp, { recursive: true, force: true });
    process.exit(ok ? 0 : 1);
  },
  (err) => {
    console.error(err);
    cleanup();
    rmSync(tmp, { recursive: true, force: true });
    process.exit(2);
  },
);
