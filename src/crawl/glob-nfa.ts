/**
 * The NFA half of the crawl's path globs (./glob.ts, whose comment gives the dialect): a glob
 * lexed into tokens, each token a state of a Thompson NFA, and the NFA's own linear-time
 * simulation — what the DFA is built from, and what a path runs on when the DFA outgrows its cap.
 */
/** A step of the NFA: what the token after a state matches. */
export const enum Kind {
  /** One given character. */
  Char,
  /** `?`: any one character but `/`. */
  One,
  /** `[…]`: one character of the class (never `/`). */
  Class,
  /** `*`: any run of characters but `/` (a loop). */
  Star,
  /** `**`: any run of characters (a loop). */
  Any,
  /** The start of an optional group: matches nothing, goes on into the group or past it. */
  Fork,
}

export interface Token {
  kind: Kind;
  /** Kind.Char: the character's code unit. */
  code: number;
  /** Kind.Class: inclusive [from, to] code-unit ranges, and whether the class is negated. */
  ranges: number[];
  negated: boolean;
  /** Kind.Star at a segment's start: it may not stand for nothing at the end of the path. */
  needsMore: boolean;
}

/**
 * Counts the work of matches (table lookups, NFA states visited). With a `limit`, a match stops
 * once the meter would pass it (within one character's work: a DFA state built, or one NFA step
 * over its live states) and answers false: an answer the caller must not trust once
 * `steps >= limit` (compilePatterns reads it as "budget").
 */
export interface GlobMeter {
  steps: number;
  limit?: number;
}

/** The steps a match may still take on `meter` (its limit less what it has counted). */
export function roomOf(meter: GlobMeter | undefined): number {
  return meter?.limit === undefined ? Infinity : meter.limit - meter.steps;
}

export type GlobMatcher = (path: string, meter?: GlobMeter) => boolean;

export const SLASH = 47;

function token(kind: Kind, code = 0): Token {
  return { kind, code, ranges: [], negated: false, needsMore: false };
}

/** A raw piece of the pattern, before segments are read. */
type Raw = { t: "slash" } | { t: "stars"; n: number } | { t: "tok"; tok: Token };

/** A class from just after its `[` to its `]` (exclusive), or null when it has no `]`. */
function readClass(p: string, start: number): { tok: Token; end: number } | null {
  let i = start;
  const tok = token(Kind.Class);
  if (p[i] === "!" || p[i] === "^") {
    tok.negated = true;
    i++;
  }
  const members: number[] = [];
  const first = i;
  for (; i < p.length; i++) {
    let ch = p.charAt(i);
    if (ch === "]" && i > first) return { tok: { ...tok, ranges: members }, end: i };
    if (ch === "]") return null; // `[]` and `[!]`: not a class (picomatch: plain characters)
    if (ch === "\\" && i + 1 < p.length) ch = p.charAt(++i);
    const from = ch.charCodeAt(0);
    if (p[i + 1] === "-" && i + 2 < p.length && p[i + 2] !== "]") {
      let to = p.charAt(i + 2);
      i += 2;
      if (to === "\\" && i + 1 < p.length) to = p.charAt(++i);
      members.push(from, to.charCodeAt(0));
    } else {
      members.push(from, from);
    }
  }
  return null;
}

function lex(p: string): Raw[] {
  const raw: Raw[] = [];
  for (let i = 0; i < p.length; i++) {
    const ch = p.charAt(i);
    if (ch === "/") raw.push({ t: "slash" });
    else if (ch === "*") {
      let n = 1;
      while (p[i + 1] === "*") {
        n++;
        i++;
      }
      raw.push({ t: "stars", n });
    } else if (ch === "?") raw.push({ t: "tok", tok: token(Kind.One) });
    else if (ch === "[") {
      const cls = readClass(p, i + 1);
      if (cls === null) raw.push({ t: "tok", tok: token(Kind.Char, ch.charCodeAt(0)) });
      else {
        raw.push({ t: "tok", tok: cls.tok });
        i = cls.end;
      }
    } else if (ch === "\\" && i + 1 < p.length) {
      raw.push({ t: "tok", tok: token(Kind.Char, p.charCodeAt(++i)) });
    } else raw.push({ t: "tok", tok: token(Kind.Char, ch.charCodeAt(0)) });
  }
  return raw;
}

/** The NFA: tokens (state i is "tokens before i matched") and the optional groups' skips. */
interface Nfa {
  tokens: Token[];
  /** skip[i] = j: from the Fork at state i the path may also go on at state j. */
  skip: Int32Array;
}

/** Compiles a pathname glob (it starts with `/` or `**`, as crawl patterns are anchored). */
function build(pattern: string): Nfa {
  // Segments, split at `/`: each a list of raw pieces; `**` alone is a globstar segment.
  let current: Raw[] = [];
  const segments: Raw[][] = [current];
  for (const r of lex(pattern)) {
    if (r.t === "slash") segments.push((current = []));
    else current.push(r);
  }
  const isGlobstar = (s: Raw[] | undefined) =>
    s !== undefined && s.length === 1 && s[0]?.t === "stars" && s[0].n >= 2;
  // `**/**` is `**`.
  const segs = segments.filter((s, i) => !(isGlobstar(s) && isGlobstar(segments[i - 1])));

  const tokens: Token[] = [];
  const skips: Array<[from: number, to: number]> = [];
  const optional = (group: Token[]) => {
    skips.push([tokens.length, tokens.length + 1 + group.length]);
    tokens.push(token(Kind.Fork), ...group);
  };
  let slashDone = false;
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    if (isGlobstar(seg)) {
      if (i === 0) {
        // A leading `**`: everything, or any run of segments then a `/` (`**/x` matches `/x`).
        if (last) tokens.push(token(Kind.Any));
        else optional([token(Kind.Any), token(Kind.Char, SLASH)]);
        slashDone = true;
      } else if (i === 1 && segs[0]?.length === 0) {
        // `/**` at the start: `/` and any run (`/**/x` needs `/…/x`, as picomatch had it).
        tokens.push(token(Kind.Char, SLASH), token(Kind.Any));
      } else {
        // Elsewhere: nothing, or `/` and any run (`/a/**/b` matches `/a/b`).
        optional([token(Kind.Char, SLASH), token(Kind.Any)]);
      }
      return;
    }
    if (i > 0 && !slashDone) tokens.push(token(Kind.Char, SLASH));
    slashDone = false;
    seg.forEach((r, k) => {
      if (r.t === "stars") {
        const star = token(Kind.Star);
        star.needsMore = k === 0;
        tokens.push(star);
      } else if (r.t === "tok") tokens.push(r.tok);
    });
  });
  // Ending in `*` or a class: one more `/` may follow (`/blog/*` matches `/blog/post/`).
  const lastSeg = segs[segs.length - 1] ?? [];
  const lastRaw = lastSeg[lastSeg.length - 1];
  if (
    lastRaw !== undefined &&
    !isGlobstar(lastSeg) &&
    (lastRaw.t === "stars" || (lastRaw.t === "tok" && lastRaw.tok.kind === Kind.Class))
  )
    optional([token(Kind.Char, SLASH)]);

  const skip = new Int32Array(tokens.length + 1).fill(-1);
  for (const [from, to] of skips) skip[from] = to;
  return { tokens, skip };
}

export function accepts(tok: Token, c: number): boolean {
  switch (tok.kind) {
    case Kind.Char:
      return c === tok.code;
    case Kind.Any:
      return true;
    case Kind.Fork:
      return false;
    case Kind.One:
    case Kind.Star:
      return c !== SLASH;
    case Kind.Class: {
      if (c === SLASH) return false;
      let inside = false;
      for (let r = 0; r + 1 < tok.ranges.length; r += 2)
        if (c >= tok.ranges[r]! && c <= tok.ranges[r + 1]!) {
          inside = true;
          break;
        }
      return inside !== tok.negated;
    }
  }
}

/** The NFA's arrays, as both matchers read them. */
export interface Machine {
  tokens: Token[];
  skip: Int32Array;
  final: number;
  loops: Uint8Array;
  forks: Uint8Array;
  needsMore: Uint8Array;
}

export function machine(pattern: string): Machine {
  const { tokens, skip } = build(pattern);
  return {
    tokens,
    skip,
    final: tokens.length,
    loops: Uint8Array.from(tokens, (t) => (t.kind === Kind.Star || t.kind === Kind.Any ? 1 : 0)),
    forks: Uint8Array.from(tokens, (t) => (t.kind === Kind.Fork ? 1 : 0)),
    needsMore: Uint8Array.from(tokens, (t) => (t.needsMore ? 1 : 0)),
  };
}

/**
 * The NFA run over the path, all live states at a time (Thompson's simulation): every character
 * of the path visits each live state at most twice. The lazy DFA's fallback.
 */
export function nfaMatcher(m: Machine): GlobMatcher {
  const { tokens, skip, final, loops, forks, needsMore } = m;
  return (path, meter) => {
    const end = path.length;
    // Two sets of live states, swapped each character; a state is in `next` when its mark is the
    // current generation.
    const mark = new Int32Array(final + 1).fill(-1);
    let live: number[] = [];
    let next: number[] = [];
    let gen = 0;
    let steps = 0;
    const room = roomOf(meter);
    // Enter state s at position pos (after a character of its own loop when `looped`), and every
    // state reachable from it matching nothing.
    const enter = (s: number, pos: number, looped: boolean): void => {
      steps++;
      const fresh = mark[s] !== gen;
      if (fresh) {
        mark[s] = gen;
        next.push(s);
      } else if (!looped) return;
      if (s === final) return;
      if (loops[s] === 1 && (looped || needsMore[s] === 0 || pos < end)) enter(s + 1, pos, false);
      else if (forks[s] === 1) {
        enter(s + 1, pos, false);
        enter(skip[s] ?? final, pos, false);
      }
    };
    enter(0, 0, false);
    // Out of room, it stops between two characters: one character's work past the limit at most.
    let pos = 0;
    for (; pos < end && next.length > 0 && steps < room; pos++) {
      [live, next] = [next, live];
      next.length = 0;
      gen++;
      const c = path.charCodeAt(pos);
      for (const s of live) {
        steps++;
        const tok = tokens[s];
        if (tok === undefined || !accepts(tok, c)) continue; // the final state: nothing after
        if (loops[s] === 1) enter(s, pos + 1, true);
        else enter(s + 1, pos + 1, false);
      }
    }
    if (meter !== undefined) meter.steps += steps;
    return pos === end && mark[final] === gen;
  };
}
