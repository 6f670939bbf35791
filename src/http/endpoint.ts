/**
 * One endpoint, one definition: its method and path, who may call it, the request it takes, its
 * OpenAPI operation and its handler, side by side in the resource's file under ./routes/.
 * `endpoints()` turns definitions into a Hono router whose middleware follows from them:
 *
 *   auth: "key" or `{ key: options }` → `authenticate(options)`, and the operation's `security`;
 *   idempotent: true                  → `idempotent()`, and the `Idempotency-Key` header;
 *   body / query                      → validated after those, read in the handler with
 *                                       `c.req.valid("json")` / `c.req.valid("query")`, and the
 *                                       operation's request body (with its example) / query.
 *
 * The OpenAPI document is generated from the app's routes (./openapi/document.ts): each routed
 * handler leads back to its definition, so a route cannot go undocumented, nor a contract
 * unrouted.
 *
 * Why not a library (tried 2026-11-29 on our own request schemas): @hono/zod-openapi 1.6.3 and
 * chanfana 3.4.0 both render zod through @asteasolutions/zod-to-openapi, which drops
 * `additionalProperties: false` from our strict request objects, prints zod 4's `.meta()`
 * overrides as a literal `override` key, and inlines the named components (`StorageOption`…):
 * the published contract would get looser and larger. hono-openapi 1.3.3 renders through
 * zod-openapi 4, which conflicts with the zod-openapi 6 that renders our document today (npm
 * refuses the peer range). Their bundles also weigh +10.5 and +13 KB gzipped over Hono and zod;
 * this binding is ~150 lines over the zod-openapi we already have.
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { parseWith, readJsonBody } from "./body";
import { authenticate, type AuthenticateOptions } from "./middleware/authenticate";
import { idempotent } from "./middleware/idempotency";
import type { AppEnv } from "./types";

export type HttpMethod = "get" | "head" | "post" | "put" | "patch" | "delete";

/** Who may call: anyone (public, or a signature the handler checks), or an API key's holder. */
export type EndpointAuth = "none" | "key" | { key: AuthenticateOptions };

/** What the handler reads with `c.req.valid(…)`. */
type Valid<B, Q> = (B extends z.ZodType ? { json: z.output<B> } : Record<never, never>) &
  (Q extends z.ZodType ? { query: z.output<Q> } : Record<never, never>);

export type EndpointContext<B = undefined, Q = undefined> = Context<
  AppEnv,
  string,
  { out: Valid<B, Q> }
>;

export interface Endpoint<B = undefined, Q = undefined> {
  method: HttpMethod;
  /** OpenAPI form, with the `/v1` prefix: `/v1/jobs/{jobId}`. */
  path: string;
  /** Hono's path where the OpenAPI form does not say it (`/v1/images/*`). */
  route?: string;
  auth: EndpointAuth;
  idempotent?: boolean;
  /** A JSON body: its schema and the runnable example the reference shows. */
  body?: { schema: B; example: Record<string, unknown> };
  /** The query string's fields (each parameter once; the last one wins). */
  query?: Q;
  /** The contract around them: id, summary, tags, path and header parameters, responses. */
  operation: Omit<ZodOpenApiOperationObject, "security" | "requestBody">;
  handler: (c: EndpointContext<B, Q>) => Response | Promise<Response>;
}

/** A query schema: an object of the parameters (what zod-openapi accepts as parameters). */
export type QuerySchema = z.ZodType<unknown, Record<string, unknown>>;

/** A definition with its types erased, as the router and the document builder hold it. */
export type AnyEndpoint = Endpoint<z.ZodType | undefined, QuerySchema | undefined>;

/** Each routed handler's definition: how the document builder reads the app's routes. */
const DEFINITIONS = new WeakMap<object, AnyEndpoint>();

export function definitionOf(handler: unknown): AnyEndpoint | undefined {
  return typeof handler === "function" ? DEFINITIONS.get(handler) : undefined;
}

/** Every definition routed so far, in routing order (all of them once the app is built). */
const ROUTED: AnyEndpoint[] = [];

export function definedEndpoints(): readonly AnyEndpoint[] {
  return ROUTED;
}

/** One definition, its types checked (body, query and handler agree). */
export function endpoint<
  B extends z.ZodType | undefined = undefined,
  Q extends QuerySchema | undefined = undefined,
>(def: Endpoint<B, Q>): AnyEndpoint {
  return def as unknown as AnyEndpoint;
}

/** `/v1/jobs/{jobId}` → `/v1/jobs/:jobId` */
function honoPath(def: Pick<AnyEndpoint, "path" | "route">): string {
  return def.route ?? def.path.replace(/\{([A-Za-z]+)\}/g, ":$1");
}

function validate(def: AnyEndpoint): MiddlewareHandler<AppEnv> {
  const { body, query } = def;
  return async (c, next) => {
    if (query) {
      const record = Object.fromEntries(new URL(c.req.url).searchParams);
      // The API key where a route takes it from the query is authentication's, not a field.
      if (def.auth !== "none" && def.auth !== "key" && def.auth.key.allowQueryKey)
        delete record.key;
      c.req.addValidatedData("query", parseWith(query, record) as Record<string, unknown>);
    }
    if (body?.schema) {
      const sent = await readJsonBody(c);
      c.set("sentBody", sent);
      c.req.addValidatedData("json", parseWith(body.schema, sent) as Record<string, unknown>);
    }
    await next();
  };
}

/** The middleware a definition implies, in order: authentication, idempotency, validation. */
function middlewareOf(def: AnyEndpoint): MiddlewareHandler<AppEnv>[] {
  const out: MiddlewareHandler<AppEnv>[] = [];
  if (def.auth !== "none") out.push(authenticate(def.auth === "key" ? {} : def.auth.key));
  if (def.idempotent) out.push(idempotent());
  if (def.body || def.query) out.push(validate(def));
  return out;
}

/** A router serving `defs`, mounted at the app's root (paths carry their `/v1`). */
export function endpoints(...defs: AnyEndpoint[]): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  for (const def of defs) {
    const handler = (c: Context<AppEnv>) => def.handler(c as EndpointContext);
    DEFINITIONS.set(handler, def);
    ROUTED.push(def);
    router.on(def.method.toUpperCase(), [honoPath(def)], ...middlewareOf(def), handler);
  }
  return router;
}
