/**
 * The Requests page: the account's last 200 API requests of the last 7 days (the request log,
 * src/accounts/request-log.ts — what GET /v1/requests answers), filterable by status class
 * with plain links (`?status=4xx`).
 */
import { Hono } from "hono";
import { html } from "hono/html";
import { LIMITS } from "../../../schemas/limits";
import { STATUS_CLASSES, type StatusClass } from "../../../schemas/request-log";
import type { RequestLogEntry } from "../../../schemas/responses";
import { accountStub } from "../../accounts/directory";
import { type Html, page } from "./layout";
import { DASHBOARD, type DashboardContext, type DashboardEnv } from "./session";

const isClass = (v: string | undefined): v is StatusClass =>
  (STATUS_CLASSES as readonly string[]).includes(v ?? "");

function filters(current: StatusClass | null): Html {
  const link = (label: string, value: StatusClass | null) =>
    html`<a
      href="${DASHBOARD}/requests${value ? `?status=${value}` : ""}"
      class="${value === current ? "current" : ""}"
      ${value === current ? html`aria-current="page"` : ""}
      >${label}</a
    >`;
  return html`<p class="filters" data-testid="request-filters">
    ${link("All", null)} ${STATUS_CLASSES.map((s) => link(s, s))}
  </p>`;
}

/**
 * The key column: the key's name, else its prefix. Keys are never deleted, so an entry with
 * neither was made without a key: by the dashboard's playground, in a session.
 */
function keyCell(r: RequestLogEntry): Html | string {
  if (r.keyName) return r.keyName;
  return r.keyPrefix ? html`<code>${r.keyPrefix}</code>` : html`<small>dashboard</small>`;
}

function row(r: RequestLogEntry): Html {
  return html`<tr data-request-id="${r.requestId}">
    <td class="nowrap">${r.at.slice(0, 19).replace("T", " ")}</td>
    <td><code>${r.method} ${r.route}</code></td>
    <td><span class="status s${String(r.status).charAt(0)}xx">${r.status}</span></td>
    <td>${r.errorCode ?? "—"}</td>
    <td>${r.credits ?? "—"}</td>
    <td class="nowrap">${r.durationMs} ms</td>
    <td class="id"><code>${r.requestId}</code></td>
    <td>${keyCell(r)}</td>
  </tr>`;
}

async function requestsPage(c: DashboardContext) {
  const session = c.get("session");
  const wanted = c.req.query("status");
  const status = isClass(wanted) ? wanted : null;
  const items = await accountStub(c.env, session.accountId)
    .requests()
    .list({ status, limit: LIMITS.requestLogEntries });
  const body = html`<p>
      The last ${LIMITS.requestLogEntries} API requests of the last ${LIMITS.requestLogDays} days,
      newest first (also <code>GET /v1/requests</code>), the playground's included. Routes are shown
      as patterns: the query and the path's values are never kept.
    </p>
    ${filters(status)}
    ${
      items.length === 0
        ? html`<p class="hint">No requests${status ? ` answered ${status}` : ""} yet.</p>`
        : html`<div class="table-wrap">
            <table data-testid="requests">
              <thead>
                <tr>
                  <th>Time (UTC)</th>
                  <th>Request</th>
                  <th>Status</th>
                  <th>Error</th>
                  <th>Credits</th>
                  <th>Duration</th>
                  <th>Request id</th>
                  <th>Key</th>
                </tr>
              </thead>
              <tbody>
                ${items.map(row)}
              </tbody>
            </table>
          </div>`
    }`;
  return page(c, { title: "Requests", body, session, current: "requests", wide: true });
}

export const requestPageRoutes = new Hono<DashboardEnv>().get("/requests", requestsPage);
