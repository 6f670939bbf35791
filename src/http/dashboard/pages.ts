/**
 * Read-only pages: usage (plan, credits, chart, recent jobs, batches, watches and crawls, each
 * read through the account store the API lists it with), plans (the table from
 * src/accounts/plans.ts with the current plan marked) and MCP (the server URL and each
 * client's configuration for it).
 */
import { Hono } from "hono";
import { html } from "hono/html";
import { PLAN_IDS } from "../../../schemas/responses";
import { accountStub } from "../../accounts/directory";
import { PLANS, type Plan } from "../../accounts/plans";
import { ApiError } from "../../errors";
import { publicOrigin } from "../../storage/hosted";
import { clientSnippets, KEY_PLACEHOLDER } from "../mcp/clients";
import { chartDays, usageChart } from "./chart";
import { type Html, copyRow, page } from "./layout";
import { crawlsTable, every, recentTable, when } from "./recent";
import { DASHBOARD, type DashboardContext, type DashboardEnv } from "./session";

const RECENT = 10;
const n = (v: number | null): string => (v === null ? "unlimited" : v.toLocaleString("en-US"));

async function accountSummary(c: DashboardContext) {
  const account = accountStub(c.env, c.get("session").accountId);
  const summary = await account.summary();
  if (!summary) throw new ApiError("NOT_FOUND", "Account not found.");
  return { account, summary };
}

async function usagePage(c: DashboardContext) {
  const session = c.get("session");
  const { account, summary } = await accountSummary(c);
  const now = Date.now();
  const [days, jobs, batches, watches, crawls] = await Promise.all([
    account.credits().byDay(chartDays(now)[0] ?? ""),
    account.jobs().list({ status: null, limit: RECENT, before: null }),
    account.jobs().listBatches({ status: null, limit: RECENT, before: null }),
    account.watches().list({ status: null, limit: RECENT, before: null }),
    account.crawls().list({ status: null, limit: RECENT, before: null }),
  ]);
  const plan = PLANS[summary.plan];
  const u = summary.usage;
  const body = html`<section class="stats">
      <div class="stat"><span>Plan</span><strong data-testid="plan">${plan.name}</strong></div>
      <div class="stat">
        <span>Credits used</span><strong data-testid="credits-used">${n(u.used)}</strong>
        <small>of ${n(u.limit)}</small>
      </div>
      <div class="stat">
        <span>Remaining</span><strong data-testid="credits-remaining">${n(u.remaining)}</strong>
      </div>
      <div class="stat"><span>Resets</span><strong>${u.resetsAt.slice(0, 10)}</strong></div>
      <div class="stat">
        <span>Rate limit</span><strong>${summary.rateLimitPerMinute}</strong
        ><small>requests/min</small>
      </div>
      <div class="stat">
        <span>Read limit</span><strong>${summary.readRateLimitPerMinute}</strong
        ><small>reads/min (polling)</small>
      </div>
    </section>
    <section class="card">
      <h2>Credits per day</h2>
      ${usageChart(days, now)}
    </section>
    ${recentTable({
      title: "Recent jobs",
      empty: html`No async jobs yet (<code>"async": true</code> on a capture).`,
      headers: ["Job", "URL", "Status", "Created", "Result"],
      rows: jobs.items.map(
        (j) =>
          html`<tr>
            <td><code>${j.jobId}</code></td>
            <td class="url">${j.url ?? "(html)"}</td>
            <td><span class="status ${j.status}">${j.status}</span></td>
            <td>${when(j.createdAt)}</td>
            <td>
              ${j.resultUrl ? html`<a href="${j.resultUrl}" rel="noreferrer">result</a>` : (j.errorDetail ?? j.error ?? "")}
            </td>
          </tr>`,
      ),
    })}
    ${recentTable({
      title: "Recent batches",
      empty: html`No batches yet.`,
      headers: ["Batch", "Status", "Jobs", "Created"],
      rows: batches.items.map(
        (b) =>
          html`<tr>
            <td><code>${b.batchId}</code></td>
            <td><span class="status ${b.outcome ?? b.status}">${b.outcome ?? b.status}</span></td>
            <td>${b.completedJobs + b.failedJobs}/${b.totalJobs} (${b.failedJobs} failed)</td>
            <td>${when(b.createdAt)}</td>
          </tr>`,
      ),
    })}
    ${recentTable({
      title: "Watches",
      testId: "watches",
      empty: html`No watches yet (<code>POST /v1/watches</code>).`,
      headers: ["Watch", "Status", "Every", "Last run", "Last change", "Next run"],
      rows: watches.items.map(
        (w) =>
          html`<tr>
            <td class="url" title="${w.url}">${w.name ?? w.url}</td>
            <td>
              <span class="status ${w.status}">${w.status}</span>${
                w.pausedReason ? html`<br /><small>${w.pausedReason}</small>` : ""
              }
            </td>
            <td>${every(w.intervalMinutes)}</td>
            <td>${when(w.lastRunAt)}</td>
            <td>${when(w.lastChangeAt)}</td>
            <td>${when(w.nextRunAt)}</td>
          </tr>`,
      ),
    })}
    ${crawlsTable(crawls.items)}`;
  return page(c, { title: "Usage", body, session, current: "usage" });
}

const yes = (v: boolean): Html => (v ? html`✓` : html`—`);

function planColumn(plan: Plan, current: boolean, suggested: boolean): Html {
  return html`<th scope="col" class="${current ? "current" : suggested ? "suggested" : ""}">
    ${plan.name}${current ? html`<br /><small data-testid="current-plan">your plan</small>` : ""}
  </th>`;
}

async function plansPage(c: DashboardContext) {
  const session = c.get("session");
  const { summary } = await accountSummary(c);
  const suggested = c.req.query("plan");
  const plans = PLAN_IDS.map((id) => PLANS[id]);
  const row = (label: string, cell: (p: Plan) => Html | string) =>
    html`<tr>
      <th scope="row">${label}</th>
      ${plans.map((p) => html`<td>${cell(p)}</td>`)}
    </tr>`;
  const body = html`<p>
      Plan changes are made by an operator for now (the admin API or <code>npm run admin</code>);
      write to support with the plan you want. Payment is not part of this dashboard.
    </p>
    <div class="table-wrap">
      <table class="plans">
        <thead>
          <tr>
            <th></th>
            ${plans.map((p) => planColumn(p, p.id === summary.plan, p.id === suggested))}
          </tr>
        </thead>
        <tbody>
          ${row("Credits / month", (p) => n(p.monthlyCredits))}
          ${row("Requests / minute", (p) => n(p.rateLimitPerMinute))}
          ${row("Reads / minute (polling)", (p) => n(p.readRateLimitPerMinute))}
          ${row("Active async jobs", (p) => n(p.activeJobs))}
          ${row("Largest batch", (p) => (p.batchCap === 0 ? "—" : n(p.batchCap)))}
          ${row("Watches", (p) => n(p.watchCount))}
          ${row("Shortest watch interval", (p) => `${p.watchFloorMinutes} min`)}
          ${row("Watermark", (p) => yes(p.watermark))}
          ${row("Cookies & headers", (p) => yes(p.features.cookies && p.features.headers))}
          ${row("Geo captures", (p) => yes(p.features.geo))}
          ${row("Storage destinations", (p) => yes(p.features.storageDestinations))}
        </tbody>
      </table>
    </div>`;
  return page(c, { title: "Plans", body, session, current: "plans" });
}

function mcpPage(c: DashboardContext) {
  const session = c.get("session");
  const serverUrl = `${publicOrigin(c.env, c.req.url)}/mcp`;
  const body = html`<section class="card">
      <h2>Your MCP server</h2>
      <p>
        AI agents (Claude, Cursor, VS Code, any MCP client) can take screenshots, print PDFs and
        read pages through Edgeshot, billed to this account like the API.
      </p>
      ${copyRow("mcp-url", serverUrl, "mcp-url")}
      <p class="hint">
        Streamable HTTP; send an API key as <code>Authorization: Bearer &lt;key&gt;</code>. Replace
        <code>${KEY_PLACEHOLDER}</code> below with one of your
        <a href="${DASHBOARD}/keys">API keys</a>.
      </p>
    </section>
    ${clientSnippets(serverUrl).map(
      (s) =>
        html`<section class="card">
          <h2>${s.client}</h2>
          <p class="hint">In ${s.where}:</p>
          <pre><code id="mcp-${s.id}">${s.text}</code></pre>
          <button type="button" class="copy" data-copy="mcp-${s.id}">Copy</button>
        </section>`,
    )}`;
  return page(c, { title: "MCP", body, session, current: "mcp" });
}

export const pageRoutes = new Hono<DashboardEnv>()
  .get("/usage", usagePage)
  .get("/plans", plansPage)
  .get("/mcp", mcpPage);
