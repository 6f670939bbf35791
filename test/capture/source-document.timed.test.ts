import { describe, expect, it } from "vitest";
import { renderContent } from "../../src/capture-request/source-document";
import { renderTemplate } from "../../src/capture-request/mustache/render";
import { exceedsBytes } from "../../src/encoding";
import type { ContentInput } from "../../src/capture-request/source-document";
import { markdownToHtml } from "../../src/capture-request/markdown-theme";
import { ApiError } from "../../src/errors";
import { LIMITS } from "../../schemas/limits";

const html = (template: string, data: Record<string, unknown> = {}) =>
  renderContent({ html: template, data, darkMode: false });

/** The ApiError `run` throws (fails the test when it returns or throws something else). */
function apiError(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

function expectInvalid(input: ContentInput, field: "html" | "markdown", message: RegExp) {
  const error = apiError(() => renderContent(input));
  expect([error.status, error.code]).toEqual([400, "VALIDATION_ERROR"]);
  expect(error.details?.[0]?.path).toBe(field);
  expect(error.details?.[0]?.message).toMatch(message);
}

/** Runs `run`, expecting a 413 within `ms` milliseconds. */
function expectTooLarge(run: () => unknown, field = "html", ms = 500) {
  const started = performance.now();
  const error = apiError(run);
  expect(performance.now() - started).toBeLessThan(ms);
  expect([error.status, error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
  expect(error.details?.[0]?.path).toBe(field);
}

describe("Mustache values", () => {
  it("HTML-escapes {{x}} and leaves {{{x}}} and {{&x}} raw", () => {
    const data = { x: `<script>alert("1")</script>&'/` };
    expect(html("{{x}}", data)).toBe(
      "&lt;script&gt;alert(&quot;1&quot;)&lt;&#x2F;script&gt;&amp;&#39;&#x2F;",
    );
    expect(html("{{{x}}}|{{& x}}", data)).toBe(`${data.x}|${data.x}`);
  });

  it("prints numbers, booleans and arrays like mustache.js; missing and null print nothing", () => {
    const data = { n: 0, t: true, list: [1, "a", null, [2, 3]], nil: null, obj: { a: 1 } };
    expect(html("{{n}}|{{t}}|{{list}}|{{nil}}|{{missing}}|{{obj}}", data)).toBe(
      "0|true|1,a,,2,3|||[object Object]",
    );
  });

  it("resolves dotted names, array indices and string lengths", () => {
    const data = { a: { b: { c: "deep" } }, items: ["x", "y"], s: "four" };
    expect(html("{{a.b.c}} {{items.1}} {{items.length}} {{s.length}} {{a.nope.c}}", data)).toBe(
      "deep y 2 4 ",
    );
  });

  it("supports comments and delimiter changes", () => {
    expect(html("{{! note }}{{=<% %>=}}<% a %> {{a}}<%={{ }}=%> {{a}}", { a: 1 })).toBe(
      "1 {{a}} 1",
    );
  });
});

describe("Mustache sections", () => {
  it("loops over arrays with {{.}} and item fields, falling back to outer names", () => {
    const data = { rows: [{ n: 1 }, { n: 2 }], tags: ["a", "b"], unit: "px" };
    expect(html("{{#rows}}[{{n}}{{unit}}]{{/rows}} {{#tags}}<{{.}}>{{/tags}}", data)).toBe(
      "[1px][2px] <a><b>",
    );
  });

  it("enters objects, renders truthy values once and skips falsy ones", () => {
    const data = { user: { name: "Ann" }, yes: true, no: false, zero: 0, empty: "" };
    const template = "{{#user}}{{name}}{{/user}}{{#yes}}Y{{/yes}}{{#no}}N{{/no}}";
    expect(html(`${template}{{#zero}}0{{/zero}}{{#empty}}E{{/empty}}`, data)).toBe("AnnY");
  });

  it("renders inverted sections for false, empty arrays and missing names only", () => {
    const data = { no: false, none: [], some: [1] };
    const template = "{{^no}}a{{/no}}{{^none}}b{{/none}}{{^missing}}c{{/missing}}";
    expect(html(`${template}{{^some}}d{{/some}}`, data)).toBe("abc");
  });

  it("drops lines that hold only a section tag, like mustache.js", () => {
    const template = "<ul>\n  {{#items}}\n  <li>{{.}}</li>\n  {{/items}}\n</ul>\n";
    expect(html(template, { items: [1, 2] })).toBe("<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>\n");
  });
});

describe("templating only with data", () => {
  it("passes html through untouched without data, even with Mustache-like text", () => {
    const source = "<script>const o = {{a: 1}}; {{#x}}</script>{{> partial}}";
    expect(renderContent({ html: source, darkMode: false })).toBe(source);
  });

  it("applies to markdown too, and leaves markdown's {{ alone without data", () => {
    expect(renderContent({ markdown: "`{{x}}`", darkMode: false })).toContain("<code>{{x}}</code>");
    expect(renderContent({ markdown: "# {{x}}", data: { x: "<b>" }, darkMode: false })).toContain(
      "<h1>&lt;b&gt;</h1>",
    );
  });
});

describe("template errors are 400s naming the field", () => {
  it.each([
    ["{{#a}}open", /Unclosed section "a"/],
    ["{{/a}}", /Unopened section "a"/],
    ["{{#a}}{{/b}}", /Unclosed section "a"/],
    ["{{a", /Unclosed tag at 0/],
    ["{{=<% =}}", /Invalid tags/],
  ])("%s", (template, message) => {
    expectInvalid({ html: template, data: {}, darkMode: false }, "html", message);
    expectInvalid({ markdown: template, data: {}, darkMode: false }, "markdown", message);
  });

  it("keeps error messages short when the offending name is huge", () => {
    const name = "n".repeat(100_000);
    const error = apiError(() => html(`{{/${name}}}`));
    expect(error.message.length).toBeLessThan(200);
    expect(error.message).toContain(`Unopened section "${"n".repeat(57)}..."`);
  });

  it("refuses partials instead of rendering them empty", () => {
    const input = { html: "{{> header}}", data: { header: "x" }, darkMode: false };
    expectInvalid(input, "html", /partials .* not supported/);
  });

  it("refuses sections nested deeper than the limit, and too many tags", () => {
    const depth = LIMITS.templateDepth;
    const nested = (n: number) => "{{#a}}".repeat(n) + "{{/a}}".repeat(n);
    expect(html(nested(depth), { a: true })).toBe("");
    expectInvalid({ html: nested(depth + 1), data: {}, darkMode: false }, "html", /nested deeper/);
    const tags = "{{a}}".repeat(LIMITS.templateTags + 1);
    expectInvalid({ html: tags, data: {}, darkMode: false }, "html", /more than 100000 tags/);
  });
});

describe("template bounds", () => {
  const big = Array.from({ length: 1000 }, (_, i) => i);

  it("refuses nested sections over big arrays with 413 before building the output", () => {
    expectTooLarge(() => html("{{#a}}{{#a}}{{#a}}<p>row</p>{{/a}}{{/a}}{{/a}}", { a: big }));
  });

  it("bounds time even when the explosion prints nothing", () => {
    expectTooLarge(() => html("{{#a}}{{#a}}{{#a}}{{/a}}{{/a}}{{/a}}", { a: big }));
  });

  it("stops a loop that prints a large value again and again", () => {
    expectTooLarge(() => html("{{#a}}{{s}}{{/a}}", { a: big, s: "x".repeat(100_000) }));
  });

  it("measures the cap in UTF-8 bytes, not characters", () => {
    const data = { e: "€".repeat(1_000_000) }; // 1 M characters, 3 MB
    expect(html("{{e}}{{e}}", data)).toHaveLength(2_000_000);
    expectTooLarge(() => html("{{e}}{{e}}{{e}}", data)); // 3 M characters, 9 MB
  });

  it("applies the same bounds to markdown templates", () => {
    const input = { markdown: "{{#a}}{{#a}}{{#a}}x{{/a}}{{/a}}{{/a}}", data: { a: big } };
    expectTooLarge(() => renderContent({ ...input, darkMode: false }), "markdown");
  });

  it("renders a 5 MB template quickly", () => {
    const line = "<p>Hello {{name}}, lorem ipsum dolor sit amet, consectetur adipiscing.</p>\n";
    const template = line.repeat(Math.floor((5 * 1024 * 1024) / line.length));
    const started = performance.now();
    const output = html(template, { name: "Ann" });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(output.startsWith("<p>Hello Ann, lorem")).toBe(true);
  });

  it("survives data nested 10,000 levels deep", () => {
    const data: Record<string, unknown> = {};
    let level = data;
    for (let i = 0; i < 10_000; i++) level = level.a = {};
    let list: unknown[] = [];
    for (let i = 0; i < 10_000; i++) list = [list];
    expect(html("{{#a}}{{#a}}{{a}}{{/a}}{{/a}}|{{list}}", { ...data, list })).toBe(
      "[object Object]|",
    );
  });

  it("exceedsBytes counts multi-byte characters", () => {
    expect(exceedsBytes("ab", 2)).toBe(false);
    expect(exceedsBytes("é", 1)).toBe(true); // 2 bytes
    expect(exceedsBytes("€", 2)).toBe(true); // 3 bytes
    expect(exceedsBytes("😀", 4)).toBe(false); // 2 units, 4 bytes
    expect(exceedsBytes("😀", 3)).toBe(true);
  });

  it("renderTemplate is the same engine for any field", () => {
    expect(renderTemplate("{{#a}}{{.}}{{/a}}", { a: [1, 2] }, "markdown")).toBe("12");
  });
});

describe("data cannot reach prototypes", () => {
  it("prints nothing for prototype members of objects, arrays and strings", () => {
    const data = { o: {}, items: [1], s: "str" };
    const template = [
      "{{constructor}}{{toString}}{{__proto__}}{{hasOwnProperty}}{{constructor.name}}",
      "{{#constructor}}C{{/constructor}}{{o.constructor.constructor}}{{items.constructor.name}}",
      "{{items.map}}{{s.constructor.name}}{{s.toUpperCase}}{{o.__proto__.toString}}",
    ].join("");
    expect(html(template, data)).toBe("");
  });

  it("keeps JSON __proto__ and constructor keys as plain data without polluting anything", () => {
    const data = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "constructor": "mine", "o": {"toString": 1}}',
    ) as Record<string, unknown>;
    expect(html("{{polluted}}|{{constructor}}|{{__proto__.polluted}}|{{o}}", data)).toBe(
      "|mine|yes|[object Object]",
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("never calls functions found in data", () => {
    let called = false;
    const f = () => {
      called = true;
      return "x";
    };
    expect(html("{{f}}{{#f}}in{{/f}}{{^f}}out{{/f}}", { f })).toBe("out");
    expect(called).toBe(false);
  });
});

describe("markdown", () => {
  const doc = (markdown: string, darkMode = false) => renderContent({ markdown, darkMode });

  it("wraps the output in a complete document with charset and viewport", () => {
    const out = doc("Hello");
    expect(out.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(out).toContain('<meta charset="utf-8">');
    expect(out).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(out).toContain("<p>Hello</p>");
    expect(out.trimEnd().endsWith("</html>")).toBe(true);
  });

  it("converts GFM: headings, lists, tables, code, quotes, images, tasks, autolinks", () => {
    const out = doc(
      [
        "# Title",
        "## Sub",
        "- one\n- two",
        "1. first",
        "| a | b |\n|---|--:|\n| 1 | 2 |",
        "```ts\nconst x = 1 < 2;\n```",
        "Use `npm i` now",
        "> quoted",
        "![alt](https://example.com/i.png)",
        "- [x] done\n- [ ] todo",
        "~~gone~~ see www.example.com",
        "***",
      ].join("\n\n"),
    );
    for (const part of [
      "<h1>Title</h1>",
      "<h2>Sub</h2>",
      "<ul>\n<li>one</li>",
      "<ol>\n<li>first</li>",
      "<th>a</th>",
      '<td align="right">2</td>',
      '<pre><code class="language-ts">const x = 1 &lt; 2;',
      "<code>npm i</code>",
      "<blockquote>\n<p>quoted</p>",
      '<img src="https://example.com/i.png" alt="alt">',
      '<input checked="" disabled="" type="checkbox">',
      "<del>gone</del>",
      '<a href="http://www.example.com">www.example.com</a>',
      "<hr>",
    ]) {
      expect(out).toContain(part);
    }
  });

  it("keeps raw HTML embedded in markdown", () => {
    const raw = '<div class="card">**hi**</div>';
    expect(doc(`${raw}\n\ntext`)).toContain(raw);
  });

  it("styles light by default and dark only with darkMode", () => {
    const light = doc("x");
    const dark = doc("x", true);
    expect(light).toContain("color-scheme: light");
    expect(light).not.toContain("color-scheme: dark");
    expect(light).not.toContain("#0d1117");
    expect(dark).toContain("color-scheme: dark");
    expect(dark).toContain("--bg: #0d1117");
    expect(dark).not.toContain("color-scheme: light");
  });

  it("includes a real typography: measure, monospace code, table borders, zebra rows", () => {
    const out = doc("x");
    for (const rule of [
      "max-width: 760px",
      "line-height: 1.6",
      "h1 { font-size: 2em",
      "ui-monospace",
      "overflow-x: auto",
      "border: 1px solid var(--border)",
      "tbody tr:nth-child(2n)",
      "border-left: .25em solid",
      "img { max-width: 100%",
    ]) {
      expect(out).toContain(rule);
    }
  });

  it("allows lists and quotes nested to the limit and refuses deeper ones", () => {
    const quote = (n: number) => `${">".repeat(n)} q`;
    const list = (n: number) =>
      Array.from({ length: n }, (_, i) => `${" ".repeat(i * 2)}- level ${i}`).join("\n");
    expect(markdownToHtml(quote(LIMITS.markdownDepth)).match(/<blockquote>/g)).toHaveLength(32);
    expect(markdownToHtml(list(LIMITS.markdownDepth)).match(/<ul>/g)).toHaveLength(32);
    for (const source of [quote(LIMITS.markdownDepth + 1), list(LIMITS.markdownDepth + 1)]) {
      expectInvalid({ markdown: source, darkMode: false }, "markdown", /nested more than 32/);
    }
    expectInvalid({ markdown: ">".repeat(100_000), darkMode: false }, "markdown", /nested/);
  });

  it("turns a stack overflow inside marked into a 400", () => {
    const markdown = "*".repeat(5 * 1024 * 1024); // overflows the hr regex's backtracking stack
    expectInvalid({ markdown, darkMode: false }, "markdown", /too complex to convert/);
  });

  it("refuses reference links that would repeat a long URL into a huge document", () => {
    const markdown = `[r]: https://example.com/${"a".repeat(500_000)}\n\n${"[x][r] ".repeat(40)}`;
    expectTooLarge(() => markdownToHtml(markdown), "markdown"); // refused before it is built
  });

  it("counts the markup an alignment row adds to every cell of a table", () => {
    const row = `|${"a|".repeat(1000)}\n`;
    const markdown = `${row}|${":-:|".repeat(1000)}\n${row.repeat(700)}`; // 1.4 MB, 700k cells
    expectTooLarge(() => markdownToHtml(markdown), "markdown", 3000);
  });

  it("refuses a document whose markup outgrows the limit once converted", () => {
    const markdown = "![](x)\n\n".repeat(620_000); // 5 MB becomes 17 MB of <p><img …></p>
    expectTooLarge(() => doc(markdown), "markdown", 10_000);
  });
});
