/**
 * A monitored page's text and fields compared with its baseline's (docs/MONITORS.md, "No
 * noise"): the visible text without its volatile lines (lines that differed between the two
 * learning captures, found again by the stable line before them), compared line by line with
 * jsdiff and word by word inside the changed hunks; and the fields whose values differ.
 */
import { diffArrays, diffWords } from "diff";
import { MONITOR } from "../../schemas/limits";

/** Lines that differed between two captures: `lines` of them after the stable line `after`. */
export interface VolatileLines {
  /** The unchanged line before them; null: the top of the text. */
  after: string | null;
  lines: number;
}

const linesOf = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

/** The volatile lines of a page from the visible text of two captures of it. */
export function learnLines(first: string, second: string): VolatileLines[] {
  const rules: VolatileLines[] = [];
  let anchor: string | null = null;
  let removed = 0;
  let added = 0;
  const close = () => {
    if (removed + added > 0) rules.push({ after: anchor, lines: Math.max(removed, added) });
    removed = 0;
    added = 0;
  };
  for (const part of diffArrays(linesOf(first), linesOf(second))) {
    if (part.removed) removed += part.count;
    else if (part.added) added += part.count;
    else {
      close();
      anchor = part.value[part.value.length - 1] ?? anchor;
    }
  }
  close();
  return rules;
}

/** The text's lines without its volatile ones, and how many were left out. */
export function withoutVolatile(
  text: string,
  rules: readonly VolatileLines[],
): { lines: string[]; left: number } {
  const lines = linesOf(text);
  const drop = new Set<number>();
  for (const rule of rules) {
    const at = rule.after === null ? -1 : lines.indexOf(rule.after);
    if (rule.after !== null && at === -1) continue;
    for (let i = at + 1; i <= at + rule.lines && i < lines.length; i++) drop.add(i);
  }
  return { lines: lines.filter((_, i) => !drop.has(i)), left: drop.size };
}

export interface TextChange {
  added: number;
  removed: number;
  parts: Array<{ op: "added" | "removed"; text: string }>;
  truncated: boolean;
}

const wordCount = (s: string) => s.split(/\s+/).filter((w) => w !== "").length;

/**
 * Word-level changes between two texts (as line lists): the changed hunks of a line diff,
 * compared word by word (so a long page costs a line diff, not a word diff of all of it).
 */
export function textChange(before: readonly string[], after: readonly string[]): TextChange {
  const change: TextChange = { added: 0, removed: 0, parts: [], truncated: false };
  const push = (op: "added" | "removed", text: string) => {
    const words = wordCount(text);
    if (words === 0) return;
    if (op === "added") change.added += words;
    else change.removed += words;
    if (change.parts.length >= MONITOR.textDiffParts) {
      change.truncated = true;
      return;
    }
    const chars = [...text.trim()];
    if (chars.length > MONITOR.textDiffPartChars) change.truncated = true;
    change.parts.push({ op, text: chars.slice(0, MONITOR.textDiffPartChars).join("") });
  };
  let gone: string[] = [];
  let come: string[] = [];
  const flush = () => {
    if (gone.length > 0 && come.length > 0) {
      for (const part of diffWords(gone.join("\n"), come.join("\n"))) {
        if (part.added) push("added", part.value);
        else if (part.removed) push("removed", part.value);
      }
    } else {
      for (const line of gone) push("removed", line);
      for (const line of come) push("added", line);
    }
    gone = [];
    come = [];
  };
  for (const part of diffArrays([...before], [...after])) {
    if (part.removed) gone.push(...part.value);
    else if (part.added) come.push(...part.value);
    else flush();
  }
  flush();
  return change;
}

// ---- Fields ------------------------------------------------------------------------------

export type Fields = Record<string, string | null>;

export function fieldChanges(
  before: Fields,
  after: Fields,
): Array<{ name: string; before: string | null; after: string | null }> {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names
    .filter((n) => (before[n] ?? null) !== (after[n] ?? null))
    .map((name) => ({ name, before: before[name] ?? null, after: after[name] ?? null }));
}
