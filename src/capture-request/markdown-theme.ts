/**
 * Markdown → a complete, styled HTML document: GFM through `marked` (raw HTML kept: the
 * browser-level URL guard decides what the page may fetch) inside a default typography, light
 * or dark as the request's `darkMode` says (the flag decides, not prefers-color-scheme).
 *
 * Bounds: list/blockquote nesting is capped while lexing (marked's memory grows with depth ×
 * size), inline nesting that overflows the stack is a 400, and the HTML the tokens would become
 * is estimated before it is built (reference links can repeat one long URL a million times).
 * Emphasis is bounded in time: marked's emphasis tokenizer costs about (emphasis markers ×
 * length) per paragraph — 400 KB of `*a` pairs took ~20 s of Worker CPU — so that product is
 * counted per inline run before it is tokenized, and a document over TUNING.markdownEmphasisWork
 * is a 400 naming `markdown` (docs/RELIABILITY.md).
 */
import { getDefaults, Lexer, Parser, Tokenizer } from "marked";
import type { MarkedOptions, Token, Tokens } from "marked";
import { ApiError, validationError } from "../errors";
import { formatBytes, LIMITS } from "../../schemas/limits";
import { TUNING } from "../tuning";

export function markdownDocument(markdown: string, darkMode: boolean): string {
  return [
    "<!DOCTYPE html>",
    `<html lang="en" class="${darkMode ? "dark" : "light"}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<style>${BASE_CSS}${darkMode ? DARK_CSS : LIGHT_CSS}</style>`,
    "</head>",
    `<body><main class="markdown-body">\n${markdownToHtml(markdown)}</main></body>`,
    "</html>",
  ].join("\n");
}

/** The typography's stylesheet (what markdownDocument embeds), for documents built elsewhere (artifacts). */
export function markdownStyles(darkMode: boolean): string {
  return `${BASE_CSS}${darkMode ? DARK_CSS : LIGHT_CSS}`;
}

/** The typography's font stacks, for themes that pick one. */
export function fontStacks(): { sans: string; mono: string } {
  return { sans: FONT_STACK, mono: MONO_STACK };
}

export function markdownToHtml(markdown: string): string {
  const options: MarkedOptions = { ...getDefaults(), gfm: true, tokenizer: new DepthTokenizer() };
  try {
    const tokens = new BudgetedLexer(options).lex(markdown);
    if (estimateHtml(tokens) > LIMITS.markdownHtmlBytes) {
      const message = `the converted document would exceed ${formatBytes(LIMITS.markdownHtmlBytes)}`;
      throw new ApiError("PAYLOAD_TOO_LARGE", `Payload too large: markdown: ${message}`, {
        details: [{ path: "markdown", message }],
      });
    }
    return Parser.parse(tokens, options);
  } catch (error) {
    // the call stack or a regular expression's backtracking stack overflowed
    if (error instanceof RangeError) {
      throw validationError("markdown", "too deeply nested or too complex to convert");
    }
    throw error;
  }
}

/** Refuses, before tokenizing them, inline runs whose emphasis would take too long (see top). */
class BudgetedLexer extends Lexer {
  private work = 0;

  override inlineTokens(src: string, tokens?: Token[]): Token[] {
    this.work += emphasisMarkers(src) * src.length;
    if (this.work > TUNING.markdownEmphasisWork) {
      throw validationError(
        "markdown",
        "too much emphasis (* or _) in too long a paragraph to convert in time",
      );
    }
    return super.inlineTokens(src, tokens);
  }
}

function emphasisMarkers(src: string): number {
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const code = src.charCodeAt(i);
    if (code === 42 || code === 95) n++; // * _
  }
  return n;
}

function tooDeep(): ApiError {
  return validationError("markdown", `nested more than ${LIMITS.markdownDepth} levels deep`);
}

/** Counts list/blockquote nesting: each level recurses into the lexer with a copy of its body. */
class DepthTokenizer extends Tokenizer {
  private depth = 0;

  override blockquote(src: string): Tokens.Blockquote | undefined {
    return this.nested(() => super.blockquote(src));
  }

  override list(src: string): Tokens.List | undefined {
    return this.nested(() => super.list(src));
  }

  /** Every block is tried as a blockquote/list first: the innermost allowed level still tries
   *  one level deeper, so only an attempt beyond that is refused. */
  private nested<T>(lex: () => T): T {
    if (++this.depth > LIMITS.markdownDepth + 1) throw tooDeep();
    try {
      return lex();
    } finally {
      this.depth--;
    }
  }
}

/** A lower bound of the HTML (UTF-16 units) the tokens render to, walked without recursion:
 *  text after escaping, link and image URLs, and the shortest markup of each element. */
function estimateHtml(tokens: Token[]): number {
  let units = 0;
  const stack: Token[][] = [tokens];
  for (let level = stack.pop(); level; level = stack.pop()) {
    for (const token of level) {
      if (token.type === "def") continue;
      if (!BARE.has(token.type)) units += ELEMENT_MARKUP;
      if (token.type === "link" || token.type === "image") {
        const { href, title } = token as Tokens.Link | Tokens.Image;
        units += href.length + (title?.length ?? 0);
      }
      if (token.type === "table") {
        const { header, rows, align } = token as Tokens.Table;
        for (const row of [header, ...rows]) {
          for (const [column, cell] of row.entries()) {
            units += CELL_MARKUP + (align[column] ? ALIGN_MARKUP : 0);
            stack.push(cell.tokens);
          }
        }
      } else if (token.type === "list") {
        stack.push((token as Tokens.List).items);
      } else if ("tokens" in token && token.tokens && token.tokens.length > 0) {
        stack.push(token.tokens);
      } else if ("text" in token && typeof token.text === "string") {
        units += token.type === "html" ? token.text.length : escapedLength(token.text);
      }
    }
  }
  return units;
}

/** Tokens that render without markup of their own. */
const BARE = new Set(["text", "escape", "space", "html"]);
const ELEMENT_MARKUP = "<p></p>\n".length;
const CELL_MARKUP = "<td></td>\n".length;
const ALIGN_MARKUP = ' align="left"'.length;

/** Length after marked's HTML escaping of & < > " '. */
function escapedLength(text: string): number {
  let units = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 38 || code === 39)
      units += 4; // &amp; &#39;
    else if (code === 60 || code === 62)
      units += 3; // &lt; &gt;
    else if (code === 34) units += 5; // &quot;
  }
  return units;
}

const FONT_STACK = `-apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial,
  sans-serif, "Apple Color Emoji", "Segoe UI Emoji"`;
const MONO_STACK = `ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono",
  monospace`;

const LIGHT_CSS = `
:root { color-scheme: light; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0;
  --rule: #d1d9e0; --code-bg: #f6f8fa; --zebra: #f6f8fa; --link: #0969da; }`;

const DARK_CSS = `
:root { color-scheme: dark; --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d;
  --rule: #3d444d; --code-bg: #161b22; --zebra: #151b23; --link: #4493f8; }`;

const BASE_CSS = `
*, *::before, *::after { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); -webkit-text-size-adjust: 100%; }
body { margin: 0; font-family: ${FONT_STACK}; font-size: 16px; line-height: 1.6; }
.markdown-body { max-width: 760px; margin: 0 auto; padding: 40px 24px;
  overflow-wrap: break-word; }
.markdown-body > :first-child { margin-top: 0; }
.markdown-body > :last-child { margin-bottom: 0; }
p, blockquote, ul, ol, dl, table, pre, details { margin: 0 0 16px; }
h1, h2, h3, h4, h5, h6 { margin: 24px 0 16px; font-weight: 600; line-height: 1.25; }
h1 { font-size: 2em; padding-bottom: .3em; border-bottom: 1px solid var(--rule); }
h2 { font-size: 1.5em; padding-bottom: .3em; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.25em; }
h4 { font-size: 1em; }
h5 { font-size: .875em; }
h6 { font-size: .85em; color: var(--muted); }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
strong { font-weight: 600; }
code, kbd, samp, pre { font-family: ${MONO_STACK}; }
code { font-size: 85%; padding: .2em .4em; border-radius: 6px; background: var(--code-bg); }
pre { font-size: 85%; line-height: 1.45; padding: 16px; overflow-x: auto; border-radius: 6px;
  background: var(--code-bg); }
pre code { font-size: 100%; padding: 0; background: transparent; white-space: pre;
  border-radius: 0; }
blockquote { padding: 0 1em; color: var(--muted); border-left: .25em solid var(--border); }
blockquote > :last-child { margin-bottom: 0; }
ul, ol { padding-left: 2em; }
li + li, li > ul, li > ol { margin-top: .25em; }
li > ul, li > ol { margin-bottom: 0; }
ul:has(> li > input[type="checkbox"]) { list-style: none; padding-left: 1.5em; }
li > input[type="checkbox"] { margin: 0 .4em .2em -1.4em; vertical-align: middle; }
table { display: block; width: max-content; max-width: 100%; overflow: auto;
  border-collapse: collapse; border-spacing: 0; font-variant-numeric: tabular-nums; }
th, td { padding: 6px 13px; border: 1px solid var(--border); }
th { font-weight: 600; }
tbody tr:nth-child(2n) { background: var(--zebra); }
img { max-width: 100%; height: auto; border-style: none; }
hr { height: .25em; margin: 24px 0; padding: 0; border: 0; background: var(--rule); }
del { opacity: .8; }
@media print {
  .markdown-body { max-width: none; padding: 0; }
  pre, pre code { white-space: pre-wrap; overflow: visible; }
  h1, h2, h3, h4, h5, h6 { break-after: avoid; }
  pre, blockquote, tr, img { break-inside: avoid; }
}`;
