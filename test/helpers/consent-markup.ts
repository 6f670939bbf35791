/**
 * Builds, for a CSS selector, an element the selector matches (css-what parses it), so a test
 * can put one element per curated consent-wall selector on a page and check every one hides.
 * Handles what the curated list uses: tags, ids, classes, attribute equals/prefix/contains/word
 * tests (with the `i` flag), descendant combinators and `:not()` (ignored: elements are divs).
 */
import { parse, type Selector } from "css-what";

interface Compound {
  tag: string;
  attrs: Map<string, string[]>;
}

function compoundsOf(selector: string): Compound[] {
  const [tokens] = parse(selector);
  if (!tokens || parse(selector).length !== 1)
    throw new Error(`one selector expected: ${selector}`);
  const out: Compound[] = [{ tag: "div", attrs: new Map() }];
  for (const token of tokens) add(out, token, selector);
  return out;
}

function add(out: Compound[], token: Selector, selector: string): void {
  const current = out[out.length - 1] as Compound;
  if (token.type === "descendant") {
    out.push({ tag: "div", attrs: new Map() });
  } else if (token.type === "tag") {
    current.tag = token.name;
  } else if (token.type === "pseudo" && token.name === "not") {
    // `:not(html)` and the like: a div already satisfies them.
  } else if (token.type === "attribute") {
    // The `i` flag: use another case than the selector's, to prove it matches anyway.
    const v =
      token.ignoreCase === true
        ? token.value.charAt(0).toUpperCase() + token.value.slice(1)
        : token.value;
    const value = {
      equals: v,
      element: v,
      start: `${v}4711`,
      any: `Our ${v} settings`,
      exists: "",
    }[token.action as string];
    if (value === undefined) throw new Error(`unsupported attribute test in ${selector}`);
    current.attrs.set(token.name, [...(current.attrs.get(token.name) ?? []), value]);
  } else {
    throw new Error(`unsupported token ${token.type} in ${selector}`);
  }
}

const escapeAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/** Markup of an element matching `selector`; its innermost element gets `style`. */
export function elementFor(selector: string, style: string): string {
  const compounds = compoundsOf(selector);
  let html = "";
  compounds.forEach((c, i) => {
    const innermost = i === compounds.length - 1;
    const attrs = [...c.attrs]
      .map(([name, values]) => ` ${name}="${escapeAttr(values.join(" "))}"`)
      .join("");
    const open = c.tag === "dialog" ? " open" : "";
    html += `<${c.tag}${attrs}${open}${innermost ? ` style="${style}"` : ""}>`;
  });
  return (
    html +
    [...compounds]
      .reverse()
      .map((c) => `</${c.tag}>`)
      .join("")
  );
}
