/**
 * The dashboard's one stylesheet and one script, served as files so the CSP needs no
 * `unsafe-inline`. Pages work without the script except the playground and the copy buttons.
 */

export const STYLE_CSS = `
:root { --fg:#1b1f24; --muted:#5b6673; --bg:#f6f7f9; --card:#fff; --line:#dde1e6; --accent:#2457d6; --bad:#b42318; --good:#067647; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color:var(--fg); background:var(--bg); }
main { max-width: 1040px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 8px 0 16px; }
h2 { font-size: 1.1rem; margin: 0 0 8px; }
a { color: var(--accent); }
code, pre { font-family: ui-monospace, "JetBrains Mono", monospace; font-size: .9em; }
pre { background:#0f172a; color:#e2e8f0; padding:12px; border-radius:6px; overflow:auto; }
nav.top { display:flex; flex-wrap:wrap; align-items:center; gap:8px 16px; padding:10px 16px; background:#111827; color:#fff; }
nav.top a { color:#e5e7eb; text-decoration:none; }
nav.top a[aria-current="page"] { color:#fff; text-decoration:underline; }
nav.top .brand { font-weight:700; color:#fff; }
nav.top ul { display:flex; flex-wrap:wrap; gap:4px 14px; list-style:none; margin:0; padding:0; }
nav.top .logout { margin-left:auto; display:flex; gap:8px; align-items:center; }
nav.top .who { color:#9ca3af; font-size:.85em; }
.card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:16px; margin:0 0 16px; }
.narrow { max-width: 420px; }
form label { display:block; margin: 0 0 12px; font-weight:600; }
input, select, textarea { display:block; width:100%; margin-top:4px; padding:8px; font:inherit; border:1px solid var(--line); border-radius:6px; background:#fff; }
input[type=checkbox] { display:inline-block; width:auto; margin:0 6px 0 0; }
button { font:inherit; padding:8px 14px; border-radius:6px; border:1px solid var(--accent); background:var(--accent); color:#fff; cursor:pointer; }
button.link { background:none; border:none; color:#e5e7eb; padding:0; text-decoration:underline; }
button.danger { background:var(--bad); border-color:var(--bad); }
button.copy, button.snippet, button.copy-like { background:#fff; color:var(--accent); }
form.inline { display:inline-flex; flex-wrap:wrap; gap:8px; align-items:flex-end; margin-right:8px; }
form.inline label { margin:0; }
.notice { padding:10px 12px; border-radius:6px; }
.notice.error { background:#fef3f2; color:var(--bad); border:1px solid #fecdca; }
.notice.ok { background:#ecfdf3; color:var(--good); }
.hint, small { color:var(--muted); font-weight:400; }
.warn { color:var(--bad); }
.reveal { border-color:var(--accent); }
.copyrow { display:flex; flex-wrap:wrap; gap:8px; align-items:center; }
.copyrow code { background:#eef2ff; padding:6px 8px; border-radius:4px; word-break:break-all; }
.table-wrap { overflow-x:auto; }
table { border-collapse:collapse; width:100%; background:var(--card); }
th, td { text-align:left; padding:6px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
td.url { max-width: 280px; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
.status.active, .status.completed, .status.delivered { color:var(--good); }
.status.paused { color:var(--muted); }
.status.revoked, .status.failed { color:var(--bad); }
td.url { word-break:break-all; max-width:18rem; }
.status.s2xx { color:var(--good); } .status.s4xx, .status.s5xx { color:var(--bad); }
.filters a { margin-right:.8rem; } .filters a.current { font-weight:600; text-decoration:none; }
.stats { display:grid; grid-template-columns:repeat(auto-fit, minmax(150px, 1fr)); gap:12px; margin-bottom:16px; }
.stat { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:12px; }
.stat span { display:block; color:var(--muted); font-size:.85em; }
.stat strong { font-size:1.4rem; }
.stat small { margin-left:4px; }
svg.chart { width:100%; height:200px; display:block; }
svg.chart .bar { fill:var(--accent); }
svg.chart .bar.today { fill:#f59e0b; }
svg.chart .axis { stroke:var(--line); }
svg.chart .label { fill:var(--muted); font-size:11px; }
svg.chart .label.end { text-anchor:end; }
table.plans th.current { background:#eef2ff; }
table.plans th.suggested { background:#fffbeb; }
fieldset { border:1px solid var(--line); border-radius:6px; margin:0 0 12px; }
.fields { display:grid; grid-template-columns:repeat(auto-fit, minmax(200px, 1fr)); gap:10px 16px; }
.field label { margin:0; }
.field.check { display:flex; flex-wrap:wrap; align-items:center; gap:4px; }
.field.check small { flex-basis:100%; }
.field[hidden] { display:none; }
pre.pg-text { max-height:480px; white-space:pre-wrap; word-break:break-all; }
.actions { display:flex; gap:12px; align-items:center; }
#pg-output img { max-width:100%; border:1px solid var(--line); }
#pg-output iframe { width:100%; height:600px; border:1px solid var(--line); }
dl.meta { display:grid; grid-template-columns:max-content 1fr; gap:4px 12px; }
dl.meta dt { color:var(--muted); }
dl.meta dd { margin:0; }
.tabs { display:flex; gap:8px; margin-bottom:8px; }
@media (max-width: 600px) {
  main { padding:10px; }
  nav.top .logout { margin-left:0; }
  th, td { padding:4px; font-size:.9em; }
}
`;

export const APP_JS = `"use strict";
(() => {
  const $ = (sel, root = document) => root.querySelector(sel);

  // Copy buttons: data-copy names the element whose text is copied.
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button.copy");
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = "Copied";
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = "Selected: press Ctrl+C";
    }
  });

  const form = document.getElementById("playground");
  if (!form) return;

  const actionSelect = $("#pg-action");
  const action = () => actionSelect.value;
  /** Which field scopes an action takes: page content routes refuse image and PDF options. */
  const SCOPES = {
    screenshot: ["page", "image", "pdf"],
    snapshot: ["page", "image"],
    content: ["page"], text: ["page"], scrape: ["page"], links: ["page"],
  };
  const showScopes = () => {
    for (const f of form.querySelectorAll(".field[data-scope]")) {
      f.hidden = !SCOPES[action()].includes(f.dataset.scope);
    }
    $("#pg-elements-field").hidden = action() !== "scrape";
  };
  actionSelect.addEventListener("change", showScopes);
  showScopes();

  /** The JSON body the form describes for the chosen action: only what differs from the defaults. */
  function body() {
    const out = {};
    for (const el of form.querySelectorAll("[data-kind]")) {
      if (!SCOPES[action()].includes(el.closest(".field").dataset.scope)) continue;
      const kind = el.dataset.kind;
      if (kind === "bool") {
        if (String(el.checked) !== el.dataset.default) out[el.name] = el.checked;
      } else if (kind === "number") {
        if (el.value !== "") out[el.name] = Number(el.value);
      } else if (kind === "lines") {
        const lines = el.value.split("\\n").map((s) => s.trim()).filter(Boolean);
        if (lines.length) out[el.name] = lines;
      } else if (kind === "enum") {
        if (el.value !== "" && el.value !== el.dataset.default) out[el.name] = el.value;
      } else if (el.value !== "") out[el.name] = el.value;
    }
    if (action() === "text") out.contentFormat = "text";
    if (action() === "scrape") {
      out.elements = $("#pg-elements").value.split("\\n").map((s) => s.trim()).filter(Boolean)
        .map((selector) => ({ selector }));
    }
    return out;
  }

  /** The API route of the chosen action, and its SDK call. */
  const ROUTES = {
    screenshot: ["/v1/screenshot/json", "screenshotJson", "screenshot_json"],
    content: ["/v1/content", "content", "content"], text: ["/v1/content", "content", "content"],
    scrape: ["/v1/scrape", "scrape", "scrape"], links: ["/v1/links", "links", "links"],
    snapshot: ["/v1/snapshot", "snapshot", "snapshot"],
  };
  const endpointOf = () => location.origin + ROUTES[action()][0];
  // A JSON value as a Python literal (the Python snippet's request dict).
  const py = (v) => v === null ? "None" : v === true ? "True" : v === false ? "False"
    : Array.isArray(v) ? "[" + v.map(py).join(", ") + "]"
    : typeof v === "object" ? "{" + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ": " + py(x)).join(", ") + "}"
    : JSON.stringify(v);
  const snippets = {
    curl: (b) => "curl " + endpointOf() + " \\\\\\n  -H 'Authorization: Bearer YOUR_API_KEY' \\\\\\n  -H 'Content-Type: application/json' \\\\\\n" + (action() === "screenshot" ? "" : "  -H 'Accept: application/json' \\\\\\n") + "  -d '" + JSON.stringify(b).replace(/'/g, "'\\\\''") + "'",
    js: (b) => 'import { Edgeshot } from "@edgeshot/sdk";\\n\\nconst edgeshot = new Edgeshot({ apiKey: "YOUR_API_KEY", baseUrl: ' + JSON.stringify(location.origin) + ' });\\nconst result = await edgeshot.' + ROUTES[action()][1] + '(' + JSON.stringify(b, null, 2) + ');\\nconsole.log(result.meta.usage);',
    python: (b) => "from edgeshot import Edgeshot, meta_of\\n\\nedgeshot = Edgeshot(\\"YOUR_API_KEY\\", base_url=" + JSON.stringify(location.origin) + ")\\nresult = edgeshot." + ROUTES[action()][2] + "(" + py(b) + ")\\nprint(meta_of(result).get(\\"usage\\"))",
  };
  let lang = "curl";
  const showSnippet = () => { $("#pg-snippet").textContent = snippets[lang](body()); };
  for (const b of document.querySelectorAll("button.snippet")) {
    b.addEventListener("click", () => { lang = b.dataset.lang; showSnippet(); });
  }
  form.addEventListener("input", showSnippet);
  actionSelect.addEventListener("change", showSnippet);

  function row(list, name, value) {
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = value;
    dd.dataset.meta = name;
    list.append(dt, dd);
  }

  async function post(path) {
    const res = await fetch(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-csrf-token": form.dataset.csrf,
      },
      body: JSON.stringify(body()),
      credentials: "same-origin",
    });
    return res.json();
  }

  const escapeAttr = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  $("#pg-link-button").addEventListener("click", async () => {
    const status = $("#pg-status");
    status.textContent = "Minting…";
    try {
      const json = await post("/dashboard/api/render-link");
      const tags = $("#pg-link-tags");
      $("#pg-link").hidden = false;
      if (!json.success) {
        tags.textContent = json.error.code + ": " + json.error.message;
        tags.dataset.errorCode = json.error.code;
      } else {
        const u = escapeAttr(json.data.url);
        tags.textContent = '<img src="' + u + '" alt="">\\n<meta property="og:image" content="' + u + '">';
        tags.dataset.url = json.data.url;
      }
      status.textContent = "";
    } catch (err) {
      status.textContent = "Failed: " + err;
    }
  });

  /** A text block: every string from the page is shown as text, never as markup. */
  function block(id, text) {
    const pre = document.createElement("pre");
    pre.id = id;
    pre.className = "pg-text";
    pre.textContent = text;
    return pre;
  }

  /** A page content answer: its strings as text (textContent), never parsed as HTML. */
  function showPageResult(chosen, d, output, meta) {
    if (chosen === "snapshot") {
      const img = document.createElement("img");
      img.id = "pg-image";
      img.alt = "Screenshot of " + d.url;
      const bytes = Uint8Array.from(atob(d.screenshot), (c) => c.charCodeAt(0));
      img.src = URL.createObjectURL(new Blob([bytes], { type: d.contentType }));
      output.append(img);
    }
    if (chosen === "content" || chosen === "snapshot") output.append(block("pg-html", d.html));
    if (chosen === "text") output.append(block("pg-text", d.text));
    if (chosen === "links") {
      const list = document.createElement("ol");
      list.id = "pg-links";
      for (const link of d.links) {
        const li = document.createElement("li");
        li.textContent = link.url + (link.text ? " — " + link.text : "") + (link.internal ? "" : " (external)");
        list.append(li);
      }
      output.append(list);
    }
    if (chosen === "scrape") output.append(block("pg-scrape", JSON.stringify(d.results, null, 2)));
    row(meta, "page", d.url);
    row(meta, "title", d.metadata.title);
    if (d.truncated) row(meta, "truncated", "yes: cut at its limit");
    row(meta, "wait strategy", d.waitStrategy);
    row(meta, "load time", d.loadTimeMs + " ms");
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const status = $("#pg-status");
    const output = $("#pg-output");
    const meta = $("#pg-meta");
    status.textContent = "Capturing…";
    form.querySelector("button[type=submit]").disabled = true;
    try {
      const chosen = action();
      const kind = chosen === "text" ? "content" : chosen;
      const json = await post(chosen === "screenshot" ? "/dashboard/api/capture" : "/dashboard/api/page/" + kind);
      output.replaceChildren();
      meta.replaceChildren();
      $("#pg-result").hidden = false;
      if (!json.success) {
        status.textContent = "";
        const p = document.createElement("p");
        p.className = "notice error";
        p.setAttribute("role", "alert");
        p.dataset.errorCode = json.error.code;
        p.textContent = json.error.code + ": " + json.error.message;
        output.append(p);
        return;
      }
      const d = json.data;
      if (chosen !== "screenshot") {
        showPageResult(chosen, d, output, meta);
        const usage = json.meta.usage || {};
        row(meta, "credits left", usage.remaining === null ? "unlimited" : String(usage.remaining));
        status.textContent = "Done";
        return;
      }
      const bytes = Uint8Array.from(atob(d.image), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: d.contentType }));
      if (d.contentType === "application/pdf") {
        const frame = document.createElement("iframe");
        frame.src = url;
        frame.title = "Captured PDF";
        output.append(frame);
      } else {
        const img = document.createElement("img");
        img.id = "pg-image";
        img.alt = "Capture of " + d.url;
        img.src = url;
        output.append(img);
      }
      row(meta, "size", d.width + " × " + d.height + " px, " + d.bytesSize.toLocaleString() + " bytes");
      row(meta, "format", d.format + " (" + d.contentType + ")");
      row(meta, "quality", d.quality);
      row(meta, "wait strategy", d.waitStrategy);
      row(meta, "load time", d.loadTimeMs + " ms");
      const usage = json.meta.usage || {};
      row(meta, "credits left", usage.remaining === null ? "unlimited" : String(usage.remaining));
      status.textContent = "Done";
    } catch (err) {
      status.textContent = "Failed: " + err;
    } finally {
      form.querySelector("button[type=submit]").disabled = false;
    }
  });
})();
`;

/** The favicon: a camera-shutter mark in the nav's colours, as SVG (no binary asset to build). */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#111827"/>
<circle cx="16" cy="16" r="9" fill="none" stroke="#60a5fa" stroke-width="3"/>
<circle cx="16" cy="16" r="3.5" fill="#e5e7eb"/>
</svg>
`;
