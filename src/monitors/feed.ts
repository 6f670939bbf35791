/**
 * A monitor's Atom feed (RFC 4287, docs/MONITORS.md "Telling people"): its signed URL (an HMAC
 * over the account and the monitor with the URL signing secret; no expiry: deleting the monitor
 * ends it), the signature's check, and the feed's XML from a check's pages.
 */
import type { CheckPage, MonitorView } from "../../schemas/monitors";
import { config } from "../config";
import { hmacHex, timingSafeEqualDigests } from "../signing/hmac";
import { monitorFeedMessage } from "../signing/signed-payloads";

function feedSignature(env: Env, accountId: string, monitorId: string): Promise<string> {
  return hmacHex(config(env).urlSigningSecret, monitorFeedMessage(accountId, monitorId));
}

/** The signed URL of a monitor's Atom feed: it never expires; deleting the monitor ends it. */
export async function feedUrl(
  env: Env,
  origin: string,
  accountId: string,
  monitorId: string,
): Promise<string> {
  const sig = await feedSignature(env, accountId, monitorId);
  return `${origin}/v1/monitors/${monitorId}/feed?account=${encodeURIComponent(accountId)}&sig=${sig}`;
}

/** The feed's signature checked (constant time): the account, or null when it is not valid. */
export async function feedAccess(
  env: Env,
  monitorId: string,
  params: URLSearchParams,
): Promise<string | null> {
  const accountId = params.get("account");
  const sig = params.get("sig");
  if (!accountId || !sig || !/^[0-9a-f]{64}$/.test(sig)) return null;
  const expected = await feedSignature(env, accountId, monitorId);
  return timingSafeEqualDigests(sig, expected) ? accountId : null;
}

const escapeXml = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c,
  );

function summary(page: CheckPage): string {
  const parts: string[] = [];
  if (page.visual) parts.push(`${page.visual.changedPercent}% of pixels changed`);
  if (page.text) parts.push(`${page.text.added} words added, ${page.text.removed} removed`);
  if (page.fields) parts.push(`fields changed: ${page.fields.map((f) => f.name).join(", ")}`);
  if (page.reason) parts.push(`${page.reason}${page.statusCode ? ` (${page.statusCode})` : ""}`);
  return parts.join("; ") || page.status;
}

/** The Atom feed (RFC 4287) of a monitor's changes: the newest pages that were not unchanged. */
export function atomFeed(
  monitor: MonitorView,
  selfUrl: string,
  entries: Array<{ checkId: string; checkedAt: number; page: CheckPage }>,
): string {
  const updated = new Date(entries[0]?.checkedAt ?? Date.parse(monitor.createdAt)).toISOString();
  const title = monitor.name ?? monitor.url;
  const items = entries.map(({ checkId, checkedAt, page }) => {
    const link = page.visual?.diffUrl ?? page.screenshotUrl ?? page.url;
    return `  <entry>
    <id>urn:edgeshot:monitor:${monitor.monitorId}:check:${checkId}:${escapeXml(page.url)}</id>
    <title>${escapeXml(`${page.status}: ${page.url}`)}</title>
    <updated>${new Date(checkedAt).toISOString()}</updated>
    <link rel="alternate" href="${escapeXml(page.url)}"/>
    <link rel="related" href="${escapeXml(link)}"/>
    <category term="${page.status}"/>
    <summary>${escapeXml(summary(page))}</summary>
  </entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:edgeshot:monitor:${monitor.monitorId}</id>
  <title>${escapeXml(`Changes: ${title}`)}</title>
  <updated>${updated}</updated>
  <link rel="self" href="${escapeXml(selfUrl)}"/>
  <link rel="alternate" href="${escapeXml(monitor.url)}"/>
${items.join("\n")}
</feed>
`;
}
