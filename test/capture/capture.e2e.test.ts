/** End to end: a customer drives a real `wrangler dev` over HTTP and gets real images back. */
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, FIXTURE_ORIGIN, sharedService, type Service } from "../helpers/e2e";
import { decodeImage, outputSize, sniff } from "../helpers/images";

let service: Service;
let key = "";
beforeAll(async () => {
  service = sharedService();
  key = (await createAccount(service.base, "pro")).apiKey;
});
describe("capture over HTTP against wrangler dev", () => {
  it("POST /v1/screenshot returns a PNG with the right pixels and headers", async () => {
    const res = await fetch(`${service.base}/v1/screenshot`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        url: `${FIXTURE_ORIGIN}/boxes.html?run=e2e`,
        width: 400,
        height: 300,
        deviceScaleFactor: 1,
        waitUntil: "load",
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-screenshot-width")).toBe("400");
    expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const img = decodeImage(bytes);
    expect([img.width, img.height]).toEqual([400, 300]);
    expect(img.pixel(10, 10)).toEqual([255, 0, 0]);
  });

  it("GET /v1/screenshot with ?key= works as an <img> source would use it", async () => {
    const url = encodeURIComponent(`${FIXTURE_ORIGIN}/boxes.html?run=e2e-get`);
    const res = await fetch(
      `${service.base}/v1/screenshot?url=${url}&width=320&height=240&format=jpeg&key=${key}`,
    );
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(sniff(bytes)).toBe("jpeg");
    expect(outputSize(bytes)).toEqual({ width: 640, height: 480 }); // default deviceScaleFactor 2
  });

  it("errors are the spec's envelope, with no internals", async () => {
    const res = await fetch(`${service.base}/v1/screenshot`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ url: "http://169.254.169.254/latest/meta-data/" }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      success: boolean;
      error: { code: string };
      meta: { requestId: string };
    };
    expect(body.success).toBe(false);
    expect(body.error.code).toBe("INVALID_URL");
    expect(body.meta.requestId).toBe(res.headers.get("x-request-id"));
  });
});
