// WebSocket frames (RFC 6455) as the CDP proxy (bench/cdp-proxy.mjs) sees them: a stream parser
// that yields whole messages, and what a CDP message is (a command, a response, an event), for
// the counters of cdp-counter.mjs. No compression: the proxy strips Sec-WebSocket-Extensions
// from the handshake.

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
 * What identifies a command until its response: its id within its session. Clients number each
 * session's commands on their own (@cloudflare/puppeteer does: every session starts at 1), so
 * the id alone repeats.
 */
function commandKey(session, id) {
  return `${session}:${id}`;
}

/**
 * What a CDP message is: `{kind: "command"|"response"|"event", id?}`. Commands (client to
 * browser) are small and parsed whole; the browser's messages can be megabytes (screenshots), so
 * only their head is read: Chromium writes a response's "id" first, an event's "method" first.
 * A command also says what it is about (`method`, and the browser context its params name:
 * `browserContextId`, `targetId`); a target event (attached, created, changed) whose target
 * belongs to which browser context (`target`).
 */
export function classify(payload, fromClient) {
  if (fromClient) {
    try {
      const msg = JSON.parse(payload.toString("utf8"));
      return typeof msg.id === "number"
        ? {
            kind: "command",
            counted: !TARGET_START.has(msg.method),
            id: commandKey(msg.sessionId ?? "", msg.id),
            session: msg.sessionId ?? "",
            method: msg.method,
            contextId: msg.params?.browserContextId,
            targetId: msg.params?.targetId,
          }
        : { kind: "other" };
    } catch {
      return { kind: "other" };
    }
  }
  const head = payload.subarray(0, 64).toString("latin1");
  const id = /^\{\s*"id"\s*:\s*(\d+)/.exec(head);
  if (id) {
    // Chromium writes a session's response's "sessionId" last.
    const tail = payload.subarray(Math.max(0, payload.length - 96)).toString("latin1");
    const session = /"sessionId"\s*:\s*"([^"]*)"\s*\}\s*$/.exec(tail)?.[1] ?? "";
    return { kind: "response", id: commandKey(session, Number(id[1])) };
  }
  if (/^\{\s*"method"\s*:\s*"Target\.detachedFromTarget"/.test(head)) {
    // The session's unanswered commands will never be answered.
    try {
      return { kind: "event", detached: JSON.parse(payload.toString("utf8")).params?.sessionId };
    } catch {}
  }
  if (
    /^\{\s*"method"\s*:\s*"Target\.(attachedToTarget|targetCreated|targetInfoChanged)"/.test(head)
  ) {
    try {
      const { params } = JSON.parse(payload.toString("utf8"));
      const info = params?.targetInfo ?? {};
      return {
        kind: "event",
        target: {
          sessionId: params?.sessionId,
          targetId: info.targetId,
          contextId: info.browserContextId,
        },
      };
    } catch {}
  }
  if (/^\{\s*"method"/.test(head)) return { kind: "event" };
  if (payload.length < 1 << 20) {
    try {
      const msg = JSON.parse(payload.toString("utf8"));
      if (typeof msg.id === "number")
        return { kind: "response", id: commandKey(msg.sessionId ?? "", msg.id) };
      if (typeof msg.method === "string") return { kind: "event" };
    } catch {}
  }
  return { kind: "other" };
}

/**
 * Commands puppeteer sends to every auto-attached target (workers, frames, the spare page) to
 * start it, without a capture waiting on them: Chromium answers them when the target has
 * resumed, 100 ms to 4 s later (p50 630 ms on the small page). Counted, they glued a whole
 * capture into one "round trip".
 */
const TARGET_START = new Set(["Runtime.runIfWaitingForDebugger", "Target.setAutoAttach"]);
