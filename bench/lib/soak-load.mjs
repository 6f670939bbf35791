// The soak's load (bench/SOAK.md, "The mix"): one account per customer on its plan, a watch for
// every third, and the weighted mix of requests each customer sends, one at a time, until the
// load stops. `ctx` is the soak's context: options, service, URLs, customers and the client.

const PLANS = ["pro", "starter", "pro", "basic", "pro", "starter", "pro", "pro"];
/** The plans' watch interval floors (src/accounts/plans.ts), in minutes. */
const WATCH_FLOOR = { basic: 180, starter: 60, pro: 30 };

const SMALL = { width: 400, height: 300, deviceScaleFactor: 1, blockAds: false };

export const post = (body) => ({ method: "POST", body: JSON.stringify(body) });

/** Changes a fixture page of the soak's own (`/watched?run=…`). */
const setPage = (ctx, run, html) =>
  fetch(`${ctx.fixture}/__page`, { method: "POST", body: JSON.stringify({ run, html }) });

/** Creates the customers' accounts, and the watches of every third one. */
export async function createCustomers(ctx) {
  const { opt, api, admin } = ctx;
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
      const run = `soak-${i}-${ctx.started}`;
      await setPage(ctx, run, `<h1>soak watch ${i}</h1><p>version 0</p>`);
      const res = await api(c, "/v1/watches", {
        method: "POST",
        body: JSON.stringify({
          url: `${ctx.fixture}/watched?run=${run}`,
          intervalMinutes: WATCH_FLOOR[plan],
          capture: { ...SMALL, waitUntil: "load" },
          changeDetection: { mode: "text" },
          webhookUrl: ctx.hook,
        }),
      });
      const json = await res.json();
      if (res.status !== 201)
        throw new Error(`watch create: ${res.status} ${JSON.stringify(json)}`);
      c.watch = { id: json.data.id, run, version: 0 };
    }
    customers.push(c);
  }
  return customers;
}

/** A 202's job or batch: the customer waits for its jobs, and for a webhook when `hooked`. */
export const admitted = (c, data, hooked) => {
  if (data?.jobId) c.jobs.add(data.jobId);
  if (data?.batchId) {
    c.batches.add(data.batchId);
    for (const j of data.jobs) c.jobs.add(j.jobId);
  }
  if (hooked) c.hooked.add(data?.batchId ?? data?.jobId);
};

export function batchBody(ctx, n) {
  return {
    urls: Array.from({ length: n }, (_, i) => `${ctx.fixture}/article?words=${50 + i * 10}`),
    defaults: { ...SMALL, waitUntil: "load" },
    webhookUrl: ctx.hook,
  };
}

/** A synchronous capture: one credit, billable when it answers 200. */
const capture = (ctx, route, path, body) => async (c) => {
  const { status } = await ctx.call(c, route, path, post(body()), 1);
  if (status === 200) c.billable++;
};

/** The mix: [route, weight, one request of a customer]. */
function mix(ctx) {
  const { call, renderLinks, fixture: FIX, hook: HOOK } = ctx;
  return [
    [
      "screenshot.bin",
      4,
      capture(ctx, "screenshot.bin", "/v1/screenshot", () => ({
        ...SMALL,
        url: `${FIX}/article?words=300`,
        waitUntil: "load",
      })),
    ],
    [
      "screenshot.json.html",
      3,
      capture(ctx, "screenshot.json.html", "/v1/screenshot/json", () => ({
        ...SMALL,
        html: "<h1>hello</h1><p>soak</p>",
      })),
    ],
    [
      "extract",
      2,
      capture(ctx, "extract", "/v1/extract", () => ({
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
        const minted = await call(c, "render.mint", "/v1/render/link", post({ ...SMALL, html }));
        if (minted.status !== 200) return;
        for (const view of ["render.first", "render.repeat"]) {
          const { status, res } = await call(c, view, minted.json.data.url, {}, 1);
          // A first view that got no answer (a restart) leaves nothing a repeat must hit.
          if (status !== 200) break;
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
          ...SMALL,
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
        const body = batchBody(ctx, 2);
        const { status, json } = await call(c, "batch", "/v1/screenshot/batch", post(body));
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
        await setPage(ctx, w.run, `<h1>soak watch</h1><p>version ${++w.version}</p>`);
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
    ...(ctx.opt.faults
      ? [
          [
            "slow-target",
            1,
            capture(ctx, "slow-target", "/v1/screenshot", () => ({
              ...SMALL,
              url: `${FIX}/slow?ms=9000`,
              timeout: 5,
              bestAttempt: false,
            })),
          ],
        ]
      : []),
  ];
}

/** Warm-up: one capture per customer. */
export const warmUp = (ctx) =>
  Promise.all(
    ctx.customers.map((c) =>
      capture(ctx, "warm-up", "/v1/screenshot", () => ({ ...SMALL, html: "<p>warm-up</p>" }))(c),
    ),
  );

/** Every customer sends requests of the mix, one at a time, until `stopAt`. */
export async function runLoad(ctx, stopAt) {
  const MIX = mix(ctx);
  const pick = (c) => {
    const choices = MIX.filter(([route]) => route !== "watch-run" || c.watch);
    let r = Math.random() * choices.reduce((s, m) => s + m[1], 0);
    for (const m of choices) if ((r -= m[1]) < 0) return m;
    return choices[0];
  };
  async function customer(c) {
    while (Date.now() < stopAt) await pick(c)[2](c);
  }
  await Promise.all(ctx.customers.map(customer));
}
