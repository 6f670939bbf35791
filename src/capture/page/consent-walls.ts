/**
 * The stylesheet `blockCookieBanners` injects, built once from the curated lists in
 * src/data/consent-walls.ts: hide every known consent wall, then undo the scroll lock it left.
 *
 * Scroll locks come in three shapes, all undone here:
 * - `overflow: hidden` on <html>/<body> (stylesheet, class or inline style): both are set to
 *   `overflow: visible`, so the viewport scrolls again. Both, not one: `hidden` on <body> alone
 *   would clip a `height: 100%` body once <html> stops propagating its overflow.
 * - `position: fixed` on <body> (the iOS-style lock, usually with `top: -<scrollY>px`), inline
 *   or through a platform's lock class: back to `position: static`.
 * - Platform lock classes on <html>/<body>: both of the above.
 */
import {
  CONSENT_PLATFORMS,
  GENERIC_BANNER_NAMES,
  GENERIC_DIALOG_SELECTORS,
} from "../../data/consent-walls";

const NOT_ROOT = ":not(html):not(body)";

/** Every element selector the stylesheet hides. */
export const CONSENT_HIDE_SELECTORS: readonly string[] = [
  ...CONSENT_PLATFORMS.flatMap((p) => p.hide),
  ...GENERIC_BANNER_NAMES.flatMap((name) => [
    `${NOT_ROOT}[id="${name}" i]`,
    `${NOT_ROOT}[class~="${name}" i]`,
  ]),
  ...GENERIC_DIALOG_SELECTORS,
];

/** <html>/<body> in a position-fixed lock: a platform's lock class, or an inline style. */
export const SCROLL_LOCK_SELECTORS: readonly string[] = [
  ...CONSENT_PLATFORMS.flatMap((p) => p.lockClasses ?? []).flatMap((c) => [
    `html.${c}`,
    `body.${c}`,
  ]),
  ...["position: fixed", "position:fixed"].flatMap((decl) => [
    `html[style*="${decl}" i]`,
    `body[style*="${decl}" i]`,
  ]),
];

export const CONSENT_WALL_CSS = [
  `${CONSENT_HIDE_SELECTORS.join(",\n")} { display: none !important; }`,
  "html, body { overflow: visible !important; }",
  `${SCROLL_LOCK_SELECTORS.join(",\n")} { position: static !important; overflow: visible !important; }`,
].join("\n");
