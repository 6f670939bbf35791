/**
 * Declarative shadow roots in a target page's own bytes, marked before the page parses them
 * (./dsd-markers.ts). The parser can reach a `<template shadowrootmode>` in a later task than its
 * host — the server flushes the host first, or a parser-blocking script sits between them — and
 * Chromium then acts on a speculation rule set inside the root before any observer of the page
 * can see the root (docs/SECURITY.md, "Declarative shadow roots"). Page script cannot reach a
 * closed root at all. So the browser-wide Fetch guard hands every HTML document response here:
 * its body is read and, when it has a declarative template, answered with the marker after each
 * one. The marker is the root's first child and hands the root to the hardening's observer as the
 * parser inserts it, before anything in the root runs.
 *
 * A body with a declared length and no content coding is read whole and, without a template,
 * continued untouched: the response keeps everything Chromium knew of it. Any other body is read
 * as a stream, up to MAX_DOCUMENT_BYTES, and answered from what was read (a stream once taken
 * cannot be continued). A larger document fails closed: it cannot be checked.
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import type { Protocol } from "devtools-protocol";
import { toBase64 } from "../../encoding";
import { markTemplates, templateEnds } from "./dsd-markers";

/** The largest HTML document the guard reads (decoded bytes). */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/** Bytes asked for per `IO.read` of a document stream. */
const READ_CHUNK = 1024 * 1024;

type Header = Protocol.Fetch.HeaderEntry;

/** What became of the document. */
export type DocumentVerdict = "continued" | "fulfilled" | "too-large";

const header = (headers: readonly Header[], name: string): string | undefined =>
  headers.find((h) => h.name.toLowerCase() === name)?.value;

/**
 * Whether a document response has a body the HTML parser will read: not a redirect or an
 * empty status, and HTML or no declared type (Chromium sniffs one).
 */
export function mayHoldTemplates(status: number, headers: readonly Header[]): boolean {
  if (status === 204 || status === 205 || status === 304) return false;
  if (status >= 300 && status < 400 && header(headers, "location") !== undefined) return false;
  const type = header(headers, "content-type")?.trim().toLowerCase();
  return type === undefined || type === "" || type.startsWith("text/html");
}

/**
 * Reads the paused document response `event` and lets it go on with its declarative templates
 * marked. `override`: the response headers to answer with when the guard stripped some.
 */
export async function markDocument(
  session: CDPSession,
  event: Protocol.Fetch.RequestPausedEvent,
  override: Header[] | null,
): Promise<DocumentVerdict> {
  const { requestId } = event;
  const headers = override ?? event.responseHeaders ?? [];
  const status = {
    responseCode: event.responseStatusCode ?? 200,
    responsePhrase: event.responseStatusText || undefined,
  };
  const coding = header(headers, "content-encoding")?.trim().toLowerCase();
  const length = Number(header(headers, "content-length") ?? NaN);
  const plain = coding === undefined || coding === "" || coding === "identity";
  const declared = plain && Number.isInteger(length) && length >= 0;
  if (declared && length > MAX_DOCUMENT_BYTES) return "too-large";
  if (declared) {
    const { body, base64Encoded } = await session.send("Fetch.getResponseBody", { requestId });
    const binary = base64Encoded ? atob(body) : utf8Binary(body);
    const withMarks = marked(binary, headers);
    if (withMarks === null) {
      // Chromium takes a header override only together with the status line.
      const changes = override === null ? {} : { ...status, responseHeaders: override };
      await session.send("Fetch.continueResponse", { requestId, ...changes });
      return "continued";
    }
    await fulfill(session, requestId, status, headers, withMarks);
    return "fulfilled";
  }
  const binary = await readStream(session, requestId);
  if (binary === null) return "too-large";
  await fulfill(session, requestId, status, headers, marked(binary, headers) ?? binary);
  return "fulfilled";
}

/**
 * The document's bytes (a byte string) with the marker after every declarative template, or null
 * when it has none. Every encoding a page can use keeps ASCII as ASCII but UTF-16 (a byte order
 * mark, or the declared charset), which is decoded, marked and encoded back.
 */
export function marked(binary: string, headers: readonly Header[]): string | null {
  const wide = utf16Of(binary, headers);
  const text = wide === null ? binary : utf16Decode(binary, wide);
  const ends = templateEnds(text);
  if (ends.length === 0) return null;
  const out = markTemplates(text, ends);
  return wide === null ? out : utf16Encode(out, wide);
}

type Utf16 = "utf-16le" | "utf-16be";

function utf16Of(binary: string, headers: readonly Header[]): Utf16 | null {
  if (binary.startsWith("\xFF\xFE")) return "utf-16le";
  if (binary.startsWith("\xFE\xFF")) return "utf-16be";
  if (binary.startsWith("\xEF\xBB\xBF")) return null; // a UTF-8 mark outranks the header
  const type = header(headers, "content-type") ?? "";
  const charset = /charset\s*=\s*["']?([^;"'\s]+)/i.exec(type)?.[1]?.toLowerCase();
  if (charset === "utf-16be") return "utf-16be";
  return charset === "utf-16" || charset === "utf-16le" ? "utf-16le" : null;
}

/** Decoded with its byte order mark kept as U+FEFF, so that encoding it back keeps it. */
function utf16Decode(binary: string, wide: Utf16): string {
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder(wide, { fatal: false, ignoreBOM: true }).decode(bytes);
}

function utf16Encode(text: string, wide: Utf16): string {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    parts.push(
      wide === "utf-16be"
        ? String.fromCharCode(c >> 8, c & 255)
        : String.fromCharCode(c & 255, c >> 8),
    );
  }
  return parts.join("");
}

/** The whole body of a paused response as a binary string, or null past MAX_DOCUMENT_BYTES. */
async function readStream(session: CDPSession, requestId: string): Promise<string | null> {
  const { stream } = await session.send("Fetch.takeResponseBodyAsStream", { requestId });
  let text = "";
  try {
    for (;;) {
      const chunk = await session.send("IO.read", { handle: stream, size: READ_CHUNK });
      text += chunk.base64Encoded ? atob(chunk.data) : utf8Binary(chunk.data);
      if (text.length > MAX_DOCUMENT_BYTES) return null;
      if (chunk.eof) return text;
    }
  } finally {
    await session.send("IO.close", { handle: stream }).catch(() => {});
  }
}

/**
 * Answers the request with `binary` (a byte string) as its decoded body: the content coding and
 * length of the original no longer describe it.
 */
async function fulfill(
  session: CDPSession,
  requestId: string,
  status: { responseCode: number; responsePhrase: string | undefined },
  headers: readonly Header[],
  binary: string,
): Promise<void> {
  const stale = new Set(["content-encoding", "content-length", "transfer-encoding"]);
  await session.send("Fetch.fulfillRequest", {
    requestId,
    ...status,
    responseHeaders: headers.filter((h) => !stale.has(h.name.toLowerCase())),
    body: btoa(binary),
  });
}

/** A body CDP sent as text (decoded as UTF-8) as the bytes it stands for. */
const utf8Binary = (text: string): string => atob(toBase64(new TextEncoder().encode(text)));
