/**
 * GET /docs/errors: every error code the API answers with — its HTTP status, whose fault it is,
 * what it means and what to do — one section per code anchored by the code (`#INVALID_URL`),
 * which is where each error body's `docs` link points. Generated from the one table,
 * `ERROR_CODES` in src/errors.ts: a code added there is documented here.
 */
import { ERROR_CODES, type ErrorCode, type ErrorCodeInfo, type ErrorFault } from "../../errors";

const FAULT: Record<ErrorFault, string> = {
  request: "Yours: the request",
  plan: "Yours: the plan's limits",
  service: "Ours: retry, or tell us",
  target: "The target page (on 5xx: ours)",
};

function escape(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** Escaped text with `code spans` as <code>. */
function prose(text: string): string {
  return escape(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function statuses(info: ErrorCodeInfo): string {
  return [info.status, ...(info.alsoStatus ?? [])].join(", ");
}

function section(code: ErrorCode, info: ErrorCodeInfo): string {
  return `<section id="${code}">
<h2><a href="#${code}">${code}</a></h2>
<dl>
<dt>HTTP status</dt><dd>${statuses(info)}</dd>
<dt>Whose fault</dt><dd>${FAULT[info.fault]}</dd>
<dt>What it means</dt><dd>${prose(info.meaning)}</dd>
<dt>What to do</dt><dd>${prose(info.action)}</dd>
</dl>
</section>`;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h2{font:600 1.05rem ui-monospace,monospace;margin:1.6rem 0 .4rem}h2 a{color:inherit;text-decoration:none}
section:target{background:#fff8d6;outline:.5rem solid #fff8d6}
dl{display:grid;grid-template-columns:9rem 1fr;gap:.2rem 1rem;margin:0}dt{color:#57606a}dd{margin:0}
code{font:.9em ui-monospace,monospace;background:#f0f2f4;padding:0 .25em;border-radius:3px}
table{border-collapse:collapse}td,th{padding:.15rem .8rem .15rem 0;text-align:left}`;

function render(): string {
  const entries = Object.entries(ERROR_CODES) as Array<[ErrorCode, ErrorCodeInfo]>;
  const index = entries
    .map(
      ([code, info]) =>
        `<tr><td><a href="#${code}"><code>${code}</code></a></td><td>${statuses(info)}</td><td>${FAULT[info.fault]}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Edgeshot API errors</title>
<link rel="icon" href="data:," />
<style>${STYLE}</style>
</head>
<body>
<h1>Errors</h1>
<p>Every error answers with the envelope <code>{"success": false, "error": {"code", "message", "details"?, "docs"}, "meta": {"requestId", "timestamp"}}</code>.
<code>message</code> says what went wrong and names the field; <code>details[]</code> lists each field (<code>path</code>, <code>message</code>);
<code>docs</code> links the code's section below. A 4xx is the request's to fix; a 5xx is ours: retry (after <code>Retry-After</code> when sent),
and quote the <code>requestId</code> if it persists. The <a href="/docs">API reference</a> lists the codes each route answers with.</p>
<table>
<thead><tr><th>Code</th><th>HTTP</th><th>Whose fault</th></tr></thead>
<tbody>
${index}
</tbody>
</table>
${entries.map(([code, info]) => section(code, info)).join("\n")}
</body>
</html>
`;
}

let page: string | null = null;

/** The page's HTML (built once per isolate). */
export function errorDocsPage(): string {
  page ??= render();
  return page;
}

/** No script at all; the inline <style> only. */
export const ERROR_DOCS_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; " +
    "form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "cache-control": "public, max-age=3600",
};
