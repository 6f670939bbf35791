/**
 * GET /docs/errors documents every code the code base can emit. The page is generated from
 * ERROR_CODES (src/errors.ts); this reads every source file for the codes it hands out — an
 * `ApiError("CODE"`, an `errorBody(…, "CODE"`, a `code: "CODE"` or a `code === "CODE"` — so a
 * code emitted past the table (a cast, a hand-built envelope) fails here, naming the file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/errors";
import { errorDocsPage } from "../../src/http/routes/error-docs";

const ROOT = join(import.meta.dirname, "../../src");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const EMITTED = [
  /new ApiError\(\s*"([A-Z][A-Z_]+)"/g,
  /errorBody\([^,()]+,\s*"([A-Z][A-Z_]+)"/g,
  /\bcode:\s*"([A-Z][A-Z_]+)"/g,
  /\bcode\s*={2,3}\s*"([A-Z][A-Z_]+)"/g,
  /\? "([A-Z][A-Z_]+_[A-Z_]+)"\s*:/g,
];

/** code → the files that emit it */
function emittedCodes(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sources(ROOT)) {
    const text = readFileSync(file, "utf8");
    for (const pattern of EMITTED) {
      for (const match of text.matchAll(pattern)) {
        const code = match[1] ?? "";
        found.set(code, [...(found.get(code) ?? []), file.slice(ROOT.length + 1)]);
      }
    }
  }
  return found;
}

describe("GET /docs/errors covers every code", () => {
  const page = errorDocsPage();

  it("finds the codes the source emits (the scan works)", () => {
    const codes = emittedCodes();
    for (const code of ["INVALID_URL", "UNSAFE_URL", "URL_CHECK_UNAVAILABLE", "NOT_FOUND"])
      expect(codes.has(code), code).toBe(true);
  });

  it("every code the source emits is in the table and has its section on the page", () => {
    const missing = [...emittedCodes()]
      .filter(([code]) => !(code in ERROR_CODES) || !page.includes(`<section id="${code}">`))
      .map(([code, files]) => `${code} (${[...new Set(files)].join(", ")})`);
    expect(missing).toEqual([]);
  });

  it("every code of the table has its section: status, whose fault, meaning, what to do", () => {
    for (const [code, info] of Object.entries(ERROR_CODES)) {
      const section = page.match(new RegExp(`<section id="${code}">[\\s\\S]*?</section>`))?.[0];
      expect(section, code).toBeDefined();
      expect(section, code).toContain(`<dd>${info.status}`);
      expect(section, code).toMatch(/<dt>Whose fault<\/dt><dd>\S/);
      expect(section, code).toMatch(/<dt>What it means<\/dt><dd>\S/);
      expect(section, code).toMatch(/<dt>What to do<\/dt><dd>\S/);
    }
  });
});
