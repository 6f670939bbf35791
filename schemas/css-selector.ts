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
 * supports are data, in ./data/chromium-selectors.ts.
 */
import {
  CHROMIUM_AFTER_SCROLLBAR,
  CHROMIUM_LEGACY_PSEUDO_ELEMENTS,
  CHROMIUM_PSEUDO_CLASSES,
  CHROMIUM_PSEUDO_ELEMENTS,
  CHROMIUM_USER_ACTION,
} from "./data/chromium-selectors";

type Token = TokenBody & { src: string };
type TokenBody =
  | { t: "ident" | "function" | "at" | "string"; v: string }
  | { t: "hash"; v: string; id: boolean }
  | { t: "delim"; v: string }
  | { t: "number" | "percentage"; v: string; int: boolean }
  | { t: "dimension"; v: string; unit: string; int: boolean }
  | {
      t:
        | "ws"
        | "bad"
        | "colon"
        | "semicolon"
        | "comma"
        | "("
        | ")"
        | "["
        | "]"
        | "{"
        | "}"
        | "cdo"
        | "cdc";
    };

class Invalid extends Error {}
const fail = (why: string): never => {
  throw new Invalid(why);
};

// ---- Tokenizer (CSS Syntax Level 3, §3.3 preprocessing and §4 tokenization) ----------------

const isDigit = (c: string) => c >= "0" && c <= "9";
const isHex = (c: string) => /^[0-9a-fA-F]$/.test(c);
const isIdentStart = (c: string) =>
  /^[a-zA-Z_]$/.test(c) || (c !== "" && c.codePointAt(0)! >= 0x80);
const isNameChar = (c: string) => isIdentStart(c) || isDigit(c) || c === "-";
const isWs = (c: string) => c === " " || c === "\t" || c === "\n";

function tokenize(input: string): Token[] {
  const s = [...input.replace(/\r\n?|\f/g, "\n").replace(/\0/g, "\uFFFD")];
  let i = 0;
  const at = (k = 0) => s[i + k] ?? "";
  const validEscape = (k = 0) => at(k) === "\\" && at(k + 1) !== "\n"; // `\` + EOF is one (→ U+FFFD)
  const startsIdent = (k = 0) =>
    at(k) === "-"
      ? isIdentStart(at(k + 1)) || at(k + 1) === "-" || validEscape(k + 1)
      : isIdentStart(at(k)) || validEscape(k);
  const startsNumber = (k = 0) => {
    if (at(k) === "+" || at(k) === "-") k++;
    return isDigit(at(k)) || (at(k) === "." && isDigit(at(k + 1)));
  };
  const escape = (): string => {
    i++; // the backslash
    if (at() === "") return "\uFFFD";
    if (isHex(at())) {
      let hex = "";
      while (hex.length < 6 && isHex(at())) hex += s[i++];
      if (isWs(at())) i++;
      const cp = parseInt(hex, 16);
      return cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)
        ? "\uFFFD"
        : String.fromCodePoint(cp);
    }
    return s[i++]!;
  };
  const name = (): string => {
    let out = "";
    for (;;) {
      if (isNameChar(at())) out += s[i++];
      else if (validEscape()) out += escape();
      else return out;
    }
  };
  const numeric = (): TokenBody => {
    let int = true;
    if (at() === "+" || at() === "-") i++;
    while (isDigit(at())) i++;
    if (at() === "." && isDigit(at(1))) {
      int = false;
      i++;
      while (isDigit(at())) i++;
    }
    if (
      (at() === "e" || at() === "E") &&
      (isDigit(at(1)) || ((at(1) === "+" || at(1) === "-") && isDigit(at(2))))
    ) {
      int = false;
      i += 2;
      while (isDigit(at())) i++;
    }
    if (startsIdent()) return { t: "dimension", v: "", unit: name(), int };
    if (at() === "%") {
      i++;
      return { t: "percentage", v: "", int };
    }
    return { t: "number", v: "", int };
  };

  const out: Token[] = [];
  while (i < s.length) {
    const start = i;
    const c = at();
    if (c === "/" && at(1) === "*") {
      let j = i + 2;
      while (j < s.length && !(s[j] === "*" && s[j + 1] === "/")) j++;
      i = Math.min(s.length, j + 2); // an unclosed comment runs to the end
      continue;
    }
    let token: TokenBody;
    if (isWs(c)) {
      while (isWs(at())) i++;
      token = { t: "ws" };
    } else if (c === '"' || c === "'") {
      i++;
      let v = "";
      token = { t: "string", v };
      for (;;) {
        const d = at();
        if (d === "") break; // EOF: a string all the same (a parse error, not a failure)
        if (d === c) {
          i++;
          break;
        }
        if (d === "\n") {
          token = { t: "bad" };
          break;
        }
        if (d === "\\") {
          if (at(1) === "") i++;
          else if (at(1) === "\n") i += 2;
          else v += escape();
          continue;
        }
        v += d;
        i++;
      }
      if (token.t === "string") token = { t: "string", v };
    } else if (c === "#") {
      if (isNameChar(at(1)) || validEscape(1)) {
        i++;
        const id = startsIdent();
        token = { t: "hash", v: name(), id };
      } else {
        i++;
        token = { t: "delim", v: "#" };
      }
    } else if ("()[]{},:;".includes(c)) {
      i++;
      const map: Record<string, TokenBody> = {
        "(": { t: "(" },
        ")": { t: ")" },
        "[": { t: "[" },
        "]": { t: "]" },
        "{": { t: "{" },
        "}": { t: "}" },
        ",": { t: "comma" },
        ":": { t: "colon" },
        ";": { t: "semicolon" },
      };
      token = map[c]!;
    } else if ((c === "+" || c === "." || c === "-") && startsNumber()) {
      token = numeric();
    } else if (c === "-" && at(1) === "-" && at(2) === ">") {
      i += 3;
      token = { t: "cdc" };
    } else if (c === "-" && startsIdent()) {
      token = identLike();
    } else if (c === "<" && at(1) === "!" && at(2) === "-" && at(3) === "-") {
      i += 4;
      token = { t: "cdo" };
    } else if (c === "@" && startsIdent(1)) {
      i++;
      token = { t: "at", v: name() };
    } else if (c === "\\") {
      if (validEscape()) token = identLike();
      else {
        i++;
        token = { t: "delim", v: "\\" };
      }
    } else if (isDigit(c)) {
      token = numeric();
    } else if (isIdentStart(c)) {
      token = identLike();
    } else {
      i++;
      token = { t: "delim", v: c };
    }
    if (i === start) i++; // never loop without progress
    out.push({ ...token, src: s.slice(start, i).join("") });
  }
  return out;

  function identLike(): TokenBody {
    const v = name();
    if (at() === "(") {
      i++;
      return { t: "function", v };
    }
    return { t: "ident", v };
  }
}

// ---- Grammar (Selectors Level 4 as Chromium implements it) --------------------------------

const PSEUDO_CLASSES: ReadonlySet<string> = new Set(CHROMIUM_PSEUDO_CLASSES);
const LEGACY_PSEUDO_ELEMENTS: ReadonlySet<string> = new Set(CHROMIUM_LEGACY_PSEUDO_ELEMENTS);
const PSEUDO_ELEMENTS: ReadonlySet<string> = new Set(CHROMIUM_PSEUDO_ELEMENTS);
const AFTER_SCROLLBAR: ReadonlySet<string> = new Set(CHROMIUM_AFTER_SCROLLBAR);
const USER_ACTION: ReadonlySet<string> = new Set(CHROMIUM_USER_ACTION);

interface Ctx {
  /** Inside :has(): no nested :has(), no pseudo-elements. */
  inHas: boolean;
  /** Pseudo-elements allowed here (top level, :is/:where). */
  pseudoElements: boolean;
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(k = 0): Token | undefined {
    return this.tokens[this.i + k];
  }
  private next(): Token {
    const t = this.tokens[this.i++];
    if (!t) fail("unexpected end");
    return t!;
  }
  private skipWs(): boolean {
    let any = false;
    while (this.peek()?.t === "ws") {
      this.i++;
      any = true;
    }
    return any;
  }
  get done(): boolean {
    return this.i >= this.tokens.length;
  }

  /** `complex [, complex]*` up to the end or an unconsumed `)`. */
  selectorList(ctx: Ctx, relative = false): void {
    for (;;) {
      this.skipWs();
      this.complex(ctx, relative);
      this.skipWs();
      if (this.peek()?.t !== "comma") return;
      this.i++;
    }
  }

  private combinator(): string | null {
    const t = this.peek();
    if (t?.t === "delim" && (t.v === ">" || t.v === "+" || t.v === "~")) {
      this.i++;
      return t.v;
    }
    return null;
  }

  private complex(ctx: Ctx, relative: boolean): void {
    if (relative) {
      this.combinator();
      this.skipWs();
    }
    let ended = this.compound(ctx); // true once a pseudo-element closed the selector
    for (;;) {
      const ws = this.skipWs();
      const comb = this.combinator();
      if (!comb && !ws) return;
      this.skipWs();
      const t = this.peek();
      if (!comb && (!t || t.t === "comma" || t.t === ")")) return; // trailing whitespace only
      if (ended) fail("nothing may follow a pseudo-element");
      ended = this.compound(ctx);
    }
  }

  /** One compound selector; returns true when it ended with a pseudo-element. */
  private compound(ctx: Ctx): boolean {
    let parts = 0;
    let pseudoElement: string | null = null;
    if (this.typeOrUniversal()) parts++;
    for (;;) {
      const t = this.peek();
      if (!t) break;
      const simple =
        t.t === "hash" || t.t === "[" || (t.t === "delim" && (t.v === "." || t.v === "&"));
      if (pseudoElement !== null && simple) fail("only pseudo-classes may follow a pseudo-element");
      if (t.t === "hash") {
        if (!t.id) fail("an id must be an identifier");
        this.i++;
      } else if (t.t === "delim" && t.v === ".") {
        this.i++;
        if (this.next().t !== "ident") fail("a class must be an identifier");
      } else if (t.t === "[") {
        this.i++;
        this.attribute();
      } else if (t.t === "delim" && t.v === "&") {
        this.i++;
      } else if (t.t === "colon") {
        this.i++;
        if (this.peek()?.t === "colon") {
          this.i++;
          const outer = pseudoElement;
          pseudoElement = this.pseudoElement(ctx);
          if (
            outer !== null &&
            !((outer === "before" || outer === "after") && pseudoElement === "marker")
          ) {
            fail("one pseudo-element per compound (but ::before::marker)");
          }
        } else {
          const legacy = this.pseudoClass(ctx, pseudoElement);
          if (legacy !== null) {
            if (pseudoElement !== null) fail("one pseudo-element per compound");
            pseudoElement = legacy;
          }
        }
      } else break;
      parts++;
    }
    if (parts === 0) fail("empty compound selector");
    return pseudoElement !== null;
  }

  /** `ns|name`, `*`, `name`; namespace prefixes other than `*|` and `|` are undeclared. */
  private typeOrUniversal(): boolean {
    const t = this.peek();
    const bar = (k: number) => {
      const b = this.peek(k);
      return (
        b?.t === "delim" &&
        b.v === "|" &&
        !(this.peek(k + 1)?.t === "delim" && (this.peek(k + 1) as { v: string }).v === "=")
      );
    };
    const nameAt = (k: number) => {
      const n = this.peek(k);
      return n?.t === "ident" || (n?.t === "delim" && n.v === "*");
    };
    if (bar(0) && nameAt(1)) {
      this.i += 2;
      return true;
    }
    if (!t || !(t.t === "ident" || (t.t === "delim" && t.v === "*"))) return false;
    if (bar(1)) {
      if (!(t.t === "delim" && t.v === "*")) fail("undeclared namespace prefix");
      if (!nameAt(2)) fail("a namespace prefix needs a name");
      this.i += 3;
      return true;
    }
    this.i++;
    return true;
  }

  private attribute(): void {
    this.skipWs();
    // [*|a], [|a], [a]; a named prefix is undeclared.
    const t = this.next();
    const isBar = (x: Token | undefined) => x?.t === "delim" && x.v === "|";
    if (t.t === "delim" && t.v === "*") {
      if (!isBar(this.next()) || this.next().t !== "ident") fail("bad attribute name");
    } else if (isBar(t)) {
      if (this.next().t !== "ident") fail("bad attribute name");
    } else if (t.t === "ident") {
      const after = this.peek();
      if (
        isBar(after) &&
        !(this.peek(1)?.t === "delim" && (this.peek(1) as { v: string }).v === "=")
      ) {
        fail("undeclared namespace prefix");
      }
    } else fail("bad attribute name");
    this.skipWs();
    if (this.done) return;
    const op = this.next();
    if (op.t === "]") return;
    if (op.t !== "delim") fail("bad attribute operator");
    const v = (op as { v: string }).v;
    if (v !== "=") {
      if (!"~|^$*".includes(v)) fail("bad attribute operator");
      const eq = this.next();
      if (!(eq.t === "delim" && eq.v === "=")) fail("bad attribute operator");
    }
    this.skipWs();
    const value = this.next();
    if (value.t !== "ident" && value.t !== "string")
      fail("an attribute value must be an identifier or a string");
    this.skipWs();
    if (this.peek()?.t === "ident") {
      if ((this.next() as { v: string }).v.toLowerCase() !== "i")
        fail("unsupported attribute modifier");
      this.skipWs();
    }
    this.closeBracket();
  }

  /** After `:`; returns the name when it is a legacy one-colon pseudo-element. */
  private pseudoClass(ctx: Ctx, after: string | null): string | null {
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
  private pseudoElement(ctx: Ctx): string {
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

  /** Runs `body` on the tokens up to the matching `)`, which must then follow. */
  private args(body: () => void): void {
    body();
    this.skipWs();
    if (this.done) return; // the end of input closes open blocks (CSS Syntax)
    if (this.next().t !== ")") fail("unexpected argument");
  }

  /** `]` or the end of input, which closes open blocks. */
  private closeBracket(): void {
    if (!this.done && this.next().t !== "]") fail("unclosed attribute selector");
  }

  /** Forgiving selector list (`:is`, `:where`): anything goes up to the matching `)`. */
  private forgiving(): void {
    let depth = 1;
    const closers: string[] = [")"];
    while (depth > 0 && !this.done) {
      const t = this.next();
      if (t.t === "function" || t.t === "(") closers.push(")");
      else if (t.t === "[") closers.push("]");
      else if (t.t === "{") closers.push("}");
      else if (t.t === closers[closers.length - 1]) closers.pop();
      // any other `)`, `]` or `}` is just a token inside the block (CSS Syntax)
      depth = closers.length;
    }
  }

  private compoundList(ctx: Ctx, single: boolean): void {
    for (;;) {
      this.skipWs();
      this.compound(ctx);
      this.skipWs();
      if (single || this.peek()?.t !== "comma") return;
      this.i++;
    }
  }

  private identList(commas: boolean, spaces = false): void {
    for (;;) {
      this.skipWs();
      if (this.next().t !== "ident") fail("an identifier is expected");
      const ws = this.skipWs();
      const t = this.peek();
      if (commas && t?.t === "comma") {
        this.i++;
        continue;
      }
      if (spaces && ws && t?.t === "ident") continue;
      return;
    }
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

/** The reason a selector is refused, or null when Chromium's querySelector would accept it. */
export function selectorProblem(selector: string): string | null {
  try {
    const tokens = tokenize(selector);
    if (tokens.some((t) => t.t === "bad")) return "unterminated string";
    const parser = new Parser(tokens);
    parser.selectorList({ inHas: false, pseudoElements: true });
    if (!parser.done) return "unexpected input";
    return null;
  } catch (err) {
    if (err instanceof Invalid) return err.message;
    throw err;
  }
}
