// What the bench reads around a batch, outside its timing (bench/README.md, "Requests per
// capture" and "CDP round trips and --cdp-rtt"): the fixture server's request logs — the lazy
// page's images, the requests of each capture, checked against what the page must fetch — and
// the CDP proxy's counters, per capture.
import { lazyImagesFetched, requestsFetched } from "./fixture-client.mjs";
import { median } from "./stats.mjs";

/**
 * Before a batch of `sys` in `sc`'s `cell`: sets the proxy's delay for the cell's RTT and reads
 * its counters. Returns the function to call with the batch's result after it.
 */
export async function aroundBatch(sc, sys, cell, ctx) {
  const { proxy } = ctx;
  const cdpSystem = sc.cdp?.[sys];
  let before = null;
  if (proxy) {
    await proxy.setRtt(cell.rtt ?? 0);
    if (cdpSystem) before = (await proxy.stats())[cdpSystem] ?? {};
  }
  return async (r) => {
    if (before) {
      const after = (await proxy.stats())[cdpSystem] ?? {};
      r.cdp = cdpPerCapture(before, after, cell.n, cell.conc);
      // At c=1 only: at c=4 four captures' round trips overlap.
      if (cell.conc === 1)
        r.cdp.roundTrips = median(await proxy.ownRoundTrips(cdpSystem, r.windows));
    }
    delete r.windows;
    if (sc.name === "lazy") {
      // Did the capture wait for the lazy images?
      const counts = await Promise.all(
        r.runs.map((run) => lazyImagesFetched(ctx.fixtureBase, run)),
      );
      r.lazyImages = { min: Math.min(...counts), max: Math.max(...counts), of: 12 };
    }
    if (sc.requests) r.requests = await checkRequests(sc, r.runs, ctx.fixture);
    delete r.runs;
    return r;
  };
}

/**
 * Requests per capture from the fixture logs of every origin the page uses; each capture must
 * have fetched exactly the expected number from each (else the side fails, as a wrong output).
 */
async function checkRequests(sc, runs, fixture) {
  const expected = sc.requests.expected(fixture);
  const ports = [fixture.port, ...fixture.realPorts].slice(0, expected.length);
  const counts = await Promise.all(runs.map((run) => requestsFetched(ports, run)));
  const total = expected.reduce((a, b) => a + b, 0);
  for (const [i, c] of counts.entries()) {
    if (c.perPort.some((v, j) => v !== expected[j]))
      throw new Error(
        `${sc.name}: capture ${runs[i]} fetched ${c.perPort.join("+")} requests per origin, expected ${expected.join("+")}`,
      );
  }
  const totals = counts.map((c) => c.total);
  return { min: Math.min(...totals), max: Math.max(...totals), expected: total };
}

/** The proxy's counters over one batch, per capture. */
function cdpPerCapture(before, after, n, conc) {
  const per = (k) => ((after[k] ?? 0) - (before[k] ?? 0)) / n;
  return {
    commands: per("commands"),
    events: per("events"),
    connections: per("connections"),
    conc,
  };
}
