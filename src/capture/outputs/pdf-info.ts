/**
 * The page count of a PDF Chromium printed, read from its page tree: the largest `/Count` of a
 * `/Type /Pages` dictionary is the root's, which counts every page. Chromium (Skia) writes its
 * object dictionaries uncompressed (only content streams are deflated) and a page-tree node
 * holds no nested dictionary, so a scan of the bytes finds them; null when none is found.
 */
const PAGES_NODE = /<<[^<>]*\/Type\s*\/Pages\b[^<>]*>>/g;
const COUNT = /\/Count\s+(\d+)/;

export function pdfPageCount(bytes: Uint8Array): number | null {
  // latin1: one character per byte, so binary streams cannot break the dictionaries' text.
  const text = new TextDecoder("latin1").decode(bytes);
  let pages: number | null = null;
  for (const node of text.matchAll(PAGES_NODE)) {
    const count = COUNT.exec(node[0])?.[1];
    if (count !== undefined) pages = Math.max(pages ?? 0, Number(count));
  }
  return pages;
}
