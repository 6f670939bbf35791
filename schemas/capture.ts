/**
 * The capture request contract (POST /v1/screenshot, /json; GET subset; render links; batches).
 * Fields are optional here; defaults are applied by `src/capture/spec.ts`, so the normaliser can
 * tell what a caller actually set. Cross-field rules live in `captureRules`; the fields, and the
 * schemas for cookies/headers, actions, PDF options and single values, in ./capture/.
 */
import { z } from "zod";
import { LIMITS } from "./limits";
import { captureFields } from "./capture/fields";
import { pdfMarginIssues } from "./capture/pdf";

export * from "./capture/enums";
export * from "./capture/network";
export * from "./capture/values";
export * from "./capture/actions";
export { pdfMarginIssues, pdfPageRangesSchema, templateProblem } from "./capture/pdf";
export { captureFields };

type Fields = typeof captureFields;
type OptionalShape<T extends Record<string, z.ZodType>> = { [K in keyof T]: z.ZodOptional<T[K]> };

function optionalShape<T extends Record<string, z.ZodType>>(fields: T): OptionalShape<T> {
  const out: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(fields)) out[key] = schema.optional();
  return out as OptionalShape<T>;
}

/** Cross-field rules every capture request obeys, wherever it arrives from. */
export function captureRules(value: Partial<CaptureParams>, ctx: z.RefinementCtx): void {
  if (value.pdfMargin !== undefined) {
    pdfMarginIssues(
      value.pdfMargin,
      value.pdfFormat ?? "A4",
      value.pdfLandscape === true,
      ["pdfMargin"],
      ctx,
    );
  }
  const sources = (["url", "html", "markdown"] as const).filter((k) => value[k] !== undefined);
  if (sources.length !== 1) {
    ctx.addIssue({
      code: "custom",
      path: sources.length === 0 ? ["url"] : [sources[1] ?? "url"],
      message: "Exactly one of url, html or markdown is required.",
    });
  }
  if (value.data !== undefined && value.url !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["data"],
      message: "data is only allowed with html or markdown.",
    });
  }
  if (value.webhookUrl !== undefined && value.async !== true) {
    ctx.addIssue({
      code: "custom",
      path: ["webhookUrl"],
      message: "webhookUrl requires async: true.",
    });
  }
  if (value.storage !== undefined && value.async !== true) {
    ctx.addIssue({
      code: "custom",
      path: ["storage"],
      message: "storage requires async: true (only async results are delivered to a bucket).",
    });
  }
  if (value.clip !== undefined) {
    if (value.selector !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["clip"],
        message: "clip and selector exclude each other.",
      });
    if (value.format === "pdf")
      ctx.addIssue({ code: "custom", path: ["clip"], message: "clip applies to images, not pdf." });
    if (value.clip.y + value.clip.height > LIMITS.fullPageMaxCssPx)
      ctx.addIssue({
        code: "custom",
        path: ["clip", "height"],
        message: `y + height must be at most ${LIMITS.fullPageMaxCssPx}.`,
      });
  }
  if (
    value.omitBackground === true &&
    value.format !== undefined &&
    !["png", "webp"].includes(value.format)
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["omitBackground"],
      message: "omitBackground needs format png or webp.",
    });
  }
  if (value.pdfOutline === true && value.pdfTagged === false) {
    ctx.addIssue({
      code: "custom",
      path: ["pdfTagged"],
      message: "pdfOutline needs a tagged PDF (the outline is built from its structure).",
    });
  }
  if (value.failOnStatus !== undefined && value.url === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["failOnStatus"],
      message: "failOnStatus needs a url target (html and markdown have no HTTP status).",
    });
  }
  if ((value.geoCity !== undefined || value.geoState !== undefined) && value.geo === undefined) {
    ctx.addIssue({
      code: "custom",
      path: [value.geoCity !== undefined ? "geoCity" : "geoState"],
      message: "Requires geo.",
    });
  }
}

export const captureShape = optionalShape(captureFields);
export const captureRequestSchema = z
  .strictObject(captureShape)
  .superRefine(captureRules)
  .meta({ id: "CaptureRequest" });
export type CaptureParams = { [K in keyof Fields]: z.output<Fields[K]> };
export type CaptureRequest = z.output<typeof captureRequestSchema>;
