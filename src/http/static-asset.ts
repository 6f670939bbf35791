/**
 * A file of the Worker's static assets (wrangler.toml [assets], public/) answering the request
 * at its own path, with the route's headers over the asset server's (its ETag kept, so a
 * conditional request gets a 304) and those set before it (`x-request-id`). The Worker runs
 * first on every path, so a file is only ever served by a route that asks for it here.
 */
import type { Context } from "hono";

export async function staticAsset<E extends { Bindings: Env }>(
  c: Context<E>,
  headers: Record<string, string>,
): Promise<Response> {
  const res = await c.env.ASSETS.fetch(c.req.raw);
  // A missing file is a build that did not run (scripts/assets.mjs): ours to fix, never the caller's.
  if (!res.ok && res.status !== 304) {
    throw new Error(`static asset ${new URL(c.req.url).pathname}: ${res.status}`);
  }
  const answer = new Response(res.body, res); // a fetched response's headers are immutable
  for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
  return c.newResponse(answer.body, answer);
}
