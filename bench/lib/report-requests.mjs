// The report's "Requests and CDP round trips" table (bench/README.md, "Requests per capture" and
// "CDP round trips and --cdp-rtt"): per capture, how many requests the fixture logs saw, what
// each request costs above the small page, and the CDP traffic the proxy counted.

const fmt = (v, d = 0) =>
  v === null || v === undefined || !Number.isFinite(v) ? "—" : v.toFixed(d);

const sameCell = (a, b) => a.conc === b.conc && (a.rtt ?? 0) === (b.rtt ?? 0);

/**
 * ms per request above the small page: (p50 − small's p50) ÷ (requests − small's requests), the
 * same system, concurrency and RTT, from the medians over repetitions.
 */
function perRequest(results, cell, sys) {
  const small = results.scenarios
    .find((s) => s.name === "small")
    ?.cells.find((c) => sameCell(c, cell))?.[sys];
  const side = cell[sys];
  if (small?.status !== "ok" || !small.requests || !side.requests) return null;
  const extra = side.requests.max - small.requests.max;
  return extra > 0 ? (side.median.p50 - small.median.p50) / extra : null;
}

/** How many RTTs the p50 grew by against the same cell at 0 ms: round trips on the critical path. */
function rttsAdded(sc, cell, sys) {
  if (!cell.rtt) return null;
  const at0 = sc.cells.find((c) => c.conc === cell.conc && c.rtt === 0)?.[sys];
  if (at0?.status !== "ok") return null;
  return (cell[sys].median.p50 - at0.median.p50) / cell.rtt;
}

export function requestsTable(results) {
  const withRtt = results.scenarios.some((s) =>
    s.cells.some((c) => c.rtt !== null && c.rtt !== undefined),
  );
  const lines = [
    `| scenario | conc |${withRtt ? " CDP RTT ms |" : ""} system | requests per capture | p50 ms | ms per request above small |${withRtt ? " p50 growth in RTTs |" : ""} CDP commands per capture | CDP events per capture | sequential CDP round trips per capture |`,
    `|---|---:|${withRtt ? "---:|" : ""}---|---:|---:|---:|${withRtt ? "---:|" : ""}---:|---:|---:|`,
  ];
  for (const sc of results.scenarios) {
    for (const cell of sc.cells) {
      for (const sys of sc.systems) {
        const r = cell[sys];
        if (r.status !== "ok" || (!r.requests && !r.cdp)) continue;
        const req = r.requests
          ? `${r.requests.min === r.requests.max ? r.requests.max : `${r.requests.min}–${r.requests.max}`} (expected ${r.requests.expected})`
          : "—";
        const cdp = r.cdp ?? {};
        const cols = [
          sc.name,
          cell.conc,
          ...(withRtt ? [cell.rtt ?? 0] : []),
          sc.labels[sys],
          req,
          fmt(r.median.p50),
          sc.name === "small" ? "" : fmt(perRequest(results, cell, sys), 1),
          ...(withRtt ? [cell.rtt ? fmt(rttsAdded(sc, cell, sys), 1) : ""] : []),
          fmt(cdp.commands),
          fmt(cdp.events),
          // At c>1 the captures' round trips overlap: per capture only at c=1.
          cell.conc === 1 ? fmt(cdp.roundTrips, 1) : "—",
        ];
        lines.push(`| ${cols.join(" | ")} |`);
      }
    }
  }
  return lines.length > 2 ? lines.join("\n") : null;
}

/** The startup check of --cdp-rtt, one line. */
export function rttCheckLine(c) {
  return `CDP proxy check at start: a bare round trip (Browser.getVersion) took ${c.proxiedMs} ms through the proxy at --cdp-rtt ${c.rttMs}, ${c.directMs} ms direct: ${c.addedMs} ms added, expected ${c.rttMs} ± 1${c.withinTolerance === false ? " — OUT OF TOLERANCE (machine load)" : ""} (the proxy itself at 0 ms: ${c.overheadAt0Ms} ms).`;
}
