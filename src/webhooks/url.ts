/**
 * Webhook URLs: the URL guard (https only, public host, no credentials; an allowlisted
 * `host:port` — tests only — may use http) and, when the DNS check is on, the resolver check
 * (a public-looking name must not resolve to a private address). Run at submit time and again
 * before EVERY delivery attempt: a name can be re-pointed between the two. Not the hop rule of
 * the Worker's other outbound fetches (security/outbound.ts: a logo, robots.txt, sitemaps,
 * checked as capture targets): the endpoint is the customer's own, https only, never asked of
 * the unsafe-host list or Safe Browsing, and a delivery follows no redirect.
 */
import { config } from "../config";
import { ApiError } from "../errors";
import { checkHostDns } from "../security/dns";
import { urlCheckUnavailable } from "../security/target-check";
import { ipLiteralBlockReason } from "../security/ip";
import { checkUrl } from "../security/url-guard";

/** `unavailable`: the DNS resolver could not be reached — ours, to retry, not the URL's fault. */
export type WebhookUrlVerdict =
  { ok: true; url: URL } | { ok: false; reason: string; unavailable?: true };

export async function checkWebhookUrl(env: Env, raw: string): Promise<WebhookUrlVerdict> {
  const cfg = config(env);
  const verdict = checkUrl(raw, "webhook", cfg.targetAllowlist);
  if (!verdict.ok) return verdict;
  const { url } = verdict;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const literal = ipLiteralBlockReason(url.hostname) !== undefined;
  if (!cfg.dnsCheck || literal || cfg.targetAllowlist.has(`${url.hostname}:${port}`))
    return verdict;
  const dns = await checkHostDns(url.hostname, { endpoint: cfg.dohEndpoint });
  if (dns.kind === "error") return { ok: false, reason: "DNS: error", unavailable: true };
  return dns.kind === "public" ? verdict : { ok: false, reason: `DNS: ${dns.kind}` };
}

/** The canonical webhook URL, or 400 INVALID_WEBHOOK_URL naming `path`. */
export async function requireWebhookUrl(
  env: Env,
  raw: string,
  path = "webhookUrl",
): Promise<string> {
  const verdict = await checkWebhookUrl(env, raw);
  if (verdict.ok) return verdict.url.href;
  if (verdict.unavailable) throw urlCheckUnavailable(path);
  throw new ApiError("INVALID_WEBHOOK_URL", "The webhookUrl must be a public https URL.", {
    details: [{ path, message: "Must be a public https URL without credentials." }],
  });
}
