/**
 * Storage destinations against a real S3-compatible server (s3rver, checking SigV4): creation
 * with its probe, the sealed secret, list/read/delete/test, plan gate, limit of 10, SSRF (the
 * endpoint, and the virtual-hosted `<bucket>.<endpoint host>` the uploads actually contact).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { DestinationView } from "../../schemas/storage";
import type { Account } from "../../src/account-do/account";
import { decryptSecret } from "../../src/storage/secrets";
import { bearer, createAccount, describeAuthCases } from "../helpers/accounts";
import { accountDo, dumpStorage } from "../helpers/account-do";
import { Capturer } from "../helpers/capture";
import { CANARY, call, canaryLog, envelope, FIXTURES, postJson, runId } from "../helpers/http";
import { waitForJob } from "../helpers/jobs";
import {
  createDestination,
  destinationBody,
  type KeyPair,
  listKeys,
  newKeyPair,
  rotateKey,
  S3_ORIGIN,
} from "../helpers/s3";

const PATH = "/v1/storage/destinations";
let key: KeyPair;

beforeAll(async () => {
  key = await newKeyPair();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * A public endpoint name, and a bucket whose virtual-hosted name under it
 * (`internal.public.rebind.example.com`) the DNS check's fake resolver maps to 169.254.169.254.
 */
const PUBLIC_ENDPOINT = "https://public.rebind.example.com";
const INTERNAL_BUCKET = "internal";
const INTERNAL_HOST = `${INTERNAL_BUCKET}.public.rebind.example.com`;

/** Every host the worker fetches from now on (passed through to the real fetch). */
function watchFetches(): string[] {
  const hosts: string[] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    hosts.push(new URL(input instanceof Request ? input.url : input).hostname);
    return real(input, init);
  });
  return hosts;
}

describe("POST /v1/storage/destinations", () => {
  describeAuthCases((headers) => postJson(PATH, destinationBody(key), headers));

  it("creates a destination: 201, secret never returned, key id shown by its last 4 characters", async () => {
    const { apiKey } = await createAccount("pro");
    const res = await postJson(PATH, destinationBody(key, { prefix: "shots/" }), bearer(apiKey));
    const raw = await res.text();
    expect(res.status, raw).toBe(201);
    expect(raw).not.toContain(key.secretAccessKey);
    expect(raw).not.toContain(key.accessKeyId);
    const data = (JSON.parse(raw) as { data: DestinationView }).data;
    expect(data.destinationId).toMatch(/^dst_[A-Za-z0-9]{20}$/);
    expect(data).toMatchObject({
      bucket: "edgeshot-test",
      pathStyle: true,
      prefix: "shots/",
      region: "us-east-1",
      accessKeyId: `…${key.accessKeyId.slice(-4)}`,
      endpoint: S3_ORIGIN,
    });
    // The probe object was written and deleted again.
    expect(await listKeys("edgeshot-test", "shots/edgeshot-probe-")).toEqual([]);
  });

  it("stores the secret sealed: not in plain text anywhere in the Durable Object; it opens only with its id as associated data", async () => {
    const { apiKey, accountId } = await createAccount("enterprise");
    const id = await createDestination(bearer(apiKey), key);
    const storage = await dumpStorage(accountId);
    const dump = JSON.stringify(storage);
    expect(dump).toContain(id);
    expect(dump).not.toContain(key.secretAccessKey);
    const rows = storage.storage_destinations as Array<{ id: string; secret_sealed: string }>;
    const sealed = rows.find((r) => r.id === id)?.secret_sealed ?? "";
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(await decryptSecret(env, sealed, id)).toBe(key.secretAccessKey);
    await expect(decryptSecret(env, sealed, "dst_someoneelse")).rejects.toThrow();
  });

  it("a wrong secret → 400 naming the reason class (signature mismatch); nothing stored, nothing echoed", async () => {
    const { apiKey, accountId } = await createAccount("pro");
    const res = await postJson(
      PATH,
      destinationBody(key, { secretAccessKey: "not-the-right-secret" }),
      bearer(apiKey),
    );
    const raw = await res.text();
    expect(res.status).toBe(400);
    expect(raw).toContain("VALIDATION_ERROR");
    expect(raw).toContain("signature mismatch");
    expect(raw).not.toContain("not-the-right-secret");
    expect(raw).not.toContain("SignatureDoesNotMatch"); // the provider's body stays ours
    expect((await dumpStorage(accountId)).storage_destinations).toEqual([]);
  });

  it("a storage class the service refuses → 400 at creation (the probe sends it too)", async () => {
    const { apiKey } = await createAccount("pro");
    const res = await postJson(
      PATH,
      destinationBody(key, { storageClass: "NOT_A_CLASS" }),
      bearer(apiKey),
    );
    expect(res.status).toBe(400);
    expect((await envelope(res)).error?.message).toContain("rejected");
  });

  it("an unknown access key → 400 access denied; a missing bucket → 400 no such bucket", async () => {
    const { apiKey } = await createAccount("pro");
    const denied = await envelope(
      await postJson(PATH, destinationBody(key, { accessKeyId: "NOBODY1234" }), bearer(apiKey)),
    );
    expect(denied.error?.message).toContain("access denied");
    const missing = await envelope(
      await postJson(PATH, destinationBody(key, { bucket: "no-such-bucket" }), bearer(apiKey)),
    );
    expect(missing.error?.message).toContain("no such bucket");
  });

  it("Free, Basic and Starter → 403 PLAN_UPGRADE_REQUIRED", async () => {
    for (const plan of ["free", "basic", "starter"] as const) {
      const { apiKey } = await createAccount(plan);
      for (const res of [
        await postJson(PATH, destinationBody(key), bearer(apiKey)),
        await call(PATH, { headers: bearer(apiKey) }),
      ]) {
        const body = await envelope(res);
        expect(res.status, plan).toBe(403);
        expect(body.error?.code).toBe("PLAN_UPGRADE_REQUIRED");
        expect(body.error?.message).toContain("Pro plan");
      }
    }
  });

  it("invalid bodies → 400 naming the field", async () => {
    const { apiKey } = await createAccount("pro");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ bucket: "Not_A_Bucket" }, "bucket"],
      [{ acl: "public-read-write" }, "acl"],
      [{ prefix: "../up/" }, "prefix"],
      [{ endpoint: undefined }, "endpoint"],
      [{ extra: 1 }, "extra"],
    ];
    for (const [overrides, path] of cases) {
      const body = await envelope(
        await postJson(PATH, destinationBody(key, overrides), bearer(apiKey)),
      );
      expect(body.error?.code, path).toBe("VALIDATION_ERROR");
      expect(JSON.stringify(body.error), path).toContain(path);
    }
  });

  it("SSRF: private, link-local, metadata, rebinding and plain-http endpoints → 400 INVALID_URL naming endpoint; the canary is never reached", async () => {
    const { apiKey } = await createAccount("pro");
    const run = runId();
    const endpoints = [
      `${CANARY}/${run}`,
      "http://127.0.0.1:1/",
      "https://169.254.169.254/",
      "http://169.254.169.254/latest/meta-data/",
      "https://10.0.0.1/",
      "https://[::1]/",
      "http://s3.example.com/",
      "https://user:pass@s3.example.com/",
      "https://localhost/",
      "https://[::ffff:169.254.169.254]/",
      // Public-looking names the DNS check (local DoH fake) resolves to blocked addresses.
      "https://metadata.rebind.example.com/",
      "https://ten.rebind.example.com/",
      "https://mixed.rebind.example.com/",
    ];
    for (const endpoint of endpoints) {
      const res = await postJson(PATH, destinationBody(key, { endpoint }), bearer(apiKey));
      const body = await envelope(res);
      expect(res.status, endpoint).toBe(400);
      expect(body.error?.code, endpoint).toBe("INVALID_URL");
      expect(body.error?.details?.[0]?.path).toBe("endpoint");
    }
    expect(await canaryLog(run)).toEqual([]);
  });

  it("SSRF: a virtual-hosted bucket whose <bucket>.<endpoint host> resolves to an internal address → 400 INVALID_URL naming bucket; that host is never contacted", async () => {
    const { apiKey, accountId } = await createAccount("pro");
    const hosts = watchFetches();
    const res = await postJson(
      PATH,
      destinationBody(key, {
        endpoint: PUBLIC_ENDPOINT,
        bucket: INTERNAL_BUCKET,
        pathStyle: false,
      }),
      bearer(apiKey),
    );
    const body = await envelope(res);
    expect(res.status).toBe(400);
    expect(body.error?.code).toBe("INVALID_URL");
    expect(body.error?.details?.[0]?.path).toBe("bucket");
    expect(hosts).not.toContain(INTERNAL_HOST);
    expect((await dumpStorage(accountId)).storage_destinations).toEqual([]);
  });

  it("at most 10 per account: the 11th → 400", async () => {
    const { apiKey } = await createAccount("pro");
    for (let i = 0; i < 10; i++) await createDestination(bearer(apiKey), key, { name: `d${i}` });
    const res = await postJson(PATH, destinationBody(key, { name: "eleventh" }), bearer(apiKey));
    const body = await envelope(res);
    expect(res.status).toBe(400);
    expect(body.error?.message).toContain("at most 10");
    const list = await envelope<{ items: DestinationView[] }>(
      await call(PATH, { headers: bearer(apiKey) }),
    );
    expect(list.data?.items).toHaveLength(10);
  });
});

describe("GET / DELETE / test", () => {
  it("lists, reads, tests and deletes; another account's destination is 404", async () => {
    const owner = await createAccount("pro");
    const other = await createAccount("pro");
    const id = await createDestination(bearer(owner.apiKey), key, { name: "mine" });

    const list = await envelope<{ items: DestinationView[] }>(
      await call(PATH, { headers: bearer(owner.apiKey) }),
    );
    expect(list.data?.items.map((d) => d.destinationId)).toEqual([id]);
    const one = await envelope<DestinationView>(
      await call(`${PATH}/${id}`, { headers: bearer(owner.apiKey) }),
    );
    expect(one.data).toMatchObject({ destinationId: id, name: "mine" });

    const tested = await call(`${PATH}/${id}/test`, {
      method: "POST",
      headers: bearer(owner.apiKey),
    });
    expect(tested.status).toBe(200);
    expect((await envelope(tested)).data).toEqual({ destinationId: id, ok: true });

    for (const res of [
      await call(`${PATH}/${id}`, { headers: bearer(other.apiKey) }),
      await call(`${PATH}/${id}`, { method: "DELETE", headers: bearer(other.apiKey) }),
      await call(`${PATH}/${id}/test`, { method: "POST", headers: bearer(other.apiKey) }),
      await call(`${PATH}/dst_nope`, { headers: bearer(owner.apiKey) }),
    ]) {
      expect(res.status).toBe(404);
      expect((await envelope(res)).error?.code).toBe("NOT_FOUND");
    }

    const deleted = await call(`${PATH}/${id}`, {
      method: "DELETE",
      headers: bearer(owner.apiKey),
    });
    expect(deleted.status).toBe(200);
    expect((await call(`${PATH}/${id}`, { headers: bearer(owner.apiKey) })).status).toBe(404);
    expect(
      (await call(`${PATH}/${id}`, { method: "DELETE", headers: bearer(owner.apiKey) })).status,
    ).toBe(404);
  });

  it("test after the secret was rotated at the provider → 400 signature mismatch", async () => {
    const { apiKey } = await createAccount("pro");
    const mine = await newKeyPair();
    const id = await createDestination(bearer(apiKey), mine);
    await rotateKey(mine.accessKeyId);
    const res = await call(`${PATH}/${id}/test`, { method: "POST", headers: bearer(apiKey) });
    expect(res.status).toBe(400);
    expect((await envelope(res)).error?.message).toContain("signature mismatch");
  });

  it("a destination re-pointed to a virtual-hosted bucket resolving internally: /test → 400 INVALID_URL naming bucket, an upload fails the job (credit refunded); that host is never contacted", async () => {
    const cap = await Capturer.create("pro");
    const { accountId } = cap.account;
    const id = await createDestination(cap.auth, await newKeyPair());
    await runInDurableObject(accountDo(accountId), (_instance: Account, state) => {
      state.storage.sql.exec(
        "UPDATE storage_destinations SET endpoint = ?, bucket = ?, path_style = 0 WHERE id = ?",
        PUBLIC_ENDPOINT,
        INTERNAL_BUCKET,
        id,
      );
    });
    const hosts = watchFetches();

    const tested = await call(`${PATH}/${id}/test`, { method: "POST", headers: cap.auth });
    const body = await envelope(tested);
    expect(tested.status).toBe(400);
    expect(body.error?.code).toBe("INVALID_URL");
    expect(body.error?.details?.[0]?.path).toBe("bucket");

    const submitted = await cap.json<{ jobId: string }>({
      url: `${FIXTURES}/boxes.html?run=${runId()}`,
      width: 320,
      height: 240,
      deviceScaleFactor: 1,
      waitUntil: "load",
      async: true,
      storage: { destinationId: id },
    });
    const job = await waitForJob(accountId, submitted.body.data?.jobId ?? "");
    expect(job).toMatchObject({ status: "failed", error: "Failed to store capture result." });
    expect((await accountDo(accountId).summary())?.usage.used).toBe(0);
    expect(hosts).not.toContain(INTERNAL_HOST);
  });
});
