/**
 * The visible text of a rendered page, one line per block (watches' text comparison): the DOM
 * the capture kept, without script/style/template/hidden content and without the elements the
 * capture hid (hideSelectors, a watch's ignored selectors). linkedom does no layout, so "block"
 * is the HTML element's default display, which is what matters for line-by-line comparison.
 */
import { type DomNode, TEXT_NODE } from "./dom";
import { parseDocument } from "./parse";

const DROPPED = "script, style, noscript, template, head, [hidden], [aria-hidden='true']";

const BLOCKS = new Set(
  "ADDRESS ARTICLE ASIDE BLOCKQUOTE BR DD DETAILS DIALOG DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P PRE SECTION SUMMARY TABLE TBODY TD TFOOT TH THEAD TR UL".split(
    " ",
  ),
);

export function visibleText(html: string, hidden: readonly string[]): string {
  const document = parseDocument(html);
  for (const selector of [DROPPED, ...hidden]) {
    try {
      for (const el of Array.from(document.querySelectorAll(selector))) el.remove();
    } catch {
      // A selector Chromium accepts but linkedom cannot parse: nothing removed for it.
    }
  }
  const parts: string[] = [];
  const walk = (node: DomNode): void => {
    if (node.nodeType === TEXT_NODE) {
      parts.push((node.textContent ?? "").replace(/\s+/g, " "));
      return;
    }
    const block = BLOCKS.has(node.nodeName.toUpperCase());
    if (block) parts.push("\n");
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) parts.push("\n");
  };
  if (document.body) walk(document.body);
  return parts
    .join("")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .join("\n");
}
