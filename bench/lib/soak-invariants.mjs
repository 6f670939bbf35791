// The soak's invariants (bench/SOAK.md, the table under "After the load"): what must hold after
// the load, the drain and the service's stop, each true or false, with the details they rest on.

/**
 * The webhook deliveries of every hooked job/batch/run (`hookedAll`) as the receiver saw them:
 * the subjects without exactly one delivery id, and the delivery ids never answered 200.
 */
export function webhookFindings(receiver, hookedAll) {
  const deliveriesBySubject = new Map();
  for (const [id, d] of receiver.byDelivery) {
    deliveriesBySubject.set(d.subject, [...(deliveriesBySubject.get(d.subject) ?? []), id]);
  }
  const webhookProblems = hookedAll
    .map((subject) => ({ subject, deliveries: (deliveriesBySubject.get(subject) ?? []).length }))
    .filter((w) => w.deliveries !== 1);
  const neverOk = [...receiver.byDelivery].filter(([, d]) => d.ok < 1).map(([id]) => id);
  return { webhookProblems, neverOk };
}

/**
 * `s`: what the soak counted — the client's records (`unexpected5xx`, `renderLinks`), the
 * accounts, the jobs still open, the watch runs, the webhook findings, Chromium idle after
 * warm-up (`warm`) and at the end (`end`), whether the restart's reservations may still be held
 * (`stillHeld`) and what the service's stop found (`stopped`).
 */
export function checkInvariants(s) {
  const { accounts, warm, end, stillHeld, stopped, webhookProblems, neverOk } = s;
  const rssGrowth = warm.rss > 0 ? end.rss / warm.rss - 1 : 0;
  // Each browser keeps one blank spare page open for its next capture: not a leak.
  const openContexts = end.contexts.reduce((n, b) => n + (b.contexts ?? NaN) - (b.spares ?? 0), 0);
  const sparesPerBrowser = Math.max(0, ...end.contexts.map((b) => b.spares ?? 0));
  const invariants = {
    "0 unexpected 5xx": s.unexpected5xx.length === 0,
    // A sync request the restart killed may have been settled before its answer was lost
    // (charged, never delivered) or not (its reservation held until the TTL): never both, never
    // more than it cost. Everyone else: charged = delivered exactly.
    "credits charged = billable outputs delivered": accounts.every(
      (a) =>
        a.charged >= a.billableDelivered &&
        a.charged - a.billableDelivered + (stillHeld ? a.openReservations : 0) <= a.killedInFlight,
    ),
    "0 open reservations": accounts.every(
      (a) => a.openReservations === 0 || (stillHeld && a.openReservations <= a.killedInFlight),
    ),
    "0 active-job slots after drain": accounts.every((a) => a.activeJobs === 0),
    "0 jobs non-terminal after the drain": s.open.length === 0,
    "every watch run terminal": s.runs.notTerminal.length === 0,
    "every job/batch/run event: exactly one delivery id": webhookProblems.length === 0,
    "every delivery id received with 200 at least once": neverOk.length === 0,
    "render links: every repeat view a hit": s.renderLinks.repeatMiss === 0,
    "0 open browser contexts at the end (besides ≤ 1 spare per browser)":
      openContexts === 0 && sparesPerBrowser <= 1,
    "Chromium RSS at the end within 20% of warm-up": rssGrowth <= 0.2,
    "no Chromium process outlives the service": stopped.chromium > 0 && stopped.alive === 0,
  };
  return { invariants, rssGrowth };
}
