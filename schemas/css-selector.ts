/**
 * CSS selector validation as Chromium's `querySelector` does it, before any browser sees the
 * selector (`selector`, `waitForSelector`, `hideSelectors`).
 *
 * A general-purpose selector parser is not enough: css-what, for one, accepts `:foo`, `#1a`,
 * `div >`, `a|b`, `[a]b` or `:contains(x)` (all refused by Chromium: a 500 for `selector`, a
 * full timeout for `waitForSelector`, and for `hideSelectors` a silently dropped rule that takes
 * every other hide with it) and refuses `:is()` or `&` (accepted by Chromium). So this is the
 * CSS Syntax 3 tokenizer plus the Selectors 4 grammar with Chromium's rules: no namespace
 * prefixes (none are declared in a page), pseudo-classes and pseudo-elements from a list of
 * what Chromium supports, a pseudo-element only at the end of the last compound, no `:has()`
 * inside `:has()`, forgiving `:is()`/`:where()`. test/integration/hostile-input.test.ts checks
 * it against the real browser on a corpus, in both directions. The lists of names Chromium
 * supports are data, in ./data/chromium-selectors.ts. The tokenizer, the token cursor, the
 * pseudo-class/pseudo-element rules and the selector grammar are in ./css-selector/.
 */
import { Invalid } from "./css-selector/cursor";
import { SelectorParser } from "./css-selector/grammar";
import { tokenize } from "./css-selector/tokenizer";

/** The reason a selector is refused, or null when Chromium's querySelector would accept it. */
export function selectorProblem(selector: string): string | null {
  try {
    const tokens = tokenize(selector);
    if (tokens.some((t) => t.t === "bad")) return "unterminated string";
    const parser = new SelectorParser(tokens);
    parser.selectorList({ inHas: false, pseudoElements: true });
    if (!parser.done) return "unexpected input";
    return null;
  } catch (err) {
    if (err instanceof Invalid) return err.message;
    throw err;
  }
}
