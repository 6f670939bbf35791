/**
 * A cursor over selector tokens, with CSS Syntax's block rules: the end of input closes open
 * blocks, and a forgiving argument runs to its matching `)`. A refusal is thrown as `Invalid`.
 */
import type { Token } from "./tokenizer";

export class Invalid extends Error {}
export const fail = (why: string): never => {
  throw new Invalid(why);
};

export class TokenCursor {
  protected i = 0;
  constructor(protected readonly tokens: Token[]) {}

  protected peek(k = 0): Token | undefined {
    return this.tokens[this.i + k];
  }
  protected next(): Token {
    const t = this.tokens[this.i++];
    if (!t) fail("unexpected end");
    return t!;
  }
  protected skipWs(): boolean {
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

  /** Runs `body` on the tokens up to the matching `)`, which must then follow. */
  protected args(body: () => void): void {
    body();
    this.skipWs();
    if (this.done) return; // the end of input closes open blocks (CSS Syntax)
    if (this.next().t !== ")") fail("unexpected argument");
  }

  /** `]` or the end of input, which closes open blocks. */
  protected closeBracket(): void {
    if (!this.done && this.next().t !== "]") fail("unclosed attribute selector");
  }

  /** Forgiving selector list (`:is`, `:where`): anything goes up to the matching `)`. */
  protected forgiving(): void {
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

  protected identList(commas: boolean, spaces = false): void {
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
}
