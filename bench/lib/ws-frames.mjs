// WebSocket frames (RFC 6455) as the CDP proxy (bench/cdp-proxy.mjs) sees them: a stream parser
// that yields whole messages, and what a CDP message is (a command, a response, an event). No
// compression: the proxy strips Sec-WebSocket-Extensions from the handshake.

/**
 * A parser for one direction of one connection: `push(chunk)` returns the complete messages
 * (text or binary payloads, unmasked, fragments joined) that chunk finished. Control frames
 * (close, ping, pong) are skipped.
 */
export function frameParser() {
  let chunks = [];
  let total = 0;
  let fragments = null;
  const take = (n) => {
    const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
    chunks = buf.length > n ? [buf.subarray(n)] : [];
    total = buf.length - n;
    return buf.subarray(0, n);
  };
  const peek = (n) => {
    if (chunks[0].length < n) chunks = [Buffer.concat(chunks, total)];
    return chunks[0];
  };
  return function push(chunk) {
    chunks.push(chunk);
    total += chunk.length;
    const messages = [];
    for (;;) {
      if (total < 2) break;
      let head = peek(Math.min(total, 14));
      const fin = (head[0] & 0x80) !== 0;
      const opcode = head[0] & 0x0f;
      const masked = (head[1] & 0x80) !== 0;
      let len = head[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (total < 4) break;
        len = head.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (total < 10) break;
        len = Number(head.readBigUInt64BE(2));
        off = 10;
      }
      const maskAt = off;
      if (masked) off += 4;
      if (total < off + len) break;
      const frame = take(off + len);
      let payload = frame.subarray(off);
      if (masked) {
        const key = frame.subarray(maskAt, maskAt + 4);
        payload = Buffer.from(payload);
        for (let i = 0; i < payload.length; i++) payload[i] ^= key[i & 3];
      }
      head = null;
      if (opcode >= 8) continue; // close, ping, pong
      if (opcode === 0) fragments?.push(payload);
      else fragments = [payload];
      if (fin && fragments) {
        messages.push(fragments.length === 1 ? fragments[0] : Buffer.concat(fragments));
        fragments = null;
      }
    }
    return messages;
  };
}

/**
 * What a CDP message is: `{kind: "command"|"response"|"event", id?}`. Commands (client to
 * browser) are small and parsed whole; the browser's messages can be megabytes (screenshots), so
 * only their head is read: Chromium writes a response's "id" first, an event's "method" first.
 */
export function classify(payload, fromClient) {
  if (fromClient) {
    try {
      const msg = JSON.parse(payload.toString("utf8"));
      return typeof msg.id === "number"
        ? { kind: "command", id: msg.id, session: msg.sessionId ?? "" }
        : { kind: "other" };
    } catch {
      return { kind: "other" };
    }
  }
  const head = payload.subarray(0, 64).toString("latin1");
  const id = /^\{\s*"id"\s*:\s*(\d+)/.exec(head);
  if (id) return { kind: "response", id: Number(id[1]) };
  if (/^\{\s*"method"\s*:\s*"Target\.detachedFromTarget"/.test(head)) {
    // The session's unanswered commands will never be answered.
    try {
      return { kind: "event", detached: JSON.parse(payload.toString("utf8")).params?.sessionId };
    } catch {}
  }
  if (/^\{\s*"method"/.test(head)) return { kind: "event" };
  if (payload.length < 1 << 20) {
    try {
      const msg = JSON.parse(payload.toString("utf8"));
      if (typeof msg.id === "number") return { kind: "response", id: msg.id };
      if (typeof msg.method === "string") return { kind: "event" };
    } catch {}
  }
  return { kind: "other" };
}

/**
 * One system's CDP counters over all its connections. A **sequential round trip** starts when a
 * command is sent while none of the system's commands awaits its response, and lasts until none
 * does: overlapping commands share one; back-to-back commands are one each. A command stops
 * awaiting when its response is delivered, its connection closes, its session detaches, or after
 * 10 s unanswered (counted in `abandoned`: nothing waits that long in a capture). `commands`,
 * `responses`, `events` count messages; `connections` the WebSocket upgrades.
 */
export function cdpCounter() {
  const c = {
    connections: 0,
    commands: 0,
    responses: 0,
    events: 0,
    roundTrips: 0,
    abandoned: 0,
  };
  let outstanding = 0;
  const awaiting = new Set(); // every connection's `pending` map with entries
  const drop = (pending, id) => {
    if (pending.delete(id)) outstanding--;
  };
  return {
    counts: c,
    /** `pending`: the connection's Map of id → {session, at}. */
    command(pending, id, session) {
      const now = performance.now();
      for (const p of awaiting)
        for (const [k, v] of p)
          if (now - v.at > 10_000) {
            drop(p, k);
            c.abandoned++;
          }
      c.commands++;
      if (outstanding === 0) c.roundTrips++;
      outstanding++;
      pending.set(id, { session, at: now });
      awaiting.add(pending);
    },
    /** A response was delivered to the client (after the delay). */
    response(pending, id) {
      c.responses++;
      drop(pending, id);
    },
    event(pending, detached) {
      c.events++;
      if (detached) for (const [k, v] of pending) if (v.session === detached) drop(pending, k);
    },
    /** A connection closed with commands unanswered: they await nothing any more. */
    dropped(pending) {
      for (const k of [...pending.keys()]) drop(pending, k);
      awaiting.delete(pending);
    },
  };
}
