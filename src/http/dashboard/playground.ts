/**
 * The playground: a capture form generated from the contract (./playground-form.ts: every
 * capture field with its control, default and description), an action chooser, and the
 * session-authenticated endpoints it posts to. A playground run is a real one:
 * billed to the account (1 credit), under the plan's rate limit and gates, answered exactly like
 * POST /v1/screenshot/json or the page content route it names (/api/page/:action, answered by
 * the same code as /v1/content, /scrape, /links, /snapshot), or a recording as POST /v1/animate
 * makes it (/api/animate: the clip base64, previewed in a <video> or, a GIF, an <img>; credits by
 * its length). Asynchronous and stored outputs are left to the API.
 */
import { type Context, Hono } from "hono";
import { html } from "hono/html";
import type { CaptureRequest } from "../../../schemas/capture";
import {
  type PlaygroundAnimation,
  playgroundAnimateRequestSchema,
  playgroundCaptureRequestSchema,
} from "../../../schemas/dashboard";
import { LIMITS } from "../../../schemas/limits";
import { renderLinkRequestSchema } from "../../../schemas/render-link";
import { accountStub } from "../../accounts/directory";
import { PLANS } from "../../accounts/plans";
import { ApiError, validationError } from "../../errors";
import { toBase64 } from "../../encoding";
import { clipFacts, recordPage } from "../../pipeline/animate";
import { jsonCapture } from "../../pipeline/captures";
import { pageAnswer, pageRequest, renderLinkAnswer, type PageAction } from "../answers";
import { jsonBody, parseWith, readJsonBody } from "../body";
import { charged, successBody } from "../envelope";
import { rateHeaders } from "../middleware/authenticate";
import { type Html, page } from "./layout";
import { ANIMATION_FIELDS, animationField, FIELD_GROUPS, field } from "./playground-form";
import type { AppEnv } from "../types";
import { type DashboardContext, type DashboardEnv, checkCsrf } from "./session";

/** The actions the playground runs: a capture, or one of the page content routes. */
const ACTIONS: ReadonlyArray<{
  value: "screenshot" | PageAction | "text" | "animate";
  label: string;
}> = [
  { value: "screenshot", label: "Screenshot or PDF (POST /v1/screenshot/json)" },
  { value: "animate", label: "Video or GIF of the page (POST /v1/animate)" },
  { value: "content", label: "Rendered HTML (POST /v1/content)" },
  { value: "text", label: "Visible text (POST /v1/content, contentFormat text)" },
  { value: "scrape", label: "Scrape elements (POST /v1/scrape)" },
  { value: "links", label: "Links (POST /v1/links)" },
  { value: "snapshot", label: "HTML and screenshot (POST /v1/snapshot)" },
];

function playgroundForm(csrf: string): Html {
  return html`<form id="playground" class="card" data-csrf="${csrf}" novalidate>
      <fieldset>
        <legend>Action</legend>
        <div class="fields">
          <div class="field">
            <label for="pg-action">What to get</label>
            <select id="pg-action">
              ${ACTIONS.map((a) => html`<option value="${a.value}">${a.label}</option>`)}
            </select>
          </div>
          <div class="field" id="pg-elements-field" hidden>
            <label for="pg-elements"><code>elements</code> (scrape)</label>
            <textarea id="pg-elements" rows="2">h1</textarea>
            <small>CSS selectors, one per line, up to ${LIMITS.scrapeSelectors}</small>
          </div>
        </div>
      </fieldset>
      ${FIELD_GROUPS.map(
        (g) =>
          html`<fieldset>
            <legend>${g.title}</legend>
            <div class="fields">${g.fields.map((f) => field(f))}</div>
          </fieldset>`,
      )}
      <fieldset data-scope="animation" id="pg-animation">
        <legend>Recording (POST /v1/animate: one credit per started 5 s of clip)</legend>
        <div class="fields">${ANIMATION_FIELDS.map((f) => animationField(f))}</div>
      </fieldset>
      <div class="actions">
        <button type="submit">Run (1 credit)</button>
        <button type="button" id="pg-link-button" class="copy-like">Create render link</button>
        <span id="pg-status" role="status"></span>
      </div>
    </form>
    <section class="card" id="pg-result" hidden>
      <h2>Result</h2>
      <div id="pg-output"></div>
      <dl id="pg-meta" class="meta"></dl>
    </section>
    <section class="card" id="pg-link" hidden>
      <h2>Render link</h2>
      <p class="hint">
        A signed URL that renders these options when first viewed (1 credit, then cached), for
        <code>&lt;img&gt;</code> tags and social cards. Signed for your newest active key: once that
        key is revoked, the link renders nothing new.
      </p>
      <pre><code id="pg-link-tags"></code></pre>
      <p class="hint" id="pg-link-left"></p>
      <button type="button" class="copy" data-copy="pg-link-tags">Copy</button>
    </section>
    <section class="card">
      <h2>Same request from code</h2>
      <div class="tabs">
        <button type="button" class="snippet" data-lang="curl">curl</button>
        <button type="button" class="snippet" data-lang="js">JavaScript</button>
        <button type="button" class="snippet" data-lang="python">Python</button>
      </div>
      <pre><code id="pg-snippet">Fill the form, then pick a language.</code></pre>
      <button type="button" class="copy" data-copy="pg-snippet">Copy</button>
      <p class="hint">
        The snippet carries a placeholder, <code>YOUR_API_KEY</code>: the dashboard never holds your
        keys.
      </p>
    </section>`;
}

export const playgroundRoutes = new Hono<DashboardEnv>()
  .get("/playground", (c) => {
    const session = c.get("session");
    const body = html`<p>
        Runs a real capture on your account, billed like the API (1 credit, same limits).
      </p>
      ${playgroundForm(session.csrf)}`;
    return page(c, { title: "Playground", body, session, current: "playground" });
  })
  .post("/api/capture", async (c) => {
    await checkCsrf(c, c.req.header("x-csrf-token"));
    const req: CaptureRequest = await jsonBody(c, playgroundCaptureRequestSchema);
    await actAsAccount(c, "dashboard");
    const { data, usage } = await jsonCapture(c.env, c.get("auth"), req);
    return c.json(successBody(c.get("requestId"), data, charged(asApp(c), usage)));
  })
  .post("/api/animate", async (c) => {
    await checkCsrf(c, c.req.header("x-csrf-token"));
    const req = await jsonBody(c, playgroundAnimateRequestSchema);
    await actAsAccount(c, "dashboard");
    const result = await recordPage(c.env, c.get("auth"), req);
    const data: PlaygroundAnimation = {
      clip: toBase64(result.recording.bytes),
      ...clipFacts(result),
    };
    return c.json(successBody(c.get("requestId"), data, charged(asApp(c), result.usage)));
  })
  .post("/api/page/:action", async (c) => {
    await checkCsrf(c, c.req.header("x-csrf-token"));
    const action = c.req.param("action");
    if (!Object.hasOwn(pageAnswer, action)) throw new ApiError("NOT_FOUND", "Route not found.");
    await actAsAccount(c, "dashboard");
    return runPageAction(asApp(c), action as PageAction);
  })
  .post("/api/render-link", async (c) => {
    await checkCsrf(c, c.req.header("x-csrf-token"));
    const account = accountStub(c.env, c.get("session").accountId);
    const active = (await account.keys().list()).filter((k) => k.status === "active");
    const newest = active[active.length - 1];
    if (!newest) {
      throw validationError("key", "the account has no active API key; create one first.");
    }
    await actAsAccount(c, newest.keyId);
    const sent = await readJsonBody(c);
    return renderLinkAnswer(asApp(c), parseWith(renderLinkRequestSchema, sent), sent);
  });

/** A page content action on the body, read and parsed as its route would (after the caller). */
async function runPageAction<A extends PageAction>(
  c: Context<AppEnv>,
  action: A,
): Promise<Response> {
  const req = await jsonBody(c, pageRequest[action]);
  return pageAnswer[action](c, req);
}

/** DashboardEnv only adds `session` to AppEnv's variables; Hono's Context is invariant in it. */
const asApp = (c: DashboardContext): Context<AppEnv> => c as unknown as Context<AppEnv>;

/**
 * The session's account as the caller, like `authenticate` does for a key: counts the call
 * against the plan's per-minute limit (429 past it, with the rate headers) and sets `auth`.
 * `keyId` is the key a render link is minted for ("dashboard" for a capture: none is used).
 */
async function actAsAccount(c: DashboardContext, keyId: string): Promise<void> {
  const account = accountStub(c.env, c.get("session").accountId);
  const result = await account.authorizeSession();
  if (result.status !== "ok") throw new ApiError("UNAUTHORIZED", "Sign in to the dashboard first.");
  const headers = rateHeaders(result.rate);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (result.rate.limited) {
    const { retryAfter, limit } = result.rate;
    throw new ApiError(
      "RATE_LIMITED",
      `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfter} s.`,
      { headers: { ...headers, "retry-after": String(retryAfter) } },
    );
  }
  c.set("auth", { accountId: result.accountId, keyId, plan: PLANS[result.plan], account });
}
