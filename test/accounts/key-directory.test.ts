/**
 * A new key works everywhere at once: when the KV index has not caught up (deleted here, as it
 * would be missing at another location), authentication asks the key directory DO; revocation
 * stays immediate; unknown hashes are remembered for a short while.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/accounts/keys";
import { call, envelope } from "../helpers/http";
import { bearer, createAccount, revokeKey } from "../helpers/accounts";

async function dropKvIndex(apiKey: string, keyId: string): Promise<string> {
  const keyHash = await hashApiKey(apiKey);
  await env.RENDER_CACHE.delete(`apikey:${keyHash}`);
  await env.RENDER_CACHE.delete(`keyid:${keyId}`);
  return keyHash;
}

function shard(keyHash: string) {
  return env.KEY_DIRECTORY.get(env.KEY_DIRECTORY.idFromName(`keys-${keyHash.slice(0, 1)}`));
}

describe("key directory fallback", () => {
  it("authenticates a key the KV index does not have yet", async () => {
    const acct = await createAccount("free");
    const keyHash = await dropKvIndex(acct.apiKey, acct.keyId);
    expect(await env.RENDER_CACHE.get(`apikey:${keyHash}`)).toBeNull();
    const res = await call("/v1/account", { headers: bearer(acct.apiKey) });
    expect(res.status).toBe(200);
    expect((await envelope<{ plan: string }>(res)).data?.plan).toBe("free");
    expect(await shard(keyHash).get(keyHash)).toEqual({
      accountId: acct.accountId,
      keyId: acct.keyId,
    });
  });

  it("a revoked key is refused with KEY_DISABLED through the directory too", async () => {
    const acct = await createAccount("free");
    await revokeKey(acct.keyId);
    await dropKvIndex(acct.apiKey, acct.keyId);
    const res = await call("/v1/account", { headers: bearer(acct.apiKey) });
    expect(res.status).toBe(403);
    expect((await envelope(res)).error?.code).toBe("KEY_DISABLED");
  });

  it("remembers an unknown key hash: a later directory entry is not seen within the window", async () => {
    const acct = await createAccount("free");
    const key = `svc_${"Q".repeat(43)}`;
    const keyHash = await hashApiKey(key);
    const first = await call("/v1/account", { headers: bearer(key) });
    expect(first.status).toBe(401);
    // The hash now appears in the directory (as if someone had planted it): the negative cache
    // answers without asking, so the flood of bad keys never reaches the directory twice.
    await shard(keyHash).put(keyHash, { accountId: acct.accountId, keyId: acct.keyId });
    const second = await call("/v1/account", { headers: bearer(key) });
    expect(second.status).toBe(401);
    expect((await envelope(second)).error?.code).toBe("INVALID_API_KEY");
  });
});
