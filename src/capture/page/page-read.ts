/**
 * What a capture reads from the loaded page besides its outputs: the title and Open Graph tags
 * and the article (extraction) — each bounded in the page before it crosses CDP — and the
 * isolated world that the article and the page content outputs (./page-content.ts) are read in.
 */
import type { Page } from "@cloudflare/puppeteer";
import { formatBytes, LIMITS } from "../../../schemas/limits";
import type { PageArticle, ReadResult } from "../../extract/reader";
import { PAGE_READER } from "../../extract/page-reader.generated";
import { CONSENT_HIDE_SELECTORS } from "./consent-walls";
import { CaptureError, failures } from "../failures";
import { pageMetadata, serializeWithin } from "./page-scripts";
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

/**
 * One read in the capture's isolated world: its expression, and what its JSON value becomes
 * (which may throw: the capture's failure).
 */
export interface PageRead<T> {
  expression: string;
  take(value: unknown): T;
}

type ReadValues<R> = { [K in keyof R]: R[K] extends PageRead<infer T> ? T : never };

/**
 * `reads` in ONE evaluation in `reader`'s world, in their order: the title and tags, the page
 * content and the article a crawl page asks for are one round trip and one script, not three
 * (docs/CAPTURE.md, "Page content: rendered HTML, text, links, scraped elements").
 */
export async function readTogether<R extends Record<string, PageRead<unknown>>>(
  reader: IsolatedReader,
  reads: R,
): Promise<ReadValues<R>> {
  const keys = Object.keys(reads);
  // Awaited in turn: a part may answer a promise (the completeness report's settle).
  const parts = keys.map((k) => `${JSON.stringify(k)}: await (${reads[k]?.expression ?? "null"})`);
  const values = await reader.evaluate<Record<string, unknown>>(
    `(async () => ({${parts.join(", ")}}))()`,
  );
  return Object.fromEntries(keys.map((k) => [k, reads[k]?.take(values[k])])) as ReadValues<R>;
}

/** A read of nothing, for a part a capture does not ask for. */
export const NOTHING: PageRead<null> = { expression: "null", take: () => null };

/**
 * The page's title and Open Graph tags; only strings, each cut to the limit. A read that fails
 * in the page is no metadata, never the capture's failure.
 */
export function metadataRead(targetStatus: number | null): PageRead<PageMetadata> {
  const max = LIMITS.pageMetadataChars;
  return {
    expression: `(() => { try { return (${pageMetadata})(${max}); } catch { return null; } })()`,
    take(raw) {
      const text = (v: unknown) => (typeof v === "string" ? v.slice(0, max) : "");
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
    },
  };
}

/**
 * The page's article, read by the page-reader bundle (src/extract/reader.ts) in the capture's
 * ISOLATED world — its own JS globals and prototypes over the same DOM, so a page that patched
 * `Element.prototype` or `document.querySelectorAll` in its main world cannot steer or break the
 * reading — on a clone of the document (the live page, which may still be screenshotted, is
 * never mutated). Only the article's strings cross CDP. A document over LIMITS.domBytes fails in
 * the page before anything is read (413, as when the DOM itself is asked for).
 */
export function articleRead(spec: CaptureSpec, kept: boolean): PageRead<ReadResult> {
  const removeSelectors = [
    ...spec.hideSelectors,
    ...(spec.blockCookieBanners ? CONSENT_HIDE_SELECTORS : []),
  ];
  const read = kept ? READ_KEPT_ARTICLE : READ_ARTICLE;
  return {
    expression: `(${read})(${JSON.stringify(LIMITS.domBytes)}, ${JSON.stringify(removeSelectors)})`,
    take(value) {
      if (value === null) throw new ReadScriptsMissing();
      const article = value as PageArticle;
      if (article.kind === "too-large")
        throw new CaptureError(failures.tooLarge("rendered page", formatBytes(LIMITS.domBytes)));
      return article;
    },
  };
}

/**
 * A kept read (`articleRead`, `contentRead` with `kept`) found no kept script in the document
 * (./page-kit.ts; one it did not run in: inline HTML written into about:blank, a document older
 * than the setting): read again with the scripts' source (`kept` false).
 */
export class ReadScriptsMissing extends Error {
  constructor() {
    super("the read scripts are not in the document");
  }
}

/**
 * An isolated world in the page's current document, where the article and the page content
 * outputs are read: its own JS globals and prototypes over the page's DOM, which nothing of the
 * page's can reach.
 */
export interface IsolatedReader {
  /** Evaluates `expression` in the world and returns its JSON value; a script error rejects. */
  evaluate<T>(expression: string): Promise<T>;
}

/**
 * The capture's reader: puppeteer's own isolated world of the main frame, which Chromium makes
 * for every document puppeteer's page sees (it is out of puppeteer's public types, pinned
 * version, like ./page-client.ts). A world of our own (`Page.createIsolatedWorld`) was one more
 * V8 context a document, and a CDP session attached for each read one more again: together about
 * a third of the reads' Chromium CPU on a crawl's kept page (docs/CRAWL.md, "Against a crawler
 * you run yourself"). Each read is one function expression that defines nothing global there,
 * so it and puppeteer's own helpers in that world never meet. A document replaced while a read
 * runs fails it as the page leaving (./page-capture.ts).
 */
export function isolatedReader(page: Page): IsolatedReader {
  return {
    async evaluate<T>(expression: string): Promise<T> {
      const frame = page.mainFrame() as unknown as { isolatedRealm?: () => Realm };
      const realm = frame.isolatedRealm?.();
      if (!realm) throw new Error("puppeteer: the main frame has no isolated world");
      return (await realm.evaluate(expression)) as T;
    },
  };
}

/** What of puppeteer's isolated realm the reader uses. */
interface Realm {
  evaluate(expression: string): Promise<unknown>;
}

/**
 * In the page: `reader` (what gives `EdgeshotReader`, or answers null without it), the DOM-size
 * rule of `serializeWithin`, then the reader on a clone.
 */
const readArticleWith = (reader: string) => `(limit, removeSelectors) => {
  ${reader}
  if ((${serializeWithin})(limit) === null) return { kind: "too-large" };
  return EdgeshotReader.readPage(removeSelectors);
}`;

/** With the reader's source. */
const READ_ARTICLE = readArticleWith(PAGE_READER);

/** With the reader the document keeps (./page-kit.ts); null when it has none. */
const READ_KEPT_ARTICLE = readArticleWith(
  `if (typeof EdgeshotReader === "undefined") return null;`,
);
