/**
 * The artifact request contract (POST /v1/artifact): Markdown or an HTML body fragment plus a
 * branding theme → a branded PDF and/or PNG and a hosted share page. Every object is strict, so
 * an unknown field anywhere is a 400 naming it. Defaults are applied by src/artifacts/request.ts.
 */
import { z } from "zod";
import { dataSchema, PDF_FORMATS, pdfMarginIssues } from "./capture";
import { LIMITS } from "./limits";
import {
  cssLength,
  hasControlChars,
  intIn,
  maxBytes,
  maxChars,
  NOT_EMPTY,
  numberIn,
} from "./primitives";

export const ARTIFACT_FORMATS = ["pdf", "png"] as const;
export const INPUT_FORMATS = ["markdown", "html"] as const;
export const ORIENTATIONS = ["portrait", "landscape"] as const;
/** Font families: the generic stacks, and web fonts embedded by the service (src/artifacts/fonts.ts). */
export const ARTIFACT_FONTS = [
  "sans",
  "serif",
  "mono",
  "inter",
  "merriweather",
  "jetbrains-mono",
] as const;
/** PDF margin on every side the caller does not set. */
export const ARTIFACT_DEFAULT_MARGIN = "0.75in";
export const DEFAULT_ARTIFACT_FORMATS: ReadonlyArray<(typeof ARTIFACT_FORMATS)[number]> = [
  "pdf",
  "png",
];

/**
 * A CSS color as the artifact theme accepts it: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, or
 * `rgb()/rgba()/hsl()/hsla()` with plain numeric arguments. Nothing else reaches a stylesheet.
 */
const NUM = String.raw`\s*-?\d{1,3}(?:\.\d{1,4})?(?:%|deg)?\s*`;
const COLOR = new RegExp(
  String.raw`^(?:#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|(?:rgba?|hsla?)\(${NUM}(?:[, ]${NUM}){2}(?:[,/]${NUM})?\))$`,
);
export const cssColor = z
  .string()
  .max(64, "Must be at most 64 characters.")
  .regex(COLOR, "Must be a CSS color such as #0a7cff, rgb(10 124 255) or hsl(210 100% 52%).");

/** One line of text (header, footer, title): no control characters, bounded. */
const textLine = maxChars(LIMITS.artifactTextChars).refine(
  (s) => !hasControlChars(s),
  "Must not contain control characters.",
);

const L = LIMITS;

export const brandingSchema = z.strictObject({
  logo: z
    .string()
    .min(1, NOT_EMPTY)
    .max(L.urlChars, `Must be at most ${L.urlChars} characters.`)
    .optional(),
  accentColor: cssColor.optional(),
  font: z.enum(ARTIFACT_FONTS).optional(),
  header: textLine.optional(),
  footer: textLine.optional(),
});

export const pageSetupSchema = z.strictObject({
  size: z.enum(PDF_FORMATS).optional(),
  orientation: z.enum(ORIENTATIONS).optional(),
  margin: z
    .union([
      cssLength,
      z.strictObject({
        top: cssLength.optional(),
        right: cssLength.optional(),
        bottom: cssLength.optional(),
        left: cssLength.optional(),
      }),
    ])
    .optional(),
  scale: numberIn(L.pdfScale.min, L.pdfScale.max).optional(),
  width: intIn(L.width.min, L.width.max).optional(),
  height: intIn(L.height.min, L.height.max).optional(),
  fullPage: z.boolean().optional(),
});

export const artifactRequestSchema = z
  .strictObject({
    content: maxBytes(L.artifactContentBytes).min(1, NOT_EMPTY),
    inputFormat: z.enum(INPUT_FORMATS).optional(),
    formats: z
      .array(z.enum(ARTIFACT_FORMATS))
      .min(1, "At least one format.")
      .max(ARTIFACT_FORMATS.length, `At most ${ARTIFACT_FORMATS.length} formats.`)
      .refine((f) => new Set(f).size === f.length, "Formats must be distinct.")
      .optional(),
    title: textLine.optional(),
    /** A linked table of contents after the first heading. */
    toc: z.boolean().optional(),
    branding: brandingSchema.optional(),
    pageSetup: pageSetupSchema.optional(),
    data: dataSchema.optional(),
    expiresIn: intIn(L.artifactExpiry.min, L.artifactExpiry.max, "seconds").optional(),
  })
  .superRefine((value, ctx) => {
    const setup = value.pageSetup;
    if (setup?.margin !== undefined) {
      const m = setup.margin;
      const d = ARTIFACT_DEFAULT_MARGIN;
      const sides =
        typeof m === "string"
          ? { top: m, right: m, bottom: m, left: m }
          : { top: d, right: d, bottom: d, left: d, ...m };
      pdfMarginIssues(
        sides,
        setup.size ?? "A4",
        setup.orientation === "landscape",
        ["pageSetup", "margin"],
        ctx,
      );
    }
  })
  .meta({ id: "ArtifactRequest" });

export type ArtifactRequest = z.output<typeof artifactRequestSchema>;
export type ArtifactFormat = (typeof ARTIFACT_FORMATS)[number];
export type ArtifactFont = (typeof ARTIFACT_FONTS)[number];
