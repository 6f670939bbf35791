/**
 * Numbers as pages write them: "1.299,00 €", "$1,299.00", "1 299,00 kr", "CHF 1'299.–", "-12,5 %".
 * The first number in the text is read; which of `.` and `,` is the decimal separator is the
 * caller's `decimal` when given, else guessed (docs/STRUCTURED-DATA.md, "Numbers"):
 *
 * - both appear: the last one is the decimal separator, the other groups thousands;
 * - one appears more than once: it groups thousands ("1.299.000");
 * - one appears once, followed by exactly three digits and after 1–3 digits that are not "0":
 *   it groups thousands ("1.299", "1,299"); otherwise it is the decimal separator ("12,50").
 *
 * Spaces (also no-break and narrow no-break ones) and apostrophes only ever group digits.
 * Intl.NumberFormat formats but does not parse, and no parsing library guesses the locale from
 * the text alone, which is what a page read without knowing its locale needs.
 */

/** Digits with their separators: what one number in a text can look like. */
const NUMBER = /[-\u2212]?\d(?:[\d.,'\u2019\u00A0\u202F ]*\d)?/;
const GROUPING = /['\u2019\u00A0\u202F ]/g;

/** The first number written in `text`, or null when it holds none. */
export function parseNumber(text: string, decimal?: "." | ","): number | null {
  const match = NUMBER.exec(text);
  if (!match) return null;
  let token = match[0];
  const negative = /^[-\u2212]/.test(token);
  if (negative) token = token.slice(1);
  // A space between digits groups thousands only before three digits; otherwise it ends the number.
  const spaced = /^\d{1,3}(?:[\u00A0\u202F ]\d{3})+(?![\d])/.exec(token);
  if (!spaced) token = token.split(/[\u00A0\u202F ]/)[0] ?? token;
  token = token.replace(GROUPING, "");
  const separator = decimal ?? guessDecimal(token);
  const grouping = separator === "." ? "," : ".";
  // A second decimal separator ("1.2.3" with decimal "."): the number ends before it.
  const [whole = "", fraction] = token.split(grouping).join("").split(separator);
  const value = Number(fraction === undefined || fraction === "" ? whole : `${whole}.${fraction}`);
  if (!Number.isFinite(value)) return null;
  return negative && value !== 0 ? -value : value;
}

/** Which of `.` and `,` is the decimal separator of a run of digits and separators. */
function guessDecimal(token: string): "." | "," {
  const dot = token.lastIndexOf(".");
  const comma = token.lastIndexOf(",");
  if (dot >= 0 && comma >= 0) return dot > comma ? "." : ",";
  const only = dot >= 0 ? "." : ",";
  const other = only === "." ? "," : ".";
  const parts = token.split(only);
  if (parts.length === 1) return ".";
  if (parts.length > 2) return other;
  const [whole = "", fraction = ""] = parts;
  const thousands = fraction.length === 3 && /^[1-9]\d{0,2}$/.test(whole);
  return thousands ? other : only;
}
