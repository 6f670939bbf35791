/**
 * `npm run openapi` (after scripts/openapi.mjs): writes sdk-python/edgeshot/types.py from
 * schemas/openapi.json — a TypedDict per component schema, per inline request body, query and
 * success `data` of an operation, and per webhook event; the error codes the spec names, as
 * constants with their HTTP statuses. Standard library typing only, valid on Python 3.9:
 * every TypedDict is declared in the functional form (fields such as `async` are keywords),
 * required and optional fields in two bases. `--check` exits 1 instead of writing when the
 * committed file is stale.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeGenerated } from "./lib/generated.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const source = join(root, "schemas/openapi.json");
const target = join(root, "sdk-python/edgeshot/types.py");

const spec = JSON.parse(readFileSync(source, "utf8"));
const schemas = spec.components?.schemas ?? {};

const pascal = (s) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
const oneLine = (s) =>
  String(s ?? "")
    .replace(/\s+/g, " ")
    .trim();
const pyString = (s) => JSON.stringify(s);
const pyLiteral = (v) =>
  v === null ? "None" : v === true ? "True" : v === false ? "False" : JSON.stringify(v);
const refName = (ref) => ref.replace("#/components/schemas/", "");

/** Emitted blocks in dependency order; names already taken. */
const blocks = [];
const done = new Set();
const inProgress = new Set();

/** The Python type of a schema; inline objects become TypedDicts named `hint`. */
function typeOf(schema, hint) {
  if (!schema || Object.keys(schema).length === 0) return "Any";
  if (schema.$ref) {
    const name = refName(schema.$ref);
    emitNamed(name, schemas[name]);
    return inProgress.has(name) ? pyString(name) : name;
  }
  if (schema.const !== undefined) return `Literal[${pyLiteral(schema.const)}]`;
  if (schema.enum) return `Literal[${schema.enum.map(pyLiteral).join(", ")}]`;
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return unionOf(union.map((s, i) => typeOf(s, `${hint}${i === 0 ? "" : i + 1}`)));
  if (schema.allOf)
    return schema.allOf.length === 1 ? typeOf(schema.allOf[0], hint) : "Dict[str, Any]";
  if (Array.isArray(schema.type))
    return unionOf(schema.type.map((t) => typeOf({ ...schema, type: t }, hint)));
  switch (schema.type) {
    case "string":
      return "str";
    case "integer":
      return "int";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "null":
      return "None";
    case "array":
      return `List[${typeOf(schema.items, `${hint}Item`)}]`;
    case "object":
    case undefined:
      if (schema.properties && Object.keys(schema.properties).length > 0)
        return emitNamed(hint, schema);
      if (schema.additionalProperties && typeof schema.additionalProperties === "object")
        return `Dict[str, ${typeOf(schema.additionalProperties, `${hint}Value`)}]`;
      return "Dict[str, Any]";
    default:
      return "Any";
  }
}

function unionOf(types) {
  const unique = [...new Set(types)];
  const nullable = unique.includes("None");
  const rest = unique.filter((t) => t !== "None");
  const inner = rest.length === 1 ? rest[0] : `Union[${rest.join(", ")}]`;
  if (rest.length === 0) return "None";
  return nullable ? `Optional[${inner}]` : inner;
}

/** Inline object schemas already emitted, by their JSON: an equal one reuses the name. */
const byShape = new Map();

/**
 * A named TypedDict (objects) or alias (anything else), after everything it refers to; an
 * inline object equal to one emitted before is an alias of it. Returns the name to use.
 */
function emitNamed(name, schema, description = schema?.description) {
  if (done.has(name) || inProgress.has(name)) return name;
  const shape = schema?.properties ? JSON.stringify(schema) : undefined;
  const same = shape === undefined ? undefined : byShape.get(shape);
  if (same !== undefined) {
    if (!schemas[name] && !/Result$|Request$|Event$/.test(name)) return same;
    blocks.push(`${name} = ${same}`);
    done.add(name);
    return name;
  }
  if (shape !== undefined) byShape.set(shape, name);
  inProgress.add(name);
  const doc = oneLine(description);
  const props = schema?.properties;
  if (!props || Object.keys(props).length === 0) {
    const type = typeOf(schema, `${name}Value`);
    blocks.push(`${doc ? `# ${doc}\n` : ""}${name} = ${type}`);
  } else {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(props).map(([key, prop]) => ({
      key,
      type: typeOf(prop, name + pascal(key)),
      doc: oneLine(prop.description),
      required: required.has(key),
    }));
    const part = (suffix, list, total) => {
      const lines = list.map(
        (f) => `    ${pyString(f.key)}: ${f.type},${f.doc ? `  # ${f.doc}` : ""}`,
      );
      return `_${name}${suffix} = TypedDict(\n    "_${name}${suffix}",\n    {\n${lines
        .map((l) => `    ${l}`)
        .join("\n")}\n    },${total ? "" : "\n    total=False,"}\n)`;
    };
    const bases = [];
    const parts = [];
    const req = fields.filter((f) => f.required);
    const opt = fields.filter((f) => !f.required);
    if (req.length > 0) {
      parts.push(part("Required", req, true));
      bases.push(`_${name}Required`);
    }
    if (opt.length > 0) {
      parts.push(part("Optional", opt, false));
      bases.push(`_${name}Optional`);
    }
    const body = doc ? `    ${pyString(doc)}` : "    pass";
    blocks.push(`${parts.join("\n\n")}\n\n\nclass ${name}(${bases.join(", ")}):\n${body}`);
  }
  inProgress.delete(name);
  done.add(name);
  return name;
}

const json = (content) => content?.["application/json"]?.schema;

for (const [name, schema] of Object.entries(schemas)) emitNamed(name, schema);

for (const [path, item] of Object.entries(spec.paths ?? {})) {
  for (const [method, op] of Object.entries(item)) {
    if (typeof op !== "object" || !op.operationId) continue;
    const base = pascal(op.operationId);
    const body = json(op.requestBody?.content);
    if (body && !body.$ref)
      emitNamed(`${base}Request`, body, body.description ?? `${method.toUpperCase()} ${path}`);
    const query = (op.parameters ?? []).filter((p) => p.in === "query");
    if (query.length > 0)
      emitNamed(`${base}Query`, {
        type: "object",
        properties: Object.fromEntries(
          query.map((p) => [p.name, { ...p.schema, description: p.description }]),
        ),
        required: query.filter((p) => p.required).map((p) => p.name),
        description: `Query parameters of ${method.toUpperCase()} ${path}.`,
      });
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (!/^2/.test(status)) continue;
      const data = json(response.content)?.properties?.data;
      if (data && !data.$ref) emitNamed(`${base}Result`, data, response.description);
    }
  }
}

/** Names for inline shapes the client returns, where the operation-derived name reads badly. */
const FRIENDLY = { Watch: "CreateWatchResult", WatchRun: "ListWatchRunsResultItemsItem" };
for (const [name, of] of Object.entries(FRIENDLY))
  if (done.has(of) && !done.has(name)) {
    blocks.push(`${name} = ${of}`);
    done.add(name);
  }

for (const [event, item] of Object.entries(spec.webhooks ?? {})) {
  const body = json(item.post?.requestBody?.content);
  if (body && !body.$ref) emitNamed(`${pascal(event)}Event`, body, item.post?.description);
}

/** Every error code the spec's responses name, with the statuses it is sent with. */
const statuses = new Map();
function collectCodes(node, status) {
  if (Array.isArray(node)) return node.forEach((n) => collectCodes(n, status));
  if (typeof node !== "object" || node === null) return;
  const code = node.properties?.error?.properties?.code;
  for (const value of code?.enum ?? (code?.const ? [code.const] : [])) {
    const set = statuses.get(value) ?? new Set();
    set.add(Number(status));
    statuses.set(value, set);
  }
  Object.values(node).forEach((n) => collectCodes(n, status));
}
for (const item of Object.values(spec.paths ?? {}))
  for (const op of Object.values(item))
    for (const [status, response] of Object.entries(op?.responses ?? {}))
      if (/^[45]/.test(status)) collectCodes(response, status);
const codes = [...statuses.keys()].sort();

const text = `"""
Types of the Edgeshot API, generated from schemas/openapi.json by scripts/python-types.mjs.
Do not edit: run \`npm run openapi\`. \`npm run openapi:check\` fails when this file is stale.

Every JSON shape is a TypedDict (request bodies, the \`data\` of answers, webhook events);
fields the API may omit are in the \`total=False\` base. Error codes are constants.
"""

from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union

__all__ = [
${[...done, "ErrorCode", "ERROR_STATUSES", ...codes]
  .filter((n) => !n.startsWith("_"))
  .map((n) => `    ${pyString(n)},`)
  .join("\n")}
]

${blocks.join("\n\n\n")}


# Error codes (\`EdgeshotError.code\`) the API documents, and the HTTP statuses each comes with.
ErrorCode = Literal[
${codes.map((c) => `    ${pyString(c)},`).join("\n")}
]

${codes.map((c) => `${c}: ErrorCode = ${pyString(c)}`).join("\n")}

ERROR_STATUSES: Dict[str, Tuple[int, ...]] = {
${codes.map((c) => `    ${c}: (${[...statuses.get(c)].sort().join(", ")},),`).join("\n")}
}
`;

writeGenerated("sdk-python/edgeshot/types.py", text, "npm run openapi");
