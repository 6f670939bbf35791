/**
 * The dashboard's page frame: head (one stylesheet, one script file — no inline code, so the
 * CSP needs no `unsafe-inline`), navigation, sign-out form. Server-rendered with Hono's `html`
 * helper, which escapes every interpolated value.
 */
import type { Context } from "hono";
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DASHBOARD, type ActiveSession } from "./session";

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const NAV = [
  ["usage", "Usage"],
  ["keys", "API keys"],
  ["playground", "Playground"],
  ["monitors", "Monitors"],
  ["webhooks", "Webhooks"],
  ["requests", "Requests"],
  ["mcp", "MCP"],
  ["plans", "Plans"],
] as const;

export type NavId = (typeof NAV)[number][0];

export interface PageInput {
  title: string;
  body: Html;
  session?: ActiveSession | null;
  current?: NavId;
  status?: ContentfulStatusCode;
  /** A page of wide tables: the main column takes the window's width (up to 1400 px). */
  wide?: boolean;
}

/** A value with its Copy button (the script copies the text of the element `id`). */
export function copyRow(id: string, value: string, testId?: string): Html {
  return html`<div class="copyrow">
    <code id="${id}" ${testId ? html`data-testid="${testId}"` : ""}>${value}</code>
    <button type="button" class="copy" data-copy="${id}">Copy</button>
  </div>`;
}

function nav(session: ActiveSession, current: NavId | undefined): Html {
  return html`<nav class="top">
    <a class="brand" href="${DASHBOARD}/usage">Edgeshot</a>
    <ul>
      ${NAV.map(
        ([id, label]) =>
          html`<li>
            <a href="${DASHBOARD}/${id}" ${id === current ? html`aria-current="page"` : ""}
              >${label}</a
            >
          </li>`,
      )}
      <li><a href="/docs" data-testid="docs-link">Docs</a></li>
    </ul>
    <form method="post" action="${DASHBOARD}/logout" class="logout">
      <input type="hidden" name="_csrf" value="${session.csrf}" />
      <span class="who">${session.email}</span>
      <button type="submit" class="link">Sign out</button>
    </form>
  </nav>`;
}

export function page(c: Context, input: PageInput): Response | Promise<Response> {
  const session = input.session ?? null;
  const doc = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${input.title} · Edgeshot</title>
        <link rel="icon" type="image/svg+xml" href="${DASHBOARD}/assets/favicon.svg" />
        <link rel="stylesheet" href="${DASHBOARD}/assets/style.css" />
        <link rel="stylesheet" href="${DASHBOARD}/assets/playground.css" />
        <script type="module" src="${DASHBOARD}/assets/app.js"></script>
      </head>
      <body>
        ${session ? nav(session, input.current) : html`<nav class="top"><span class="brand">Edgeshot</span></nav>`}
        <main class="${input.wide ? "wide" : ""}">
          <h1>${input.title}</h1>
          ${input.body}
        </main>
      </body>
    </html>`;
  return c.html(doc, input.status ?? 200);
}

/** A form's hidden CSRF field. */
export const csrfField = (session: ActiveSession): Html =>
  html`<input type="hidden" name="_csrf" value="${session.csrf}" />`;

/** A message above a form (errors are role=alert so screen readers announce them). */
export const notice = (kind: "error" | "ok", text: string | null): Html =>
  text
    ? html`<p class="notice ${kind}" role="${kind === "error" ? "alert" : "status"}">${text}</p>`
    : html``;
