/**
 * An artifact's branding logo: checked exactly like a capture target (URL guard, then the
 * unsafe-host list, DNS and reputation: security/outbound.ts, the rule every fetch the Worker
 * makes of a customer's URL follows), fetched ONCE by the Worker — no redirects, a size cap,
 * image bytes only (PNG, JPEG, WebP by their magic bytes, whatever the server claims) — and
 * inlined as a data: URI, so neither the page nor the PDF header ever fetches it. Any refusal is
 * a 400 naming `branding.logo`, before a credit is reserved.
 */
import { formatBytes, LIMITS } from "../../schemas/limits";
import { sniff } from "../capture/outputs/image-info";
import { toBase64 } from "../encoding";
import { ApiError } from "../errors";
import { log } from "../log";
import { checkOutboundHop, readCapped } from "../security/outbound";
import { refusalOf } from "../security/target-check";
import { TUNING } from "../tuning";

const FIELD = "branding.logo";
const MEDIA = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" } as const;

function refused(message: string): ApiError {
  return new ApiError("VALIDATION_ERROR", `Invalid request: ${FIELD}: ${message}`, {
    details: [{ path: FIELD, message }],
  });
}

/** A refusal of the logo's URL by the outbound hop check, naming `branding.logo`. */
function renamed(err: ApiError): ApiError {
  switch (err.code) {
    case "INVALID_URL": // private, reserved, or a name that does not resolve: says which
    case "UNSAFE_URL":
    case "URL_CHECK_UNAVAILABLE": // ours (503), not the logo's
      return refusalOf(err, FIELD);
    case "VALIDATION_ERROR": // the check's one validation error: credentials in the URL
      return refused("Must not carry credentials.");
    default:
      return refused("Could not be fetched.");
  }
}

/** The logo as a data: URI; throws the 400 to answer with. */
export async function fetchLogo(env: Env, raw: string): Promise<string> {
  let url: URL;
  try {
    url = await checkOutboundHop(env, raw);
  } catch (err) {
    throw err instanceof ApiError ? renamed(err) : err;
  }
  const bytes = await download(url);
  const kind = sniff(bytes);
  if (kind !== "png" && kind !== "jpeg" && kind !== "webp")
    throw refused("Must be a PNG, JPEG or WebP image.");
  return `data:${MEDIA[kind]};base64,${toBase64(bytes)}`;
}

async function download(url: URL): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url.href, {
      redirect: "manual",
      signal: AbortSignal.timeout(TUNING.logoFetchMs),
      headers: { accept: "image/png,image/jpeg,image/webp" },
    });
  } catch (err) {
    log("info", "artifact logo: fetch failed", { host: url.hostname, error: String(err) });
    throw refused("Could not be fetched.");
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    throw refused(
      res.status >= 300 && res.status < 400 ? "Must not redirect." : `Answered HTTP ${res.status}.`,
    );
  }
  const type = res.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!Object.values(MEDIA).some((m) => m === type)) {
    await res.body?.cancel().catch(() => {});
    throw refused("Must be served as image/png, image/jpeg or image/webp.");
  }
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > LIMITS.logoBytes) {
    await res.body?.cancel().catch(() => {});
    throw refused(`Must be at most ${formatBytes(LIMITS.logoBytes)}.`);
  }
  return logoBytes(res, LIMITS.logoBytes);
}

async function logoBytes(res: Response, max: number): Promise<Uint8Array> {
  if (!res.body) throw refused("Answered without a body.");
  const body = await readCapped(res, max);
  if (body.ok) return body.bytes;
  throw refused(
    body.reason === "too-large" ? `Must be at most ${formatBytes(max)}.` : "Could not be fetched.",
  );
}
