/** The Selectors Level 4 grammar as Chromium implements it: lists, combinators, compounds. */
import { fail } from "./cursor";
import { PseudoParser, type Ctx } from "./pseudo";
import type { Token } from "./tokenizer";

export class SelectorParser extends PseudoParser {
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

  protected compoundList(ctx: Ctx, single: boolean): void {
    for (;;) {
      this.skipWs();
      this.compound(ctx);
      this.skipWs();
      if (single || this.peek()?.t !== "comma") return;
      this.i++;
    }
  }
}
