// The scenarios of the floor-vs-service run (bench/README.md, "Scenarios"): the page of each,
// what its outputs must be, the requests per batch, and the table a run walks — for each
// selected scenario, its systems' one-request functions and its concurrencies.
import { decode as decodePng } from "fast-png";

export const VIEWPORT = { width: 1280, height: 800, deviceScaleFactor: 1 };
export const REQUEST_TIMEOUT_MS = 60_000;
/** The floor's networkidle2 wait in the default-wait scenarios (the spec's default timeout). */
export const FLOOR_IDLE_TIMEOUT_MS = 30_000;

/** Capture scenarios: same page, same options on both systems. n = requests per batch. */
export const CAPTURE_SCENARIOS = {
  small: {
    title: "small page, viewport",
    path: "/small.html",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    n: { 1: 20, 4: 24 },
    quickN: { 1: 4, 4: 8 },
    // The document only: every capture must have fetched exactly this (fixture log).
    requests: { expected: () => [1] },
  },
  // A page of 101 requests over four origins, three levels deep (test/fixtures/real-page.ts):
  // the expected count per origin comes from the fixture server (/real/expected.json).
  real: {
    title: "real page: 101 requests, 4 origins, 3 levels, viewport",
    path: "/real/page.html",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    n: { 1: 10, 4: 16 },
    quickN: { 1: 3, 4: 4 },
    requests: { expected: (fixture) => fixture.realPerOrigin },
  },
  article: {
    title: "2,000-word article, full page",
    path: "/article?words=2000",
    fullPage: true,
    expect: { width: 1280, minHeight: 801 },
    n: { 1: 15, 4: 20 },
    quickN: { 1: 3, 4: 8 },
  },
  lazy: {
    title: "12,000 px lazy page, full page",
    path: "/lazy?h=12000",
    fullPage: true,
    expect: { width: 1280, minHeight: 12000 },
    n: { 1: 8, 4: 12 },
    quickN: { 1: 2, 4: 4 },
  },
  // Default settings: Edgeshot without `waitUntil` (the spec's default, networkidle2), the floor
  // with puppeteer's networkidle2. Both systems' PNGs must match pixel for pixel.
  "default-url": {
    title: "small page, default wait (networkidle2)",
    path: "/small.html",
    wait: "default",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    n: { 1: 10, 4: 20 },
    quickN: { 1: 3, 4: 4 },
  },
  "default-html": {
    title: "inline HTML card, default wait (networkidle2)",
    path: "/",
    html: (run) => ogCard(run),
    wait: "default",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    n: { 1: 10, 4: 20 },
    quickN: { 1: 3, 4: 4 },
  },
  slow: {
    title: "page answering after 2 s, viewport",
    path: "/slow?ms=2000",
    fullPage: false,
    expect: { width: 1280, height: 800 },
    n: { 1: 5, 4: 8 },
    quickN: { 1: 2, 4: 4 },
  },
};
/** An og:image-style card (the template case): inline HTML, no subresources. */
function ogCard(run) {
  return `<!doctype html><html><head><meta charset="utf-8"><!-- ${run} --><style>
html,body{margin:0;height:100%}
body{display:flex;flex-direction:column;justify-content:center;padding:0 96px;
background:linear-gradient(135deg,#0f172a,#1e3a8a);color:#f8fafc;font-family:sans-serif}
h1{font-size:72px;margin:0 0 24px}p{font-size:32px;margin:0;color:#cbd5e1}
</style></head><body><h1>Faster than driving Chromium by hand</h1>
<p>edgeshot.dev · screenshots, renders and extraction on the edge</p></body></html>`;
}

/**
 * Default-wait scenarios check that both systems render the same pixels: the first PNG decoded
 * is the reference of its scenario, every later one (either system) must equal it.
 */
const pixelReference = new Map();
export function checkSamePixels(sc, buf) {
  const img = decodePng(buf);
  const ref = pixelReference.get(sc.title);
  if (!ref) return void pixelReference.set(sc.title, img);
  if (img.width !== ref.width || img.height !== ref.height)
    throw new Error(
      `${sc.title}: ${img.width}×${img.height}, the floor's is ${ref.width}×${ref.height}`,
    );
  let differ = 0;
  for (let i = 0; i < img.data.length; i++) if (Math.abs(img.data[i] - ref.data[i]) > 2) differ++;
  if (differ > 0)
    throw new Error(`${sc.title}: ${differ} channel values differ from the reference PNG`);
}

export const OTHER_SCENARIOS = {
  render: {
    title: "render link, cache hit vs GET /health",
    n: { 1: 40, 16: 96 },
    quickN: { 1: 10, 16: 32 },
  },
  // Issue 20, target 4: extraction against a screenshot of the same page, both on the service.
  extract: {
    title: "extract article (markdown) vs a screenshot of the same page",
    path: "/article?words=2000",
    n: { 1: 10, 4: 12 },
    quickN: { 1: 3, 4: 4 },
  },
  fields: {
    title: "fields by selector: a 50-item listing built after load",
    n: { 1: 10, 4: 12 },
    quickN: { 1: 3, 4: 4 },
  },
  // Issue 54: the complete-capture pages (./complete.mjs), four in turn: n a multiple of 4.
  complete: {
    title: "complete captures: lazy, late font, late build, endless animation",
    n: { 1: 8 },
    quickN: { 1: 4 },
  },
};
/**
 * Fields by selector (POST /v1/json) on a listing a script builds after load: 50 items, each a
 * name, link, price in one of three locales, date, stock flag and tags. The floor is what a
 * customer writes by hand: puppeteer's goto, waitForSelector and one `page.$$eval` reading the
 * same strings (no typing: the service's typing is extra work it does, not the floor).
 */
export const FIELDS_SCENARIO = {
  path: "/structured-listing.html",
  ready: "body[data-ready]",
  items: "#items > li",
  fields: {
    items: {
      selector: "#items > li",
      list: true,
      fields: {
        name: { selector: ".name" },
        link: { selector: ".name", attribute: "href", type: "url" },
        price: { selector: ".price", type: "number" },
        date: { selector: "time", attribute: "datetime", type: "date" },
        inStock: { selector: ".stock", type: "boolean" },
        tags: { selector: ".tags li", list: true },
      },
    },
  },
};

export const ALL_SCENARIOS = [...Object.keys(CAPTURE_SCENARIOS), ...Object.keys(OTHER_SCENARIOS)];

/**
 * The scenario table of a run: for each selected scenario, the systems' labels and one-request
 * functions (floor from bench/lib/floor.mjs, service from bench/lib/service-client.mjs), their
 * status so far, and one cell per concurrency collecting each system's repetitions.
 */
export function scenarioTable(selected, { opt, floor, service, serviceUnavailable }) {
  const scenarios = [];
  for (const name of selected) {
    const cap = CAPTURE_SCENARIOS[name];
    const spec = cap ?? OTHER_SCENARIOS[name];
    const n = opt.quick ? spec.quickN : spec.n;
    const concs = Object.keys(n).map(Number);
    // --cdp-rtt: capture scenarios at 0 ms and at the given RTT; the others at 0 ms.
    const rtts = opt.cdpRtt === null ? [null] : cap ? [0, opt.cdpRtt] : [0];
    let labels;
    let one;
    let systems = ["floor", "edgeshot"];
    // Whose CDP connection (bench/cdp-proxy.mjs) each system's requests use.
    let cdp = { floor: "floor", steps: "floor", edgeshot: "edgeshot" };
    if (cap) {
      labels = { floor: "floor (puppeteer-core → CDP)", edgeshot: "edgeshot POST /v1/screenshot" };
      one = { floor: () => floor.capture(cap), edgeshot: () => service.capture(cap) };
      if (opt.profile) {
        systems = ["floor", "steps", "edgeshot"];
        labels.steps = "floor + service's page steps";
        one.steps = () => floor.captureWithSteps(cap);
      }
    } else if (name === "fields") {
      labels = {
        floor: "floor (puppeteer goto + $$eval)",
        edgeshot: "edgeshot POST /v1/json fields",
      };
      one = { floor: () => floor.fields(), edgeshot: () => service.fields() };
    } else if (name === "complete") {
      labels = {
        floor: "floor (puppeteer goto + screenshot)",
        edgeshot: "edgeshot POST /v1/screenshot",
      };
      one = { floor: (i) => floor.complete(i), edgeshot: (i) => service.complete(i) };
    } else if (name === "render") {
      labels = { floor: "GET /health (static route)", edgeshot: "GET render link (cache hit)" };
      one = { floor: () => service.health(), edgeshot: () => service.renderHit() };
      cdp = {};
    } else {
      // The "floor" is a viewport screenshot of the same article page on the same service.
      const shot = {
        path: spec.path,
        fullPage: false,
        expect: { width: 1280, height: 800 },
      };
      labels = { floor: "POST /v1/screenshot, same page", edgeshot: "edgeshot POST /v1/extract" };
      one = { floor: () => service.capture(shot), edgeshot: () => service.extract() };
      cdp = { floor: "edgeshot", edgeshot: "edgeshot" };
    }
    const status = {
      floor: { status: "ok" },
      steps: { status: "ok" },
      edgeshot: serviceUnavailable
        ? { status: "not available", reason: serviceUnavailable }
        : { status: "ok" },
    };
    // The render and extract scenarios' "floor" is a route of the same service.
    if ((name === "render" || name === "extract") && serviceUnavailable)
      status.floor = { status: "not available", reason: serviceUnavailable };
    scenarios.push({
      name,
      title: spec.title,
      fullPage: cap?.fullPage ?? false,
      requests: cap?.requests ?? null,
      labels,
      one,
      cdp,
      status,
      systems,
      cells: concs.flatMap((conc) =>
        rtts.map((rtt) => ({
          conc,
          rtt,
          n: n[conc],
          ...Object.fromEntries(systems.map((sys) => [sys, { reps: [] }])),
        })),
      ),
    });
  }
  return scenarios;
}
