/**
 * The Mustache parser: a template → tokens, with mustache.js's grammar and whitespace rules,
 * bounded in tags and section depth (LIMITS.templateTags, templateDepth). Syntax errors and
 * partials are the caller's 400, naming the field.
 */
import { LIMITS } from "../../../schemas/limits";
import { validationError } from "../../errors";
import type { Field } from "./field";

export interface TextToken {
  type: "text";
  text: string;
}
export interface ValueToken {
  type: "value";
  path: readonly string[];
  escape: boolean;
}
export interface SectionToken {
  type: "section";
  name: string;
  path: readonly string[];
  inverted: boolean;
  children: Token[];
}
export type Token = TextToken | ValueToken | SectionToken;

const SIGILS = "#^/>{&=!";

/**
 * Mustache's grammar with mustache.js's whitespace rules: a line holding only whitespace and
 * non-output tags (sections, comments, delimiter changes) disappears from the output.
 */
export function parseTemplate(src: string, field: Field): Token[] {
  const invalid = (message: string) =>
    validationError(field, `Invalid Mustache template: ${message}`);
  const clip = (name: string) => (name.length > 60 ? `${name.slice(0, 57)}...` : name);
  const root: Token[] = [];
  const stack: SectionToken[] = [];
  let [open, close] = ["{{", "}}"];
  let line: TextToken[] = []; // text tokens of the current line, blanked if it is standalone
  let hasTag = false;
  let nonSpace = false;
  let tags = 0;

  const children = () => stack.at(-1)?.children ?? root;
  const endLine = () => {
    if (hasTag && !nonSpace) for (const token of line) token.text = "";
    line = [];
    hasTag = nonSpace = false;
  };
  const pushText = (text: string, onLine: boolean) => {
    if (!text) return;
    const token: TextToken = { type: "text", text };
    children().push(token);
    if (!onLine) return;
    line.push(token);
    if (/\S/.test(text)) nonSpace = true;
  };
  const text = (chunk: string) => {
    const first = chunk.indexOf("\n");
    if (first === -1) return pushText(chunk, true);
    pushText(chunk.slice(0, first + 1), true);
    endLine();
    const last = chunk.lastIndexOf("\n");
    pushText(chunk.slice(first + 1, last + 1), false); // whole lines without tags
    pushText(chunk.slice(last + 1), true);
  };

  let pos = 0;
  while (pos < src.length) {
    const at = src.indexOf(open, pos);
    if (at === -1) {
      text(src.slice(pos));
      break;
    }
    text(src.slice(pos, at));
    if (++tags > LIMITS.templateTags) throw invalid(`more than ${LIMITS.templateTags} tags`);
    hasTag = true;

    let p = at + open.length;
    while (p < src.length && /\s/.test(src.charAt(p))) p++;
    const sigil = SIGILS.includes(src.charAt(p)) ? src.charAt(p) : "";
    if (sigil) p++;
    const ender = sigil === "{" ? `}${close}` : sigil === "=" ? `=${close}` : close;
    const end = src.indexOf(ender, p);
    if (end === -1) throw invalid(`Unclosed tag at ${at}`);
    const value = src.slice(p, end).trim();
    pos = end + ender.length;

    const path = value === "." ? [] : value.split(".");
    if (sigil === "" || sigil === "{" || sigil === "&") {
      nonSpace = true;
      children().push({ type: "value", path, escape: sigil === "" });
    } else if (sigil === "#" || sigil === "^") {
      if (stack.length >= LIMITS.templateDepth) {
        throw invalid(`sections nested deeper than ${LIMITS.templateDepth} at ${at}`);
      }
      const section: SectionToken = {
        type: "section",
        name: value,
        path,
        inverted: sigil === "^",
        children: [],
      };
      children().push(section);
      stack.push(section);
    } else if (sigil === "/") {
      const section = stack.pop();
      if (!section) throw invalid(`Unopened section "${clip(value)}" at ${at}`);
      if (section.name !== value) {
        throw invalid(`Unclosed section "${clip(section.name)}" at ${at}`);
      }
    } else if (sigil === ">") {
      throw invalid(`partials ({{> ${clip(value)}}}) are not supported, at ${at}`);
    } else if (sigil === "=") {
      const delimiters = value.split(/\s+/);
      const [o, c] = delimiters;
      if (delimiters.length !== 2 || !o || !c || `${o}${c}`.includes("=")) {
        throw invalid(`Invalid tags: ${clip(value)}`);
      }
      [open, close] = [o, c];
    } // "!" is a comment
  }
  endLine();
  const unclosed = stack.at(-1);
  if (unclosed) throw invalid(`Unclosed section "${clip(unclosed.name)}" at ${src.length}`);
  return root;
}
