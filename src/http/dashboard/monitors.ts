/**
 * The Monitors pages (docs/MONITORS.md): the account's monitors; a monitor's settings, feed URL
 * and the timeline of its checks; a check's pages that were new, removed, changed or failed, a
 * changed page with its before/after viewer (app.js moves the divider), diff image, changed
 * regions, text diff and fields. Read through the feature's own operations
 * (src/monitors/operations.ts), as the API's routes are: same account scoping, same retention,
 * same 404 for another account's monitor — shown here as a page, not the API's JSON. Changing a
 * monitor stays with the API.
 */
import { Hono } from "hono";
import { html } from "hono/html";
import {
  CHECK_PAGE_STATUSES,
  type CheckCounts,
  type CheckPage,
  type CheckPageStatus,
  type CheckView,
  type MonitorView,
} from "../../../schemas/monitors";
import { LIMITS, MONITOR } from "../../../schemas/limits";
import type { AuthContext } from "../../accounts/auth";
import { accountStub } from "../../accounts/directory";
import { PLANS } from "../../accounts/plans";
import { ApiError } from "../../errors";
import {
  checkPages,
  getCheck,
  getMonitor,
  listChecks,
  listMonitors,
} from "../../monitors/operations";
import { type Html, copyRow, page } from "./layout";
import { every, recentTable, when } from "./recent";
import { DASHBOARD, type DashboardContext, type DashboardEnv } from "./session";

const MONITORS = `${DASHBOARD}/monitors`;
/** The statuses a check lists (unchanged pages are counted, not kept). */
type Listed = Exclude<CheckPageStatus, "unchanged">;
const LISTED = CHECK_PAGE_STATUSES.filter((s): s is Listed => s !== "unchanged");

/**
 * The session's account as the operations' caller. Reads take no rate-limit slot (the API's
 * reads count against the read limit, which is for API keys); the plan is the account's own.
 */
async function sessionAuth(c: DashboardContext): Promise<AuthContext> {
  const { accountId } = c.get("session");
  const account = accountStub(c.env, accountId);
  const summary = await account.summary();
  if (!summary) throw new ApiError("NOT_FOUND", "Account not found.");
  return { accountId, keyId: "dashboard", plan: PLANS[summary.plan], account };
}

/** `?cursor=`: a listing's position from its "older"/"more" link; anything else starts over. */
function cursorOf(c: DashboardContext): number | null {
  const v = c.req.query("cursor");
  return v && /^[1-9][0-9]{0,9}$/.test(v) ? Number(v) : null;
}

/**
 * A monitor or check this account does not have (another account's, deleted, past retention):
 * an HTML 404 in the dashboard's frame. Every other error leaves as it would from any page.
 */
async function orNotFound(c: DashboardContext, render: () => Promise<Response>): Promise<Response> {
  try {
    return await render();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code !== "MONITOR_NOT_FOUND" && err.code !== "CHECK_NOT_FOUND") throw err;
    const body = html`<p>${err.message}</p>
      <p><a href="${MONITORS}">Back to your monitors</a></p>`;
    const session = c.get("session");
    return page(c, { title: "Not found", body, session, current: "monitors", status: 404 });
  }
}

/**
 * Our signed image URL as a path: /v1/images is served by this Worker on every host it answers,
 * so the dashboard's own origin serves it and `img-src 'self'` admits it, whichever host the
 * monitor was created through (its URLs carry that host).
 */
function ownPath(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

const schedule = (s: MonitorView["schedule"]): Html =>
  s.cron !== undefined
    ? html`<code>${s.cron}</code> (UTC)`
    : html`every ${every(s.intervalMinutes ?? MONITOR.intervalMinutes.default)}`;

/** `1 word`, `2 words`. */
const count = (n: number, noun: string): string =>
  `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;

const status = (value: string): Html => html`<span class="status ${value}">${value}</span>`;

/** A check's counts in words, the unchanged last: "2 changed, 1 new, 5 unchanged". */
function countsText(counts: CheckCounts): string {
  const order = ["changed", "new", "removed", "failed", "unchanged"] as const;
  const parts = order.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`);
  return parts.length > 0 ? parts.join(", ") : "no pages yet";
}

const checkHref = (check: CheckView): string =>
  `${MONITORS}/${check.monitorId}/checks/${check.checkId}`;

/** A listing's link to its next page, or nothing at the end. */
const moreLink = (href: string | null, label: string): Html =>
  href ? html`<p><a href="${href}" data-testid="more">${label}</a></p>` : html``;

async function monitorsPage(c: DashboardContext) {
  const session = c.get("session");
  const before = cursorOf(c);
  const list = await listMonitors(c.env, await sessionAuth(c), {
    status: null,
    limit: LIMITS.listMax,
    before,
  });
  const table = recentTable({
    title: before === null ? "Your monitors" : "Older monitors",
    testId: "monitors",
    empty: html`No monitors yet: create one with <code>POST /v1/monitors</code>.`,
    headers: ["Monitor", "Status", "Schedule", "Last check (UTC)", "Next check (UTC)"],
    rows: list.items.map(
      (m) =>
        html`<tr data-monitor-id="${m.monitorId}">
          <td class="url" title="${m.url}">
            <a href="${MONITORS}/${m.monitorId}">${m.name ?? m.url}</a>${
              m.name ? html`<br /><small>${m.url}</small>` : ""
            }
          </td>
          <td>${status(m.status)}</td>
          <td>${schedule(m.schedule)}</td>
          <td>
            ${
              m.lastCheck
                ? html`<a href="${checkHref(m.lastCheck)}">${when(m.lastCheck.createdAt)}</a>
                    ${status(m.lastCheck.status)}<br /><small
                      >${countsText(m.lastCheck.counts)}</small
                    >`
                : "—"
            }
          </td>
          <td>${when(m.nextCheckAt)}</td>
        </tr>`,
    ),
  });
  const body = html`<p>
      A monitor checks a whole site on a schedule and compares each page with what it saw before.
      Create, change, pause and delete monitors with the API (<code>/v1/monitors</code>).
    </p>
    ${table}
    ${moreLink(list.nextBefore === null ? null : `${MONITORS}?cursor=${list.nextBefore}`, "Older monitors")}`;
  return page(c, { title: "Monitors", body, session, current: "monitors" });
}

const codes = (values: readonly string[] | undefined): Html =>
  values && values.length > 0 ? html`${values.map((v) => html`<code>${v}</code> `)}` : html`—`;

/**
 * The settings a person reads to know what the monitor does (the API has every one). The view
 * has their defaults filled in (src/monitors/operations.ts); where the type still says optional,
 * the same defaults from schemas/limits.ts stand in.
 */
function settingsCard(m: MonitorView): Html {
  const s = m.settings;
  const row = (label: string, value: Html | string) =>
    html`<dt>${label}</dt>
      <dd>${value}</dd>`;
  return html`<section class="card">
    <h2>Settings</h2>
    <dl class="meta">
      ${row("Site", html`<a href="${m.url}" rel="noreferrer">${m.url}</a>`)}
      ${row("Scope", `${s.scope}, sitemaps: ${s.sitemap}`)} ${row("Include", codes(s.include))}
      ${row("Exclude", codes(s.exclude))}
      ${row("Pages a check", `at most ${s.limit}, links followed ${s.maxDepth} deep`)}
      ${row("Schedule", schedule(m.schedule))} ${row("Compares", codes(s.compare))}
      ${row("Fields", codes(s.fields?.map((f) => f.name)))} ${row("Ignored", codes(s.ignore))}
      ${row("Ignored regions", String(s.ignoreRegions?.length ?? 0))}
      ${row("Learns noise", s.learnVolatile === false ? "no" : "yes")}
      ${row(
        "A change is at least",
        `${count(s.minChangedPixels ?? MONITOR.minChangedPixels.default, "pixel")} or ${count(s.minChangedWords ?? MONITOR.minChangedWords.default, "word")}`,
      )}
      ${row("Viewport", `${s.width ?? "default"} × ${s.height ?? "default"} px`)}
      ${row(
        "Webhook",
        s.webhookUrl
          ? html`<code>${s.webhookUrl}</code><br /><small
                >${(s.webhookEvents ?? []).join(", ")}</small
              >`
          : "—",
      )}
    </dl>
  </section>`;
}

function timeline(checks: CheckView[]): Html {
  return recentTable({
    title: "Checks",
    testId: "checks",
    empty: html`No checks yet. The first one starts when the monitor is created (unless paused).`,
    headers: ["When (UTC)", "Trigger", "Status", "New", "Removed", "Changed", "Failed", "Credits"],
    rows: checks.map(
      (k) =>
        html`<tr data-check-id="${k.checkId}">
          <td><a href="${checkHref(k)}">${when(k.createdAt)}</a></td>
          <td>${k.trigger}${k.baseline ? html`<br /><small>baseline</small>` : ""}</td>
          <td>
            ${status(k.status)}${k.stoppedBy ? html`<br /><small>stopped by ${k.stoppedBy}</small>` : ""}
          </td>
          <td>${k.counts.new}</td>
          <td>${k.counts.removed}</td>
          <td>${k.counts.changed}</td>
          <td>${k.counts.failed}</td>
          <td>${k.creditsUsed.toLocaleString("en-US")}</td>
        </tr>`,
    ),
  });
}

const crumbs = (...links: Array<[string, string]>): Html =>
  html`<p class="crumbs">
    ${links.map(([href, label], i) => html`${i > 0 ? " › " : ""}<a href="${href}">${label}</a>`)}
  </p>`;

async function monitorPage(c: DashboardContext) {
  const session = c.get("session");
  const auth = await sessionAuth(c);
  const id = c.req.param("monitorId") ?? "";
  const before = cursorOf(c);
  const [m, checks] = await Promise.all([
    getMonitor(c.env, auth, id),
    listChecks(auth, id, { status: null, limit: LIMITS.listMax, before }),
  ]);
  const older =
    checks.nextBefore === null ? null : `${MONITORS}/${m.monitorId}?cursor=${checks.nextBefore}`;
  const body = html`${crumbs([MONITORS, "Monitors"])}
    <section class="stats">
      <div class="stat"><span>Status</span><strong>${status(m.status)}</strong></div>
      <div class="stat"><span>Schedule</span><strong>${schedule(m.schedule)}</strong></div>
      <div class="stat">
        <span>Next check</span><strong>${when(m.nextCheckAt)}</strong><small>UTC</small>
      </div>
    </section>
    ${timeline(checks.items)} ${moreLink(older, "Older checks")}
    <section class="card">
      <h2>Atom feed</h2>
      <p class="hint">
        The monitor's new, removed, changed and failed pages, for a feed reader: signed, no key
        needed. Anyone with this URL can read it.
      </p>
      ${copyRow("feed-url", m.feedUrl, "feed-url")}
    </section>
    ${settingsCard(m)}`;
  return page(c, { title: m.name ?? m.url, body, session, current: "monitors" });
}

function filters(check: CheckView, current: Listed | null): Html {
  const base = checkHref(check);
  const link = (label: string, value: Listed | null) =>
    html`<a
      href="${value ? `${base}?status=${value}` : base}"
      class="${value === current ? "current" : ""}"
      ${value === current ? html`aria-current="page"` : ""}
      >${label}</a
    >`;
  return html`<p class="filters">
    ${link("All", null)} ${LISTED.map((s) => link(`${s} (${check.counts[s]})`, s))}
  </p>`;
}

/** Before and after laid one over the other; the range input (app.js) moves the divider. */
function viewer(v: NonNullable<CheckPage["visual"]>): Html {
  return html`<div class="visual">
    <figure class="compare">
      <div class="compare-frame">
        <img class="before" src="${ownPath(v.beforeUrl)}" alt="Before" loading="lazy" />
        <img class="after" src="${ownPath(v.afterUrl)}" alt="After" loading="lazy" />
        <span class="divider" aria-hidden="true"></span>
      </div>
      <input
        type="range"
        class="compare-slider"
        min="0"
        max="100"
        value="50"
        aria-label="Divider: before on its left, after on its right"
      />
      <figcaption>Before on the left of the line, after on its right: move the slider.</figcaption>
    </figure>
    <figure class="diff">
      <img src="${ownPath(v.diffUrl)}" alt="Diff: changed pixels in red" loading="lazy" />
      <figcaption>
        Diff: ${count(v.changedPixels, "pixel")} changed (${v.changedPercent}%), in red; masked
        areas tinted.
      </figcaption>
    </figure>
  </div>`;
}

function regionsTable(regions: NonNullable<CheckPage["visual"]>["regions"]): Html {
  return html`<div class="table-wrap">
    <table class="regions" data-testid="regions">
      <caption>
        Changed regions (CSS px)
      </caption>
      <thead>
        <tr>
          <th>x</th>
          <th>y</th>
          <th>Width</th>
          <th>Height</th>
        </tr>
      </thead>
      <tbody>
        ${regions.map(
          (r) =>
            html`<tr>
              <td>${r.x}</td>
              <td>${r.y}</td>
              <td>${r.width}</td>
              <td>${r.height}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function textDiff(t: NonNullable<CheckPage["text"]>): Html {
  return html`<h4>Text: ${count(t.added, "word")} added, ${t.removed} removed</h4>
    <ul class="textdiff">
      ${t.parts.map((p) =>
        p.op === "added"
          ? html`<li><ins>${p.text}</ins></li>`
          : html`<li><del>${p.text}</del></li>`,
      )}
    </ul>
    ${t.truncated ? html`<p class="hint">More changed than is listed here.</p>` : ""}`;
}

function fieldsTable(fields: NonNullable<CheckPage["fields"]>): Html {
  const value = (v: string | null) =>
    v === null ? html`<small>none</small>` : html`<code>${v}</code>`;
  return html`<div class="table-wrap">
    <table class="fields-diff">
      <caption>
        Changed fields
      </caption>
      <thead>
        <tr>
          <th>Field</th>
          <th>Before</th>
          <th>After</th>
        </tr>
      </thead>
      <tbody>
        ${fields.map(
          (f) =>
            html`<tr>
              <td>${f.name}</td>
              <td>${value(f.before)}</td>
              <td>${value(f.after)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

const noise = (m: NonNullable<CheckPage["masked"]>): string =>
  `Left out as noise: ${count(m.regions.length, "region")}, ${count(m.lines, "line")}.`;

function pageCard(p: CheckPage): Html {
  return html`<article class="card check-page" data-page-status="${p.status}">
    <h3>${status(p.status)} <a href="${p.url}" rel="noreferrer">${p.url}</a></h3>
    ${
      p.status === "failed"
        ? html`<p>
            Failed: ${p.reason ?? "unknown"}${p.statusCode ? ` (HTTP ${p.statusCode})` : ""}
          </p>`
        : ""
    }
    ${
      p.status === "removed"
        ? html`<p>Gone: it answered 404 or 410, or the check no longer reached it.</p>`
        : ""
    }
    ${
      p.screenshotUrl
        ? html`<p>
            <a href="${ownPath(p.screenshotUrl)}">Its first capture</a> (now its baseline)
          </p>`
        : ""
    }
    ${p.visual ? html`${viewer(p.visual)}${regionsTable(p.visual.regions)}` : ""}
    ${p.text ? textDiff(p.text) : ""} ${p.fields ? fieldsTable(p.fields) : ""}
    ${p.masked ? html`<p class="hint">${noise(p.masked)}</p>` : ""}
  </article>`;
}

async function checkPage(c: DashboardContext) {
  const session = c.get("session");
  const auth = await sessionAuth(c);
  const monitorId = c.req.param("monitorId") ?? "";
  const checkId = c.req.param("checkId") ?? "";
  const wanted = c.req.query("status");
  const only = LISTED.find((s) => s === wanted) ?? null;
  const cursor = cursorOf(c);
  const [m, check, pages] = await Promise.all([
    getMonitor(c.env, auth, monitorId),
    getCheck(auth, monitorId, checkId),
    checkPages(auth, monitorId, checkId, {
      status: only,
      cursor: cursor ?? 0,
      limit: MONITOR.pagesPerList.default,
    }),
  ]);
  const more =
    pages.nextCursor === null
      ? null
      : `${checkHref(check)}?${only ? `status=${only}&` : ""}cursor=${pages.nextCursor}`;
  const body = html`${crumbs([MONITORS, "Monitors"], [`${MONITORS}/${m.monitorId}`, m.name ?? m.url])}
    <dl class="meta card">
      <dt>Status</dt>
      <dd>${status(check.status)}${check.stoppedBy ? ` (stopped by ${check.stoppedBy})` : ""}</dd>
      <dt>Trigger</dt>
      <dd>${check.trigger}${check.baseline ? " (sets the baseline: every page is new)" : ""}</dd>
      <dt>Started</dt>
      <dd>${when(check.createdAt)} UTC</dd>
      <dt>Completed</dt>
      <dd>${when(check.completedAt ?? null)}${check.completedAt ? " UTC" : ""}</dd>
      <dt>Pages</dt>
      <dd>${countsText(check.counts)}</dd>
      <dt>Credits</dt>
      <dd>${check.creditsUsed.toLocaleString("en-US")}</dd>
    </dl>
    ${filters(check, only)}
    ${
      pages.pages.length === 0
        ? html`<p class="hint" data-testid="no-pages">
            No ${only ?? "new, removed, changed or failed"}
            pages${
              check.counts.unchanged > 0
                ? ` (${check.counts.unchanged} unchanged: counted, not listed)`
                : ""
            }.
          </p>`
        : html`${pages.pages.map(pageCard)}`
    }
    ${moreLink(more, "More pages")}`;
  return page(c, {
    title: `Check of ${when(check.createdAt)} UTC`,
    body,
    session,
    current: "monitors",
  });
}

export const monitorPageRoutes = new Hono<DashboardEnv>()
  .get("/monitors", monitorsPage)
  .get("/monitors/:monitorId", (c) => orNotFound(c, () => monitorPage(c)))
  .get("/monitors/:monitorId/checks/:checkId", (c) => orNotFound(c, () => checkPage(c)));
