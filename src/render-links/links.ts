/**
 * Render links: minting and verifying `/v1/render?p=&uid=&exp=&sig=`.
 *
 *   p   = base64url of the canonical JSON `{"k": <minting keyId>, "r": <capture parameters>}`
 *         (keys sorted at every level, so equal parameters give an equal p). Signed, NOT
 *         encrypted: whoever holds the link can read its parameters.
 *   uid = the owning account id;  exp = expiry, Unix seconds
 *   sig = hex HMAC-SHA256(URL_SIGNING_SECRET, `render:<p>.<uid>.<exp>`), compared in constant time
 *
 * The output of a link is cached under sha256(`<uid>:<p>`): links differing only in expiry share it.
 */
import { renderPayloadSchema, type RenderPayload } from "../../schemas/render-link";
import { isAccountId } from "../accounts/keys";
import { decodeBase64Url, encodeBase64Url } from "../../schemas/base64url";
import { sha256Hex } from "../encoding";
import { config } from "../config";
import { LIMITS } from "../../schemas/limits";
import { hmacHex, timingSafeEqualDigests } from "../signing/hmac";
import { renderLinkMessage } from "../signing/signed-payloads";

/** A link whose signature and expiry were checked; `p` is still undecoded. */
export interface VerifiedLink {
  p: string;
  uid: string;
  /** Unix seconds. */
  exp: number;
}

/** JSON with object keys sorted at every level; built as a string, so no key is ever assigned. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function encodePayload(keyId: string, params: Record<string, unknown>): string {
  return encodeBase64Url(new TextEncoder().encode(canonicalJson({ k: keyId, r: params })));
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The payload of a (verified) p, or null when it is not base64url of UTF-8 JSON of the right shape. */
export function decodePayload(p: string): RenderPayload | null {
  const bytes = decodeBase64Url(p);
  if (bytes === null || bytes.length === 0) return null;
  try {
    const json: unknown = JSON.parse(
      new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes),
    );
    const parsed = renderPayloadSchema.safeParse(json);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function linkSignature(env: Env, link: VerifiedLink): Promise<string> {
  return hmacHex(config(env).urlSigningSecret, renderLinkMessage(link));
}

/** The full signed URL of a link (used by minting, and by tests to sign arbitrary links). */
export async function signRenderLink(
  env: Env,
  origin: string,
  link: VerifiedLink,
): Promise<string> {
  const sig = await linkSignature(env, link);
  const query = new URLSearchParams({ p: link.p, uid: link.uid, exp: String(link.exp), sig });
  return `${origin}/v1/render?${query.toString()}`;
}

export interface MintInput {
  uid: string;
  keyId: string;
  /** The validated capture parameters, as the caller sent them (plus the effective cacheTtl). */
  params: Record<string, unknown>;
  expiresIn: number;
}

export async function mintRenderLink(
  env: Env,
  origin: string,
  input: MintInput,
): Promise<{ url: string; exp: number }> {
  const exp = Math.floor(Date.now() / 1000) + input.expiresIn;
  const link = { p: encodePayload(input.keyId, input.params), uid: input.uid, exp };
  return { url: await signRenderLink(env, origin, link), exp };
}

const SIG = /^[0-9a-f]{64}$/;
const EXP = /^[1-9][0-9]{0,10}$/;

/**
 * Checks a GET /v1/render query: each of p, uid, exp, sig exactly once and well formed, the
 * signature (constant time), then the expiry. Null means 403, whatever the reason.
 */
export async function verifyRenderLink(
  env: Env,
  query: URLSearchParams,
  now = Date.now(),
): Promise<VerifiedLink | null> {
  const one = (name: string): string | null => {
    const all = query.getAll(name);
    return all.length === 1 ? (all[0] ?? null) : null;
  };
  const [p, uid, exp, sig] = [one("p"), one("uid"), one("exp"), one("sig")];
  if (p === null || uid === null || exp === null || sig === null) return null;
  if (
    !BASE64URL.test(p) ||
    p.length > LIMITS.renderLinkChars ||
    !isAccountId(uid) ||
    !EXP.test(exp) ||
    !SIG.test(sig)
  ) {
    return null;
  }
  const link = { p, uid, exp: Number(exp) };
  if (!timingSafeEqualDigests(sig, await linkSignature(env, link))) return null;
  return link.exp > Math.floor(now / 1000) ? link : null;
}

/** Where a link's output is cached (KV, the edge cache, the coalescer): sha256 of uid and p. */
export function renderCacheKey(link: Pick<VerifiedLink, "uid" | "p">): Promise<string> {
  return sha256Hex(`${link.uid}:${link.p}`);
}
