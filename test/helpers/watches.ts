/** Watches in tests: creating them over HTTP, reading runs from the DO, driving the alarm. */
import { runDurableObjectAlarm } from "cloudflare:test";
import type { WatchRunView, WatchView } from "../../schemas/watches";
import { accountDo, setClock } from "./account-do";
import { SMALL_CAPTURE } from "./capture";
import { bearer, createAccount, type TestAccount } from "./accounts";
import { call, envelope, FIXTURES, postJson, type Envelope } from "./http";
import { poll } from "./jobs";
import type { PlanId } from "../../src/accounts/plans";

export interface WatchAccount extends TestAccount {
  auth: Record<string, string>;
  /** The DO's clock; starts 10 days ahead of real time, so its alarms never fire on their own. */
  now: number;
  setNow(ms: number): Promise<void>;
}

/** An account whose DO clock is set ahead: the test drives its alarm with `runDurableObjectAlarm`. */
export async function watchAccount(plan: PlanId = "pro"): Promise<WatchAccount> {
  const account = await createAccount(plan);
  const state: WatchAccount = {
    ...account,
    auth: bearer(account.apiKey),
    now: Date.now() + 10 * 86_400_000,
    async setNow(ms: number) {
      state.now = ms;
      await setClock(account.accountId, () => state.now);
    },
  };
  await state.setNow(state.now);
  return state;
}

export async function createWatch(
  acc: { auth: Record<string, string> },
  body: Record<string, unknown>,
): Promise<{ status: number; body: Envelope<WatchView> }> {
  const res = await postJson("/v1/watches", body, acc.auth);
  return { status: res.status, body: await envelope<WatchView>(res) };
}

export async function mustCreate(
  acc: { auth: Record<string, string> },
  body: Record<string, unknown>,
): Promise<WatchView> {
  const { status, body: env } = await createWatch(acc, body);
  if (status !== 201 || !env.data) throw new Error(`create: ${status} ${JSON.stringify(env)}`);
  return env.data;
}

export function watchBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    url: `${FIXTURES}/small.html?w=${crypto.randomUUID()}`,
    intervalMinutes: 60,
    capture: SMALL_CAPTURE,
    ...extra,
  };
}

export async function patchWatch(
  acc: { auth: Record<string, string> },
  id: string,
  body: unknown,
): Promise<{ status: number; body: Envelope<WatchView> }> {
  const res = await call(`/v1/watches/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json", ...acc.auth },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await envelope<WatchView>(res) };
}

export async function runNow(
  acc: { auth: Record<string, string> },
  id: string,
): Promise<{ status: number; body: Envelope<{ runId: string; jobId: string }> }> {
  const res = await call(`/v1/watches/${id}/run`, { method: "POST", headers: acc.auth });
  return { status: res.status, body: await envelope<{ runId: string; jobId: string }>(res) };
}

export async function runs(accountId: string, watchId: string): Promise<WatchRunView[]> {
  const page = await accountDo(accountId).watches().listRuns(watchId, {
    status: null,
    limit: 100,
    before: null,
  });
  return page?.items ?? [];
}

export async function watchOf(accountId: string, watchId: string): Promise<WatchView> {
  const watch = await accountDo(accountId).watches().get(watchId);
  if (!watch) throw new Error("no such watch");
  return watch;
}

/** Fires the DO's alarm now (false when none is set). */
export function fireAlarm(accountId: string): Promise<boolean> {
  return runDurableObjectAlarm(accountDo(accountId));
}

const finished = (r: WatchRunView | undefined) =>
  r !== undefined && (r.status === "completed" || r.status === "failed" || r.status === "skipped");

/** Waits until the run has finished. */
export async function waitForRun(
  accountId: string,
  runId: string,
  timeoutMs = 90_000,
): Promise<WatchRunView> {
  return (await poll(
    async () => accountDo(accountId).watches().getRun(runId),
    (r) => finished(r ?? undefined),
    timeoutMs,
  )) as WatchRunView;
}
