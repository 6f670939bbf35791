// A system's CDP counters (bench/README.md, "CDP round trips and --cdp-rtt"), fed by the CDP
// proxy (bench/cdp-proxy.mjs) with the messages ws-frames.mjs reads: messages counted, and each
// capture's own sequential round trips.

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
 * It also keeps each answered command (but the target-start ones, see ws-frames.mjs, and the
 * slow ones) with the browser context it was about, so `ownRoundTrips` can count a capture's
 * **own sequential round trips**: within the capture's time, the commands about the browser
 * context(s) the capture navigated, wrote or shot (`CAPTURE_MARKS`), and those about no context
 * (the browser's own), but not the fair-share meter's polls (`BESIDE_THE_CAPTURE`) nor those
 * about another context — Edgeshot's next spare page, opened while a capture runs and used by
 * the next one, whose preparation is then outside that one's time. The runs of answers to
 * paused requests (`ANSWERS_TO_A_PAUSE`) count on top of the others'. `clock`: epoch ms, the
 * clock of the windows.
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
