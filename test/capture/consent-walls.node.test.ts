/** The consent-wall stylesheet built from src/data/consent-walls.ts. */
import { parse } from "css-what";
import { describe, expect, it } from "vitest";
import {
  CONSENT_HIDE_SELECTORS,
  CONSENT_WALL_CSS,
  SCROLL_LOCK_SELECTORS,
} from "../../src/capture/page/consent-walls";

describe("the consent-wall stylesheet", () => {
  it("every selector parses (one bad selector would void the whole rule)", () => {
    for (const selector of [...CONSENT_HIDE_SELECTORS, ...SCROLL_LOCK_SELECTORS]) {
      expect(() => parse(selector), selector).not.toThrow();
      expect(parse(selector), selector).toHaveLength(1);
    }
  });

  it("no hide selector can match <html> or <body> by tag", () => {
    for (const selector of CONSENT_HIDE_SELECTORS) expect(selector).not.toMatch(/^(html|body)\b/);
  });

  it("covers each named platform and restores scrolling", () => {
    for (const s of [
      "#onetrust-consent-sdk",
      "#CybotCookiebotDialog",
      "#qc-cmp2-container",
      "#didomi-host",
      "#truste-consent-track",
      "#usercentrics-root",
      ".osano-cm-window",
      ".cky-consent-container",
      "#iubenda-cs-banner",
      ".cmplz-cookiebanner",
      '[id^="sp_message_container_"]',
      ".fc-consent-root",
    ]) {
      expect(CONSENT_HIDE_SELECTORS).toContain(s);
    }
    expect(CONSENT_WALL_CSS).toContain("html, body { overflow: visible !important; }");
    expect(SCROLL_LOCK_SELECTORS).toEqual(
      expect.arrayContaining([
        "body.didomi-popup-open-ios",
        "html.sp-message-open",
        'body[style*="position: fixed" i]',
      ]),
    );
  });
});
