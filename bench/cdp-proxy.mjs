// The CDP proxy (bench/README.md, "CDP round trips and --cdp-rtt"): in its own process, so its
// timers do not share the bench's event loop. A control server on 127.0.0.1 (port printed as
// "ready <port>"):
//   POST /listen?system=<floor|edgeshot|check>&target=<port> → {port}: a new listener that
//        forwards every connection to 127.0.0.1:<target> (a Chromium's DevTools port);
//   POST /delay?ms=<one-way ms> → the delay each way, for every connection, from now on;
//   GET  /stats → each system's CDP counters (bench/lib/cdp-counter.mjs), cumulative;
//   POST /own-round-trips?system=<system> with [[start, end], …] (epoch ms, one per capture) →
//        each capture's own sequential round trips (bench/lib/cdp-counter.mjs).
// Every chunk is held <one-way ms> before it is written on, in order, both ways. WebSocket
// handshakes lose Sec-WebSocket-Extensions (no compression), so the frames can be read and counted.
// Usage: node bench/cdp-proxy.mjs [control port]. Exits when its parent goes away.
import { createServer as createHttpServer } from "node:http";
import { connect, createServer } from "node:net";
import { cdpCounter } from "./lib/cdp-counter.mjs";
import { classify, frameParser } from "./lib/ws-frames.mjs";
import { exitWithParent } from "./lib/child.mjs";

let oneWayMs = 0;
const counters = new Map();
const counterOf = (system) => {
  if (!counters.has(system)) counters.set(system, cdpCounter());
  return counters.get(system);
};

/**
 * How late this process's timers fire, in ms (moving average): Node's timers have 1 ms
 * resolution and fire after their time, so each is set that much earlier — the delay stays
 * <one-way ms> on average instead of growing by up to a millisecond each way.
 */
let lateMs = 0.5;

/** Writes chunks to `dst` `oneWayMs` after they arrived, in order; `after` runs once written. */
function delayedWriter(dst) {
  const queue = [];
  let timer = null;
  const schedule = (now) => {
    const wait = Math.max(0, queue[0].due - now - lateMs);
    const target = now + wait;
    timer = setTimeout(() => flush(target), wait);
  };
  const flush = (target) => {
    timer = null;
    const now = performance.now();
    lateMs = Math.max(0, 0.8 * lateMs + 0.2 * Math.min(5, now - target));
    // Up to 1 ms early rather than a timer's 1 ms late: the error averages out.
    while (queue.length && queue[0].due <= now + 1) {
      const { chunk, after } = queue.shift();
      if (!dst.destroyed) dst.write(chunk);
      after?.();
    }
    if (queue.length) schedule(now);
  };
  return (chunk, after) => {
    if (oneWayMs === 0 && queue.length === 0) {
      if (!dst.destroyed) dst.write(chunk);
      return after?.();
    }
    const now = performance.now();
    queue.push({ chunk, after, due: now + oneWayMs });
    if (timer === null) schedule(now);
  };
}

/** Drops Sec-WebSocket-Extensions from an HTTP request head (a Buffer ending in \r\n\r\n). */
function withoutExtensions(head) {
  const lines = head.toString("latin1").split("\r\n");
  return Buffer.from(
    lines.filter((l) => !/^sec-websocket-extensions:/i.test(l)).join("\r\n"),
    "latin1",
  );
}

function proxyConnection(client, target, system) {
  const server = connect(target, "127.0.0.1");
  client.setNoDelay(true);
  server.setNoDelay(true);
  const toServer = delayedWriter(server);
  const toClient = delayedWriter(client);
  const counter = counterOf(system);
  const pending = new Map(); // this connection's commands awaiting their response: id → {session, at}
  let upgraded = false;
  let requestHead = Buffer.alloc(0);
  let responseHead = Buffer.alloc(0);
  let headSent = false;
  const fromClient = frameParser();
  const fromServer = frameParser();

  client.on("data", (chunk) => {
    if (!headSent) {
      // The request head: forwarded once whole, without the extensions header.
      requestHead = Buffer.concat([requestHead, chunk]);
      const end = requestHead.indexOf("\r\n\r\n");
      if (end < 0) return;
      headSent = true;
      chunk = Buffer.concat([
        withoutExtensions(requestHead.subarray(0, end + 4)),
        requestHead.subarray(end + 4),
      ]);
      if (!upgraded) return toServer(chunk);
    }
    if (upgraded)
      for (const msg of fromClient(chunk)) {
        const m = classify(msg, true);
        if (m.kind === "command") counter.command(pending, m);
      }
    toServer(chunk);
  });
  server.on("data", (chunk) => {
    let data = chunk;
    if (!upgraded && responseHead !== null) {
      responseHead = Buffer.concat([responseHead, chunk]);
      const end = responseHead.indexOf("\r\n\r\n");
      if (end < 0) return;
      upgraded = / 101 /.test(responseHead.subarray(0, 16).toString("latin1"));
      if (upgraded) counter.connected();
      data = responseHead;
      const rest = responseHead.subarray(end + 4);
      responseHead = null; // a plain HTTP answer (/json/version) passes through from here on
      toClient(data.subarray(0, end + 4));
      if (!rest.length) return;
      data = rest;
    }
    if (!upgraded) return toClient(data);
    const responses = [];
    for (const msg of fromServer(data)) {
      const m = classify(msg, false);
      if (m.kind === "response") responses.push([m.id, msg]);
      else if (m.kind === "event") counter.event(pending, m);
    }
    toClient(
      data,
      responses.length
        ? () => responses.forEach(([id, msg]) => counter.response(pending, id, msg))
        : null,
    );
  });
  const close = () => {
    counter.dropped(pending);
    client.destroy();
    server.destroy();
  };
  client.on("close", close);
  server.on("close", close);
  client.on("error", close);
  server.on("error", close);
}

function listen(system, target) {
  return new Promise((resolve, reject) => {
    const srv = createServer((client) => proxyConnection(client, target, system));
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => resolve(srv.address().port));
  });
}

const control = createHttpServer(async (req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  const json = (status, body) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  try {
    if (req.method === "POST" && url.pathname === "/listen") {
      const target = Number(url.searchParams.get("target"));
      const system = url.searchParams.get("system") ?? "unknown";
      if (!Number.isInteger(target) || target <= 0) return json(400, { error: "target" });
      return json(200, { port: await listen(system, target) });
    }
    if (req.method === "POST" && url.pathname === "/delay") {
      const ms = Number(url.searchParams.get("ms"));
      if (!Number.isFinite(ms) || ms < 0) return json(400, { error: "ms" });
      oneWayMs = ms;
      return json(200, { oneWayMs });
    }
    if (req.method === "POST" && url.pathname === "/own-round-trips") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const windows = JSON.parse(body);
      return json(200, counterOf(url.searchParams.get("system")).ownRoundTrips(windows));
    }
    if (url.pathname === "/stats")
      return json(200, Object.fromEntries([...counters].map(([k, c]) => [k, c.counts()])));
    json(404, { error: "not found" });
  } catch (err) {
    json(500, { error: String(err) });
  }
});
control.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () =>
  console.log(`ready ${control.address().port}`),
);

exitWithParent();
