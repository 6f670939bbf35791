/**
 * GFM tables as Turndown rules. Written here rather than taken from turndown-plugin-gfm: that
 * plugin (and its forks) reads `HTMLTableElement.rows`, which linkedom does not implement, and
 * keeps header-less tables as raw HTML. Here every table becomes a pipe table: the header is the
 * <thead> row or a first row of <th> cells, else an empty header row (GFM requires one); rows are
 * padded to the widest row, `colspan` cells leave empty cells after them, and cell content is
 * kept on one line with pipes escaped.
 */
import type TurndownService from "turndown";
import { type DomElement, isElement } from "./dom";

const SECTIONS = new Set(["THEAD", "TBODY", "TFOOT"]);
/** Per table (Turndown visits each row): its width in columns and its first row. */
const shapes = new WeakMap<DomElement, { columns: number; first: DomElement | undefined }>();

export function tableRules(td: TurndownService): void {
  td.addRule("tableCell", {
    filter: ["th", "td"],
    replacement: (content: string, cell: DomElement) => {
      const text = content
        .replace(/\s*\n+\s*/g, " ")
        .replace(/\|/g, "\\|")
        .trim();
      return ` ${text} |${" |".repeat(span(cell) - 1)}`;
    },
  });

  td.addRule("tableRow", {
    filter: "tr",
    replacement: (content: string, tr: DomElement) => {
      const table = tableOf(tr);
      if (!table) return content;
      const { columns, first } = shapeOf(table);
      const row = `|${content}${"  |".repeat(Math.max(0, columns - cellCount(tr)))}`;
      if (first !== tr) return `\n${row}`;
      const separator = `|${" --- |".repeat(columns)}`;
      if (isHeaderRow(tr)) return `\n${row}\n${separator}`;
      return `\n|${"  |".repeat(columns)}\n${separator}\n${row}`;
    },
  });

  td.addRule("tableSection", {
    filter: ["thead", "tbody", "tfoot"],
    replacement: (content: string) => content,
  });
  td.addRule("tableCaption", { filter: "caption", replacement: () => "" });

  td.addRule("table", {
    filter: "table",
    replacement: (content: string, table: DomElement) => {
      const caption = Array.from(table.children).find((c) => c.nodeName === "CAPTION");
      const title = caption ? (caption.textContent ?? "").replace(/\s+/g, " ").trim() : "";
      const body = content.replace(/^\n+|\n+$/g, "");
      return `\n\n${title ? `${title}\n\n` : ""}${body}\n\n`;
    },
  });
}

/** The table's rows in order, not those of tables nested in its cells. */
export function rowsOf(table: DomElement): DomElement[] {
  const rows: DomElement[] = [];
  for (const child of Array.from(table.children)) {
    if (child.nodeName === "TR") rows.push(child);
    else if (SECTIONS.has(child.nodeName))
      rows.push(...Array.from(child.children).filter((r) => r.nodeName === "TR"));
  }
  return rows;
}

export function cellsOf(tr: DomElement): DomElement[] {
  return Array.from(tr.children).filter((c) => c.nodeName === "TD" || c.nodeName === "TH");
}

export function isHeaderRow(tr: DomElement): boolean {
  const cells = cellsOf(tr);
  return (
    tr.parentElement?.nodeName === "THEAD" ||
    (cells.length > 0 && cells.every((c) => c.nodeName === "TH"))
  );
}

function tableOf(tr: DomElement): DomElement | null {
  let node = tr.parentNode;
  while (node && isElement(node) && node.nodeName !== "TABLE") node = node.parentNode;
  return node && isElement(node) ? node : null;
}

function span(cell: DomElement): number {
  const n = Number(cell.getAttribute("colspan") ?? 1);
  return Number.isInteger(n) && n > 1 ? Math.min(n, 100) : 1;
}

function cellCount(tr: DomElement): number {
  return cellsOf(tr).reduce((sum, cell) => sum + span(cell), 0);
}

function shapeOf(table: DomElement): { columns: number; first: DomElement | undefined } {
  let shape = shapes.get(table);
  if (!shape) {
    const rows = rowsOf(table);
    shape = { columns: rows.reduce((max, tr) => Math.max(max, cellCount(tr)), 1), first: rows[0] };
    shapes.set(table, shape);
  }
  return shape;
}
