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

/** An answer slower than this is not a round trip either: a wait on the page, not the wire. */
const SLOW_ANSWER_MS = 2000;

/** Commands whose result names a browser context, a target's or a session's. */
const RESULT_NAMES_CONTEXT = new Set([
  "Target.createBrowserContext",
  "Target.createTarget",
  "Target.attachToTarget",
]);

/**
 * Commands that only the capture's own page receives: the browser contexts they went to in a
 * capture's time are that capture's. Every capture navigates, writes its document, or takes its
 * screenshot or PDF there.
 */
const CAPTURE_MARKS = new Set([
  "Page.navigate",
  "Page.setDocumentContent",
  "Page.captureScreenshot",
  "Page.printToPDF",
]);

/**
 * Commands on a capture's page that no capture step waits for: the BrowserHost's fair-share
 * meter polls them beside the capture.
 */
const BESIDE_THE_CAPTURE = new Set(["Performance.getMetrics"]);

/**
 * A paused request's answers: the browser waits on each for a round trip of its own (the
 * `Fetch.requestPaused` event's trip and the answer's) inside a command still in flight — the
 * navigation's — so the overlap of commands cannot see it. Their runs count on top.
 */
const ANSWERS_TO_A_PAUSE = new Set([
  "Fetch.continueRequest",
  "Fetch.continueResponse",
  "Fetch.continueWithAuth",
  "Fetch.failRequest",
  "Fetch.fulfillRequest",
]);

/** Wall-clock ms with sub-ms resolution, comparable between the bench's processes. */
export const epochMs = () => performance.timeOrigin + performance.now();

/**
 * Sequential round trips in `commands` ({sent, answered}): runs of overlapping commands — from a
 * command's send to its answer's delivery, extended by every command sent before the run's last
 * answer arrived. Commands in flight together share one; back-to-back commands are one each.
 */
export function roundTrips(commands) {
  const sorted = [...commands].sort((a, b) => a.sent - b.sent);
  let n = 0;
  let end = -Infinity;
  for (const { sent, answered } of sorted) {
    if (sent > end) n++;
    end = Math.max(end, answered);
  }
  return n;
}

/**
 * One system's CDP counters over all its connections: `commands`, `responses`, `events` count
 * messages, `connections` the WebSocket upgrades; `slow` the commands answered after more than
 * `SLOW_ANSWER_MS` (a wait on the page, not the wire), `unanswered` those never answered (their
 * connection closed or their session detached first).
 *
 * It also keeps each answered command (but the `TARGET_START` and slow ones) with the browser
 * context it was about, so `ownRoundTrips` can count a capture's **own sequential round trips**:
 * within the capture's time, the commands about the browser context(s) the capture navigated,
 * wrote or shot (`CAPTURE_MARKS`), and those about no context (the browser's own), but not the
 * fair-share meter's polls (`BESIDE_THE_CAPTURE`) nor those about another context — Edgeshot's
 * next spare page, opened while a capture runs and used by the next one, whose preparation is
 * then outside that one's time (`clock`: epoch ms, the windows' clock). The runs of answers to paused requests (`ANSWERS_TO_A_PAUSE`)
 * count on top of the others'.
 */
export function cdpCounter(clock = epochMs) {
  const c = {
    connections: 0,
    commands: 0,
    responses: 0,
    events: 0,
    slow: 0,
    unanswered: 0,
  };
  /** {sent, answered, contextId, method}, epoch ms, in answer order; pruned after `KEEP_MS`. */
  let answered = [];
  const KEEP_MS = 10 * 60_000;
  /** Browser context of each session and target seen (events and command results). */
  const sessionContext = new Map();
  const targetContext = new Map();
  const prune = () => {
    const from = clock() - KEEP_MS;
    const i = answered.findIndex((e) => e.sent >= from);
    answered = i < 0 ? [] : answered.slice(i);
  };
  return {
    counts() {
      prune();
      return { ...c };
    },
    /** Each window's ([start, end], epoch ms) own sequential round trips; see above. */
    ownRoundTrips(windows) {
      prune();
      return windows.map(([start, end]) => {
        const inside = answered.filter((e) => e.sent >= start && e.sent <= end);
        const own = new Set(
          inside.filter((e) => CAPTURE_MARKS.has(e.method) && e.contextId).map((e) => e.contextId),
        );
        const mine = inside.filter(
          (e) => !BESIDE_THE_CAPTURE.has(e.method) && (!e.contextId || own.has(e.contextId)),
        );
        const answers = mine.filter((e) => ANSWERS_TO_A_PAUSE.has(e.method));
        return (
          roundTrips(mine.filter((e) => !ANSWERS_TO_A_PAUSE.has(e.method))) + roundTrips(answers)
        );
      });
    },
    connected() {
      c.connections++;
    },
    /** `pending`: the connection's Map of command key (session and id) → the command. */
    command(pending, m) {
      c.commands++;
      const contextId =
        sessionContext.get(m.session) ?? m.contextId ?? targetContext.get(m.targetId) ?? null;
      pending.set(m.id, { ...m, contextId, at: clock() });
    },
    /** A response was delivered to the client (after the delay); `payload` read if needed. */
    response(pending, id, payload) {
      c.responses++;
      const command = pending.get(id);
      if (!command) return;
      pending.delete(id);
      const now = clock();
      if (RESULT_NAMES_CONTEXT.has(command.method)) {
        try {
          const { result } = JSON.parse(payload.toString("utf8"));
          if (result?.browserContextId) command.contextId = result.browserContextId;
          if (result?.targetId) targetContext.set(result.targetId, command.contextId);
          if (result?.sessionId) sessionContext.set(result.sessionId, command.contextId);
        } catch {}
      }
      if (!command.counted) return;
      if (now - command.at > SLOW_ANSWER_MS) c.slow++;
      else
        answered.push({
          sent: command.at,
          answered: now,
          contextId: command.contextId,
          method: command.method,
        });
    },
    event(pending, m) {
      c.events++;
      if (m.target) {
        const { sessionId, targetId, contextId } = m.target;
        if (contextId && targetId) targetContext.set(targetId, contextId);
        if (contextId && sessionId) sessionContext.set(sessionId, contextId);
      }
      if (!m.detached) return;
      for (const [k, v] of pending)
        if (v.session === m.detached) {
          pending.delete(k);
          c.unanswered++;
        }
    },
    /** A connection closed: its commands still pending will never be answered. */
    dropped(pending) {
      c.unanswered += pending.size;
      pending.clear();
    },
  };
}
