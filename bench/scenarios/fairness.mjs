// The `fairness` scenario (bench/README.md): fair CPU between accounts, not only fair slots.
// A third account's small capture alone (its baseline), then while other accounts load the
// service in two ways: 6 spinning captures (`while (true) {}`, timeout 5) of two accounts, and
// one account's 4 giant full-page WebPs (3840 px wide at scale 3, a 40,000 px tall page). The
// target: the loaded small capture within baseline + 4 s in both.

/** How much slower than alone the small capture may be under the others' load. */
const FAIR_SLACK_MS = 4_000;

const REQUEST_TIMEOUT_MS = 240_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const SPIN = {
  html: "<p>spinning</p><script>while (true) {}</script>",
  width: 320,
  height: 240,
  deviceScaleFactor: 1,
  timeout: 5,
  blockAds: false,
};

const GIANT = {
  html:
    "<body style='margin:0'><div style='height:40000px;background:" +
    "repeating-linear-gradient(45deg,#c00 0 40px,#fff 40px 80px,#00c 80px 120px)'></div></body>",
  width: 3840,
  height: 2160,
  deviceScaleFactor: 3,
  fullPage: true,
  format: "webp",
  timeout: 60,
  blockAds: false,
};

/** POST /v1/screenshot as `apiKey`: status, latency and the quality the service reported. */
async function shoot(base, apiKey, body) {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/screenshot`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const ms = Math.round(performance.now() - t0);
  return {
    status: res.status,
    ms,
    type: res.headers.get("content-type"),
    quality: res.headers.get("x-service-quality"),
    bytes: bytes.length,
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : Math.round((s[m - 1] + s[m]) / 2);
};

/**
 * Runs the scenario on a started service. `createAccount()` makes a fresh account ({ apiKey });
 * `smallUrl()` a fresh URL of the small fixture page. Returns the result object (JSON-able).
 */
export async function runFairness({ base, createAccount, smallUrl, log, reps, quick }) {
  const [polite, spinA, spinB, giant] = [
    await createAccount(),
    await createAccount(),
    await createAccount(),
    await createAccount(),
  ];
  const small = () => ({
    url: smallUrl(),
    width: 1280,
    height: 800,
    deviceScaleFactor: 1,
    format: "png",
    waitUntil: "load",
    blockAds: false,
  });
  const politeShot = async () => {
    const r = await shoot(base, polite.apiKey, small());
    if (r.status !== 200 || r.type !== "image/png")
      throw new Error(`small capture: ${r.status} ${r.type}`);
    return r.ms;
  };

  // Baseline: the small capture alone on the warm browser.
  log("fairness: baseline …");
  for (let i = 0; i < 3; i++) await politeShot();
  const alone = [];
  for (let i = 0; i < (quick ? 3 : 8); i++) alone.push(await politeShot());
  const baseline = median(alone);
  log(`fairness: baseline ${baseline} ms (samples ${alone.join(", ")})`);

  // Spinners: 4 of one account and 2 of another start at once; 1 s later (every slot they may
  // take is spinning) the third account's small capture.
  const spinners = { loaded: [], outcomes: [] };
  for (let rep = 1; rep <= reps; rep++) {
    const load = [
      ...Array.from({ length: 4 }, () => shoot(base, spinA.apiKey, SPIN)),
      ...Array.from({ length: 2 }, () => shoot(base, spinB.apiKey, SPIN)),
    ];
    await sleep(1_000);
    const ms = await politeShot();
    spinners.loaded.push(ms);
    const done = await Promise.all(load);
    spinners.outcomes.push(done.map((d) => `${d.status}/${d.quality ?? "-"}/${d.ms}`));
    log(
      `fairness: spinners rep ${rep}: small ${ms} ms; spinners ${done.map((d) => `${d.status} ${d.ms} ms`).join(", ")}`,
    );
    await sleep(1_000);
  }

  // Giants: one account's 4 giant WebP full pages; the third account's small capture every 2 s
  // while they run (from 2 s after they start, for 30 s, or 10 s in a quick run).
  log("fairness: giants …");
  const giants = { loaded: [], outcomes: [] };
  const load = Array.from({ length: 4 }, () => shoot(base, giant.apiKey, GIANT));
  let settled = false;
  const all = Promise.all(load).then((d) => ((settled = true), d));
  await sleep(2_000);
  const until = Date.now() + (quick ? 10_000 : 30_000);
  while (Date.now() < until && !settled) {
    const ms = await politeShot();
    giants.loaded.push(ms);
    log(`fairness: giants running: small ${ms} ms`);
    await sleep(2_000);
  }
  const done = await all;
  giants.outcomes = done.map((d) => `${d.status}/${d.ms}`);
  log(`fairness: giants ${done.map((d) => `${d.status} ${d.ms} ms, ${d.bytes} B`).join("; ")}`);

  const verdict = (loaded) => {
    const worst = Math.max(...loaded);
    return {
      median: median(loaded),
      max: worst,
      target: baseline + FAIR_SLACK_MS,
      result: worst <= baseline + FAIR_SLACK_MS ? "MET" : "MISS",
    };
  };
  return {
    baseline: { median: baseline, samples: alone },
    spinners: { ...spinners, ...verdict(spinners.loaded) },
    giants: { ...giants, ...verdict(giants.loaded) },
  };
}

/** The scenario's table (markdown). */
export function fairnessTable(r) {
  const row = (name, s) =>
    `| ${name} | ${r.baseline.median} | ${s.median} | ${s.max} | ${s.target} | ${s.result} | ${s.loaded.join(", ")} |`;
  return [
    "| load | small alone, median ms | small under load, median ms | max ms | target ms (baseline + 4 s) | result | samples ms |",
    "|---|---|---|---|---|---|---|",
    row("6 spinners, 2 accounts", r.spinners),
    row("4 giant WebP full pages, 1 account", r.giants),
  ].join("\n");
}
