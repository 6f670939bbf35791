/**
 * The contract check every integration test gets through `call()` (test/helpers/http.ts):
 * a JSON answer of an operation in schemas/openapi.json must match that operation's response
 * schema for its status, and the status must be documented. A field the handler sends but
 * the schema lacks (output schemas are closed), a missing required field, an undocumented
 * error code or status: the test fails, naming the operation.
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import openapi from "../../schemas/openapi.json";

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Record<string, Json>;
}

// The document's component references, rewritten to $defs so one schema carries them all.
const doc = JSON.parse(
  JSON.stringify(openapi).replaceAll('"#/components/schemas/', '"#/$defs/'),
) as {
  paths: Record<string, Record<string, Json>>;
  webhooks: Record<
    string,
    { post: { requestBody: { content: Record<string, { schema: Json }> } } }
  >;
  components: { schemas: Json };
};

function validatorOf(schema: Json): Validator {
  const root = { $defs: doc.components.schemas, allOf: [schema] } as unknown as Schema;
  return new Validator(root, "2020-12", false);
}

function problems(validator: Validator, body: unknown): string[] {
  const result = validator.validate(body);
  return result.valid
    ? []
    : result.errors
        .filter((e) => e.keyword !== "allOf" && e.keyword !== "$ref")
        .slice(0, 8)
        .map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** Throws when a webhook body does not match the document's `webhooks` entry for its event. */
export function checkWebhookBody(body: Record<string, unknown>): void {
  const event = String(body.event);
  const schema = doc.webhooks[event]?.post.requestBody.content["application/json"]?.schema;
  if (!schema) throw new Error(`contract: webhook event ${event} is not documented`);
  const found = problems(validatorOf(schema), body);
  if (found.length > 0)
    throw new Error(`contract: webhook ${event} does not match:\n  ${found.join("\n  ")}`);
}

const operations: Operation[] = Object.entries(doc.paths)
  .flatMap(([template, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(
        `^${template.replace(/\{key\}$/, "(.+)").replace(/\{[^}]+\}/g, "([^/]+)")}$`,
      ),
      responses: (op.responses ?? {}) as Record<string, Json>,
    })),
  )
  // Literal paths before templated ones (/v1/screenshot/json before /v1/jobs/{jobId}).
  .sort((a, b) => a.template.split("{").length - b.template.split("{").length);

/** The operation a request reaches, or null (no such route: the 404/405 envelope). */
export function operationFor(method: string, path: string): Operation | null {
  return operations.find((op) => op.method === method && op.pattern.test(path)) ?? null;
}

const validators = new Map<string, Validator>();

function validatorFor(op: Operation, status: string): Validator | null {
  const id = `${op.method} ${op.template} ${status}`;
  const cached = validators.get(id);
  if (cached) return cached;
  const response = op.responses[status];
  const content = response?.content as Record<string, { schema?: Json }> | undefined;
  const schema = content?.["application/json"]?.schema;
  if (!schema) return null;
  const validator = validatorOf(schema);
  validators.set(id, validator);
  return validator;
}

/** Throws when a JSON answer does not match the document. Non-JSON answers are not checked. */
export async function checkContract(
  method: string,
  url: string,
  response: Response,
): Promise<void> {
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("application/json")) return;
  const op = operationFor(method, new URL(url).pathname);
  if (op === null) return;
  const status = String(response.status);
  const where = `${op.method} ${op.template} → ${status}`;
  if (!(status in op.responses)) {
    const body = await response.clone().text();
    throw new Error(`contract: ${where} is not documented in schemas/openapi.json: ${body}`);
  }
  const validator = validatorFor(op, status);
  if (validator === null) throw new Error(`contract: ${where} is documented without JSON`);
  const body: unknown = await response.clone().json();
  const errors = problems(validator, body);
  if (errors.length > 0)
    throw new Error(`contract: ${where} does not match its schema:\n  ${errors.join("\n  ")}`);
}
