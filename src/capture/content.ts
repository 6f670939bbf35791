/**
 * html / markdown (+ Mustache data) → the HTML document the browser loads with setContent.
 *
 * Templates use logic-less Mustache syntax with mustache.js semantics and escaping, but are
 * parsed and rendered here rather than by mustache.js, whose parser allocates one token per
 * character of text (a 5 MB template needs ~600 MB of heap) and whose renderer has no bounds.
 * This engine is bounded in memory (tag count, section depth) and in time and output (a step
 * budget and an output cap checked while rendering, so an exploding template stops early).
 *
 * Decisions:
 * - Without `data` nothing is templated: a literal `{{` in user HTML survives untouched.
 * - Partials (`{{> name}}`) are refused with a 400: there is nothing to include, and a lookup
 *   primitive is better absent than silently empty.
 * - Names resolve through OWN properties only and data functions are never called, so
 *   `{{constructor}}`, `{{__proto__}}` or `{{toString}}` cannot reach prototype members.
 */
import Mustache from "mustache";
import { ApiError, validationError } from "../errors";
import { formatBytes, LIMITS } from "../../schemas/limits";
import { markdownDocument } from "./markdown-theme";

export interface ContentInput {
  html?: string;
  markdown?: string;
  data?: Record<string, unknown>;
  darkMode: boolean;
}

type Field = "html" | "markdown";

/** The HTML document the browser loads with setContent: the template filled from `data`
 *  (logic-less Mustache) and, for markdown, converted to a styled document. */
export function renderContent(input: ContentInput): string {
  if (input.markdown !== undefined) {
    const source = fill(input.markdown, input.data, "markdown");
    const document = markdownDocument(source, input.darkMode);
    if (!exceedsBytes(document, LIMITS.markdownHtmlBytes)) return document;
    throw payloadTooLarge("markdown", `the converted document is larger than ${formatBytes(LIMITS.markdownHtmlBytes)}`);
  }
  if (input.html !== undefined) return fill(input.html, input.data, "html");
  throw new Error("renderContent needs html or markdown");
}

function fill(template: string, data: Record<string, unknown> | undefined, field: Field): string {
  return data === undefined ? template : renderTemplate(template, data, field);
}

/** Fills a Mustache template from `data`; 400 on syntax errors, 413 when it expands too far. */
export function renderTemplate(template: string, data: unknown, field: Field): string {
  const renderer = new Renderer(field);
  renderer.tokens(parseTemplate(template, field), { view: data, parent: undefined });
  const output = renderer.parts.join("");
  if (exceedsBytes(output, LIMITS.templateOutputBytes)) throw renderer.tooLarge();
  return output;
}

function payloadTooLarge(field: Field, message: string): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `Payload too large: ${field}: ${message}`, {
    details: [{ path: field, message }],
  });
}

// ---- Parsing -------------------------------------------------------------------------------

interface TextToken {
  type: "text";
  text: string;
}
interface ValueToken {
  type: "value";
  path: readonly string[];
  escape: boolean;
}
interface SectionToken {
  type: "section";
  name: string;
  path: readonly string[];
  inverted: boolean;
  children: Token[];
}
type Token = TextToken | ValueToken | SectionToken;

const SIGILS = "#^/>{&=!";

/**
 * Mustache's grammar with mustache.js's whitespace rules: a line holding only whitespace and
 * non-output tags (sections, comments, delimiter changes) disappears from the output.
 */
function parseTemplate(src: string, field: Field): Token[] {
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

// ---- Rendering -----------------------------------------------------------------------------

interface Frame {
  view: unknown;
  parent: Frame | undefined;
}

class Renderer {
  readonly parts: string[] = [];
  private steps = 0;
  private units = 0;

  constructor(private readonly field: Field) {}

  tokens(tokens: readonly Token[], frame: Frame): void {
    for (const token of tokens) {
      this.charge(1);
      if (token.type === "text") this.emit(token.text);
      else if (token.type === "section") this.section(token, frame);
      else {
        const value = this.lookup(token.path, frame);
        if (value === undefined || value === null) continue;
        const text = toText(value, 0);
        this.emit(token.escape ? Mustache.escape(text) : text);
      }
    }
  }

  tooLarge(): ApiError {
    return payloadTooLarge(this.field, `the template expands beyond ${formatBytes(LIMITS.templateOutputBytes)}`);
  }

  /** mustache.js sections: arrays loop, objects/strings/numbers become the context, other
   *  truthy values render once in place; inverted sections render for falsy or []. */
  private section(token: SectionToken, frame: Frame): void {
    const value = this.lookup(token.path, frame);
    if (token.inverted) {
      const empty = !value || (Array.isArray(value) && value.length === 0);
      if (empty) this.tokens(token.children, frame);
    } else if (Array.isArray(value)) {
      for (const item of value) {
        this.charge(1);
        this.tokens(token.children, { view: item, parent: frame });
      }
    } else if (!value) {
      return;
    } else if (["object", "string", "number"].includes(typeof value)) {
      this.tokens(token.children, { view: value, parent: frame });
    } else {
      this.tokens(token.children, frame);
    }
  }

  /** mustache.js lookup (innermost frame first; a dotted name must resolve fully in one frame),
   *  restricted to own properties; functions count as missing and are never called. */
  private lookup(path: readonly string[], frame: Frame): unknown {
    if (path.length === 0) return frame.view;
    for (let f: Frame | undefined = frame; f; f = f.parent) {
      this.charge(path.length);
      if (typeof f.view !== "object" || f.view === null) continue;
      let value: unknown = f.view;
      let hit = true;
      for (const key of path) {
        if (!hasOwn(value, key)) {
          hit = false;
          break;
        }
        value = (value as Record<string, unknown>)[key];
      }
      if (hit) return typeof value === "function" ? undefined : value;
    }
    return undefined;
  }

  private emit(text: string): void {
    if (!text) return;
    this.units += text.length; // UTF-16 units ≤ UTF-8 bytes: never refuses early
    if (this.units > LIMITS.templateOutputBytes) throw this.tooLarge();
    this.parts.push(text);
  }

  private charge(steps: number): void {
    this.steps += steps;
    if (this.steps <= LIMITS.templateSteps) return;
    const message = `the template needs more than ${LIMITS.templateSteps} render steps`;
    throw payloadTooLarge(this.field, message);
  }
}

function hasOwn(value: unknown, key: string): boolean {
  if (typeof value === "string") return Object.hasOwn(Object(value), key); // length, indices
  return typeof value === "object" && value !== null && Object.hasOwn(value, key);
}

/** String(value) as mustache.js prints it, without calling any data-provided method. */
function toText(value: unknown, depth: number): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  if (Array.isArray(value)) {
    if (depth >= LIMITS.jsonDepth) return "";
    return value.map((item) => (item == null ? "" : toText(item, depth + 1))).join(",");
  }
  return typeof value === "object" && value !== null ? "[object Object]" : "";
}

/** Whether `text` encodes to more than `limit` UTF-8 bytes, without allocating the encoding. */
export function exceedsBytes(text: string, limit: number): boolean {
  if (text.length > limit) return true; // every UTF-16 unit is at least one byte
  return text.length * 3 > limit && utf8Length(text) > limit; // and at most three
}

/** UTF-8 length of a string (a lone surrogate counts as its replacement character). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code < 0xdc00 && isLow(text.charCodeAt(i + 1))) {
      bytes += 2; // a surrogate pair: 2 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code < 0xe000;
}
