/**
 * A monitored page's baseline in R2: the capture the next check compares with (its PNG), and
 * beside it as JSON its visible text, its fields, the hash of its rendered DOM and what was
 * learnt volatile about it. Kept while the monitor exists (no expiry: an unchanged page may
 * keep its baseline for months), under `monitors/<accountId>/<monitorId>/`, and deleted with the
 * monitor (./operations.ts).
 */
import { sha256Hex } from "../encoding";
import type { Fields, VolatileLines } from "./text";
import type { Box } from "./visual";

export interface Baseline {
  url: string;
  /** SHA-256 of the PNG's bytes, the fields and the text: equal → unchanged, no pixel diff. */
  hash: string;
  text: string;
  fields: Fields;
  regions: Box[];
  lines: VolatileLines[];
  checkId: string;
}

/**
 * The hourly sweep (src/storage/hosted.ts) deletes every object whose `expires` has passed, and
 * reads a missing one as passed: a baseline says it never expires (the last second of 9999).
 */
const NEVER = "253402300799";

export function monitorPrefix(accountId: string, monitorId: string): string {
  return `monitors/${accountId}/${monitorId}/`;
}

async function keyOf(accountId: string, monitorId: string, url: string): Promise<string> {
  return `${monitorPrefix(accountId, monitorId)}${(await sha256Hex(url)).slice(0, 40)}`;
}

export async function readBaseline(
  env: Env,
  accountId: string,
  monitorId: string,
  url: string,
): Promise<{ baseline: Baseline; png: () => Promise<Uint8Array | null> } | null> {
  const key = await keyOf(accountId, monitorId, url);
  const json = await env.OUTPUTS.get(`${key}.json`);
  if (!json) return null;
  const baseline = (await json.json()) as Baseline;
  return {
    baseline,
    png: async () => {
      const png = await env.OUTPUTS.get(`${key}.png`);
      return png ? new Uint8Array(await png.arrayBuffer()) : null;
    },
  };
}

/** Writes the baseline: the PNG first, then the JSON that makes it one. */
export async function writeBaseline(
  env: Env,
  accountId: string,
  monitorId: string,
  baseline: Baseline,
  png: Uint8Array,
): Promise<void> {
  const key = await keyOf(accountId, monitorId, baseline.url);
  const customMetadata = { expires: NEVER, accountId };
  await env.OUTPUTS.put(`${key}.png`, png, {
    httpMetadata: { contentType: "image/png" },
    customMetadata,
  });
  await env.OUTPUTS.put(`${key}.json`, JSON.stringify(baseline), {
    httpMetadata: { contentType: "application/json" },
    customMetadata,
  });
}

/** Every baseline of a monitor (a deleted monitor's), a thousand keys a call. */
export async function deleteBaselines(
  env: Env,
  accountId: string,
  monitorId: string,
): Promise<void> {
  const prefix = monitorPrefix(accountId, monitorId);
  let cursor: string | undefined;
  do {
    const listed = await env.OUTPUTS.list({ prefix, ...(cursor ? { cursor } : {}) });
    if (listed.objects.length > 0) await env.OUTPUTS.delete(listed.objects.map((o) => o.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
}
