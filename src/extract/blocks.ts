/**
 * Article element → typed blocks for the `json` format. Containers (div, section, figure, …)
 * are walked through; each heading, paragraph, list, code block, quote, table and image becomes
 * one block in document order. Inline content directly inside a container (text, links, emphasis)
 * is gathered into paragraphs. Text is whitespace-collapsed, except code, which keeps its lines.
 */
import { markedLanguage } from "./code";
import { collapse, type DomElement, type DomNode, isElement, TEXT_NODE, visibleText } from "./dom";
import { cellsOf, isHeaderRow, rowsOf } from "./markdown-tables";

export type Block =
  | { type: "heading"; level: number; text: string }
  | { type: "paragraph"; text: string }
  | { type: "list"; ordered: boolean; items: string[] }
  | { type: "code"; language: string | null; text: string }
  | { type: "quote"; text: string }
  | { type: "table"; header: string[] | null; rows: string[][] }
  | { type: "image"; src: string; alt: string; caption: string | null };

const INLINE = new Set([
  "A",
  "ABBR",
  "B",
  "BDI",
  "BDO",
  "CITE",
  "CODE",
  "DATA",
  "DEL",
  "DFN",
  "EM",
  "FONT",
  "I",
  "INS",
  "KBD",
  "MARK",
  "Q",
  "S",
  "SAMP",
  "SMALL",
  "SPAN",
  "STRIKE",
  "STRONG",
  "SUB",
  "SUP",
  "TIME",
  "U",
  "VAR",
  "BR",
  "WBR",
]);
const SKIP = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "HR",
  "BUTTON",
  "INPUT",
  "SELECT",
  "TEXTAREA",
]);

export function toBlocks(content: DomElement): Block[] {
  const blocks: Block[] = [];
  walk(content, blocks);
  return blocks;
}

/** Plain text of a block list: blocks separated by blank lines, list items and rows by lines. */
export function blocksText(blocks: readonly Block[]): string {
  return blocks
    .map((b) => {
      if (b.type === "list") return b.items.map((item) => `- ${item}`).join("\n");
      if (b.type === "table")
        return [...(b.header ? [b.header] : []), ...b.rows].map((r) => r.join("\t")).join("\n");
      if (b.type === "image") return b.caption ?? b.alt;
      return b.text;
    })
    .filter((text) => text !== "")
    .join("\n\n");
}

function walk(container: DomElement, out: Block[]): void {
  let inline: DomNode[] = [];
  const flush = () => {
    const text = collapse(
      inline.map((n) => (n.nodeName === "BR" ? " " : (n.textContent ?? ""))).join(""),
    );
    if (text) out.push({ type: "paragraph", text });
    inline = [];
  };
  for (const node of Array.from(container.childNodes)) {
    if (
      node.nodeType === TEXT_NODE ||
      (isElement(node) && INLINE.has(node.nodeName) && !node.querySelector("img"))
    ) {
      inline.push(node);
      continue;
    }
    if (!isElement(node)) continue;
    flush();
    block(node, out);
  }
  flush();
}

function block(el: DomElement, out: Block[]): void {
  const name = el.nodeName;
  if (SKIP.has(name)) return;
  const heading = /^H([1-6])$/.exec(name);
  if (heading) {
    const text = visibleText(el);
    if (text) out.push({ type: "heading", level: Number(heading[1]), text });
  } else if (name === "P") {
    walk(el, out);
  } else if (name === "UL" || name === "OL") {
    const items = Array.from(el.children)
      .filter((c) => c.nodeName === "LI")
      .map(visibleText)
      .filter(Boolean);
    if (items.length > 0) out.push({ type: "list", ordered: name === "OL", items });
  } else if (name === "PRE") {
    out.push({
      type: "code",
      language: markedLanguage(el),
      text: (el.textContent ?? "").replace(/\n$/, ""),
    });
  } else if (name === "BLOCKQUOTE") {
    const text = visibleText(el);
    if (text) out.push({ type: "quote", text });
  } else if (name === "TABLE") {
    out.push(table(el));
  } else if (name === "IMG") {
    image(el, null, out);
  } else if (name === "FIGURE") {
    const caption = el.querySelector("figcaption");
    const images = Array.from(el.querySelectorAll("img"));
    for (const img of images) image(img, caption ? visibleText(caption) : null, out);
    if (images.length === 0) walk(el, out);
  } else if (name !== "FIGCAPTION") {
    walk(el, out);
  }
}

function table(el: DomElement): Block {
  const rows = rowsOf(el);
  const first = rows[0];
  const text = (tr: DomElement) => cellsOf(tr).map(visibleText);
  if (first && isHeaderRow(first))
    return { type: "table", header: text(first), rows: rows.slice(1).map(text) };
  return { type: "table", header: null, rows: rows.map(text) };
}

function image(img: DomElement, caption: string | null, out: Block[]): void {
  const src = img.getAttribute("src") ?? "";
  if (!/^https?:\/\//i.test(src)) return;
  out.push({ type: "image", src, alt: collapse(img.getAttribute("alt") ?? ""), caption });
}
