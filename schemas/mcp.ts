/**
 * The MCP tools' inputs (POST /mcp, docs/MCP.md): each a strict subset of a REST contract's own
 * fields (`captureShape`, `extractRequestSchema`, the render-link body), picked — never
 * redefined — so bounds, defaults, descriptions and messages are the REST ones. A tool sends
 * the parsed arguments on to the REST route's own code, which checks them again with the route's
 * full schema (its cross-field rules). The JSON Schemas in tools/list are `z.toJSONSchema` of
 * these (src/http/mcp/tools.ts).
 *
 * Why subsets: a tool's schema is read by a model on every turn, so it offers what an agent
 * needs to look at or read a page; everything else stays on the REST routes.
 */
import { z } from "zod";
import { captureShape, captureRules } from "./capture";
import { extractRequestSchema } from "./extract";
import { renderLinkRequestSchema } from "./render-link";

function pick<K extends keyof typeof captureShape>(keys: readonly K[]) {
  return Object.fromEntries(keys.map((k) => [k, captureShape[k]])) as Pick<typeof captureShape, K>;
}

/** What a page is and how it loads: every capture tool takes these. */
const TARGET = [
  "url",
  "html",
  "markdown",
  "width",
  "height",
  "device",
  "darkMode",
  "waitUntil",
  "waitForSelector",
  "delay",
  "timeout",
  "blockAds",
  "blockCookieBanners",
  "hideSelectors",
] as const;

/** What an image capture adds. */
const IMAGE = ["fullPage", "selector", "clip", "deviceScaleFactor", "quality", "cacheTtl"] as const;

export const screenshotToolSchema = z
  .strictObject({
    ...pick([...TARGET, ...IMAGE]),
    format: captureShape.format.unwrap().exclude(["pdf"]).optional().meta({
      description: "Image format of the hosted full-size output (the pdf tool makes PDFs).",
      default: "png",
    }),
  })
  .superRefine(captureRules);

export const pdfToolSchema = z
  .strictObject(
    pick([
      ...TARGET,
      "pdfFormat",
      "pdfLandscape",
      "pdfPrintBackground",
      "pdfScale",
      "pdfPageRanges",
      "cacheTtl",
    ]),
  )
  .superRefine(captureRules);

/** read_page always answers Markdown: the reader's other formats are for programs. */
export const readPageToolSchema = extractRequestSchema.omit({ extractFormat: true });

export const renderLinkToolSchema = z
  .strictObject({
    ...pick([...TARGET, ...IMAGE, "format"]),
    expiresIn: renderLinkRequestSchema.shape.expiresIn,
  })
  .superRefine(captureRules);

export const accountUsageToolSchema = z.strictObject({});

export type ScreenshotToolInput = z.output<typeof screenshotToolSchema>;
export type PdfToolInput = z.output<typeof pdfToolSchema>;
