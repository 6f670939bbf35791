/**
 * What each signature covers — the signed-message format of every signed thing, in one place
 * beside the HMAC primitive (./hmac.ts). Changing one invalidates every URL or delivery signed
 * the old way.
 */

/** Hosted outputs: `/v1/images/<key>?expires=&sig=`. */
export function imageMessage(key: string, expires: number): string {
  return `images:${key}:${expires}`;
}

/** Render links: `/v1/render?p=&uid=&exp=&sig=`. */
export function renderLinkMessage(link: { p: string; uid: string; exp: number }): string {
  return `render:${link.p}.${link.uid}.${link.exp}`;
}

/** A monitor's Atom feed: `/v1/monitors/<monitorId>/feed?account=&sig=` (no expiry). */
export function monitorFeedMessage(accountId: string, monitorId: string): string {
  return `monitor-feed:${accountId}:${monitorId}`;
}

/** Webhooks: `<x-service-timestamp>.<raw body>`, over the body's exact bytes. */
export function webhookSigningMessage(
  timestamp: string | number,
  body: string | Uint8Array,
): Uint8Array {
  const encoder = new TextEncoder();
  const head = encoder.encode(`${timestamp}.`);
  const raw = typeof body === "string" ? encoder.encode(body) : body;
  const out = new Uint8Array(head.byteLength + raw.byteLength);
  out.set(head, 0);
  out.set(raw, head.byteLength);
  return out;
}
