/**
 * Zod's issues in our words. Zod's own messages ("Invalid input: expected string, received
 * undefined", "Invalid option: expected one of …") never reach a caller: a missing field is
 * "Required (…).", a wrong type or value says what the field takes. A message a schema wrote
 * itself ("Must be at least 320.") is kept. Needs issues parsed with `reportInput`, to tell a
 * missing field (input undefined) from a wrong one.
 */
import type { z } from "zod";

type Issue = z.core.$ZodIssue;

/** Zod's default messages start so; ours never do. */
const RAW = /^Invalid (?:input|option)\b/;

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && !Number.isFinite(value)) return "number (not finite)";
  return typeof value;
}

/** A value as the caller writes it in JSON: strings quoted (`"png"`), so `""` reads as empty. */
const shown = (v: unknown): string => JSON.stringify(v);

/** Whether the issue is about a value that is not there at all. */
export function isMissing(issue: Issue): boolean {
  return "input" in issue && issue.input === undefined;
}

export function issueMessage(issue: Issue): string {
  if (!RAW.test(issue.message)) return issue.message;
  const missing = isMissing(issue);
  switch (issue.code) {
    case "invalid_type":
      return missing
        ? `Required (${issue.expected}).`
        : `Must be ${issue.expected === "array" || issue.expected === "object" ? "an" : "a"} ${issue.expected}, not ${kindOf(issue.input)}.`;
    case "invalid_value": {
      const values = issue.values.map(shown);
      const one = values.length === 1 ? `${values[0]}` : `one of ${values.join(", ")}`;
      return missing ? `Required: ${one}.` : `Must be ${one}.`;
    }
    case "invalid_union":
      return missing ? "Required." : "Not one of the accepted forms of this field.";
    default:
      return missing ? "Required." : "Invalid value.";
  }
}
