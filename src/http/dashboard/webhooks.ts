/**
 * The Webhooks page: the signing secret (revealed on click) and how to verify, a test send (a
 * signed test.ping to a URL, its answer shown), and the delivery log of the last 7 days with a
 * Redeliver button on each finished delivery — the same calls as the API's webhook operations
 * (src/webhooks/deliver.ts `sendTestPing`, `redeliverWebhook`). Plain forms, no script.
 */
import { Hono } from "hono";
import { html } from "hono/html";
import type { WebhookDeliveryView } from "../../../schemas/responses";
import { webhookTestRequestSchema } from "../../../schemas/webhooks";
import { accountStub } from "../../accounts/directory";
import { ApiError } from "../../errors";
import { redeliverWebhook, sendTestPing } from "../../webhooks/deliver";
import { webhookSecretFor } from "../../webhooks/keys";
import { formField, formRecord } from "./forms";
import { type Html, copyRow, csrfField, notice, page } from "./layout";
import { DASHBOARD, type DashboardContext, type DashboardEnv, checkCsrf } from "./session";

/** Deliveries shown on the page (the API pages through all of them). */
const SHOWN = 50;

/** An ISO timestamp as `YYYY-MM-DD HH:MM UTC`, or a dash for none. */
const when = (iso: string | null): string =>
  iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "—";

const VERIFY_SNIPPET = `// Node 18+, Workers, Deno: verify before parsing the body.
const body = await request.text();
const timestamp = request.headers.get("x-service-timestamp");
const signature = request.headers.get("x-service-signature");
const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(SECRET),
  { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(\`\${timestamp}.\${body}\`));
const expected = [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
// Compare in constant time, and refuse timestamps more than 300 s from your clock.`;

function lastAnswer(d: WebhookDeliveryView): string {
  if (d.attempts === 0) return "—";
  if (d.lastError) return d.lastStatus === null ? d.lastError : `${d.lastError}`;
  return d.lastStatus === null ? "—" : `HTTP ${d.lastStatus}`;
}

function deliveryRow(d: WebhookDeliveryView, session: Parameters<typeof csrfField>[0]): Html {
  const finished = d.state === "delivered" || d.state === "failed";
  return html`<tr data-delivery-id="${d.deliveryId}">
    <td>${when(d.createdAt)}</td>
    <td><code>${d.event}</code></td>
    <td class="url">${d.url}</td>
    <td><span class="status ${d.state}" data-testid="delivery-state">${d.state}</span></td>
    <td>${d.attempts}</td>
    <td>${lastAnswer(d)}</td>
    <td>${when(d.nextAttemptAt)}</td>
    <td>
      ${
        finished
          ? html`<form
              method="post"
              action="${DASHBOARD}/webhooks/deliveries/${d.deliveryId}/redeliver"
              class="inline"
            >
              ${csrfField(session)}
              <button type="submit" class="redeliver">Redeliver</button>
            </form>`
          : ""
      }
    </td>
  </tr>`;
}

interface Notice {
  kind: "error" | "ok";
  text: string;
}

async function webhooksPage(
  c: DashboardContext,
  shown: Notice | null = null,
  status: 200 | 400 = 200,
) {
  const session = c.get("session");
  const secret = await webhookSecretFor(c.env, session.accountId);
  const log = await accountStub(c.env, session.accountId)
    .webhooks()
    .list({ status: null, limit: SHOWN, before: null });
  const body = html`${
      shown ? html`<div data-testid="webhook-notice">${notice(shown.kind, shown.text)}</div>` : ""
    }
    <section class="card">
      <h2>Deliveries (last 7 days)</h2>
      ${
        log.items.length === 0
          ? html`<p class="hint">
              No deliveries yet. Jobs, batches and watches with a <code>webhookUrl</code> are listed
              here.
            </p>`
          : html`<div class="table-wrap">
              <table data-testid="deliveries">
                <thead>
                  <tr>
                    <th>Created</th>
                    <th>Event</th>
                    <th>URL</th>
                    <th>State</th>
                    <th>Attempts</th>
                    <th>Last answer</th>
                    <th>Next retry</th>
                    <th></th>
                  </tr>
                </thead>
                <tbody>
                  ${log.items.map((d) => deliveryRow(d, session))}
                </tbody>
              </table>
            </div>`
      }
      <p class="hint">The API lists them all: <code>GET /v1/webhooks/deliveries</code>.</p>
    </section>
    <form method="post" action="${DASHBOARD}/webhooks/test" class="card inline">
      ${csrfField(session)}
      <label
        >Send a signed <code>test.ping</code> to
        <input name="url" type="url" required placeholder="https://example.com/hooks"
      /></label>
      <button type="submit" class="send-test">Send test</button>
    </form>
    <section class="card">
      <h2>Signing secret</h2>
      <p>
        Every webhook carries <code>x-service-signature</code>: hex HMAC-SHA256 of
        <code>&lt;x-service-timestamp&gt;.&lt;raw body&gt;</code> under this secret.
      </p>
      <details>
        <summary>Reveal the secret</summary>
        ${copyRow("webhook-secret", secret)}
      </details>
    </section>
    <section class="card">
      <h2>Verify a delivery</h2>
      <pre><code>${VERIFY_SNIPPET}</code></pre>
    </section>`;
  return page(c, { title: "Webhooks", body, session, current: "webhooks", status });
}

export const webhookPageRoutes = new Hono<DashboardEnv>()
  .get("/webhooks", (c) => webhooksPage(c))
  .post("/webhooks/test", async (c) => {
    const form = await formRecord(c);
    await checkCsrf(c, formField(form, "_csrf"));
    const parsed = webhookTestRequestSchema.safeParse({ url: formField(form, "url") });
    if (!parsed.success) {
      const why = parsed.error.issues[0]?.message ?? "invalid";
      return webhooksPage(c, { kind: "error", text: `URL: ${why}` }, 400);
    }
    const result = await sendTestPing(c.env, c.get("session").accountId, parsed.data.url);
    const answer = result.status === null ? "no answer" : `HTTP ${result.status}`;
    return webhooksPage(
      c,
      result.delivered
        ? { kind: "ok", text: `Delivered: the receiver answered ${answer}.` }
        : { kind: "error", text: `Not delivered: ${result.error ?? answer}.` },
    );
  })
  .post("/webhooks/deliveries/:deliveryId/redeliver", async (c) => {
    const form = await formRecord(c);
    await checkCsrf(c, formField(form, "_csrf"));
    const deliveryId = c.req.param("deliveryId");
    const view = await redeliverWebhook(c.env, c.get("session").accountId, deliveryId);
    if (!view) throw new ApiError("NOT_FOUND", "No webhook delivery with this id.");
    return webhooksPage(c, { kind: "ok", text: `Delivery ${deliveryId} queued again.` });
  });
