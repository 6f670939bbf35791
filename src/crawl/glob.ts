/**
 * The crawl's URL path globs (docs/CRAWL.md): `*` within a segment, `**` across segments, `?` one
 * character, `[…]` a class — matched in time linear in the path's length (times the pattern's at
 * worst).
 *
 * Why our own: the glob libraries on npm (picomatch, micromatch, minimatch, zeptomatch, outmatch,
 * wildcard-match, globrex) all compile a glob to a JavaScript RegExp, and V8 runs those by
 * backtracking: `/**\/*a*a*a*a*a*b` against a path of 150 `a`s took seconds, one match at a time,
 * and a crawl matches every link it finds (a Worker that matches is one that answers nothing
 * else). The linear-time regex engines (RE2 ports) are large and would still need a glob
 * translation. The dialect is small, so a glob is compiled here to a little NFA (a list of
 * tokens, each a state), and that NFA to a DFA, lazily:
 * - A DFA state is the set of NFA states live after some prefix of a path (the NFA's epsilon
 *   closure, interned by its members), plus whether the path may end there. Its transitions are
 *   built the first time a path needs them, one per character class: the characters the pattern
 *   names (and `/`, and each class's ranges) each cut the alphabet, and everything between two
 *   cuts behaves the same, so a row has a few cells, not 65,536. After warm-up a match is one
 *   table lookup a character of the path, and a state that no longer matches anything ends it.
 * - Building a transition is one step of the NFA (Thompson's simulation: each live state visited
 *   a fixed number of times), so the states a pattern builds are bounded in work and in memory:
 *   at most MAX_DFA_STATES of them and MAX_DFA_CELLS table cells and set members. A glob whose
 *   DFA would be larger (`**\/a` and many `?` after it: a state for every mix of where the `a`s
 *   were) keeps the states it has, and a path that needs one more is run on the NFA itself:
 *   O(path × pattern), still linear in the path, whatever the input.
 * A pattern is bounded by the request schema (schemas/limits.ts CRAWL: 20 patterns, 200
 * characters each), and the meter counts the work (lookups, NFA steps). Linear is still a lot at
 * the schema's maximums: 40 globs whose DFAs outgrow their caps cost ~1e8 NFA steps a 2,048-
 * character link, ~0.5 s or more, and a page has 2,000 links. So a meter may carry a limit: a
 * match stops within one character's work of it and answers false, and the crawl gives each
 * batch of links a budget (TUNING.crawlPatternSteps, ./links.ts) past which links are skipped
 * unmatched (reason `pattern_budget`): fail closed, bounded in total work.
 *
 * The semantics are picomatch's (POSIX, `dot: true`), which this replaced, on every pattern the
 * schema accepts, with these exceptions, all outside what the API documents:
 * - `{`, `}`, `,` are plain characters (the schema refuses braces: one pattern each);
 * - `(`, `)`, `|`, `+`, `@`, `!` are plain characters (picomatch also read `(a|b)` as a regex
 *   group and `+(…)` and the like as extglobs: `/wiki/Foo_(bar)` matched `/wiki/Foo_bar` too);
 * - `[!…]` negates a class like `[^…]` (picomatch's POSIX mode read it as a literal);
 * - a class never matches `/`, listed in it or not;
 * - `**\/*.html` and the like do not also match a path ending in `.html/` (a quirk of
 *   picomatch's shortcut for those patterns);
 * - `[]` is two plain characters (picomatch read `[]a]` as a class holding `]`).
 * What it keeps, quirks included: `*` matches within a segment, `**` as a whole segment matches
 * any number of segments (`/a/**\/b` matches `/a/b`), except right after the leading slash,
 * where it matches at least one (`/**\/x` does not match `/x`; `**\/x` does); a pattern ending in
 * `*` or a class also matches the path with one more `/` (`/blog/*` matches `/blog/post/`); a
 * segment that starts with `*` does not match an empty last segment (`/blog/*` does not match
 * `/blog/`); `\` escapes the next character; a `[` that is never closed is a plain character.
 */

/** A step of the NFA: what the token after a state matches. */
const enum Kind {
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

interface Token {
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
function roomOf(meter: GlobMeter | undefined): number {
  return meter?.limit === undefined ? Infinity : meter.limit - meter.steps;
}

export type GlobMatcher = (path: string, meter?: GlobMeter) => boolean;

const SLASH = 47;

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

function accepts(tok: Token, c: number): boolean {
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
interface Machine {
  tokens: Token[];
  skip: Int32Array;
  final: number;
  loops: Uint8Array;
  forks: Uint8Array;
  needsMore: Uint8Array;
}

function machine(pattern: string): Machine {
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
function nfaMatcher(m: Machine): GlobMatcher {
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

/** DFA states one pattern may build before a path that needs more is run on the NFA. */
export const MAX_DFA_STATES = 2_000;
/**
 * Transition-table cells (states × character classes) and set members (NFA states, summed over
 * the DFA's states) one pattern may hold: 16-bit each, so at most ~128 KB apiece a pattern.
 */
const MAX_DFA_CELLS = 1 << 16;

/**
 * The input alphabet cut into classes no token tells apart: the lower bounds of the classes,
 * ascending (the first is 0). Every character or range the pattern names starts a class and the
 * code unit past it starts the next one, and so does `/`; everything else falls in between.
 */
function alphabet(tokens: Token[]): number[] {
  const bounds = new Set<number>([0, SLASH, SLASH + 1]);
  for (const t of tokens) {
    if (t.kind === Kind.Char) bounds.add(t.code).add(t.code + 1);
    else if (t.kind === Kind.Class)
      for (let r = 0; r + 1 < t.ranges.length; r += 2)
        bounds.add(t.ranges[r]!).add(t.ranges[r + 1]! + 1);
  }
  return [...bounds].filter((b) => b <= 0xffff).sort((a, b) => a - b);
}

/**
 * A matcher of whole paths against `pattern` (anchored: it starts with `/` or `**`), as a DFA
 * built lazily from the NFA (see the module comment): one table lookup a character once the
 * states a path goes through are built. A path that needs a state past `maxStates` (or past the
 * table's cells) is run on the NFA instead; `maxStates: 0` always does (for tests).
 */
export function compileGlob(pattern: string, options: { maxStates?: number } = {}): GlobMatcher {
  const m = machine(pattern);
  const nfa = nfaMatcher(m);
  const maxStates = Math.min(options.maxStates ?? MAX_DFA_STATES, 0x7fff);
  if (maxStates <= 0) return nfa;
  const { tokens, skip, final, loops, forks, needsMore } = m;

  const bounds = alphabet(tokens);
  const classes = bounds.length;
  const ascii = new Uint16Array(128);
  for (let c = 0, k = 0; c < 128; c++) {
    while (k + 1 < classes && bounds[k + 1]! <= c) k++;
    ascii[c] = k;
  }
  const classOf = (c: number): number => {
    if (c < 128) return ascii[c]!;
    let lo = 0;
    let hi = classes - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bounds[mid]! <= c) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  // DFA state d: the NFA states live after some prefix (as code units of sets[d], after a flag
  // character saying whether the path may end there), and its row of transitions by class in
  // `table`, from d × classes: the next state's row (its number × classes), -1 when not built yet.
  const sets: string[] = [];
  let table = new Int32Array(classes * 16).fill(-1);
  const accepting: number[] = [];
  const ids = new Map<string, number>();
  let members = 0;
  let dead = -1;
  let built = 0; // steps spent building, not yet charged to a meter

  // The NFA's epsilon closure of `seeds` (state × 2 + 1 when entered by its own loop): as the NFA
  // computes it before a character (`atEnd` false) or at the path's end, where a `*` that starts a
  // segment may not stand for nothing.
  const mark = new Int32Array(final + 1).fill(-1);
  let gen = 0;
  const close = (seeds: number[], atEnd: boolean, out: number[]): void => {
    gen++;
    const enter = (s: number, looped: boolean): void => {
      built++;
      if (mark[s] !== gen) {
        mark[s] = gen;
        out.push(s);
      } else if (!looped) return;
      if (s === final) return;
      if (loops[s] === 1 && (looped || needsMore[s] === 0 || !atEnd)) enter(s + 1, false);
      else if (forks[s] === 1) {
        enter(s + 1, false);
        enter(skip[s] ?? final, false);
      }
    };
    for (const seed of seeds) enter(seed >> 1, (seed & 1) === 1);
  };

  /** The DFA state the NFA is in after entering `seeds`, or -1 when the table is full. */
  const intern = (seeds: number[]): number => {
    const live: number[] = [];
    close(seeds, false, live);
    close(seeds, true, []);
    const accept = mark[final] === gen ? 1 : 0;
    live.sort((a, b) => a - b);
    const key = String.fromCharCode(accept, ...live);
    const known = ids.get(key);
    if (known !== undefined) return known;
    if (
      sets.length >= maxStates ||
      (sets.length + 1) * classes > MAX_DFA_CELLS ||
      members + live.length > MAX_DFA_CELLS
    )
      return -1;
    const d = sets.length;
    ids.set(key, d);
    sets.push(key);
    if ((d + 1) * classes > table.length) {
      const grown = new Int32Array(Math.min(table.length * 2, MAX_DFA_CELLS)).fill(-1);
      grown.set(table);
      table = grown;
    }
    accepting.push(accept);
    members += live.length;
    if (live.length === 0) dead = d;
    return d;
  };

  /** The state after d on a character of class k (its lower bound stands for it). */
  const step = (d: number, k: number): number => {
    const set = sets[d]!;
    const c = bounds[k]!;
    const seeds: number[] = [];
    for (let i = 1; i < set.length; i++) {
      built++;
      const s = set.charCodeAt(i);
      const tok = tokens[s];
      if (tok === undefined || !accepts(tok, c)) continue; // the final state: nothing after
      seeds.push(loops[s] === 1 ? s * 2 + 1 : (s + 1) * 2);
    }
    const next = intern(seeds);
    if (next >= 0) table[d * classes + k] = next * classes;
    return next;
  };

  const start = intern([0]);
  return (path, meter) => {
    // Row offsets (state × classes) from here on: one multiplication less a character.
    let row = start * classes;
    const deadRow = dead * classes;
    let full = start < 0;
    let pos = 0;
    const end = path.length;
    const room = roomOf(meter);
    for (; !full && pos < end && row !== deadRow && pos + built < room; pos++) {
      const c = path.charCodeAt(pos);
      const k = c < 128 ? ascii[c]! : classOf(c);
      let next = table[row + k]!;
      if (next < 0) {
        const d = step(row / classes, k);
        if (d < 0) full = true; // no room for the state: the NFA takes this path
        next = d * classes;
      }
      row = next;
    }
    if (meter !== undefined) meter.steps += pos + built;
    built = 0;
    if (full) return nfa(path, meter);
    // Out of room before the end (a dead state ends a path early, and answers false anyway).
    return pos === end && accepting[row / classes] === 1;
  };
}
