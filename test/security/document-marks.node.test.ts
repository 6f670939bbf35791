/** Marking a target document's bytes (src/capture/guard/document-marks.ts), encoding by encoding. */
import { describe, expect, it } from "vitest";
import { marked, mayHoldTemplates } from "../../src/capture/guard/document-marks";
import { MARKER } from "../../src/capture/guard/dsd-markers";

const type = (value: string) => [{ name: "Content-Type", value }];
const bytes = (s: string) => String.fromCharCode(...new TextEncoder().encode(s));
const utf16 = (s: string, big: boolean) =>
  [...s]
    .map((c) => {
      const n = c.charCodeAt(0);
      return big ? String.fromCharCode(n >> 8, n & 255) : String.fromCharCode(n & 255, n >> 8);
    })
    .join("");
const PAGE = `<div><template shadowrootmode="closed"><p>é</p></template></div>`;
const MARKED = PAGE.replace(`"closed">`, `"closed">${MARKER}`);

describe("marked", () => {
  it("UTF-8 and every ASCII-keeping encoding: the marker goes in byte for byte", () => {
    expect(marked(bytes(PAGE), type("text/html; charset=utf-8"))).toBe(bytes(MARKED));
    const latin1 = PAGE; // é is one byte, 0xE9, as windows-1252 has it
    expect(marked(latin1, type("text/html; charset=windows-1252"))).toBe(MARKED);
    expect(marked(bytes("<p>no roots</p><template>x</template>"), [])).toBeNull();
  });

  it("UTF-16: decoded, marked and encoded back, with its byte order mark or its charset", () => {
    for (const big of [false, true]) {
      const bom = big ? "\xFE\xFF" : "\xFF\xFE";
      expect(marked(bom + utf16(PAGE, big), type("text/html"))).toBe(bom + utf16(MARKED, big));
      const charset = big ? "utf-16be" : "utf-16le";
      expect(marked(utf16(PAGE, big), type(`text/html; charset="${charset}"`))).toBe(
        utf16(MARKED, big),
      );
    }
    // A UTF-8 byte order mark outranks a UTF-16 charset, as in the HTML parser.
    expect(marked("\xEF\xBB\xBF" + bytes(PAGE), type("text/html; charset=utf-16"))).toBe(
      "\xEF\xBB\xBF" + bytes(MARKED),
    );
  });
});

describe("mayHoldTemplates", () => {
  it("HTML or an undeclared type with a body; never a redirect, an empty status or another type", () => {
    expect(mayHoldTemplates(200, type("text/html; charset=utf-8"))).toBe(true);
    expect(mayHoldTemplates(404, [])).toBe(true);
    expect(mayHoldTemplates(302, [{ name: "location", value: "/x" }])).toBe(false);
    expect(mayHoldTemplates(300, type("text/html"))).toBe(true);
    for (const status of [204, 205, 304]) expect(mayHoldTemplates(status, [])).toBe(false);
    for (const t of ["application/xhtml+xml", "image/svg+xml", "text/plain", "application/pdf"])
      expect(mayHoldTemplates(200, type(t)), t).toBe(false);
  });
});
