/**
 * From a validated artifact request to what the capture pipeline runs: templates filled from
 * `data` (content and every branding text, with the same bounded Mustache engine as captures),
 * the content converted (Markdown with our typography, or HTML as a body fragment), the logo
 * fetched and inlined, the branded document built, and a CaptureSpec with the page setup.
 * Synchronous validation first; the logo fetch (network) last, all before any credit.
 */
import {
  ARTIFACT_DEFAULT_MARGIN,
  DEFAULT_ARTIFACT_FORMATS,
  type ArtifactFormat,
  type ArtifactRequest,
} from "../../schemas/artifact";
import { LIMITS } from "../../schemas/limits";
import type { AuthContext } from "../accounts/auth";
import { markdownToHtml } from "../capture-request/markdown-theme";
import type { Field } from "../capture-request/mustache/field";
import { renderTemplate } from "../capture-request/mustache/render";
import { watermarkFor } from "../capture-request/prepare";
import type { CaptureSpec } from "../capture/capture-spec";
import { toCaptureSpec } from "../capture-request/spec";
import { ApiError } from "../errors";
import {
  artifactDocument,
  decodeEntities,
  headingText,
  PAGE,
  PAGES,
  PNG_PAGES_SELECTOR,
  pdfTemplates,
  plainText,
  usesPageCount,
  withToc,
  type Theme,
} from "./document";
import { fontFaces } from "./fonts";
import { fetchLogo } from "./logo";

export interface PreparedArtifact {
  spec: CaptureSpec;
  formats: ArtifactFormat[];
  title: string;
  ttlSeconds: number;
}

/** The accent when branding gives none (our typography's link blue). */
const DEFAULT_ACCENT = "#0969da";
const DEFAULT_MARGIN = ARTIFACT_DEFAULT_MARGIN;
const PAGE_BREAK = /^[ \t]*---pagebreak---[ \t]*$/gm;

/** A branding text: always a template (so `{{page}}`/`{{pages}}` work without data), as plain
 *  text — Mustache's escapes undone; it is escaped once where it becomes markup. */
function fillText(
  text: string | undefined,
  data: Record<string, unknown> | undefined,
  field: Field,
): string | null {
  if (text === undefined) return null;
  const filled = renderTemplate(text, { ...data, page: PAGE, pages: PAGES }, field);
  return decodeEntities(filled);
}

/** Markdown errors name `markdown` (their capture field); here the field is `content`. */
function asContent<T>(convert: () => T): T {
  try {
    return convert();
  } catch (err) {
    if (!(err instanceof ApiError) || !err.details?.some((d) => d.path === "markdown")) throw err;
    throw new ApiError(err.code, err.message.replace("markdown", "content"), {
      details: err.details.map((d) => (d.path === "markdown" ? { ...d, path: "content" } : d)),
    });
  }
}

/** The text of the first h1–h6 of converted content. */
function firstHeading(html: string): string | null {
  const m = /<h[1-6]\b[^>]*>([\s\S]*?)<\/h[1-6]>/i.exec(html);
  const text = m?.[1] ? headingText(m[1]) : "";
  return text === "" ? null : text.slice(0, LIMITS.artifactTextChars);
}

export async function prepareArtifact(
  env: Env,
  auth: AuthContext,
  req: ArtifactRequest,
): Promise<PreparedArtifact> {
  const { data, branding = {}, pageSetup = {} } = req;
  const source = data === undefined ? req.content : renderTemplate(req.content, data, "content");
  const converted =
    (req.inputFormat ?? "markdown") === "markdown"
      ? asContent(() =>
          markdownToHtml(source.replace(PAGE_BREAK, '\n<div class="page-break"></div>\n')),
        )
      : source;
  const body = req.toc === true ? withToc(converted) : converted;
  const header = fillText(branding.header, data, "branding.header");
  const footer = fillText(branding.footer, data, "branding.footer");
  const titleText = fillText(req.title, data, "title");
  const title =
    [titleText, firstHeading(body), header]
      .map((t) => (t === null ? "" : plainText(t)))
      .find((t) => t !== "") ?? "Document";

  const logo = branding.logo === undefined ? null : await fetchLogo(env, branding.logo);
  const font = branding.font ?? "sans";
  const theme: Theme = {
    title,
    accent: branding.accentColor ?? DEFAULT_ACCENT,
    font,
    fontFaces: await fontFaces(env.ASSETS, font),
    logo,
    header,
    footer,
  };

  const margin = pageSetup.margin ?? DEFAULT_MARGIN;
  const sides =
    typeof margin === "string"
      ? { top: margin, right: margin, bottom: margin, left: margin }
      : margin;
  const spec = toCaptureSpec(
    {
      html: artifactDocument(body, theme),
      width: pageSetup.width ?? LIMITS.artifactPng.width,
      height: pageSetup.height ?? LIMITS.artifactPng.height,
      fullPage: pageSetup.fullPage ?? false,
      deviceScaleFactor: 1,
      waitUntil: "load",
      blockAds: true,
      pdfFormat: pageSetup.size ?? "A4",
      pdfLandscape: pageSetup.orientation === "landscape",
      pdfPrintBackground: true,
      pdfScale: pageSetup.scale ?? LIMITS.pdfScale.default,
      pdfMargin: {
        top: sides.top ?? DEFAULT_MARGIN,
        right: sides.right ?? DEFAULT_MARGIN,
        bottom: sides.bottom ?? DEFAULT_MARGIN,
        left: sides.left ?? DEFAULT_MARGIN,
      },
    },
    { watermark: watermarkFor(env, auth) },
  );
  const templates = pdfTemplates(theme);
  return {
    spec: {
      ...spec,
      pdf: {
        ...spec.pdf,
        headerTemplate: templates.header,
        footerTemplate: templates.footer,
        outline: true,
        // The PNG's "of N": the document's printed page count, not 1.
        pagesInto: usesPageCount(header) || usesPageCount(footer) ? PNG_PAGES_SELECTOR : null,
      },
    },
    formats: [...(req.formats ?? DEFAULT_ARTIFACT_FORMATS)],
    title,
    ttlSeconds: req.expiresIn ?? LIMITS.artifactExpiry.default,
  };
}
