/** The `actions` option: the steps run on the page before capture. */
import { z } from "zod";
import { LIMITS } from "../limits";
import { cssSelector, intIn, maxChars, numberIn } from "../primitives";

/**
 * Keys a `press` action may name: printable ASCII characters one at a time, and the named keys
 * of the US keyboard layout the browser driver knows (anything else it would refuse mid-capture).
 */
const NAMED_KEYS = new Set([
  "Enter",
  "Tab",
  "Escape",
  "Backspace",
  "Delete",
  "Insert",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "Shift",
  "Control",
  "Alt",
  "Meta",
  "Space",
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
]);
export const isKeyName = (key: string): boolean => NAMED_KEYS.has(key) || /^[\x20-\x7e]$/.test(key);

const selectorField = () => cssSelector(LIMITS.selectorChars);
/** One step of `actions`: an object with exactly one of these keys. */
export const actionSchema = z
  .union(
    [
      z.strictObject({ click: selectorField().describe("Click the first element matching.") }),
      z.strictObject({ hover: selectorField().describe("Move the mouse over the element.") }),
      z.strictObject({
        type: z
          .strictObject({
            selector: selectorField(),
            text: maxChars(LIMITS.actionTextChars),
          })
          .describe(
            `Focus the element and type text (at most ${LIMITS.actionTextChars} characters).`,
          ),
      }),
      z.strictObject({
        press: z
          .string()
          .refine(isKeyName, "Unknown key.")
          .describe('Press a key: "Enter", "Tab", "Escape", "ArrowDown", "a", …'),
      }),
      z.strictObject({
        scroll: z
          .union([
            z.strictObject({ y: numberIn(0, LIMITS.fullPageMaxCssPx) }),
            z.strictObject({ selector: selectorField() }),
          ])
          .describe("Scroll the window to y (CSS px) or the element into view."),
      }),
      z.strictObject({
        wait: intIn(0, LIMITS.actionWaitMs, "ms").describe(
          `Wait this many ms (at most ${LIMITS.actionWaitMs}).`,
        ),
      }),
      z.strictObject({
        waitForSelector: selectorField().describe("Wait until an element matches."),
      }),
    ],
    {
      error: `Must be one action: {click}, {hover}, {type: {selector, text}}, {press}, {scroll: {y} | {selector}}, {wait: ms ≤ ${LIMITS.actionWaitMs}} or {waitForSelector}, with valid values (CSS selectors, text ≤ ${LIMITS.actionTextChars} characters).`,
    },
  )
  .describe("One step of actions.");
export type Action = z.output<typeof actionSchema>;
