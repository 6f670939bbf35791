/**
 * Pseudo-classes and pseudo-elements as Chromium accepts them: names from its lists
 * (../data/chromium-selectors.ts), the arguments of the functional ones, where each may appear.
 */
import {
  CHROMIUM_AFTER_SCROLLBAR,
  CHROMIUM_LEGACY_PSEUDO_ELEMENTS,
  CHROMIUM_PSEUDO_CLASSES,
  CHROMIUM_PSEUDO_ELEMENTS,
  CHROMIUM_USER_ACTION,
} from "../data/chromium-selectors";
import { fail, TokenCursor } from "./cursor";
import type { Token } from "./tokenizer";

const PSEUDO_CLASSES: ReadonlySet<string> = new Set(CHROMIUM_PSEUDO_CLASSES);
const LEGACY_PSEUDO_ELEMENTS: ReadonlySet<string> = new Set(CHROMIUM_LEGACY_PSEUDO_ELEMENTS);
const PSEUDO_ELEMENTS: ReadonlySet<string> = new Set(CHROMIUM_PSEUDO_ELEMENTS);
const AFTER_SCROLLBAR: ReadonlySet<string> = new Set(CHROMIUM_AFTER_SCROLLBAR);
const USER_ACTION: ReadonlySet<string> = new Set(CHROMIUM_USER_ACTION);

export interface Ctx {
  /** Inside :has(): no nested :has(), no pseudo-elements. */
  inHas: boolean;
  /** Pseudo-elements allowed here (top level, :is/:where). */
  pseudoElements: boolean;
}

/** The selector grammar (./grammar.ts) supplies the lists that pseudo-class arguments hold. */
export abstract class PseudoParser extends TokenCursor {
  /** `complex [, complex]*` up to the end or an unconsumed `)`. */
  abstract selectorList(ctx: Ctx, relative?: boolean): void;
  /** Compound selectors separated by commas, or exactly one when `single`. */
  protected abstract compoundList(ctx: Ctx, single: boolean): void;

  /** After `:`; returns the name when it is a legacy one-colon pseudo-element. */
  protected pseudoClass(ctx: Ctx, after: string | null): string | null {
    const t = this.next();
    if (t.t === "ident") {
      const name = t.v.toLowerCase();
      if (after !== null) {
        const ok =
          after.startsWith("-webkit-scrollbar") || after === "-webkit-resizer"
            ? AFTER_SCROLLBAR.has(name)
            : (after === "part" && USER_ACTION.has(name)) ||
              (after === "selection" && name === "window-inactive");
        if (!ok) fail("this pseudo-class cannot follow a pseudo-element");
        return null;
      }
      if (LEGACY_PSEUDO_ELEMENTS.has(name)) {
        if (!ctx.pseudoElements) fail("no pseudo-elements here");
        return name;
      }
      if (!PSEUDO_CLASSES.has(name)) fail(`unknown pseudo-class :${name}`);
      return null;
    }
    if (t.t !== "function") fail("bad pseudo-class");
    if (after !== null) fail("this pseudo-class cannot follow a pseudo-element");
    const name = (t as { v: string }).v.toLowerCase();
    const inner: Ctx = { inHas: ctx.inHas, pseudoElements: false };
    switch (name) {
      case "is":
      case "where":
        this.forgiving();
        return null;
      case "not":
        this.args(() => this.selectorList(inner));
        return null;
      case "has":
        if (ctx.inHas) fail(":has() cannot be nested");
        this.args(() => this.selectorList({ inHas: true, pseudoElements: false }, true));
        return null;
      case "-webkit-any":
      case "host":
      case "host-context":
        this.args(() => this.compoundList(inner, name !== "-webkit-any"));
        return null;
      case "nth-child":
      case "nth-last-child":
        this.args(() => this.nth(inner, true));
        return null;
      case "nth-of-type":
      case "nth-last-of-type":
        this.args(() => this.nth(inner, false));
        return null;
      case "lang":
        this.args(() => this.identList(false));
        return null;
      case "dir":
      case "state":
        this.args(() => this.identList(false));
        return null;
      default:
        return fail(`unknown pseudo-class :${name}()`);
    }
  }

  /** After `::`; returns the pseudo-element's name. */
  protected pseudoElement(ctx: Ctx): string {
    if (!ctx.pseudoElements) fail("no pseudo-elements here");
    const t = this.next();
    if (t.t === "ident") {
      const name = t.v.toLowerCase();
      if (!PSEUDO_ELEMENTS.has(name) && !name.startsWith("-webkit-"))
        fail(`unknown pseudo-element ::${name}`);
      return name;
    }
    if (t.t !== "function") fail("bad pseudo-element");
    const name = (t as { v: string }).v.toLowerCase();
    const inner: Ctx = { inHas: ctx.inHas, pseudoElements: false };
    switch (name) {
      case "slotted":
        this.args(() => this.compoundList(inner, true));
        break;
      case "cue":
        this.args(() => this.selectorList(inner));
        break;
      case "part":
        this.args(() => this.identList(false, true));
        break;
      case "highlight":
      case "picker":
        this.args(() => this.identList(false));
        break;
      case "view-transition-group":
      case "view-transition-image-pair":
      case "view-transition-old":
      case "view-transition-new":
      case "scroll-button":
        this.args(() => {
          this.skipWs();
          const a = this.next();
          if (!(a.t === "ident" || (a.t === "delim" && a.v === "*"))) fail("bad argument");
          while (
            this.peek()?.t === "delim" &&
            (this.peek() as { v: string }).v === "." &&
            this.peek(1)?.t === "ident"
          )
            this.i += 2;
          this.skipWs();
        });
        break;
      default:
        fail(`unknown pseudo-element ::${name}()`);
    }
    return name;
  }

  /** `An+B` (the micro-syntax, on the source tokens) and, for -child, an optional `of S`. */
  private nth(ctx: Ctx, of: boolean): void {
    this.skipWs();
    let text = "";
    while (
      this.peek() &&
      this.peek()!.t !== ")" &&
      !(
        this.peek()!.t === "ident" &&
        (this.peek() as { v: string }).v.toLowerCase() === "of" &&
        text !== ""
      )
    ) {
      text += render(this.next());
    }
    if (!/^(?:odd|even|[+-]?\d+|[+-]?\d*n(?: ?[+-] ?\d+)?)$/.test(text.trim().toLowerCase()))
      fail("bad An+B");
    if (this.peek()?.t === "ident") {
      if (!of) fail("`of` is only for :nth-child()");
      this.i++;
      if (this.peek()?.t !== "ws") fail("`of` needs a selector");
      this.selectorList(ctx);
    }
  }
}

/** Source text of a token for the An+B micro-syntax (whitespace runs as one space). */
const render = (t: Token): string => (t.t === "ws" ? " " : t.src);
