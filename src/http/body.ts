/**
 * Reading and validating JSON bodies.
 *
 * The body is read as a stream and refused (413) as soon as it passes the cap, whatever
 * Content-Length claims. The 413 is answered at once, and the rest of the upload is then read
 * and discarded (up to TUNING.oversizeDrainBytes) before the answer ends: a client still
 * uploading — Node's fetch, curl — reads the envelope instead of a connection reset.
 * Then decoded as strict UTF-8, parsed (400 INVALID_JSON), checked for
 * nesting depth (so nothing downstream recurses without bound), and validated with zod.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { issueMessage } from "../../schemas/issues";
import { LIMITS } from "../../schemas/limits";
import { ApiError, type ErrorDetail } from "../errors";
import { readAllCapped } from "../streams";
import { TUNING } from "../tuning";

export async function readJsonBody(c: Context, maxBytes = LIMITS.bodyBytes): Promise<unknown> {
  const declared = c.req.header("content-length");
  const body = c.req.raw.body;
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    // Refused unread; drained only if the whole declared body is within the drain bound.
    const drainable = Number(declared) <= TUNING.oversizeDrainBytes;
    if (body && !drainable) await body.cancel().catch(() => {});
    throw new BodyTooLarge(maxBytes, body && drainable ? body.getReader() : null);
  }
  if (!body) throw new ApiError("INVALID_JSON", "Request body must be a JSON object.");
  const reader = body.getReader();
  const read = await readAllCapped(reader, maxBytes, { keepRest: true });
  if (!read.ok && read.reason === "too-large") throw new BodyTooLarge(maxBytes, reader);
  // The client went away mid-body (fewer bytes than its Content-Length, a broken chunk): what
  // arrived is not a whole JSON document.
  if (!read.ok)
    throw new ApiError("INVALID_JSON", "Request body ended early or could not be read.");
  const bytes = read.bytes;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError("INVALID_JSON", "Request body is not valid UTF-8.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_JSON", "Request body is not valid JSON.");
  }
  const deep = findTooDeep(value, LIMITS.jsonDepth);
  if (deep !== null) {
    throw new ApiError(
      "VALIDATION_ERROR",
      `Invalid request: ${deep || "body"} is nested too deeply.`,
      {
        details: [
          { path: deep || "body", message: `Nesting deeper than ${LIMITS.jsonDepth} levels.` },
        ],
      },
    );
  }
  return value;
}

/** A body over the cap, with what is left of the upload (null: nothing left to read). */
export class BodyTooLarge extends ApiError {
  constructor(
    maxBytes: number,
    readonly rest: ReadableStreamDefaultReader<Uint8Array> | null,
  ) {
    super("PAYLOAD_TOO_LARGE", `Request body exceeds ${maxBytes} bytes.`);
  }
}

/**
 * The answer to an oversized body: the whole envelope is sent at once with its Content-Length
 * (so a client that stopped uploading, like curl, has its complete answer), but the answer is
 * only ended after the rest of the upload was read and discarded — at most
 * TUNING.oversizeDrainBytes more — so the connection is not reset under a client that is still
 * sending (Node's fetch), which would lose the answer with it.
 */
export function drainingBody(
  envelope: string,
  rest: ReadableStreamDefaultReader<Uint8Array> | null,
): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(envelope);
  const { readable, writable } = new FixedLengthStream(bytes.byteLength);
  const writer = writable.getWriter();
  void (async () => {
    await writer.write(bytes);
    if (rest) await discard(rest, TUNING.oversizeDrainBytes);
    await writer.close();
  })().catch(() => {});
  return readable;
}

async function discard(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<void> {
  try {
    for (let read = 0; read <= limit;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
  } catch {
    return; // the client went away: nothing left to drain
  }
  await reader.cancel().catch(() => {}); // past the bound: stop reading, the connection closes
}

/** Iterative depth check; returns the path of the first value nested deeper than `max`. */
function findTooDeep(root: unknown, max: number): string | null {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [
    { value: root, depth: 0, path: "" },
  ];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item || typeof item.value !== "object" || item.value === null) continue;
    if (item.depth >= max) return item.path.split(/[.[]/)[0] ?? item.path;
    for (const [key, child] of Object.entries(item.value)) {
      const path = Array.isArray(item.value)
        ? `${item.path}[${key}]`
        : item.path
          ? `${item.path}.${key}`
          : key;
      stack.push({ value: child, depth: item.depth + 1, path });
    }
  }
  return null;
}

/** `["urls", 57, "x"]` → `urls[57].x` */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * Zod's issues as the envelope's `details`, in our words (schemas/issues.ts): a missing field is
 * "Required (string)." (not "Invalid input: expected string, received undefined"), an unknown
 * one "Unknown field.". Needs issues parsed with `reportInput` (to tell missing from wrong).
 */
export function zodDetails(error: z.ZodError, schema?: z.ZodType): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      const known = schema ? fieldsAt(schema, issue.path) : [];
      for (const key of issue.keys) {
        const near = closest(key, known);
        const message = near === null ? "Unknown field." : `Unknown field; did you mean ${near}?`;
        details.push({ path: formatPath([...issue.path, key]), message });
      }
    } else {
      details.push({ path: formatPath(issue.path) || "body", message: issueMessage(issue) });
    }
  }
  return details;
}

/** How many fields the top-level message spells out; `details` always lists them all. */
const FIELDS_IN_MESSAGE = 3;

/**
 * The 400 for invalid fields, every route's: the message names each field with what is wrong
 * (`Invalid request: width: Must be at least 320.`), so a client that shows only the message
 * (the playground, a log line) still says what to fix.
 */
export function invalidFields(details: ErrorDetail[]): ApiError {
  const shown = details
    .slice(0, FIELDS_IN_MESSAGE)
    .map((d) => `${d.path}: ${d.message.replace(/\.$/, "")}`);
  const more = details.length - shown.length;
  const tail = more > 0 ? `; and ${more} more (see details)` : "";
  return new ApiError("VALIDATION_ERROR", `Invalid request: ${shown.join("; ")}${tail}.`, {
    details,
  });
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw invalidFields(zodDetails(result.error, schema));
}

/** What a zod schema's definition holds, as far as walking to an object's fields needs. */
interface Walked {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
}

/** The fields the object schema at `path` declares (every object of a union's), or none. */
function fieldsAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>, depth = 0): string[] {
  if (depth > 32) return [];
  const def = (schema as unknown as { _zod: { def: Walked } })._zod.def;
  const inner = def.innerType ?? def.in;
  if (inner) return fieldsAt(inner, path, depth + 1);
  if (def.type === "union")
    return [...new Set((def.options ?? []).flatMap((o) => fieldsAt(o, path, depth + 1)))];
  const [head, ...rest] = path;
  if (head === undefined) return def.type === "object" ? Object.keys(def.shape ?? {}) : [];
  if (def.type === "array" && def.element) return fieldsAt(def.element, rest, depth + 1);
  const field = def.type === "object" ? def.shape?.[String(head)] : undefined;
  return field ? fieldsAt(field, rest, depth + 1) : [];
}

/**
 * The declared field a caller most likely meant by `key`: the same name in another case
 * (`fullpage` → `fullPage`), else the one within two edits, if only one is.
 */
function closest(key: string, known: readonly string[]): string | null {
  const lower = key.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  if (key.length < 4) return null;
  const near = known.filter((k) => editDistance(lower, k.toLowerCase(), 2) <= 2);
  return near.length === 1 ? (near[0] ?? null) : null;
}

/** Levenshtein distance, or `bound + 1` as soon as it must exceed `bound`. */
function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    if (Math.min(...row) > bound) return bound + 1;
    previous = row;
  }
  return previous[b.length] ?? bound + 1;
}

/** Read, parse and validate a JSON body in one step. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await readJsonBody(c));
}
