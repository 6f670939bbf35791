/**
 * The page content outputs — rendered HTML, visible text, links, scraped elements — read in
 * the page in ONE evaluation, in an isolated world of ours (./page-read.ts: same DOM, our own
 * globals and prototypes, so a page that patched `querySelectorAll`, `getHTML` or `JSON` in its
 * own world cannot steer the reading), after the page controls and before any image is taken.
 * Every string is bounded in the page before it crosses CDP (docs/CAPTURE.md, "Page content").
 */
import type { ContentPlan } from "../capture-spec";
import { LIMITS } from "../../../schemas/limits";
import type { PageLinkData, ScrapeResultData } from "../../../schemas/responses";
import { CaptureError, failures } from "../failures";
import type { RawFields } from "../../extract/fields";
import type { RawMarkup } from "../../extract/markup";
import { ReadScriptsMissing, type PageRead } from "./page-read";
import { READ_FIELDS, READ_MARKUP, STRUCTURED_BOUNDS } from "./page-structured";

/** What the page gave for each part of the plan; null for a part not asked for. */
export interface PageContent {
  html: { html: string; truncated: boolean } | null;
  text: { text: string; truncated: boolean } | null;
  links: { links: PageLinkData[]; truncated: boolean } | null;
  elements: ScrapeResultData[] | null;
  /** Fields by selector as strings, the page's base URL, and whether the budget cut them. */
  fields: { values: RawFields; base: string; truncated: boolean } | null;
  markup: RawMarkup | null;
}

type InPageAnswer = PageContent | { refusedSelector: number } | { refusedField: string };

/** The bounds the in-page reader applies (schemas/limits.ts). */
const BOUNDS = {
  htmlBytes: LIMITS.contentHtmlBytes,
  textBytes: LIMITS.contentTextBytes,
  matches: LIMITS.scrapeMatches,
  scrapeBytes: LIMITS.scrapeBytes,
  links: LIMITS.linksMax,
  linkUrlChars: LIMITS.linkUrlChars,
  linkTextChars: LIMITS.linkTextChars,
  ...STRUCTURED_BOUNDS,
};

/**
 * What `plan` asks for, as one read of the capture's (./page-read.ts `readTogether`); a selector
 * Chromium refuses after all is the caller's 400.
 */
export function contentRead(plan: ContentPlan, kept: boolean): PageRead<PageContent> {
  // Kept: the script the document keeps (./page-kit.ts), null when it has none.
  const read = kept
    ? `(typeof EdgeshotContent === "undefined" ? () => null : EdgeshotContent)`
    : `(${READ_ALL})`;
  return {
    expression: `${read}(${JSON.stringify(plan)}, ${JSON.stringify(BOUNDS)})`,
    take(value) {
      if (value === null) throw new ReadScriptsMissing();
      const answer = value as InPageAnswer;
      if ("refusedSelector" in answer)
        throw new CaptureError(
          failures.selectorRefused(`elements[${answer.refusedSelector}].selector`),
        );
      if ("refusedField" in answer)
        throw new CaptureError(failures.selectorRefused(answer.refusedField));
      return answer;
    },
  };
}

/**
 * In the page. The flat tree is walked: open shadow roots in place of their host's children,
 * slots by what is assigned to them, same-origin frames' documents in place of the frame
 * (a cross-origin frame's document is not readable from here: it contributes nothing).
 */
const READ_CONTENT = `(plan, bounds) => {
  const encoder = new TextEncoder();
  const byteLength = (s) => (s.length * 3 <= 1024 ? s.length * 3 : encoder.encode(s).byteLength);
  const cutBytes = (s, limit) => {
    if (s.length * 3 <= limit) return { value: s, cut: false };
    const bytes = encoder.encode(s);
    if (bytes.byteLength <= limit) return { value: s, cut: false };
    const value = new TextDecoder().decode(bytes.subarray(0, limit)).replace(/\\uFFFD$/, "");
    return { value, cut: true };
  };
  const cutChars = (s, n) => (s.length <= n ? s : Array.from(s).slice(0, n).join(""));
  const frameDocument = (el) => {
    if (el.localName !== "iframe" && el.localName !== "frame") return null;
    try { return el.contentDocument; } catch { return null; }
  };

  // ---- visible text: one line per block, of what is rendered. Boxes laid out side by side
  // (inline-block, inline-flex, …, table cells) are separated by a space, and so is an inline
  // element from a neighbouring element it is set apart from by its margin, padding or border,
  // as the eye reads them: a menu of links with margins between them is "Home Article Shop",
  // never "HomeArticleShop" (a word next to its own text — "<code>x</code>." — stays joined).
  const SKIPPED = new Set(["script", "style", "noscript", "template", "head", "title", "meta", "link"]);
  const INLINE = /^(inline|inline-block|inline-flex|inline-grid|inline-table|contents|ruby|ruby-text)$/;
  const ATOMIC = /^inline-(block|flex|grid|table)$/;
  const apart = (style, side, neighbour) => neighbour !== null && neighbour.nodeType === 1
    && (parseFloat(style["margin" + side]) > 0 || parseFloat(style["padding" + side]) > 0
      || parseFloat(style["border" + side + "Width"]) > 0);
  const textOf = (root, limit) => {
    const parts = [];
    let length = 0;
    const push = (s) => { parts.push(s); length += s.length; };
    const walk = (node) => {
      if (length > limit) return;
      if (node.nodeType === 3) {
        const parent = node.parentElement;
        const style = parent ? getComputedStyle(parent) : null;
        if (style && style.visibility !== "visible") return;
        const raw = node.data;
        push(style && /^pre/.test(style.whiteSpace) ? raw : raw.replace(/\\s+/g, " "));
        return;
      }
      if (node.nodeType === 11 || node.nodeType === 9) {
        for (const child of node.childNodes) walk(child);
        return;
      }
      if (node.nodeType !== 1) return;
      const el = node;
      if (SKIPPED.has(el.localName)) return;
      if (el.localName === "br") { push("\\n"); return; }
      if (typeof el.checkVisibility === "function" && el.localName !== "slot" && !el.checkVisibility()) return;
      const style = el.localName === "slot" ? null : getComputedStyle(el);
      const display = style ? style.display : "contents";
      const block = !INLINE.test(display);
      const cell = display === "table-cell";
      const inline = !block && style !== null && display !== "contents";
      const atomic = inline && ATOMIC.test(display);
      if (block && !cell) push("\\n");
      else if (atomic || (inline && apart(style, "Left", el.previousSibling))) push(" ");
      const frame = frameDocument(el);
      if (frame) { if (frame.body) walk(frame.body); }
      else if (el.shadowRoot) walk(el.shadowRoot);
      else if (el.localName === "slot") {
        const assigned = el.assignedNodes();
        for (const child of assigned.length > 0 ? assigned : el.childNodes) walk(child);
      } else for (const child of el.childNodes) walk(child);
      if (cell || atomic || (inline && apart(style, "Right", el.nextSibling))) push(" ");
      else if (block) push("\\n");
    };
    walk(root);
    return parts.join("").split("\\n").map((l) => l.replace(/[ \\t\\r\\f]+/g, " ").trim())
      .filter((l) => l !== "").join("\\n");
  };

  // ---- the documents and shadow roots a flat-tree reader sees
  const shadowRootsOf = (root, into) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) { into.push(el.shadowRoot); shadowRootsOf(el.shadowRoot, into); }
    }
    return into;
  };
  const roots = () => {
    const all = [];
    const add = (doc) => {
      all.push(doc, ...shadowRootsOf(doc, []));
      for (const f of doc.querySelectorAll("iframe, frame")) {
        const inner = frameDocument(f);
        if (inner && inner.documentElement) add(inner);
      }
    };
    add(document);
    return all;
  };

  // ---- rendered HTML: the document with its open shadow roots as declarative ones
  const serialize = (doc, shadowRoots) => {
    let html = "";
    for (const node of doc.childNodes) {
      if (node === doc.documentElement) {
        const shell = node.cloneNode(false).outerHTML;
        const close = shell.lastIndexOf("</");
        html += shell.slice(0, close)
          + node.getHTML({ serializableShadowRoots: false, shadowRoots })
          + shell.slice(close);
      } else html += new XMLSerializer().serializeToString(node);
    }
    return html;
  };
  const URL_ATTRIBUTES = new Set(["href", "src", "action", "formaction", "xlink:href", "data", "srcdoc"]);
  const scripted = (name, value) => name.startsWith("on")
    || (URL_ATTRIBUTES.has(name) && /^javascript:/i.test(value.replace(/[\\u0000-\\u0020]/g, "")));
  const stripScripts = (root) => {
    for (const s of root.querySelectorAll("script")) s.remove();
    for (const el of root.querySelectorAll("*")) {
      for (const a of Array.from(el.attributes)) {
        if (scripted(a.name.toLowerCase(), a.value)) el.removeAttribute(a.name);
      }
      if (el.localName === "template") stripScripts(el.content);
    }
  };
  const readHtml = (options) => {
    let html = serialize(document, shadowRootsOf(document, []));
    if (options.stripScripts) {
      const copy = new DOMParser().parseFromString(html, "text/html");
      stripScripts(copy);
      html = serialize(copy, []);
    }
    const { value, cut } = cutBytes(html, bounds.htmlBytes);
    return { html: value, truncated: cut };
  };

  // ---- links
  const pageHost = location.hostname;
  const readLinks = (options) => {
    const byUrl = new Map();
    let truncated = false;
    for (const root of roots()) {
      for (const el of root.querySelectorAll("a[href], area[href]")) {
        let url;
        try { url = new URL(el.getAttribute("href").trim(), el.baseURI); } catch { continue; }
        const http = url.protocol === "http:" || url.protocol === "https:";
        if (!http && !options.includeNonHttp) continue;
        if (http) url.hash = "";
        const href = url.href;
        const internal = http && pageHost !== "" && url.hostname === pageHost;
        if (options.internalOnly && !internal) continue;
        if (options.visibleOnly) {
          const box = el.getBoundingClientRect();
          const shown = el.localName === "area" || (el.checkVisibility({ visibilityProperty: true })
            && box.width > 0 && box.height > 0);
          if (!shown) continue;
        }
        if (href.length > bounds.linkUrlChars) { truncated = true; continue; }
        const text = cutChars(textOf(el, bounds.linkTextChars).replace(/\\s+/g, " ")
          || (el.getAttribute("aria-label") || el.getAttribute("title") || el.textContent || "").replace(/\\s+/g, " ").trim(), bounds.linkTextChars);
        const seen = byUrl.get(href);
        if (seen) { if (seen.text === "" && text !== "") seen.text = text; continue; }
        if (byUrl.size >= bounds.links) { truncated = true; continue; }
        const rel = (el.getAttribute("rel") || "").trim().replace(/\\s+/g, " ");
        byUrl.set(href, { url: href, text, rel: cutChars(rel, bounds.linkTextChars), internal });
      }
    }
    return { links: Array.from(byUrl.values()), truncated };
  };

  // ---- scraped elements
  const readElements = (elements) => {
    let budget = bounds.scrapeBytes;
    const spend = (s) => {
      const { value, cut } = cutBytes(s, Math.max(budget, 0));
      budget -= byteLength(value);
      return { value, cut };
    };
    const results = [];
    for (let i = 0; i < elements.length; i++) {
      const { selector, attributes } = elements[i];
      const wanted = attributes ? attributes.map((n) => n.toLowerCase()) : null;
      let found;
      try { found = document.querySelectorAll(selector); } catch { return { refusedSelector: i }; }
      const matches = [];
      let truncated = found.length > bounds.matches;
      for (const el of Array.from(found).slice(0, bounds.matches)) {
        if (budget <= 0) { truncated = true; break; }
        const text = spend(textOf(el, budget));
        const html = spend(el.outerHTML);
        const attrs = {};
        for (const a of Array.from(el.attributes)) {
          if (wanted && !wanted.includes(a.name.toLowerCase())) continue;
          const value = spend(a.value);
          attrs[a.name] = value.value;
          truncated = truncated || value.cut;
        }
        const r = el.getBoundingClientRect();
        matches.push({
          text: text.value, html: html.value, attributes: attrs,
          box: { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height },
        });
        truncated = truncated || text.cut || html.cut;
      }
      results.push({ selector, matches, truncated });
    }
    return results;
  };

  let elements = null;
  if (plan.elements) {
    const read = readElements(plan.elements);
    if (!Array.isArray(read)) return read;
    elements = read;
  }
  let text = null;
  if (plan.text) {
    const { value, cut } = cutBytes(textOf(document, bounds.textBytes), bounds.textBytes);
    text = { text: value, truncated: cut };
  }
  return {
    html: plan.html ? readHtml(plan.html) : null,
    text,
    links: plan.links ? readLinks(plan.links) : null,
    elements,
  };
}`;

/** In the page: the content reader, then the structured data readers (./page-structured.ts). */
export const READ_ALL = `(plan, bounds) => {
  const read = (${READ_CONTENT})(plan, bounds);
  if (read.refusedSelector !== undefined) return read;
  read.fields = null;
  if (plan.fields) {
    const fields = (${READ_FIELDS})(plan.fields, bounds.fields);
    if (fields.refusedField !== undefined) return fields;
    read.fields = fields;
  }
  read.markup = plan.markup ? (${READ_MARKUP})(bounds.markup) : null;
  return read;
}`;
