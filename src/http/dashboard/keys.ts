/**
 * API keys: list, create (named), revoke and replace (revoke + create in one step). A new key
 * is shown once: it waits in the session (src/accounts/users.ts holdReveal) for the next view
 * of this page, which takes it. Revocation reaches the Account DO directly, so the API refuses
 * the key (403 KEY_DISABLED) from the next request on.
 */
import { Hono } from "hono";
import { html } from "hono/html";
import { keyNameFormSchema } from "../../../schemas/dashboard";
import { LIMITS } from "../../../schemas/limits";
import { accountStub, indexKey, mintKey } from "../../accounts/directory";
import { isKeyId } from "../../accounts/keys";
import type { KeyInfo } from "../../accounts/keystore";
import { ApiError } from "../../errors";
import { type Html, copyRow, csrfField, notice, page } from "./layout";
import { formField, formRecord } from "./forms";
import { DASHBOARD, type DashboardContext, type DashboardEnv, checkCsrf } from "./session";

const day = (iso: string | null): string =>
  iso ? iso.slice(0, 16).replace("T", " ") + " UTC" : "never";

function revealBox(apiKey: string): Html {
  return html`<section class="card reveal" aria-labelledby="new-key">
    <h2 id="new-key">Your new API key</h2>
    <p class="warn">
      <strong>Copy it now: you will not see this key again.</strong> Only its prefix is kept.
    </p>
    ${copyRow("new-api-key", apiKey, "new-api-key")}
    <p class="hint">
      Send it as <code>Authorization: Bearer &lt;key&gt;</code>. It works now, from anywhere.
    </p>
  </section>`;
}

function keyRow(key: KeyInfo): Html {
  return html`<tr data-key-id="${key.keyId}">
    <td>${key.name ?? html`<small>unnamed</small>`}</td>
    <td><code>${key.prefix}</code></td>
    <td>${day(key.createdAt)}</td>
    <td>${day(key.lastUsedAt)}</td>
    <td><span class="status ${key.status}">${key.status}</span></td>
    <td>
      ${
        key.status === "active"
          ? html`<a href="${DASHBOARD}/keys/${key.keyId}/revoke">Revoke or replace…</a>`
          : ""
      }
    </td>
  </tr>`;
}

async function keysPage(c: DashboardContext, error: string | null = null, status: 200 | 400 = 200) {
  const session = c.get("session");
  const reveal = await session.user.takeReveal(session.tokenHash);
  const keys = await accountStub(c.env, session.accountId).keys().list();
  const body = html`${reveal ? revealBox(reveal) : ""} ${notice("error", error)}
    <div class="table-wrap">
      <table class="keys">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Status</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          ${keys.map(keyRow)}
        </tbody>
      </table>
    </div>
    <form method="post" action="${DASHBOARD}/keys" class="card inline">
      ${csrfField(session)}
      <label
        >New key name
        <input
          name="name"
          required
          maxlength="${LIMITS.keyNameChars}"
          placeholder="e.g. production"
      /></label>
      <button type="submit">Create key</button>
    </form>`;
  return page(c, { title: "API keys", body, session, current: "keys", status });
}

/** Mints a key for the session's account and holds it for the next keys page. */
async function createKey(c: DashboardContext, name: string): Promise<void> {
  const session = c.get("session");
  const { apiKey, key } = await mintKey(name);
  const info = await accountStub(c.env, session.accountId).keys().add(key);
  if (!info) throw new ApiError("NOT_FOUND", "Account not found.");
  await indexKey(c.env, session.accountId, key);
  await session.user.holdReveal(session.tokenHash, apiKey);
}

/** The session account's active key `keyId`, or 404. */
async function ownKey(c: DashboardContext): Promise<KeyInfo> {
  const keyId = c.req.param("keyId") ?? "";
  const keys = isKeyId(keyId)
    ? await accountStub(c.env, c.get("session").accountId).keys().list()
    : [];
  const key = keys.find((k) => k.keyId === keyId);
  if (!key) throw new ApiError("NOT_FOUND", "Key not found.");
  return key;
}

export const keyRoutes = new Hono<DashboardEnv>()
  .get("/keys", (c) => keysPage(c))
  .post("/keys", async (c) => {
    const form = await formRecord(c);
    await checkCsrf(c, formField(form, "_csrf"));
    const parsed = keyNameFormSchema.safeParse({ name: formField(form, "name") });
    if (!parsed.success) {
      return keysPage(c, `Name: ${parsed.error.issues[0]?.message ?? "invalid"}.`, 400);
    }
    await createKey(c, parsed.data.name);
    return c.redirect(`${DASHBOARD}/keys`, 303);
  })
  .get("/keys/:keyId/revoke", async (c) => {
    const key = await ownKey(c);
    const session = c.get("session");
    const body = html`<section class="card">
      <p>
        Revoke <strong>${key.name ?? "this key"}</strong> (<code>${key.prefix}</code>)? Requests
        with it are refused (403 KEY_DISABLED) immediately. This cannot be undone.
      </p>
      <form method="post" action="${DASHBOARD}/keys/${key.keyId}/revoke" class="inline">
        ${csrfField(session)}
        <button type="submit" class="danger">Revoke</button>
      </form>
      <form method="post" action="${DASHBOARD}/keys/${key.keyId}/replace" class="inline">
        ${csrfField(session)}
        <button type="submit">Revoke and create a replacement</button>
      </form>
      <a href="${DASHBOARD}/keys">Cancel</a>
    </section>`;
    return page(c, { title: "Revoke key", body, session, current: "keys" });
  })
  .post("/keys/:keyId/revoke", async (c) => {
    const form = await formRecord(c);
    await checkCsrf(c, formField(form, "_csrf"));
    const key = await ownKey(c);
    await accountStub(c.env, c.get("session").accountId).keys().revoke(key.keyId);
    return c.redirect(`${DASHBOARD}/keys`, 303);
  })
  .post("/keys/:keyId/replace", async (c) => {
    const form = await formRecord(c);
    await checkCsrf(c, formField(form, "_csrf"));
    const key = await ownKey(c);
    await accountStub(c.env, c.get("session").accountId).keys().revoke(key.keyId);
    await createKey(c, key.name ?? "Replacement");
    return c.redirect(`${DASHBOARD}/keys`, 303);
  });
