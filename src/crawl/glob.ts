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

import {
  accepts,
  Kind,
  machine,
  nfaMatcher,
  roomOf,
  SLASH,
  type GlobMatcher,
  type Token,
} from "./glob-nfa";

export type { GlobMatcher, GlobMeter } from "./glob-nfa";
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
