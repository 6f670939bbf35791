/**
 * The language of a code block, as pages mark it: `class="language-x"` (HTML spec convention,
 * Prism, highlight.js), `lang-x` (Google Prettify), `data-lang` / `data-language`, GitHub's
 * `highlight-source-x` wrapper, SyntaxHighlighter's `brush: x`.
 */
import type { DomElement } from "./dom";

const HIGHLIGHT_WRAPPER = /(?:^|\s)highlight-(?:source|text)-([^\s]+)/;
const CLASS_PATTERNS = [/(?:^|\s)lang(?:uage)?-([^\s]+)/, HIGHLIGHT_WRAPPER, /brush:\s*([^\s;]+)/];
const LANGUAGE = /^[a-z0-9][a-z0-9_+#.-]{0,31}$/;

/** The language named on a <pre>, its <code> or a highlighter wrapper; null when none is. */
export function languageOf(pre: DomElement): string | null {
  const code = pre.querySelector("code");
  for (const el of [code, pre]) {
    if (!el) continue;
    for (const attr of ["data-lang", "data-language"]) {
      const value = valid(el.getAttribute(attr));
      if (value) return value;
    }
    const cls = el.getAttribute("class") ?? "";
    for (const pattern of CLASS_PATTERNS) {
      const value = valid(pattern.exec(cls)?.[1]);
      if (value) return value;
    }
  }
  return valid(HIGHLIGHT_WRAPPER.exec(pre.parentElement?.getAttribute("class") ?? "")?.[1]);
}

/** The language of a block `languageOf` marked (after Readability dropped other classes). */
export function markedLanguage(pre: DomElement): string | null {
  const target = pre.querySelector("code") ?? pre;
  return valid(/(?:^|\s)language-([^\s]+)/.exec(target.getAttribute("class") ?? "")?.[1]);
}

function valid(value: string | null | undefined): string | null {
  const lower = value?.toLowerCase();
  return lower && LANGUAGE.test(lower) ? lower : null;
}
