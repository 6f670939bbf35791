/**
 * Crawl URLs: the one normal form of a link (so the frontier dedupes what a browser would load
 * as the same page), the crawl's scope, and its include/exclude path globs.
 *
 * Normalisation is the WHATWG URL parser's (the one `fetch()` and Chromium use), plus dropping
 * the fragment; the registrable domain of the "domain" scope comes from siteOf in ../hosts.ts (the Public Suffix
 * List, private suffixes included, as elsewhere here: `a.github.io` and `b.github.io` are two
 * sites); globs are ./glob.ts's, the dialect people know from .gitignore-style tools (`*` within a
 * segment, `**` across), matched in linear time.
 */
import { CRAWL } from "../../schemas/limits";
import { siteOf } from "../hosts";
import { compileGlob, type GlobMeter } from "./glob";

/**
 * `input` resolved against `base`, as an http(s) href: scheme and host lower-cased, default
 * port dropped (the parser does both), the fragment dropped, the query kept byte for byte.
 * Null for anything else (mailto:, javascript:, data:, unparseable).
 */
export function normalizeUrl(input: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  return url.href;
}

/**
 * How far a crawl may go from its start URL:
 * - `path`: the start's origin, under the start's directory (`/docs/intro` → `/docs/`);
 * - `host`: the start's host name and port, http or https;
 * - `domain`: the start's registrable domain and its subdomains (an IP address or a one-label
 *   host such as `localhost` is only itself).
 */
export type CrawlScope = "path" | "host" | "domain";

/** `/docs/intro` → `/docs/`, `/docs/` → `/docs/`, `/` → `/`. */
function directoryOf(pathname: string): string {
  return pathname.slice(0, pathname.lastIndexOf("/") + 1);
}

export function inScope(start: URL, candidate: URL, scope: CrawlScope): boolean {
  switch (scope) {
    case "path":
      return (
        candidate.origin === start.origin &&
        candidate.pathname.startsWith(directoryOf(start.pathname))
      );
    case "host":
      return candidate.hostname === start.hostname && candidate.port === start.port;
    case "domain":
      return siteOf(candidate.hostname) === siteOf(start.hostname);
  }
}

/**
 * Why a URL is left out by the path globs: "pattern", or "budget" when the meter's limit ran out
 * before the globs could tell (fail closed: left out too), or "ok" when it may be crawled.
 */
export type PatternVerdict = "ok" | "pattern" | "budget";

/** A pathname starts with `/`: a glob that does not (`blog/**`) is anchored there too. */
function anchored(glob: string): string {
  return glob.startsWith("/") || glob.startsWith("**") ? glob : `/${glob}`;
}

/**
 * A matcher of a URL's pathname (raw, as the parser gives it: percent-encoded, no query) against
 * the include and exclude globs: no include glob means everything is included; an exclude glob
 * wins over any include. Dot files and folders match like any other name. Each glob is matched
 * by a DFA built as the paths need it (./glob.ts): one lookup a character of the path once built,
 * and never worse than linear in the path's length times the glob's. Compile once per batch of
 * links, so the batch shares the DFAs. A meter with a limit bounds the work: a glob match stops
 * at it (within one character's work), and once it is spent no glob is run and the answer is
 * "budget", so a batch sharing one meter costs at most its limit and a little more. The globs
 * are bounded as the request schema bounds them (it checks them first): more is a programming
 * error, thrown.
 */
export function compilePatterns(
  include: string[],
  exclude: string[],
): (url: URL, meter?: GlobMeter) => PatternVerdict {
  for (const list of [include, exclude]) {
    if (list.length > CRAWL.patterns) throw new RangeError(`more than ${CRAWL.patterns} globs`);
    for (const glob of list)
      if ([...glob].length > CRAWL.patternChars)
        throw new RangeError(`a glob longer than ${CRAWL.patternChars} characters`);
  }
  const included = include.map((g) => compileGlob(anchored(g)));
  const excluded = exclude.map((g) => compileGlob(anchored(g)));
  return (url, meter) => {
    const path = url.pathname;
    // A match that answers true finished; one that answers false may have stopped at the limit.
    const spent = () => meter?.limit !== undefined && meter.steps >= meter.limit;
    for (const m of excluded) {
      if (spent()) return "budget";
      if (m(path, meter)) return "pattern";
    }
    if (included.length === 0) return spent() ? "budget" : "ok";
    for (const m of included) {
      if (spent()) return "budget";
      if (m(path, meter)) return "ok";
    }
    return spent() ? "budget" : "pattern";
  };
}
