/**
 * An artifact's branding logo: checked exactly like a capture target (URL guard, then the
 * unsafe-host list, DNS and reputation), fetched ONCE by the Worker — no redirects, a size cap,
 * image bytes only (PNG, JPEG, WebP by their magic bytes, whatever the server claims) — and
 * inlined as a data: URI, so neither the page nor the PDF header ever fetches it. Any refusal is
 * a 400 naming `branding.logo`, before a credit is reserved.
 */
import { formatBytes, LIMITS } from "../../schemas/limits";
import { sniff } from "../capture/image-info";
import { config } from "../config";
import { toBase64 } from "../encoding";
import { ApiError } from "../errors";
import { log } from "../log";
import { checkTarget, refusalOf } from "../security/target-check";
import { checkUrl } from "../security/url-guard";
import { TUNING } from "../tuning";

const FIELD = "branding.logo";
const MEDIA = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" } as const;

function refused(message: string): ApiError {
  return new ApiError("VALIDATION_ERROR", `Invalid request: ${FIELD}: ${message}`, {
    details: [{ path: FIELD, message }],
  });
}

/** The logo as a data: URI; throws the 400 to answer with. */
export async function fetchLogo(env: Env, raw: string): Promise<string> {
  const verdict = checkUrl(raw, "target", config(env).targetAllowlist);
  if (!verdict.ok) {
    throw new ApiError("INVALID_URL", `The ${FIELD} URL is not a public http(s) URL.`, {
      details: [{ path: FIELD, message: "Must be a public http or https URL." }],
    });
  }
  const url = verdict.url;
  if (url.username || url.password) throw refused("Must not carry credentials.");
  try {
    await checkTarget(env, url);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // Refusals keep their code (INVALID_URL, UNSAFE_URL; URL_CHECK_UNAVAILABLE, ours), naming the logo.
    throw refusalOf(err, FIELD);
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
  return readCapped(res, LIMITS.logoBytes);
}

async function readCapped(res: Response, max: number): Promise<Uint8Array> {
  const body = res.body;
  if (!body) throw refused("Answered without a body.");
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => {});
        throw refused(`Must be at most ${formatBytes(max)}.`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw refused("Could not be fetched.");
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
