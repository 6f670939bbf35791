/**
 * What a newcomer's first mistakes are told: a mistyped field is named with the one it likely
 * meant, and a bound on a duration says its unit.
 */
import { describe, expect, it } from "vitest";
import { captureRequestSchema } from "../../schemas/capture";
import { watchCreateSchema } from "../../schemas/watches";
import { ApiError } from "../../src/errors";
import { parseWith } from "../../src/http/body";

/** The `details` of the 400 that `value` gets from `schema`. */
function refusal(schema: Parameters<typeof parseWith>[0], value: unknown) {
  try {
    parseWith(schema, value);
  } catch (err) {
    if (err instanceof ApiError) return { message: err.message, details: err.details };
    throw err;
  }
  throw new Error("accepted");
}

const url = "https://example.com";

describe("a mistyped field", () => {
  it("is named with the field of another case it matches", () => {
    expect(refusal(captureRequestSchema, { url, fullpage: true }).details).toEqual([
      { path: "fullpage", message: "Unknown field; did you mean fullPage?" },
    ]);
  });

  it("is named with the one field within two edits, in nested objects too", () => {
    const { details } = refusal(captureRequestSchema, {
      url,
      waitUntl: "load",
      clip: { x: 0, y: 0, width: 100, heigth: 100 },
    });
    expect(details).toContainEqual({
      path: "waitUntl",
      message: "Unknown field; did you mean waitUntil?",
    });
    expect(details).toContainEqual({
      path: "clip.heigth",
      message: "Unknown field; did you mean height?",
    });
  });

  it("is only unknown when nothing is near, or several are", () => {
    const { details } = refusal(captureRequestSchema, { url, colour: "red", __proto__x: 1 });
    expect(details).toContainEqual({ path: "colour", message: "Unknown field." });
    expect(details).toContainEqual({ path: "__proto__x", message: "Unknown field." });
  });
});

describe("a bound on a duration", () => {
  it("says its unit", () => {
    expect(refusal(captureRequestSchema, { url, timeout: 61 }).message).toBe(
      "Invalid request: timeout: Must be at most 60 seconds.",
    );
    expect(refusal(captureRequestSchema, { url, delay: 10_001 }).details).toEqual([
      { path: "delay", message: "Must be at most 10000 ms." },
    ]);
    expect(refusal(watchCreateSchema, { url, intervalMinutes: 0 }).details?.[0]?.message).toBe(
      "Must be at least 1 minute.",
    );
  });
});
