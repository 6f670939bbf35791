/**
 * Zod's own messages never reach a caller, on any route: a missing required field — at the top
 * level, nested (clip.x, elements[0].selector) or inside batch defaults — is "Required (…)."
 * naming the field, a missing or wrong enum value lists what it takes, a wrong type says what
 * the field must be (schemas/issues.ts, applied by src/http/body.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_AUTH, bearer, createAccount } from "../helpers/accounts";
import { envelope, postJson } from "../helpers/http";

let auth: Record<string, string> = {};
beforeAll(async () => {
  auth = bearer((await createAccount("enterprise")).apiKey);
}, 180_000);

const URL_ = "https://x.test/";
/** What no message may say: zod's wording. */
const RAW = /Invalid input|Invalid option|received undefined|expected (?:string|number|one of)/;

interface Case {
  route: string;
  body: unknown;
  /** Each expected detail: path → exact message. */
  details: Record<string, string>;
  admin?: true;
}

const CASES: Case[] = [
  { route: "/v1/extract", body: {}, details: { url: "Required (string)." } },
  { route: "/v1/crawl", body: { limit: 3 }, details: { url: "Required (string)." } },
  { route: "/v1/map", body: {}, details: { url: "Required (string)." } },
  { route: "/v1/webhooks/test", body: {}, details: { url: "Required (string)." } },
  { route: "/v1/screenshot/batch", body: {}, details: { urls: "Required (array)." } },
  {
    route: "/v1/screenshot/batch",
    body: { urls: [URL_], defaults: { clip: { x: 0, y: 0 } } },
    details: {
      "defaults.clip.width": "Required (number).",
      "defaults.clip.height": "Required (number).",
    },
  },
  {
    route: "/v1/watches",
    body: { url: URL_, intervalMinutes: 60, capture: { clip: { x: 0, y: 0, width: 10 } } },
    details: { "capture.clip.height": "Required (number)." },
  },
  {
    route: "/v1/screenshot/json",
    body: { url: URL_, clip: { y: 0, width: 10, height: 10 }, storage: {}, async: true },
    details: { "clip.x": "Required (number).", "storage.destinationId": "Required (string)." },
  },
  {
    route: "/v1/scrape",
    body: { url: URL_, elements: [{}] },
    details: { "elements[0].selector": "Required (string)." },
  },
  {
    route: "/v1/json",
    body: { url: URL_, fields: { price: { selector: ".p", type: "money" }, "1x": {} } },
    details: {
      "fields.price.type": 'Must be one of "string", "number", "url", "date", "boolean".',
      "fields.1x":
        "A field name: a letter or _, then letters, digits, _ or -, at most 64 characters.",
    },
  },
  {
    route: "/v1/storage/destinations",
    body: { endpoint: "https://s3.example.com", bucket: "my-bucket", accessKeyId: "AKIAEXAMPLE" },
    details: { name: "Required (string).", secretAccessKey: "Required (string)." },
  },
  {
    route: "/v1/snapshot",
    body: { url: URL_, format: "gif" },
    details: { format: 'Must be one of "png", "jpeg", "webp".' },
  },
  {
    route: "/v1/screenshot",
    body: { url: 5, fullPage: "yes" },
    details: { url: "Must be a string, not number.", fullPage: "Must be a boolean, not string." },
  },
  {
    route: "/admin/accounts",
    body: {},
    details: { plan: 'Required: one of "free", "basic", "starter", "pro", "enterprise".' },
    admin: true,
  },
];

describe("zod's raw messages never reach a caller", () => {
  for (const c of CASES) {
    it(`POST ${c.route} ${JSON.stringify(c.body)}: our words, naming each field`, async () => {
      const res = await postJson(c.route, c.body, c.admin ? ADMIN_AUTH : auth);
      expect(res.status).toBe(400);
      const { error } = await envelope(res);
      expect(error?.code).toBe("VALIDATION_ERROR");
      const details = Object.fromEntries((error?.details ?? []).map((d) => [d.path, d.message]));
      expect(details).toMatchObject(c.details);
      expect(JSON.stringify(error)).not.toMatch(RAW);
      for (const path of Object.keys(c.details)) expect(error?.message).toContain(path);
    });
  }
});
