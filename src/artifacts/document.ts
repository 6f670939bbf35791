/**
 * The branded document an artifact renders: our markdown typography (or the caller's HTML as a
 * body fragment) inside a page we build — a header bar (logo + header text) and a footer on the
 * PNG, the same as running header/footer templates on every PDF page (where the bars are hidden
 * by print CSS). Every branding value reaching markup is escaped; the accent colour and the logo
 * (a data: URI) were validated before they got here.
 */
import type { ArtifactFont } from "../../schemas/artifact";
import { fontStacks, markdownStyles } from "../capture-request/markdown-theme";
import { escapeHtml } from "../encoding";
import { embeddedFamily } from "./fonts";

export interface Theme {
  title: string;
  accent: string;
  font: ArtifactFont;
  /** The @font-face rules of an embedded font (`fontFaces`), or "". */
  fontFaces: string;
  /** The logo as a data: URI, or null. */
  logo: string | null;
  /** Branding texts after Mustache: plain text with PAGE / PAGES marks where `{{page}}`/`{{pages}}` stood. */
  header: string | null;
  footer: string | null;
}

/** Where the running page numbers go: placeholders in the filled branding text. */
export const PAGE = "\uE000page\uE000";
export const PAGES = "\uE000pages\uE000";

const SERIF = `Georgia, "Times New Roman", "Noto Serif", serif`;

export function fontFamily(font: ArtifactFont): string {
  const embedded = embeddedFamily(font);
  if (embedded !== null) return embedded;
  const stacks = fontStacks();
  return font === "serif" ? SERIF : font === "mono" ? stacks.mono : stacks.sans;
}

/** The entities Mustache and marked write for the characters they escape. */
const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#x2F;": "/",
  "&#x60;": "`",
  "&#x3D;": "=",
};

/** Escaped text back to text (escaped once more wherever it becomes markup). */
export function decodeEntities(s: string): string {
  return s.replace(/&(?:amp|lt|gt|quot|#39|#x2F|#x60|#x3D);/g, (e) => ENTITIES[e] ?? e);
}

/** A heading's inner HTML as plain text: tags removed, the common entities decoded, spaces folded. */
export function headingText(inner: string): string {
  return decodeEntities(inner.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

const HEADING = /<h([1-3])((?:\s[^>]*)?)>([\s\S]*?)<\/h\1>/gi;

/**
 * `toc: true`: ids on the h1–h3 headings that have none, and a linked table of contents of the
 * headings after the first one, placed right after it (PDF links become internal links).
 */
export function withToc(html: string): string {
  const entries: Array<{ id: string; level: number; text: string }> = [];
  let n = 0;
  const withIds = html.replace(HEADING, (whole, level: string, attrs: string, inner: string) => {
    const existing = /\sid\s*=\s*"([^"]*)"/i.exec(attrs)?.[1];
    const id = existing ?? `section-${++n}`;
    entries.push({ id, level: Number(level), text: headingText(inner) });
    return existing !== undefined ? whole : `<h${level}${attrs} id="${id}">${inner}</h${level}>`;
  });
  if (entries.length < 2) return withIds;
  const items = entries
    .slice(1)
    .map(
      (e) =>
        `<li class="toc-level-${e.level}"><a href="#${escapeHtml(e.id)}">${escapeHtml(e.text)}</a></li>`,
    )
    .join("");
  const nav = `<nav class="artifact-toc"><p><strong>Contents</strong></p><ol>${items}</ol></nav>`;
  const end = withIds.search(/<\/h[1-3]>/i);
  const close = withIds.indexOf(">", end) + 1;
  return `${withIds.slice(0, close)}\n${nav}\n${withIds.slice(close)}`;
}

/** Where the PNG's `{{pages}}` goes: the capture writes the printed page count into it. */
export const PNG_PAGES_SELECTOR = "span.artifact-pages";

/** Whether branding text uses `{{pages}}`. */
export const usesPageCount = (text: string | null): boolean => text?.includes(PAGES) === true;

/**
 * Branding text as markup: escaped, page marks replaced — Chromium's spans on the PDF; on the
 * PNG page `1` and, for the page count, a span the capture fills with the printed count.
 */
function textMarkup(text: string, pdf: boolean): string {
  const page = pdf ? '<span class="pageNumber"></span>' : "1";
  const pages = pdf ? '<span class="totalPages"></span>' : '<span class="artifact-pages">1</span>';
  return escapeHtml(text).replaceAll(PAGE, page).replaceAll(PAGES, pages);
}

/** Branding text with its page marks removed (titles). */
export function plainText(text: string): string {
  return text.replaceAll(PAGE, "").replaceAll(PAGES, "").replace(/\s+/g, " ").trim();
}

function themeCss(theme: Theme): string {
  return `${theme.fontFaces}
:root { --accent: ${theme.accent}; --link: ${theme.accent}; --rule: ${theme.accent}; }
body { font-family: ${fontFamily(theme.font)}; display: flex; flex-direction: column; min-height: 100vh; }
main.markdown-body { flex: 1 0 auto; width: 100%; }
h1, h2, h3, h4, h5, h6 { color: var(--accent); }
h1 { border-bottom: 3px solid var(--accent); }
h2 { border-bottom: 2px solid var(--accent); }
th { background: var(--accent); color: #fff; }
.artifact-header { display: flex; align-items: center; gap: 12px; min-height: 56px; padding: 8px 24px;
  background: var(--accent); color: #fff; font-weight: 600; -webkit-print-color-adjust: exact; }
.artifact-logo { display: block; height: 40px; width: auto; image-rendering: pixelated; }
.artifact-footer { padding: 8px 24px; border-top: 2px solid var(--accent); font-size: 12px; color: var(--muted); }
.page-break { break-after: page; height: 0; }
.artifact-toc ol { list-style: none; padding-left: 0; }
.artifact-toc .toc-level-3 { padding-left: 1.5em; }
@media print { .artifact-header, .artifact-footer { display: none; } }`;
}

/** The whole document the browser loads: `body` is converted Markdown or the caller's HTML fragment. */
export function artifactDocument(body: string, theme: Theme): string {
  const logo = theme.logo ? `<img class="artifact-logo" src="${theme.logo}" alt="">` : "";
  const header =
    logo || theme.header
      ? `<header class="artifact-header">${logo}<span>${theme.header ? textMarkup(theme.header, false) : ""}</span></header>`
      : "";
  const footer = theme.footer
    ? `<footer class="artifact-footer">${textMarkup(theme.footer, false)}</footer>`
    : "";
  return [
    "<!DOCTYPE html>",
    '<html lang="en" class="light">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(theme.title)}</title>`,
    `<style>${markdownStyles(false)}${themeCss(theme)}</style>`,
    "</head>",
    `<body>${header}<main class="markdown-body">\n${body}\n</main>${footer}</body>`,
    "</html>",
  ].join("\n");
}

const TEMPLATE_STYLE = (theme: Theme) =>
  `width:100%;margin:0 0.6in;font-size:9px;font-family:${fontFamily(theme.font).replaceAll('"', "'")};color:#444;` +
  "display:flex;align-items:center;gap:8px;-webkit-print-color-adjust:exact;";

/** Chromium print templates: the header (logo + text, an accent rule) and the footer on every PDF page. */
export function pdfTemplates(theme: Theme): { header: string | null; footer: string | null } {
  const style = TEMPLATE_STYLE(theme);
  const logo = theme.logo ? `<img src="${theme.logo}" style="height:18px;width:auto;">` : "";
  const header =
    logo || theme.header
      ? `<div style="${style}padding-bottom:4px;border-bottom:1px solid ${theme.accent};">${logo}<span>${theme.header ? textMarkup(theme.header, true) : ""}</span></div>`
      : null;
  const footer = theme.footer
    ? `<div style="${style}justify-content:center;">${textMarkup(theme.footer, true)}</div>`
    : null;
  return { header, footer };
}
