/**
 * The read scripts a page keeps in its documents: the page reader (src/extract/reader.ts, ~39
 * KB) and the page content read (./page-content.ts, ~20 KB), defined in each new document of a
 * page whose captures read its article or content, in the isolated world the reads run in
 * (./page-read.ts `isolatedReader`). Chromium runs them there as the document is made, so a
 * read does not send them (a crawl page's evaluations sent 62 KB, now 7 KB, docs/CRAWL.md). On a
 * browser shared by accounts each document still compiles them: V8 keeps no compiled scripts
 * while the fair-CPU debugger is attached, and only there is it (../host/cpu-share.ts). A read finds them as `EdgeshotReader` and
 * `EdgeshotContent`, or reads with their source where a document has none (`ReadScriptsMissing`).
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import { UTILITY_WORLD_NAME } from "@cloudflare/puppeteer/internal/common/util.js";
import { PAGE_READER } from "../../extract/page-reader.generated";
import { READ_ALL } from "./page-content";

// Each as it is evaluated on its own: the content read in sloppy mode, the reader bundle in its
// own function, where its "use strict" is its own.
const KEPT_SCRIPT = `var EdgeshotContent = ${READ_ALL};
var EdgeshotReader = (function () {
${PAGE_READER}
return EdgeshotReader;
})();`;

/** The identifier of the script kept on each page session. */
const keptScripts = new WeakMap<CDPSession, string>();

/**
 * Keeps the read scripts in every new document of the page (`on`), or stops keeping them. The
 * world is puppeteer's own, named as puppeteer names it (a world of another name would be one
 * more V8 context a document), and `session` must be puppeteer's page session
 * (./page-client.ts): Chromium keeps a session's worlds apart from another session's of the same
 * name.
 */
export async function keepReadScripts(session: CDPSession, on: boolean): Promise<void> {
  const kept = keptScripts.get(session);
  if (on && kept === undefined) {
    const { identifier } = await session.send("Page.addScriptToEvaluateOnNewDocument", {
      source: KEPT_SCRIPT,
      worldName: UTILITY_WORLD_NAME,
    });
    keptScripts.set(session, identifier);
  } else if (!on && kept !== undefined) {
    keptScripts.delete(session);
    await session.send("Page.removeScriptToEvaluateOnNewDocument", { identifier: kept });
  }
}
