/**
 * Minting a render link for a key: POST /v1/render/link's work, also the dashboard's "Create
 * render link" and the MCP `render_link` tool's. The request arrives validated (the HTTP edge
 * parses it with `renderLinkRequestSchema`): what is checked here is what only minting knows —
 * the link's length, and the capture's plan gates, URL guard and templates, refused now rather
 * than on first view.
 */
import { LIMITS } from "../../schemas/limits";
import type { RenderLinkRequest } from "../../schemas/render-link";
import type { RenderLinkData } from "../../schemas/responses";
import type { AuthContext } from "../accounts/auth";
import { prepareCapture } from "../capture-request/prepare";
import { ApiError } from "../errors";
import { mintRenderLink } from "./links";

/**
 * Mints a render link for `auth`'s key, signed for `origin`. `request` is the parse of `sent`
 * (the fields as the caller wrote them): the link carries `sent`, not the parse, and the first
 * view parses it again (./coalescer.ts).
 */
export async function mintLinkFor(
  env: Env,
  auth: AuthContext,
  origin: string,
  request: RenderLinkRequest,
  sent: Record<string, unknown>,
): Promise<RenderLinkData> {
  const { expiresIn, ...req } = request;
  const cacheTtl = req.cacheTtl ?? LIMITS.cacheTtl.default;
  // The parameters as sent (validated: only known keys), minus expiresIn, plus the effective cacheTtl.
  const { expiresIn: _omitted, ...params } = sent;
  const link = await mintRenderLink(env, origin, {
    uid: auth.accountId,
    keyId: auth.keyId,
    params: { ...params, cacheTtl },
    expiresIn: expiresIn ?? req.cacheTtl ?? LIMITS.renderLinkExpiry.default,
  });
  if (link.url.length > LIMITS.renderLinkChars) {
    throw new ApiError(
      "PAYLOAD_TOO_LARGE",
      `The render link would be ${link.url.length} characters; the limit is ${LIMITS.renderLinkChars}.`,
    );
  }
  // Plan gates, URL guard, DNS and reputation, templates: refused now, not on first view.
  const spec = await prepareCapture(env, auth, req);
  return {
    url: link.url,
    expiresAt: new Date(link.exp * 1000).toISOString(),
    format: spec.format,
    cacheTtl,
  };
}
