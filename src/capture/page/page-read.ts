/**
 * What a capture reads from the loaded page besides its outputs: the title and Open Graph tags
 * and the article (extraction) — each bounded in the page before it crosses CDP — and the
 * isolated world that the article and the page content outputs (./page-content.ts) are read in.
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import { formatBytes, LIMITS } from "../../../schemas/limits";
import type { PageArticle, ReadResult } from "../../extract/reader";
import { PAGE_READER } from "../../extract/page-reader.generated";
import { CONSENT_HIDE_SELECTORS } from "./consent-walls";
import { CaptureError, failures } from "../failures";
import { inPage, pageMetadata, serializeWithin } from "./page-scripts";
import type { CaptureSpec } from "../capture-spec";

export interface PageMetadata {
  title: string;
  /** The main document's final HTTP status; null for html/markdown sources. */
  targetStatus: number | null;
  openGraph: { title: string; description: string; image: string; siteName: string };
}

/** Metadata of a page we know nothing about (geo captures, a failed read). */
export const NO_METADATA: PageMetadata = {
  title: "",
  targetStatus: null,
  openGraph: { title: "", description: "", image: "", siteName: "" },
};

/** The page's title and Open Graph tags; only strings, each cut to the limit. */
export async function readMetadata(page: Page, targetStatus: number | null): Promise<PageMetadata> {
  const raw = await inPage<unknown>(page, pageMetadata, LIMITS.pageMetadataChars).catch(() => null);
  const text = (v: unknown) => (typeof v === "string" ? v.slice(0, LIMITS.pageMetadataChars) : "");
  const record = (v: unknown): Record<string, unknown> =>
    typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
  const og = record(record(raw).openGraph);
  return {
    title: text(record(raw).title),
    targetStatus,
    openGraph: {
      title: text(og.title),
      description: text(og.description),
      image: text(og.image),
      siteName: text(og.siteName),
    },
  };
}

/**
 * The page's article, read by the page-reader bundle (src/extract/reader.ts) in an ISOLATED
 * world of ours — its own JS globals and prototypes over the same DOM, so a page that patched
 * `Element.prototype` or `document.querySelectorAll` in its main world cannot steer or break the
 * reading — on a clone of the document (the live page, which may still be screenshotted, is
 * never mutated). Only the article's strings cross CDP. A document over LIMITS.domBytes fails in
 * the page before anything is read (413, as when the DOM itself is asked for).
 */
export async function readArticle(reader: IsolatedReader, spec: CaptureSpec): Promise<ReadResult> {
  const removeSelectors = [
    ...spec.hideSelectors,
    ...(spec.blockCookieBanners ? CONSENT_HIDE_SELECTORS : []),
  ];
  const article = await evaluateIsolated<PageArticle>(
    reader,
    `(${READ_ARTICLE})(${JSON.stringify(LIMITS.domBytes)}, ${JSON.stringify(removeSelectors)})`,
  );
  if (article.kind === "too-large")
    throw new CaptureError(failures.tooLarge("rendered page", formatBytes(LIMITS.domBytes)));
  return article;
}

/** A CDP session of ours on the page and its main frame's id (stable across navigations). */
export interface IsolatedReader {
  session: CDPSession;
  frameId: string;
}

/**
 * Attaches the reader's session. Started before navigation and awaited only when the article is
 * read (profiled: attaching is most of the in-page read's cost); when the load fails first, the
 * session is never used and goes with the context.
 */
export function attachReader(page: Page): Promise<IsolatedReader> {
  const ready = (async () => {
    const session = await page.createCDPSession();
    const { frameTree } = await session.send("Page.getFrameTree");
    return { session, frameId: frameTree.frame.id };
  })();
  ready.catch(() => {}); // a failure surfaces where it is awaited
  return ready;
}

/**
 * Evaluates `expression` in a fresh isolated world of the main frame (CDP
 * Page.createIsolatedWorld; puppeteer's own isolated realm is not public API) and returns its
 * JSON value. A script error rejects; the world goes with the document, the session is detached.
 */
export async function evaluateIsolated<T>(reader: IsolatedReader, expression: string): Promise<T> {
  const { session, frameId } = reader;
  try {
    const { executionContextId } = await session.send("Page.createIsolatedWorld", {
      frameId,
      worldName: "edgeshot-reader",
    });
    const { result, exceptionDetails } = await session.send("Runtime.evaluate", {
      expression,
      contextId: executionContextId,
      returnByValue: true,
    });
    if (exceptionDetails)
      throw new Error(`in-page script failed: ${exceptionDetails.exception?.description ?? ""}`);
    return result.value as T;
  } finally {
    void session.detach().catch(() => {});
  }
}

/** In the page: the DOM-size rule of `serializeWithin`, then the reader on a clone. */
const READ_ARTICLE = `(limit, removeSelectors) => {
  if ((${serializeWithin})(limit) === null) return { kind: "too-large" };
  ${PAGE_READER}
  return EdgeshotReader.readPage(removeSelectors);
}`;
