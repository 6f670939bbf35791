// The soak's client (bench/soak.mjs, bench/SOAK.md): every request a customer sends, recorded by
// route and status, its 5xx and network errors sorted into injected (overlapping a fault) and
// unexpected; the admin API; and the reads after the load, which wait out the plans' 429s.
import { sleep } from "./soak-service.mjs";

/** The client of the soaked service `svc`, with everything the soak saw so far. */
export function soakClient(svc) {
  const stats = new Map(); // route -> {statuses: {}, times: []}
  const record = (route, status, ms) => {
    const s = stats.get(route) ?? { statuses: {}, times: [] };
    s.statuses[status] = (s.statuses[status] ?? 0) + 1;
    s.times.push(ms);
    stats.set(route, s);
  };
  const unexpected5xx = [];
  const injected = [];
  /** When each Chromium kill fault struck. */
  const kills = [];
  /** The restart fault: when the process was killed and when the new one answered. */
  const restart = { killAt: null, upAt: null, openJobsAtKill: {}, trackedJobs: [] };
  const overlapsRestart = (t, end) =>
    restart.killAt !== null &&
    end >= restart.killAt &&
    (restart.upAt === null || t <= restart.upAt);
  const renderLinks = { miss: 0, hit: 0, repeatMiss: 0 };

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

  return {
    stats,
    unexpected5xx,
    injected,
    kills,
    restart,
    renderLinks,
    admin,
    api,
    call,
    get,
    listAll,
  };
}
