/**
 * The Mustache renderer: tokens + data → text, with mustache.js's semantics and escaping,
 * bounded in time and output (a step budget and an output cap checked while rendering, so an
 * exploding template stops early). Names resolve through OWN properties only and data
 * functions are never called, so `{{constructor}}` or `{{__proto__}}` cannot reach prototypes.
 */
import Mustache from "mustache";
import { formatBytes, LIMITS } from "../../../schemas/limits";
import type { ApiError } from "../../errors";
import { exceedsBytes } from "../../encoding";
import { payloadTooLarge, type Field } from "./field";
import { parseTemplate, type SectionToken, type Token } from "./parse";

/** Fills a Mustache template from `data`; 400 on syntax errors, 413 when it expands too far. */
export function renderTemplate(template: string, data: unknown, field: Field): string {
  const renderer = new Renderer(field);
  renderer.tokens(parseTemplate(template, field), { view: data, parent: undefined });
  const output = renderer.parts.join("");
  if (exceedsBytes(output, LIMITS.templateOutputBytes)) throw renderer.tooLarge();
  return output;
}

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
    return payloadTooLarge(
      this.field,
      `the template expands beyond ${formatBytes(LIMITS.templateOutputBytes)}`,
    );
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
