/** PDF-only rules: header/footer templates, page ranges, margins that leave a printable page. */
import { z } from "zod";
import { LIMITS } from "../limits";
import { maxBytes, maxChars, NOT_EMPTY } from "../primitives";
import type { PDF_FORMATS } from "./enums";

/**
 * A PDF header/footer template loads nothing: no scripts, frames, links to stylesheets, and no
 * URL other than an inline `data:` one (in src, srcset, href, url(), @import). The one reason
 * found, or null.
 */
export function templateProblem(html: string): string | null {
  if (
    /<\s*(script|iframe|frame|object|embed|link|meta|base|svg|video|audio|source|portal)\b/i.test(
      html,
    )
  )
    return "Scripts, frames, embeds, link/meta/base, svg and media elements are not allowed.";
  if (/@import/i.test(html)) return "@import is not allowed.";
  if (/\bon[a-z]+\s*=/i.test(html)) return "Event handler attributes are not allowed.";
  const urls = [
    ...html.matchAll(
      /\b(?:src|href|srcset|action|poster|background)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
  const cssUrls = [...html.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\)/gi)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? "",
  );
  if ([...urls, ...cssUrls].some((u) => !/^\s*data:/i.test(u)))
    return "Only inline data: URLs may be referenced (nothing is loaded while printing).";
  if (/&#|&[a-z]+;|\\/i.test([...urls, ...cssUrls].join("")))
    return "URLs must not contain escapes.";
  return null;
}

export const pdfTemplate = maxBytes(LIMITS.pdfTemplateBytes)
  .min(1, NOT_EMPTY)
  .superRefine((html, ctx) => {
    const problem = templateProblem(html);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  });

/** "1-3,5", "2-": pages counted from 1, ranges ascending. */
export const pdfPageRangesSchema = maxChars(LIMITS.pdfPageRangesChars).superRefine((s, ctx) => {
  const parts = s.split(",").map((p) => p.trim());
  for (const part of parts) {
    const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5})?)?$/.exec(part);
    const from = Number(m?.[1]);
    const to = m?.[2] === undefined ? from : Number(m[2]);
    if (!m || from < 1 || to < from) {
      ctx.addIssue({
        code: "custom",
        message: 'Must be page numbers and ranges such as "1-3,5" (pages count from 1).',
      });
      return;
    }
  }
});
/** PDF page sizes in inches, portrait. */
const PDF_PAGE_INCHES: Record<(typeof PDF_FORMATS)[number], [number, number]> = {
  A4: [210 / 25.4, 297 / 25.4],
  Letter: [8.5, 11],
  Legal: [8.5, 14],
  Tabloid: [11, 17],
  A3: [297 / 25.4, 420 / 25.4],
};
const INCHES_PER_UNIT: Record<string, number> = {
  px: 1 / 96,
  in: 1,
  cm: 1 / 2.54,
  mm: 1 / 25.4,
  pt: 1 / 72,
  pc: 1 / 6,
};
const inches = (length: string | undefined): number => {
  const m = /^(\d+(?:\.\d+)?)([a-z]+)$/.exec(length ?? "0");
  return m ? Number(m[1]) * (INCHES_PER_UNIT[m[2] ?? ""] ?? 0) : 0;
};
/** Margins must leave this much of the page (Chromium refuses an empty content area with a
 *  bare "invalid print parameters"; a Free-plan footer takes 0.4in of a zero bottom margin). */
const PDF_MIN_CONTENT_INCHES = 1;

type PdfMargin = { top?: string; right?: string; bottom?: string; left?: string };

/** Margins that leave too little of the page: an issue per offending pair, at `path`. */
export function pdfMarginIssues(
  margin: PdfMargin,
  size: (typeof PDF_FORMATS)[number],
  landscape: boolean,
  path: ReadonlyArray<string>,
  ctx: z.RefinementCtx,
): void {
  const [w, h] = PDF_PAGE_INCHES[size];
  const [width, height] = landscape ? [h, w] : [w, h];
  for (const [sides, extent] of [
    [["top", "bottom"], height],
    [["left", "right"], width],
  ] as const) {
    if (inches(margin[sides[0]]) + inches(margin[sides[1]]) > extent - PDF_MIN_CONTENT_INCHES) {
      ctx.addIssue({
        code: "custom",
        path: [...path, sides[0]],
        message: `${sides[0]} + ${sides[1]} margins must leave at least ${PDF_MIN_CONTENT_INCHES}in of the ${extent.toFixed(2)}in page.`,
      });
    }
  }
}
