/**
 * The receiver-side verification helper (the SDK's own, sdk/src/webhooks.ts: the one verifier)
 * and the sender's signature (src/webhooks/sign.ts) agree; bad input is refused.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { timingSafeEqualDigests as constantTimeEqual } from "../../src/signing/hmac";
import { webhookRetryDelay } from "../../src/webhooks/deliver";
import { signWebhook, signWebhook as webhookSignature } from "../../src/webhooks/sign";
import { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifyWebhook } from "../../sdk/src/webhooks";
import { WEBHOOKS } from "../../schemas/limits";

const secret = "whsec-test-0123456789";
const body = JSON.stringify({ event: "job.completed", jobId: "j", note: "ünïcode ✓" });
const now = 1_800_000_000_000;
const ts = String(now / 1000);

describe("verifyWebhook", () => {
  it("the sender's signature equals node:crypto's HMAC and the helper accepts it", async () => {
    const signature = await signWebhook(secret, Number(ts), body);
    expect(signature).toBe(createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex"));
    expect(await webhookSignature(secret, ts, new TextEncoder().encode(body))).toBe(signature);
    expect(await verifyWebhook({ body, signature, timestamp: ts, secret, now })).toEqual({
      ok: true,
      timestamp: Number(ts),
    });
  });

  it("refuses a changed body, another secret, a changed timestamp, missing headers", async () => {
    const signature = await signWebhook(secret, Number(ts), body);
    const base = { body, signature, timestamp: ts, secret, now };
    expect(await verifyWebhook({ ...base, body: body.replace("j", "k") })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(await verifyWebhook({ ...base, secret: `${secret}x` })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(await verifyWebhook({ ...base, timestamp: String(Number(ts) + 1) })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(await verifyWebhook({ ...base, signature: signature.slice(1) })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(await verifyWebhook({ ...base, signature: null })).toEqual({
      ok: false,
      reason: "missing_header",
    });
    expect(await verifyWebhook({ ...base, timestamp: undefined })).toEqual({
      ok: false,
      reason: "missing_header",
    });
    expect(await verifyWebhook({ ...base, timestamp: "1e9" })).toEqual({
      ok: false,
      reason: "malformed_timestamp",
    });
  });

  it("the SDK's default replay window is the contract's", () => {
    expect(DEFAULT_WEBHOOK_TOLERANCE_SECONDS).toBe(WEBHOOKS.replayWindowSeconds);
  });

  it("agrees with the sender on real signatures: random secrets, bodies and timestamps", async () => {
    for (let i = 0; i < 25; i += 1) {
      const key = crypto.randomUUID().repeat(1 + (i % 3));
      const raw = crypto.getRandomValues(new Uint8Array(i * 37));
      const at = String(1_700_000_000 + i * 7919);
      const signature = await signWebhook(key, at, raw);
      const input = { body: raw, signature, timestamp: at, secret: key, now: Number(at) * 1000 };
      expect(await verifyWebhook(input)).toEqual({ ok: true, timestamp: Number(at) });
      const tampered = {
        ...input,
        signature: signature.replace(/^./, (c) => (c === "0" ? "1" : "0")),
      };
      expect((await verifyWebhook(tampered)).ok).toBe(false);
    }
  });

  it("rejects timestamps outside the 300 s replay window (either side)", async () => {
    const signature = await signWebhook(secret, Number(ts), body);
    const base = { body, signature, timestamp: ts, secret };
    expect((await verifyWebhook({ ...base, now: now + 300_000 })).ok).toBe(true);
    expect(await verifyWebhook({ ...base, now: now + 301_000 })).toEqual({
      ok: false,
      reason: "stale_timestamp",
    });
    expect(await verifyWebhook({ ...base, now: now - 301_000 })).toEqual({
      ok: false,
      reason: "stale_timestamp",
    });
    expect((await verifyWebhook({ ...base, now: now + 500_000, toleranceSeconds: 600 })).ok).toBe(
      true,
    );
  });

  it("constantTimeEqual", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
    expect(constantTimeEqual("", "a")).toBe(false);
    expect(constantTimeEqual("", "")).toBe(true);
  });
});

describe("webhookRetryDelay", () => {
  it("≈5 s, 15 s, 45 s with ±20 % jitter, capped at 120 s", () => {
    expect([1, 2, 3].map((n) => webhookRetryDelay(n, () => 0.5))).toEqual([5, 15, 45]);
    expect([1, 2, 3].map((n) => webhookRetryDelay(n, () => 0))).toEqual([4, 12, 36]);
    expect([1, 2, 3].map((n) => webhookRetryDelay(n, () => 0.9999))).toEqual([6, 18, 54]);
    expect(webhookRetryDelay(4, () => 0.5)).toBe(120);
    expect(webhookRetryDelay(10, () => 0.9999)).toBe(120);
  });
});
