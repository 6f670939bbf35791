/**
 * End-to-end plumbing (node side): the `wrangler dev` all e2e files share (started once by
 * test/fixtures/e2e-service.ts through scripts/lib/service.mjs), free ports, and raw HTTP.
 */
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { inject } from "vitest";
import { ROOT } from "../../scripts/lib/service.mjs";
import { TEST_SECRETS } from "../../vitest.config";

export { freePort, ROOT } from "../../scripts/lib/service.mjs";
export const BIN = join(ROOT, "node_modules/.bin");
export const FIXTURE_ORIGIN = `http://127.0.0.1:${process.env.FIXTURE_PORT ?? 4010}`;
/** The crawl fixture site (test/fixtures/crawl-site.ts), allowlisted in the shared service. */
export const CRAWL_SITE_ORIGIN = `http://127.0.0.1:${Number(process.env.FIXTURE_PORT ?? 4010) + 11}`;

export interface Service {
  base: string;
  /** Everything the service printed so far (its log file). */
  output: () => string;
}

/** The e2e project's one `wrangler dev`: test secrets, the fixture server allowlisted. */
export function sharedService(): Service {
  const { base, log } = inject("e2eService");
  return { base, output: () => readFileSync(log, "utf8") };
}

/** Creates an account through the admin API of a started service. */
export async function createAccount(
  base: string,
  plan: string,
): Promise<{ accountId: string; apiKey: string }> {
  const res = await fetch(`${base}/admin/accounts`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${TEST_SECRETS.ADMIN_TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ plan }),
  });
  const body = (await res.json()) as { data: { accountId: string; apiKey: string } };
  return body.data;
}

/** Moves an account to another plan through the admin API of a started service. */
export async function setPlan(base: string, accountId: string, plan: string): Promise<void> {
  const res = await fetch(`${base}/admin/accounts/${accountId}`, {
    method: "PATCH",
    headers: {
      authorization: `Bearer ${TEST_SECRETS.ADMIN_TOKEN}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ plan }),
  });
  if (res.status !== 200) throw new Error(`setPlan: ${res.status}`);
}

/** Adds a key to an account through the admin API (as `npm run admin` does: it has no name). */
export async function addKey(base: string, accountId: string): Promise<string> {
  const res = await fetch(`${base}/admin/accounts/${accountId}/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_SECRETS.ADMIN_TOKEN}` },
  });
  if (res.status !== 201) throw new Error(`addKey: ${res.status}`);
  return ((await res.json()) as { data: { keyId: string } }).data.keyId;
}

/** Sends raw bytes (then half-closes unless `keepOpen`) and returns what the server answers. */
export function rawHttp(
  port: number,
  bytes: Buffer,
  { keepOpen = false, timeoutMs = 5000 } = {},
): Promise<string> {
  return new Promise((resolve) => {
    let reply = "";
    const socket = connect(port, "127.0.0.1", () =>
      keepOpen ? socket.write(bytes) : socket.end(bytes),
    );
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`${reply}<timeout>`);
    }, timeoutMs);
    socket.on("data", (d: Buffer) => (reply += d.toString("latin1")));
    socket.on("end", () => {
      clearTimeout(timer);
      resolve(reply);
    });
    socket.on("error", (err) => {
      clearTimeout(timer);
      resolve(`${reply}<${err.message}>`);
    });
  });
}
