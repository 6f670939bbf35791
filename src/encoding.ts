/**
 * Encodings used across the worker: hex (digests, signatures), base64 (images), SHA-256, UTF-8
 * byte length, HTML escaping, ISO 8601 times of stored epoch milliseconds, the text form of the
 * UUIDs we mint as ids. A leaf module: it imports nothing, so anything can use it without cycles.
 */

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  let out = "";
  for (const b of bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes))
    out += b.toString(16).padStart(2, "0");
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * Throws on input that is not base64 (atob's own check). A plain loop: `Uint8Array.from` with a
 * mapping function is ~25× slower (78 ms against 3 ms per MB in V8), and screenshots arrive here.
 */
export function fromBase64(b64: string): Uint8Array {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** SHA-256 of `text`, hex encoded (key hashes, cache keys). */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Whether `text` encodes to more than `limit` UTF-8 bytes, without allocating the encoding. */
export function exceedsBytes(text: string, limit: number): boolean {
  if (text.length > limit) return true; // every UTF-16 unit is at least one byte
  return text.length * 3 > limit && utf8Length(text) > limit; // and at most three
}

/** UTF-8 length of a string (a lone surrogate counts as its replacement character). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code < 0xdc00 && isLow(text.charCodeAt(i + 1))) {
      bytes += 2; // a surrogate pair: 2 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code < 0xe000;
}

/** `&`, `<`, `>`, `"` and `'` as numeric character references: safe in text and quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A stored time (epoch ms, or null when it has not happened) as the API writes it. */
export const isoOrNull = (ms: number | null): string | null =>
  ms === null ? null : new Date(ms).toISOString();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `id` is a UUID as `crypto.randomUUID()` writes it (ids of jobs, batches, watches, crawls). */
export const isUuid = (id: string): boolean => UUID.test(id);
