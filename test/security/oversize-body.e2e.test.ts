/**
 * A body over the cap is answered 413 and the rest of the upload is drained (up to a bound)
 * before the connection closes, so ordinary clients still uploading read the envelope: Node's
 * fetch (undici) and curl (which also sends `Expect: 100-continue`), over a real socket to
 * `wrangler dev`. Before the drain, Node's fetch read the 413 1 time in 5 at 6 MB, 0 in 5 at
 * 25 MB ("terminated").
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, sharedService, type Service } from "../helpers/e2e";

const MB = 1024 * 1024;
const run = promisify(execFile);

/**
 * What curl printed, whether or not it exited 0. Local `wrangler dev` answers
 * `100 Continue` at once, so curl sends the body; it stops at the 413, but under a loaded CI run
 * the socket has closed under the part it was still writing ("Send failure: Broken pipe", exit
 * 55). curl then still prints the answer it read, and that answer is what this file is about:
 * exit 55 with the 413 envelope read is a pass.
 *
 * Exit 55 with no final answer at all (`%{http_code}` 100: the connection closed after
 * `100 Continue`, nothing else written) is local `wrangler dev`'s proxy dropping the answer
 * under load: reproduced on 2026-11-29 in 1–4 of 60 uploads of 25 MB beside four busy loops,
 * and never without them. Reading the whole upload before answering avoided it, but a 413 must
 * come while a hostile client still sends (test/security/hostile-http.e2e.test.ts). Such an
 * upload is sent once more, once: a service that never answered would fail both.
 */
async function curlReadingAnswer(
  curl: (args: string[]) => Promise<{ stdout: string }>,
  args: string[],
): Promise<{ stdout: string }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await curl(args);
    } catch (err) {
      const { code, stdout } = err as { code?: unknown; stdout?: unknown };
      if (code !== 55 || typeof stdout !== "string") throw err;
      const dropped = stdout.split("\n").pop() === "100";
      if (!dropped || attempt > 0) return { stdout };
    }
  }
}

let service: Service;
let apiKey = "";
let dir = "";

beforeAll(async () => {
  service = sharedService();
  apiKey = (await createAccount(service.base, "enterprise")).apiKey;
  dir = mkdtempSync(join(tmpdir(), "edgeshot-oversize-"));
});

afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A JSON body of about `bytes` bytes: a capture whose html is padding. */
const body = (bytes: number) => Buffer.from(`{"html":"${"x".repeat(bytes - 12)}"}`);

async function viaFetch(payload: Buffer | ReadableStream<Uint8Array>) {
  const res = await fetch(`${service.base}/v1/screenshot/json`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: payload,
    duplex: "half",
  } as RequestInit);
  return { status: res.status, json: (await res.json()) as { error?: { code: string } } };
}

/** `bytes` of body in 256 KB chunks with no Content-Length (chunked). */
function chunked(bytes: number): ReadableStream<Uint8Array> {
  const whole = body(bytes);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= whole.length) return controller.close();
      controller.enqueue(new Uint8Array(whole.subarray(at, at + 256 * 1024)));
      at += 256 * 1024;
    },
  });
}

describe("413 over a real socket: the client reads the envelope", () => {
  for (const size of [6 * MB + 1024, 25 * MB]) {
    it(`Node fetch, ${Math.round(size / MB)} MB with Content-Length: 413 every time`, async () => {
      for (let i = 0; i < 3; i++) {
        const { status, json } = await viaFetch(body(size));
        expect([status, json.error?.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
      }
    });
  }

  it("Node fetch, 25 MB chunked (no Content-Length): 413", async () => {
    for (let i = 0; i < 2; i++) {
      const { status, json } = await viaFetch(chunked(25 * MB));
      expect([status, json.error?.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    }
  });

  for (const [what, extra] of [
    ["Content-Length (and Expect: 100-continue)", []],
    ["chunked", ["-H", "Transfer-Encoding: chunked"]],
  ] as const) {
    it(`curl, 25 MB, ${what}: the final answer is the 413 envelope`, async () => {
      const file = join(dir, "body.json");
      writeFileSync(file, body(25 * MB));
      const curl = (args: string[]) => run("curl", args);
      for (let i = 0; i < 2; i++) {
        const { stdout } = await curlReadingAnswer(curl, [
          "-sS",
          "-w",
          "\n%{http_code}",
          "-H",
          `Authorization: Bearer ${apiKey}`,
          "-H",
          "Content-Type: application/json",
          ...extra,
          "--data-binary",
          `@${file}`,
          `${service.base}/v1/screenshot/json`,
        ]);
        const [json, code] = [stdout.slice(0, stdout.lastIndexOf("\n")), stdout.split("\n").pop()];
        expect(code).toBe("413");
        expect((JSON.parse(json) as { error: { code: string } }).error.code).toBe(
          "PAYLOAD_TOO_LARGE",
        );
      }
    });
  }

  it("after the drain the service answers normally", async () => {
    const res = await fetch(`${service.base}/health`);
    expect(res.status).toBe(200);
  });
});
