/**
 * Markdown conversion is bounded in time: pathological emphasis (marked's tokenizer is quadratic
 * on it) is refused with a 400 naming `markdown` at once, ordinary documents of the full 5 MB
 * still convert. Bounds are generous (shared CPU): the point is seconds, not tens of seconds.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/errors";
import { markdownToHtml } from "../../src/capture-request/markdown-theme";
import { TUNING } from "../../src/tuning";

function timed<T>(work: () => T): { value: T | ApiError; ms: number } {
  const started = Date.now();
  try {
    return { value: work(), ms: Date.now() - started };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { value: err, ms: Date.now() - started };
  }
}

describe("markdown emphasis budget", () => {
  for (const pair of ["*a", "_a", "a*", "**a"]) {
    it(`400 KB of ${JSON.stringify(pair)} is a 400 naming markdown, within a second`, () => {
      const { value, ms } = timed(() => markdownToHtml(pair.repeat(400_000 / pair.length)));
      expect(value).toBeInstanceOf(ApiError);
      const err = value as ApiError;
      expect([err.status, err.code]).toEqual([400, "VALIDATION_ERROR"]);
      expect(err.details?.[0]?.path).toBe("markdown");
      expect(ms).toBeLessThan(1_000);
    });
  }

  it("the largest pathological paragraph under the budget converts quickly and correctly", () => {
    const pairs = Math.floor(Math.sqrt(TUNING.markdownEmphasisWork / 2)); // markers × length ≤ budget
    const { value, ms } = timed(() => markdownToHtml("*a".repeat(pairs)));
    expect(typeof value).toBe("string");
    expect(value as string).toContain("<em>a</em>");
    expect(ms).toBeLessThan(3_000);
  });

  it("a 5 MB document of ordinary emphasised paragraphs converts", () => {
    const paragraph = "Some *emphasis*, some **strong** and a snake_case_name in a sentence.\n\n";
    const doc = paragraph.repeat(Math.floor((5 * 1024 * 1024) / paragraph.length));
    const { value } = timed(() => markdownToHtml(doc));
    expect(typeof value).toBe("string");
    expect((value as string).match(/<strong>strong<\/strong>/g)?.length).toBe(
      Math.floor((5 * 1024 * 1024) / paragraph.length),
    );
  });
});
