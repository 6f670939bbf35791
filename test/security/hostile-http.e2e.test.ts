/**
 * Hostile input that needs a real socket (the checklist in docs/SECURITY.md, "Hostile input",
 * items 1, 2, 15, 21): chunked bodies without Content-Length, Content-Length that lies, broken framing, raw
 * header bytes. Against `wrangler dev` on a free port with its own storage, like
 * the other e2e suites (test/helpers/e2e.ts).
 *
 * Note on `wrangler dev`: when a client's body ends early, its proxy answers
 * `500 Network connection lost` in text/plain itself, whatever the worker said. What is checked
 * for those cases is that the worker took it as a client error: no unexpected error in its log,
 * never our INTERNAL_ERROR envelope (the worker's own 400 is checked in-process, in
 * test/security/hostile-input.timed.test.ts).
 */
import { connect, type Socket } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, rawHttp, sharedService, type Service } from "../helpers/e2e";

const CAP = 6 * 1024 * 1024;
const BLOCKED_BODY = '{"url":"http://10.0.0.1/"}';

/** Status line and parsed JSON body of a raw HTTP/1.1 reply. */
function parseReply(reply: string): {
  status: number;
  json: { error?: { code: string } } | null;
  text: string;
} {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0);
  const text = reply.slice(reply.indexOf("\r\n\r\n") + 4);
  let json = null;
  try {
    json = JSON.parse(text) as { error?: { code: string } };
  } catch {
    // not an envelope
  }
  return { status, json, text };
}

let service: Service;
let port = 0;
let apiKey = "";
const output = () => service.output();

beforeAll(async () => {
  service = sharedService();
  port = Number(new URL(service.base).port);
  apiKey = (await createAccount(service.base, "enterprise")).apiKey;
});

/** Request head for POST /v1/screenshot/json with the extra header lines given. */
const head = (extra: string, auth = `Authorization: Bearer ${apiKey}\r\n`) =>
  Buffer.from(
    `POST /v1/screenshot/json HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nConnection: close\r\n${extra}\r\n`,
  );

/** Unexpected errors the worker logged (onError's INTERNAL_ERROR path) since `mark`. */
const workerErrors = (mark: number) =>
  output()
    .slice(mark)
    .split("\n")
    .filter((l) => l.includes('"level":"error"'));

/**
 * Streams a body in 64 KB pieces (chunked, or raw after a Content-Length head) until the server
 * answers or closes; never sends the end. `pauseMs` 0 floods.
 */
async function stream(headExtra: string, chunked: boolean, pauseMs: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  await new Promise((r) => socket.once("connect", r));
  let reply = "";
  let sent = 0;
  let sentWhenAnswered = -1;
  let closed = false;
  socket.on("data", (d: Buffer) => {
    if (sentWhenAnswered < 0) sentWhenAnswered = sent;
    reply += d.toString("latin1");
  });
  socket.on("error", () => (closed = true));
  socket.on("close", () => (closed = true));
  socket.write(head(headExtra));
  const piece = Buffer.alloc(64 * 1024, 0x20);
  const framed = chunked
    ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
    : piece;
  while (sentWhenAnswered < 0 && !closed && sent < 64 * 1024 * 1024) {
    if (!socket.write(framed))
      await new Promise((r) => {
        socket.once("drain", r);
        setTimeout(r, 200);
      });
    // Yield to the event loop even when the write was buffered at once: otherwise a fast reader
    // keeps this loop synchronous, and the server's answer is seen only megabytes later (on a
    // loaded machine, past the bound below although the server answered at the cap).
    else await new Promise((r) => setImmediate(r));
    sent += piece.length;
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
  await new Promise((r) => setTimeout(r, 300));
  socket.destroy();
  return { reply, sent, sentWhenAnswered, closed };
}

describe("1. bodies over the cap on a real socket", () => {
  it("chunked, no Content-Length: 413 PAYLOAD_TOO_LARGE arrives while the body is still being sent", async () => {
    const { reply, sentWhenAnswered } = await stream("Transfer-Encoding: chunked\r\n", true, 5);
    const { status, json } = parseReply(reply);
    expect(status).toBe(413);
    expect(json?.error?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(sentWhenAnswered).toBeGreaterThan(CAP);
    expect(sentWhenAnswered).toBeLessThan(CAP + 2 * 1024 * 1024); // refused at the cap, not at the end
  });

  it("a flood is cut off soon after the cap (answer or close), never read to the end", async () => {
    const { reply, sent, sentWhenAnswered, closed } = await stream(
      "Transfer-Encoding: chunked\r\n",
      true,
      0,
    );
    expect(closed || sentWhenAnswered >= 0).toBe(true);
    // A server answering only at the end would let all 64 MB through. How far past the 6 MB cap
    // a flood at loopback speed gets before the answer arrives is a matter of scheduling: up to
    // 31 MB with another test file's renders on the cores. The exact point of the refusal is
    // the test above's (a paced upload, answered within 2 MB of the cap).
    expect(sent).toBeLessThan(48 * 1024 * 1024);
    if (reply) expect(parseReply(reply).status).toBe(413);
  });
});

describe("2. Content-Length that lies: capped by the bytes actually read", () => {
  it("a Content-Length over the cap is refused at once, before any body byte is sent", async () => {
    const started = Date.now();
    const reply = parseReply(
      await rawHttp(port, head(`Content-Length: ${CAP + 1}\r\n`), {
        keepOpen: true,
        timeoutMs: 3000,
      }),
    );
    expect([reply.status, reply.json?.error?.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("a truthful Content-Length over the cap: 413 before the whole body is sent", async () => {
    const { reply, sentWhenAnswered } = await stream(
      `Content-Length: ${CAP + 4 * 1024 * 1024}\r\n`,
      false,
      5,
    );
    expect(parseReply(reply).status).toBe(413);
    expect(sentWhenAnswered).toBeLessThan(CAP + 2 * 1024 * 1024);
  });

  it("Content-Length smaller than the body: only the declared bytes are the body", async () => {
    // 10 bytes of the object: truncated JSON.
    let reply = parseReply(
      await rawHttp(
        port,
        Buffer.concat([head("Content-Length: 10\r\n"), Buffer.from(BLOCKED_BODY)]),
      ),
    );
    expect([reply.status, reply.json?.error?.code]).toEqual([400, "INVALID_JSON"]);
    // Exactly the first object: it is what gets validated; the bytes after it are not a body.
    const trailing = '{"url":"https://example.com/"}';
    reply = parseReply(
      await rawHttp(
        port,
        Buffer.concat([
          head(`Content-Length: ${BLOCKED_BODY.length}\r\n`),
          Buffer.from(BLOCKED_BODY + trailing),
        ]),
      ),
    );
    expect([reply.status, reply.json?.error?.code]).toEqual([400, "INVALID_URL"]);
  });

  it("a body that ends before its Content-Length, or mid-chunk: a client error, never the worker's 500", async () => {
    const mark = output().length;
    for (const [extra, body] of [
      ["Content-Length: 500\r\n", BLOCKED_BODY],
      ["Transfer-Encoding: chunked\r\n", `100\r\n${BLOCKED_BODY}`],
      ["Transfer-Encoding: chunked\r\n", `zz\r\n${BLOCKED_BODY}\r\n0\r\n\r\n`],
    ] as const) {
      const reply = parseReply(
        await rawHttp(port, Buffer.concat([head(extra), Buffer.from(body)])),
      );
      const fromWorker = reply.json !== null;
      if (fromWorker)
        expect([reply.status, reply.json?.error?.code], reply.text).toEqual([400, "INVALID_JSON"]);
      else
        expect(reply.text, "only the dev proxy may answer otherwise").toMatch(
          /Network connection lost/,
        );
    }
    await new Promise((r) => setTimeout(r, 300)); // let the log catch up
    expect(workerErrors(mark)).toEqual([]);
  });

  it("malformed Content-Length values are refused before the worker, with a 4xx", async () => {
    for (const value of ["abc", "-1", "26, 26", "1e3", "99999999999999999999", " "]) {
      const reply = parseReply(
        await rawHttp(
          port,
          Buffer.concat([head(`Content-Length: ${value}\r\n`), Buffer.from(BLOCKED_BODY)]),
        ),
      );
      expect(reply.status, value).toBeGreaterThanOrEqual(400);
      expect(reply.status, value).toBeLessThan(500);
    }
    const dup = parseReply(
      await rawHttp(
        port,
        Buffer.concat([
          head("Content-Length: 26\r\nContent-Length: 10\r\n"),
          Buffer.from(BLOCKED_BODY),
        ]),
      ),
    );
    expect(dup.status).toBe(400);
  });

  it("Content-Length beside Transfer-Encoding: chunked — the chunked body is the one validated", async () => {
    const chunked = `${BLOCKED_BODY.length.toString(16)}\r\n${BLOCKED_BODY}\r\n0\r\n\r\n`;
    const reply = parseReply(
      await rawHttp(
        port,
        Buffer.concat([
          head("Content-Length: 3\r\nTransfer-Encoding: chunked\r\n"),
          Buffer.from(chunked),
        ]),
      ),
    );
    expect([reply.status, reply.json?.error?.code]).toEqual([400, "INVALID_URL"]);
  });
});

describe("15, 21. raw header bytes and repeated credentials", () => {
  it("non-Latin-1 bytes in Authorization or x-api-key on a capture: 401 INVALID_API_KEY, the body unread", async () => {
    for (const name of ["Authorization: Bearer svc_", "x-api-key: svc_"]) {
      const bytes = Buffer.concat([
        Buffer.from(`POST /v1/screenshot/json HTTP/1.1\r\nHost: 127.0.0.1\r\n${name}`),
        Buffer.from("€ü漢字\u0085", "utf8"),
        Buffer.from(
          '\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 7\r\n\r\n{"url":',
        ),
      ]);
      const reply = parseReply(await rawHttp(port, bytes));
      expect([reply.status, reply.json?.error?.code]).toEqual([401, "INVALID_API_KEY"]);
    }
  });

  it("Authorization sent twice (even with the same valid key): 401 INVALID_API_KEY, not either one", async () => {
    const auth = `Authorization: Bearer ${apiKey}\r\nAuthorization: Bearer ${apiKey}\r\n`;
    const reply = parseReply(
      await rawHttp(
        port,
        Buffer.concat([
          head(`Content-Length: ${BLOCKED_BODY.length}\r\n`, auth),
          Buffer.from(BLOCKED_BODY),
        ]),
      ),
    );
    expect([reply.status, reply.json?.error?.code]).toEqual([401, "INVALID_API_KEY"]);
  });
});
