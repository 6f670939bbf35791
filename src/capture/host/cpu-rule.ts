/**
 * Fair CPU between accounts on one browser: one account's spinning or heavy pages slow that
 * account, not the others. Slots (./slots.ts) share the browser's contexts and the pixels in
 * flight; this shares the renderers' CPU.
 *
 * A capture is **heavy** once its page has kept its main thread busy for more than
 * TUNING.cpuHeavyMs; a heavy capture may be **held** — its scripts paused — and is let go later.
 * The rule, while another account has a capture in flight on the same browser, or a caller with
 * nothing in flight waits for a slot (./slots.ts `newcomerWaiting`):
 * - within an account: only its oldest heavy capture runs; a younger heavy one is held until it
 *   is the account's oldest heavy one (each account's heavy work runs one capture at a time). A
 *   light capture holds nothing back, however old: a crawl page waiting 10 s for a slow server
 *   held its account's next page, misjudged heavy on a loaded machine, for those 10 s;
 * - across accounts: while a light capture is in flight (any account's) or a newcomer waits, at
 *   most TUNING.cpuHeavyRunning of the accounts' oldest heavy captures run at once, taking turns
 *   of TUNING.cpuSliceMs (the one held longest goes next). An account's oldest capture is no
 *   shield: five accounts with one spinner each would otherwise hold every core and every slot,
 *   and a sixth account's small capture waited for them to end.
 * So heavy work always progresses (some heavy capture always runs, and each in turn), light
 * captures (every account's) never wait, and an account alone is never held. Heavy captures
 * with no light one in flight and nobody waiting all run: holding one would help no one. A held
 * capture lends its slot to newcomers (./slots.ts `lend`) and keeps its deadline: one held past
 * it is the same refunded 408 as any capture that overruns (docs/RELIABILITY.md, "Fair CPU").
 *
 * The CDP side — measuring, holding, letting go — is ./cpu-share.ts.
 */
import { TUNING } from "../../tuning";

/** What a capture's turn at a decision looks like to the policy. */
export interface CpuEntry {
  accountId: string;
  seq: number;
  heavy: boolean;
  /** Held now, and since when (or running since when: ms epoch). */
  held: boolean;
  since: number;
}

export interface CpuScene {
  /** A caller with nothing in flight waits for a slot (./slots.ts `newcomerWaiting`). */
  newcomerWaiting: boolean;
  now: number;
  /** Heavy captures that run at once while others need the CPU, and their turn (ms). */
  running?: number;
  sliceMs?: number;
}

/**
 * The rule above, as a pure function: which captures to hold. Every capture not returned runs.
 */
export function capturesToHold<T extends CpuEntry>(
  entries: readonly T[],
  scene: CpuScene = { newcomerWaiting: false, now: 0 },
): Set<T> {
  const { newcomerWaiting, now } = scene;
  const running = scene.running ?? TUNING.cpuHeavyRunning;
  const sliceMs = scene.sliceMs ?? TUNING.cpuSliceMs;
  const held = new Set<T>();
  if (!shared(entries, newcomerWaiting)) return held;
  // Each account's oldest heavy capture (a light one holds nothing back).
  const oldest = new Map<string, number>();
  for (const e of entries)
    if (e.heavy) oldest.set(e.accountId, Math.min(oldest.get(e.accountId) ?? e.seq, e.seq));
  const turns: T[] = [];
  for (const e of entries) {
    if (!e.heavy) continue;
    if (e.seq === oldest.get(e.accountId)) turns.push(e);
    else held.add(e);
  }
  const crowded = newcomerWaiting || entries.some((e) => !e.heavy);
  if (!crowded || turns.length <= running) return held;
  // Whose turn: one running within its slice keeps it, then the one held longest, then those
  // whose slice is over (the longest running last).
  const rank = (e: T) => (e.held ? 1 : now - e.since < sliceMs ? 0 : 2);
  turns.sort(
    (x, y) => rank(x) - rank(y) || (rank(x) === 2 ? y.since - x.since : x.since - y.since),
  );
  for (const e of turns.slice(running)) held.add(e);
  return held;
}

/**
 * Whether anyone may be held at all: another account has a capture in flight, or a newcomer
 * waits. An account alone is never held (its captures need not even be measured).
 */
export function shared(entries: readonly Pick<CpuEntry, "accountId">[], newcomerWaiting: boolean) {
  return newcomerWaiting || new Set(entries.map((e) => e.accountId)).size > 1;
}
