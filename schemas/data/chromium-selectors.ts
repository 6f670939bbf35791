/**
 * The names of pseudo-classes and pseudo-elements Chromium's selector parser accepts, read by
 * the selector grammar (../css-selector.ts). Data, kept apart from the grammar so a Chromium
 * update is a list edit.
 *
 * Source: the argument-less names of Blink's pseudo-type table
 * (third_party/blink/renderer/core/css/css_selector.cc), as the Chromium the tests run accepts
 * them. Not generated: test/integration/hostile-input.test.ts checks the grammar against that
 * browser's querySelector on a corpus, in both directions, so a list that drifts from the
 * browser fails there; refresh it when that test fails after a browser upgrade.
 *
 * It lives under schemas/ (not src/data/ with the other curated lists) because the public
 * contract validates selectors with it and schemas/ imports nothing outside itself.
 */

/** Pseudo-classes Chromium accepts without an argument (lower case). */
export const CHROMIUM_PSEUDO_CLASSES: readonly string[] = [
  "active",
  "active-view-transition",
  "any-link",
  "autofill",
  "checked",
  "current",
  "default",
  "defined",
  "disabled",
  "empty",
  "enabled",
  "first-child",
  "first-of-type",
  "focus",
  "focus-visible",
  "focus-within",
  "fullscreen",
  "future",
  "host",
  "hover",
  "in-range",
  "indeterminate",
  "invalid",
  "last-child",
  "last-of-type",
  "link",
  "modal",
  "only-child",
  "only-of-type",
  "open",
  "optional",
  "out-of-range",
  "interest-source",
  "interest-target",
  "past",
  "picture-in-picture",
  "placeholder-shown",
  "popover-open",
  "read-only",
  "read-write",
  "required",
  "root",
  "scope",
  "target",
  "target-current",
  "user-invalid",
  "user-valid",
  "valid",
  "visited",
  "xr-overlay",
  "-webkit-any-link",
  "-webkit-autofill",
  "-webkit-full-screen",
  "-webkit-full-screen-ancestor",
  "-webkit-drag",
  // Scrollbar states (meaningful after ::-webkit-scrollbar…, accepted anywhere).
  "horizontal",
  "vertical",
  "decrement",
  "increment",
  "start",
  "end",
  "double-button",
  "single-button",
  "no-button",
  "corner-present",
  "window-inactive",
];
/** Legacy pseudo-elements that may be written with one colon. */
export const CHROMIUM_LEGACY_PSEUDO_ELEMENTS: readonly string[] = [
  "before",
  "after",
  "first-line",
  "first-letter",
];
/** Pseudo-elements Chromium accepts without an argument (lower case); any `-webkit-` one too. */
export const CHROMIUM_PSEUDO_ELEMENTS: readonly string[] = [
  ...CHROMIUM_LEGACY_PSEUDO_ELEMENTS,
  "marker",
  "placeholder",
  "selection",
  "backdrop",
  "file-selector-button",
  "target-text",
  "spelling-error",
  "grammar-error",
  "details-content",
  "scroll-marker",
  "scroll-marker-group",
  "column",
  "checkmark",
  "picker-icon",
  "cue",
  "view-transition",
  "search-text",
];
/** Pseudo-classes that may follow a pseudo-element in the same compound, by pseudo-element. */
export const CHROMIUM_AFTER_SCROLLBAR: readonly string[] = [
  "horizontal",
  "vertical",
  "decrement",
  "increment",
  "start",
  "end",
  "double-button",
  "single-button",
  "no-button",
  "corner-present",
  "window-inactive",
  "enabled",
  "disabled",
  "hover",
  "active",
];
/** User-action pseudo-classes (the ones allowed after some pseudo-elements). */
export const CHROMIUM_USER_ACTION: readonly string[] = [
  "hover",
  "focus",
  "focus-visible",
  "focus-within",
  "active",
];
