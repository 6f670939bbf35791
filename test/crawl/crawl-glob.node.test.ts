/**
 * The crawl's path globs (src/crawl/glob.ts): picomatch's semantics on the patterns the API
 * documents, and matching in time linear in the path's length times the pattern's — counted in
 * steps (states visited), not timed.
 */
import { describe, expect, it } from "vitest";
import { compileGlob, type GlobMeter } from "../../src/crawl/glob";
import { CRAWL, LIMITS } from "../../schemas/limits";
import { compilePatterns } from "../../src/crawl/urls";
import { linkRules } from "../../src/crawl/links";
import type { CrawlConfig } from "../../src/crawl/config";
import { TUNING } from "../../src/tuning";

const PATHS = [
  "/",
  "/blog",
  "/blog/",
  "/blog/post",
  "/blog/post/",
  "/blog/2024/post",
  "/c.html",
  "/a/c.html",
  "/a/b",
  "/a/x/y/b",
  "/x",
  "/a/x",
  "/docs/en/intro",
  "/docs/intro",
  "/v1/x",
  "/v10/x",
  "/articles/42",
  "/articles/x42",
  "/_hidden",
  "/visible",
  "/p/b",
  "/p/-",
  "/p/d",
  "/acb/c",
  "/a/bcd/",
  "/x*y",
  "/xay",
  "/files/a.pdf",
  "/files/sub/a.pdf",
  "/private/x",
  "/a/private/x",
  "/shop/red/item-1",
  "/shop/red/item-12",
];
const ALL = PATHS;

describe("compileGlob: what picomatch (POSIX, dot) matched", () => {
  // Each pattern (anchored as compilePatterns anchors it) and the paths of PATHS it matches:
  // written from picomatch 4.0.7's answers, which this matcher replaced.
  const TABLE: Array<[glob: string, matches: string[]]> = [
    ["/blog/*", ["/blog/post", "/blog/post/"]],
    ["/blog/**", ["/blog", "/blog/", "/blog/post", "/blog/post/", "/blog/2024/post"]],
    ["**/*.html", ["/c.html", "/a/c.html"]],
    ["/**/*.html", ["/a/c.html"]],
    ["/a/**/b", ["/a/b", "/a/x/y/b"]],
    ["**/x", ["/x", "/a/x", "/v1/x", "/v10/x", "/private/x", "/a/private/x"]],
    ["/**", ALL],
    ["**", ALL],
    ["*.html", ["/c.html"]],
    ["/docs/*/intro", ["/docs/en/intro"]],
    ["/v?/*", ["/v1/x"]],
    ["/articles/[0-9]*", ["/articles/42"]],
    ["/[^_]*", ["/blog", "/blog/", "/c.html", "/x", "/visible", "/x*y", "/xay"]],
    ["/p/[a-c-]", ["/p/b", "/p/-"]],
    ["/a*b/c", ["/acb/c"]],
    ["/a/b**", ["/a/b", "/a/bcd/"]],
    ["/x\\*y", ["/x*y"]],
    ["/files/*.pdf", ["/files/a.pdf"]],
    ["/**/private/**", ["/a/private/x"]],
    ["/shop/*/item-?", ["/shop/red/item-1"]],
  ];
  const anchored = (g: string) => (g.startsWith("/") || g.startsWith("**") ? g : `/${g}`);
  it.each(TABLE)("%s", (glob, matches) => {
    const match = compileGlob(anchored(glob));
    expect(PATHS.filter((p) => match(p))).toEqual(matches);
  });

  // Where it differs on purpose: syntax the API does not document (docs/CRAWL.md).
  const DIFFERENT: Array<[glob: string, path: string, ours: boolean, picomatch: boolean]> = [
    ["/[!a]", "/b", true, false], // `!` negates a class, like `^`
    ["/a(b|c)", "/ab", false, true], // parentheses and `|` are plain characters
    ["/a(b|c)", "/a(b|c)", true, true],
    ["/+(a|b)", "/ab", false, true], // and no extglobs
    ["/wiki/Foo_(bar)", "/wiki/Foo_bar", false, true],
    ["/a[/]b", "/a/b", false, true], // a class never matches `/`
    ["**/*.html", "/a/c.html/", false, true], // picomatch's shortcut for `**/*.ext`
  ];
  it.each(DIFFERENT)("%s on %s: %s (picomatch: %s)", (glob, path, ours) => {
    expect(compileGlob(glob)(path)).toBe(ours);
  });
});

describe("compileGlob: the lazy DFA answers as the NFA does", () => {
  // The DFA is built from the NFA (`maxStates: 0` runs the NFA alone); a small cap makes paths
  // run out of states midway and go to the NFA. Random patterns and paths of the dialect's pieces,
  // from a fixed seed.
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return (seed >>> 16) % n; // the high bits: the low ones of an LCG cycle quickly
  };
  const PIECES = ["/", "*", "**", "?", "a", "b", ".", "[a-b]", "[^a]", "[!b]", "\\*", "[", "]"];
  const CHARS = ["/", "a", "b", "c", ".", "*", "-", "[", "é"];
  it("on 2,000 random patterns × 20 paths", () => {
    const differ: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      let glob = rnd(2) === 0 ? "/" : "**";
      for (let n = rnd(8); n > 0; n--) glob += PIECES[rnd(PIECES.length)];
      const nfa = compileGlob(glob, { maxStates: 0 });
      const dfa = compileGlob(glob);
      const capped = compileGlob(glob, { maxStates: 1 + rnd(3) });
      for (let k = 0; k < 20; k++) {
        let path = rnd(4) === 0 ? "" : "/";
        for (let n = rnd(10); n > 0; n--) path += CHARS[rnd(CHARS.length)];
        const want = nfa(path);
        if (dfa(path) !== want || capped(path) !== want) differ.push(`${glob} on ${path}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it("past the cap (a glob whose DFA is exponential), on the NFA and still linear", () => {
    const glob = "/**/a" + "?".repeat(60);
    let path = "/";
    for (let i = 0; i < 2_000; i++) path += "ab"[rnd(2)];
    const meter: GlobMeter = { steps: 0 };
    const match = compileGlob(glob);
    for (const p of [path, path + "/", path.slice(0, 62)])
      expect(match(p, meter)).toBe(compileGlob(glob, { maxStates: 0 })(p));
    expect(meter.steps).toBeLessThanOrEqual(3 * 4 * (path.length + 1) * (glob.length + 4) * 2);
  });
});

describe("compileGlob: linear time", () => {
  // Classic catastrophic-backtracking globs, against long paths that almost match. A backtracking
  // matcher takes exponential (or high-polynomial) time here; the NFA visits each of its states
  // at most twice per character of the path.
  const tokens = (glob: string) => glob.length + 4; // states: tokens, forks, the final one
  const CASES: Array<[glob: string, path: string]> = [
    ["/**/*a*a*a*a*a*b", "/" + "a".repeat(199)],
    ["/**/*a*a*a*a*a*b", "/" + "a".repeat(100_000)],
    ["/**/*a*a*a*a*a*b", "/" + "a/".repeat(50_000)],
    ["**/**/**/**/**/x", "/a".repeat(1_000)],
    ["**/**/**/**/**/x", "/a".repeat(50_000)],
    ["/*?*?*?*?*?b", "/" + "a".repeat(2_000)],
    ["/*?*?*?*?*?b", "/" + "a".repeat(100_000)],
    ["/a/**/a/**/a/**/a/**/b", "/a".repeat(50_000)],
    ["**/*" + "a".repeat(150) + "b", "/" + "a".repeat(2_000)],
  ];
  it.each(CASES)("%s on a path of its length × pattern", { timeout: 20_000 }, (glob, path) => {
    const meter: GlobMeter = { steps: 0 };
    expect(compileGlob(glob)(path, meter)).toBe(false);
    expect(meter.steps).toBeLessThanOrEqual(4 * (path.length + 1) * tokens(glob));
  });

  it("the finding's crawl: 150-a links against /**/*a*a*a*a*a*b, through compilePatterns", () => {
    const match = compilePatterns(["/**/*a*a*a*a*a*b"], []);
    const meter: GlobMeter = { steps: 0 };
    for (let i = 0; i < 200; i++)
      expect(match(new URL(`http://a.com/${"a".repeat(150 + i)}`), meter)).toBe("pattern");
    expect(meter.steps).toBeLessThan(200 * 4 * 351 * 20);
  }, 10_000);

  it("a 2,000-character path against the finding's glob returns (picomatch never did)", () => {
    const match = compilePatterns(["/**/*a*a*a*a*a*b"], ["/*?*?*?*?*?b"]);
    expect(match(new URL(`http://a.com/x/${"a".repeat(2_000)}`))).toBe("pattern");
    expect(match(new URL(`http://a.com/x/${"a".repeat(2_000)}b`))).toBe("ok");
  }, 5_000);
});

describe("compilePatterns: the finding's worst case at the schema's maximums", () => {
  // 20 include and 20 exclude globs of 200 characters, each the finding's shape made as long as
  // the schema allows (`/**/*a*a…*a*X`, a different X each), against a page's 2,000 links of
  // 2,048 characters (docs/CAPTURE.md): all `a`s, so no glob matches and every glob reads every
  // character. The NFA alone took ~0.5 s a link here (~18 minutes the page; a backtracking
  // matcher never returns); the DFA is one lookup a character once each glob's ~100 states
  // (one per count of `a`s seen) are built.
  const LETTERS = "bcdefghijklmnopqrstuvwxyzBCDEFGHIJKLMNOP";
  const globs = [...LETTERS].map((x) => "/**/" + "*a".repeat(97) + "*" + x);
  const links = Array.from({ length: LIMITS.linksMax }, (_, i) => {
    const head = `http://a.com/${"a".repeat(i % 1_000)}/`;
    return new URL(head + "a".repeat(LIMITS.linkUrlChars - head.length));
  });

  it("costs a bounded number of steps: a lookup a character, plus building each glob's DFA", () => {
    expect(globs.every((g) => g.length === CRAWL.patternChars)).toBe(true);
    expect(links.every((u) => u.href.length === LIMITS.linkUrlChars)).toBe(true);
    const match = compilePatterns(globs.slice(0, 20), globs.slice(20));
    const meter: GlobMeter = { steps: 0 };
    const started = performance.now();
    for (const url of links) expect(match(url, meter)).toBe("pattern");
    const ms = performance.now() - started;
    const chars = globs.length * links.reduce((n, u) => n + u.pathname.length, 0);
    // Building: at most (states × classes) transitions a glob, each an NFA step over at most
    // every NFA state a few times; states here: one per count of `a`s (and a dead one), classes:
    // `/`, `a`, X and what lies between.
    const states = 97 + 4;
    const classes = 8;
    const build = globs.length * states * classes * 4 * (CRAWL.patternChars + 4);
    console.log(
      `worst-case globs: ${links.length} links × ${globs.length} globs, ${chars} characters, ` +
        `${meter.steps} steps (${build} building at most), ${Math.round(ms)} ms`,
    );
    expect(meter.steps).toBeLessThanOrEqual(chars + build);
  }, 120_000);
});

describe("the glob work budget: globs whose DFAs outgrow their caps, at the schema's maximums", () => {
  // `/**/*a???…X` (193 `?`, a different X each): the DFA needs a state for every set of places an
  // `a` was seen in the last 194 characters of a segment, so it hits MAX_DFA_STATES and the NFA
  // runs every link, ~2M steps a glob a 2,048-character link of random `a`s and `b`s: ~8e7 steps
  // a link, 1.6e11 the page, minutes of a Worker's time. The budget bounds the whole batch.
  const LETTERS = "cdefghijklmnopqrstuvwxyzBCDEFGHIJKLMNOPQ";
  const globs = [...LETTERS].map((x) => "/**/*a" + "?".repeat(193) + x);
  let seed = 7;
  const random = (n: number) =>
    Array.from({ length: n }, () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return (seed >> 16) & 1 ? "a" : "b";
    }).join("");
  // Ending in `b`, no X: no glob matches, and every glob reads every character.
  const links = Array.from({ length: LIMITS.linksMax }, () => {
    const head = "http://a.com/x/";
    return head + random(LIMITS.linkUrlChars - head.length - 1) + "b";
  });
  // What one match may do past the limit: build one DFA state (its set and two closures), enter
  // the NFA's start, one NFA character over every live state; a few visits a token at most.
  const OVERSHOOT = 10 * (CRAWL.patternChars + 4);
  const config = (include: string[], exclude: string[]) =>
    ({
      crawlId: "c_test",
      url: "http://a.com/",
      scope: "host",
      maxDepth: 2,
      followNofollow: false,
      include,
      exclude,
    }) as unknown as CrawlConfig;

  it("stops the batch at the budget (by steps): every link past it answers budget", () => {
    expect(globs.every((g) => g.length === CRAWL.patternChars)).toBe(true);
    expect(links.every((u) => u.length === LIMITS.linkUrlChars)).toBe(true);
    const match = compilePatterns(globs.slice(0, 20), globs.slice(20));
    const meter: GlobMeter = { steps: 0, limit: TUNING.crawlPatternSteps };
    const started = performance.now();
    const verdicts = links.map((u) => match(new URL(u), meter));
    const ms = performance.now() - started;
    const spentAt = verdicts.indexOf("budget");
    console.log(
      `glob budget: ${meter.steps} steps of ${TUNING.crawlPatternSteps} ` +
        `(+${meter.steps - TUNING.crawlPatternSteps}), budget from link ${spentAt}, ${Math.round(ms)} ms`,
    );
    expect(meter.steps).toBeGreaterThanOrEqual(TUNING.crawlPatternSteps);
    expect(meter.steps).toBeLessThanOrEqual(TUNING.crawlPatternSteps + OVERSHOOT);
    expect(spentAt).toBeGreaterThanOrEqual(0);
    expect(verdicts.slice(spentAt).every((v) => v === "budget")).toBe(true);
    expect(verdicts.slice(0, spentAt).every((v) => v === "pattern")).toBe(true);
  }, 60_000);

  it("linkRules skips the links past the budget as pattern_budget, and counts them", () => {
    const rules = linkRules(config(globs.slice(0, 20), globs.slice(20)));
    const verdicts = links.map((url) => rules({ url, nofollow: false }, 1));
    const budget = verdicts.filter((v) => v?.skip === "pattern_budget").length;
    expect(budget).toBe(LIMITS.linksMax);
    expect(rules.stats.budgetSkipped).toBe(budget);
    // Fail closed: nothing is left to fetch.
    expect(verdicts.every((v) => v !== null && v.skip !== null)).toBe(true);
  }, 60_000);

  it("one link alone stops at what is left of the limit, answering false", () => {
    const glob = compileGlob(globs[0]!);
    const meter: GlobMeter = { steps: 0, limit: 100_000 };
    expect(glob(links[0]!.slice("http://a.com".length), meter)).toBe(false);
    expect(meter.steps).toBeGreaterThanOrEqual(100_000);
    expect(meter.steps).toBeLessThanOrEqual(100_000 + OVERSHOOT);
    const nfa = compileGlob(globs[0]!, { maxStates: 0 });
    const nfaMeter: GlobMeter = { steps: 0, limit: 100_000 };
    expect(nfa(links[0]!.slice("http://a.com".length), nfaMeter)).toBe(false);
    expect(nfaMeter.steps).toBeLessThanOrEqual(100_000 + OVERSHOOT);
  }, 10_000);

  it("an ample limit changes no answer, and an ordinary crawl's page never meets the budget", () => {
    for (const maxStates of [undefined, 0, 3])
      for (const pattern of ["/blog/**", "/**/*.html", "/a/*", "/**/*a?", "**/b", "/*/[a-c]*"]) {
        const glob = compileGlob(pattern, { maxStates });
        for (const path of PATHS)
          expect(glob(path, { steps: 0, limit: 1_000_000 }), `${pattern} ${path}`).toBe(glob(path));
      }
    const include = Array.from({ length: 20 }, (_, i) => `/section${i}/**/*.html`);
    const exclude = Array.from({ length: 20 }, (_, i) => `/**/private${i}/*`);
    const rules = linkRules(config(include, exclude));
    const page = Array.from(
      { length: LIMITS.linksMax },
      (_, i) => `http://a.com/section${i % 25}/${"post-".repeat(i % 20)}${i}.html`,
    );
    const verdicts = page.map((url) => rules({ url, nofollow: false }, 1));
    expect(rules.stats.budgetSkipped).toBe(0);
    expect(verdicts.filter((v) => v?.skip === null).length).toBe(1_600);
  });
});

describe("compilePatterns: the schema's bounds hold", () => {
  it("throws past 20 globs or 200 characters a glob", () => {
    expect(() => compilePatterns(Array(21).fill("/a"), [])).toThrow(RangeError);
    expect(() => compilePatterns([], ["/" + "a".repeat(200)])).toThrow(RangeError);
    expect(() => compilePatterns(Array(20).fill("/" + "a".repeat(199)), [])).not.toThrow();
  });
});
