/**
 * The usage page's tables of recent items (./pages.ts): a card with a table, or a hint when there
 * are none; and the crawls' table, read from `account.crawls().list()` like GET /v1/crawls.
 * Times and intervals are written here the one way every page shows them (./monitors.ts too).
 */
import { html } from "hono/html";
import type { CrawlSummary } from "../../../schemas/crawl";
import type { Html } from "./layout";

/** An ISO timestamp as `YYYY-MM-DD HH:MM` (UTC), or a dash for none. */
export const when = (iso: string | null): string =>
  iso ? iso.slice(0, 16).replace("T", " ") : "—";

/** An interval (a watch's, a monitor's) in the largest whole unit: 30 min, 3 h, 1 d. */
export const every = (minutes: number): string =>
  minutes % 1440 === 0
    ? `${minutes / 1440} d`
    : minutes % 60 === 0
      ? `${minutes / 60} h`
      : `${minutes} min`;

/** A card with a table of recent items, or a hint when there are none. */
export function recentTable(t: {
  title: string;
  testId?: string;
  empty: Html;
  headers: string[];
  rows: Html[];
}): Html {
  return html`<section class="card">
    <h2>${t.title}</h2>
    ${
      t.rows.length === 0
        ? html`<p class="hint">${t.empty}</p>`
        : html`<div class="table-wrap">
            <table ${t.testId ? html`data-testid="${t.testId}"` : ""}>
              <thead>
                <tr>
                  ${t.headers.map((h) => html`<th>${h}</th>`)}
                </tr>
              </thead>
              <tbody>
                ${t.rows}
              </tbody>
            </table>
          </div>`
    }
  </section>`;
}

/**
 * A crawl's pages: rendered of its limit, then what else became of the URLs it met. URLs still
 * queued when a crawl ended (its limit, credits or a cancel stopped it) will never be rendered:
 * "not reached", not "queued".
 */
function crawlPages(k: CrawlSummary): string {
  const { rendered, skipped, failed, queued } = k.counts;
  const running = k.status === "queued" || k.status === "running";
  const rest = [
    skipped ? `${skipped} skipped` : "",
    failed ? `${failed} failed` : "",
    queued ? `${queued} ${running ? "queued" : "not reached"}` : "",
  ].filter(Boolean);
  return [`${rendered} of ${k.limit} rendered`, ...rest].join(", ");
}

/** The account's crawls, newest first (the store's order). */
export function crawlsTable(crawls: CrawlSummary[]): Html {
  return recentTable({
    title: "Crawls",
    testId: "crawls",
    empty: html`No crawls yet (<code>POST /v1/crawl</code>).`,
    headers: ["Start URL", "Status", "Pages", "Credits", "Created", "Completed"],
    rows: crawls.map(
      (k) =>
        html`<tr data-crawl-id="${k.crawlId}">
          <td class="url" title="${k.url}">${k.url}</td>
          <td>
            <span class="status ${k.status}">${k.status}</span>${
              k.stoppedBy ? html`<br /><small>stopped by ${k.stoppedBy}</small>` : ""
            }
          </td>
          <td>${crawlPages(k)}</td>
          <td>${k.creditsUsed.toLocaleString("en-US")}</td>
          <td>${when(k.createdAt)}</td>
          <td>${when(k.completedAt ?? null)}</td>
        </tr>`,
    ),
  });
}
