/**
 * Declarative shadow roots made visible to the hardening (./hardening.ts) before anything in
 * them runs. When the parser stops between a host and its `<template shadowrootmode>` (a
 * parser-blocking script inside the host, a server flushing the host first, or the parser
 * yielding on a busy machine), Chromium attaches the root and prepares the scripts in it in a
 * later task, with no mutation any observer of ours can see, and acts on a speculation rule set
 * there before our observer could remove it (docs/SECURITY.md, "Declarative shadow roots").
 * So markup written into a document by script — `document.write`, which is also how user HTML and
 * Markdown are written (`setContent`) — and a target page's own bytes (./document-marks.ts, in
 * the browser guard) get one marker element right after every such start tag: the marker is the root's first child, a custom element the hardening defines, and its
 * connectedCallback (run by the parser as it inserts it, before the next token) hands the root to
 * the observer and removes the marker.
 *
 * Written here rather than taken from an HTML parser library: we need the tokenizer's reading of
 * one start tag (where it ends, which attributes it has) with every other character left exactly
 * as written — a parser would re-serialize the markup — and it runs in the page too. It errs towards
 * marking: a `<template …shadowrootmode…>` inside a comment or a script string is marked too
 * (harmless: the marker removes itself wherever it is connected).
 */

/** The marker's element name (defined by the hardening in every frame). */
export const DSD_MARKER = "edgeshot-dsd-root";
/** What goes after each declarative `<template>` start tag. */
export const MARKER = `<${DSD_MARKER}></${DSD_MARKER}>`;

/**
 * Where each `<template>` start tag carrying a `shadowrootmode` attribute ends (the index after
 * its `>`) in `html`, following the HTML tokenizer's tag, attribute-name and attribute-value
 * states. A tag cut off by the end of the input is left alone (the tokenizer drops it). Runs in
 * the Worker, on a target document's bytes read as Latin-1 (./document-marks.ts: the names and
 * delimiters it looks for are ASCII, which every encoding a page can declare but UTF-16 keeps
 * as such), and in the page, through `templateEndsSource`.
 */
export function templateEnds(html: string): number[] {
  const n = html.length;
  const at = (i: number) => html.charCodeAt(i);
  // Tab, LF, FF, CR, space; "/" 47, ">" 62, "=" 61, quotes 34 and 39; ASCII lower case.
  const space = (c: number) => c === 9 || c === 10 || c === 12 || c === 13 || c === 32;
  const lower = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);
  const word = (i: number, w: string) => {
    if (i + w.length > n) return false;
    for (let k = 0; k < w.length; k++) if (lower(at(i + k)) !== w.charCodeAt(k)) return false;
    return true;
  };
  const ends: number[] = [];
  for (let start = 0; start < n; start++) {
    if (at(start) !== 60 || !word(start + 1, "template")) continue;
    let i = start + 9;
    if (i >= n) break;
    if (!space(at(i)) && at(i) !== 47 && at(i) !== 62) continue; // <templatex…
    let mode = false;
    while (i < n && at(i) !== 62) {
      if (space(at(i)) || at(i) === 47) {
        i++;
        continue;
      }
      // An attribute name (its first character may be "="), up to space, "/", ">" or "=".
      const name = i++;
      while (i < n && !space(at(i)) && at(i) !== 47 && at(i) !== 62 && at(i) !== 61) i++;
      if (i - name === 14 && word(name, "shadowrootmode")) mode = true;
      while (i < n && space(at(i))) i++;
      if (i >= n || at(i) !== 61) continue;
      i++;
      while (i < n && space(at(i))) i++;
      const quote = i < n ? at(i) : -1;
      if (quote === 34 || quote === 39) {
        i++;
        while (i < n && at(i) !== quote) i++;
        i++;
      } else {
        while (i < n && !space(at(i)) && at(i) !== 62) i++;
      }
    }
    if (i >= n) break;
    if (mode) ends.push(i + 1);
    start = i;
  }
  return ends;
}

/**
 * `templateEnds` as JavaScript source for page scripts (./hardening.ts). A bundler that keeps
 * function names (wrangler's keepNames) wraps its inner functions in calls to a `__name` helper
 * the page does not have: the source brings its own.
 */
export const templateEndsSource = `((__name) => (${templateEnds.toString()}))((f) => f)`;

/** `html` with the marker right after every declarative `<template>` start tag. */
export function markTemplates(html: string, ends: readonly number[] = templateEnds(html)): string {
  let out = "";
  let from = 0;
  for (const end of ends) {
    out += html.slice(from, end) + MARKER;
    from = end;
  }
  return out + html.slice(from);
}
