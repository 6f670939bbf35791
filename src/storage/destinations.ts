/**
 * Storage destinations, the service between the routes / job code and the Account DO's table:
 * the URL checks of every host an upload contacts — the endpoint's, and `<bucket>.<host>` when
 * virtual-hosted (URL guard as for webhooks — https only, public host, no credentials; an
 * allowlisted `host:port` may use http — then DNS and reputation like any target, at creation,
 * at `/test` and before every upload), the probe write, sealing the secret, opening a
 * stored destination for an upload, and object-key templates.
 */
import type { DestinationRequest, DestinationView, StorageOption } from "../../schemas/storage";
import { LIMITS } from "../../schemas/limits";
import { byteLength } from "../../schemas/primitives";
import type { AuthContext } from "../accounts/auth";
import type { DestinationRecord } from "./destination-store";
import { config } from "../config";
import { ApiError, validationError } from "../errors";
import { requireFeature } from "../accounts/policy";
import { log } from "../log";
import { checkTarget, refusalOf } from "../security/target-check";
import { checkUrl } from "../security/url-guard";
import {
  type BucketFailureReason,
  type BucketTarget,
  deleteObject,
  objectUrl,
  type PutOptions,
  putObject,
} from "./s3";
import { decryptSecret, encryptSecret } from "./secrets";

/** What each refusal names: the endpoint itself, or the bucket's virtual-hosted name under it. */
const REFUSALS = {
  endpoint: {
    message: "The endpoint must be a public https URL.",
    detail: "Must be a public https URL without credentials.",
  },
  bucket: {
    message: "The bucket's host (<bucket>.<endpoint host>) must be a public host.",
    detail: "With pathStyle false, <bucket>.<endpoint host> must resolve to a public address.",
  },
} as const;

/**
 * One host the uploads contact, through the URL guard (webhook purpose) and `checkTarget` (DNS,
 * reputation): 400 INVALID_URL, or UNSAFE_URL, naming `path`.
 */
async function requireHost(env: Env, raw: string, path: keyof typeof REFUSALS): Promise<URL> {
  const { message, detail } = REFUSALS[path];
  const refused = () =>
    new ApiError("INVALID_URL", message, { details: [{ path, message: detail }] });
  const verdict = checkUrl(raw, "webhook", config(env).targetAllowlist);
  if (!verdict.ok) throw refused();
  const { url } = verdict;
  if (url.search !== "" || url.hash !== "") throw refused();
  try {
    await checkTarget(env, url);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // Flagged, or not checked (ours, 503): the check's own answer, naming the field.
    if (err.code === "UNSAFE_URL" || err.code === "URL_CHECK_UNAVAILABLE")
      throw refusalOf(err, path);
    throw refused();
  }
  return url;
}

/**
 * The checks on every host an upload contacts, at creation, at `/test` and before each upload:
 * the endpoint (naming `endpoint`) and, virtual-hosted, `<bucket>.<endpoint host>` (naming
 * `bucket`) — a name of its own, which may resolve anywhere. The endpoint, canonical.
 */
export async function requireBucketHosts(
  env: Env,
  target: Pick<BucketTarget, "endpoint" | "bucket" | "pathStyle">,
): Promise<string> {
  const endpoint = (await requireHost(env, target.endpoint, "endpoint")).href.replace(/\/+$/, "");
  if (!target.pathStyle) await requireHost(env, objectUrl({ ...target, endpoint }, ""), "bucket");
  return endpoint;
}

const PROBE_MESSAGES: Readonly<Record<BucketFailureReason, string>> = {
  unreachable:
    "unreachable: the endpoint did not answer, answered with a server error or a redirect.",
  access_denied: "access denied: the key may not write and delete objects in this bucket.",
  no_such_bucket: "no such bucket: the bucket does not exist at this endpoint.",
  signature_mismatch: "signature mismatch: the secret access key (or region) is wrong.",
  rejected: "rejected: the service refused the probe object.",
};

/** What a destination's uploads send besides the object: the probe sends the same. */
export type UploadSettings = Pick<DestinationRecord, "prefix" | "acl" | "storageClass">;

export function putOptions(settings: UploadSettings, contentType: string): PutOptions {
  return {
    contentType,
    ...(settings.acl ? { acl: settings.acl } : {}),
    ...(settings.storageClass ? { storageClass: settings.storageClass } : {}),
  };
}

/**
 * Writes and deletes a small probe object, with the destination's ACL and storage class (a
 * provider refusing either is found now, not at the first job); 400 VALIDATION_ERROR naming the
 * reason class.
 */
export async function probeBucket(target: BucketTarget, settings: UploadSettings): Promise<void> {
  const key = `${settings.prefix ?? ""}edgeshot-probe-${crypto.randomUUID()}.txt`;
  const body = new TextEncoder().encode("edgeshot storage destination probe\n");
  const put = await putObject(target, key, body, putOptions(settings, "text/plain"));
  const done = put.ok ? await deleteObject(target, key) : put;
  if (done.ok) return;
  log("info", "storage destination probe failed", {
    bucket: target.bucket,
    reason: done.reason,
    status: done.status,
  });
  throw new ApiError(
    "VALIDATION_ERROR",
    `The bucket could not be written: ${PROBE_MESSAGES[done.reason]}`,
    {
      details: [{ path: "bucket", message: PROBE_MESSAGES[done.reason] }],
    },
  );
}

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function newDestinationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return `dst_${Array.from(bytes, (b) => ID_ALPHABET[b % ID_ALPHABET.length]).join("")}`;
}

/** Checks the endpoint, probes the bucket, seals the secret, stores it (at most 10 per account). */
export async function createDestination(
  env: Env,
  auth: AuthContext,
  req: DestinationRequest,
): Promise<DestinationView> {
  const endpoint = await requireBucketHosts(env, req);
  const { region, bucket, pathStyle, accessKeyId, secretAccessKey } = req;
  const target: BucketTarget = {
    endpoint,
    region,
    bucket,
    pathStyle,
    accessKeyId,
    secretAccessKey,
  };
  const current = await auth.account.destinations().list();
  if (current.length >= LIMITS.destinationsPerAccount) throw limitReached();
  await probeBucket(target, {
    prefix: req.prefix ?? null,
    acl: req.acl ?? null,
    storageClass: req.storageClass ?? null,
  });
  const destinationId = newDestinationId();
  const added = await auth.account.destinations().add({
    destinationId,
    name: req.name,
    endpoint,
    region: req.region,
    bucket: req.bucket,
    pathStyle: req.pathStyle,
    prefix: req.prefix ?? null,
    acl: req.acl ?? null,
    storageClass: req.storageClass ?? null,
    deliverOnly: req.deliverOnly,
    accessKeyId: req.accessKeyId,
    secretSealed: await encryptSecret(env, req.secretAccessKey, destinationId),
  });
  if (!added.ok) throw limitReached();
  return added.destination;
}

function limitReached(): ApiError {
  const n = LIMITS.destinationsPerAccount;
  return new ApiError(
    "VALIDATION_ERROR",
    `An account may hold at most ${n} storage destinations; delete one first.`,
    {
      details: [{ path: "destinations", message: `At most ${n} per account.` }],
    },
  );
}

/** A destination ready for uploads: the checks re-run on its hosts, its secret unsealed. */
export interface OpenDestination {
  record: DestinationRecord;
  target: BucketTarget;
}

export async function openDestination(
  env: Env,
  record: DestinationRecord,
): Promise<OpenDestination> {
  await requireBucketHosts(env, record);
  const secretAccessKey = await decryptSecret(env, record.secretSealed, record.destinationId);
  const { endpoint, region, bucket, pathStyle, accessKeyId } = record;
  return { record, target: { endpoint, region, bucket, pathStyle, accessKeyId, secretAccessKey } };
}

// Object-key templates.

/** `{ext}` of an output format. */
export function extensionFor(format: string): string {
  return format === "jpeg" ? "jpg" : format;
}

export const DEFAULT_KEY_TEMPLATE = "edgeshot/{date}/{jobId}.{ext}";

export interface KeyValues {
  jobId: string;
  batchId: string | null;
  watchId: string | null;
  /** The target's host ("" for html/markdown captures). */
  host: string;
  ext: string;
  now: Date;
}

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;
const NAMES = new Set(["jobId", "batchId", "watchId", "date", "time", "host", "ext"]);

/** Longest value each placeholder can take (host names are ≤ 253 characters). */
const WORST: Readonly<Record<string, number>> = {
  jobId: 36,
  batchId: 36,
  watchId: 36,
  date: 10,
  time: 6,
  host: 253,
  ext: 4,
};

/** The template's problem, or null: unknown placeholders, or a key that may exceed 1,024 bytes. */
export function keyTemplateProblem(template: string, prefix: string | null): string | null {
  const unknown = [...template.matchAll(PLACEHOLDER)]
    .map((m) => m[1] ?? "")
    .filter((n) => !NAMES.has(n));
  if (unknown.length > 0)
    return `Unknown placeholder {${unknown[0]}}; use ${[...NAMES].map((n) => `{${n}}`).join(", ")}.`;
  if (/[{}]/.test(template.replace(PLACEHOLDER, "")))
    return "Braces are only allowed around a placeholder.";
  const longest =
    byteLength(prefix ?? "") +
    byteLength(template.replace(PLACEHOLDER, (_, n: string) => "x".repeat(WORST[n] ?? 0)));
  if (longest > LIMITS.objectKeyBytes)
    return `The key may exceed ${LIMITS.objectKeyBytes} bytes once expanded.`;
  return null;
}

/** The object key: the destination's prefix + the template with its placeholders filled in. */
export function expandKey(template: string, prefix: string | null, v: KeyValues): string {
  const iso = v.now.toISOString();
  const values: Record<string, string> = {
    jobId: v.jobId,
    batchId: v.batchId ?? "",
    watchId: v.watchId ?? "",
    date: iso.slice(0, 10),
    time: iso.slice(11, 19).replaceAll(":", ""),
    host: v.host,
    ext: v.ext,
  };
  const key = `${prefix ?? ""}${template.replace(PLACEHOLDER, (_, n: string) => values[n] ?? "")}`;
  if (key.split("/").includes("..") || byteLength(key) > LIMITS.objectKeyBytes)
    throw new Error("expanded key is not valid");
  return key;
}

/** A checked `storage` choice of an async capture or batch: the destination and its key template. */
export interface StorageChoice {
  destinationId: string;
  key: string;
}

/**
 * The `storage` option of an async submission, checked before anything is admitted: the plan
 * (403), the destination exists on this account (404 naming `<path>.destinationId`) and the key
 * template (400 naming `<path>.key`).
 */
export async function requireStorage(
  auth: AuthContext,
  option: StorageOption,
  path = "storage",
): Promise<StorageChoice> {
  requireFeature(auth, "storageDestinations");
  const record = await auth.account.destinations().record(option.destinationId);
  if (!record) {
    throw new ApiError("NOT_FOUND", `${path}.destinationId: no storage destination with this id.`, {
      details: [{ path: `${path}.destinationId`, message: "No storage destination with this id." }],
    });
  }
  const key = option.key ?? DEFAULT_KEY_TEMPLATE;
  const problem = keyTemplateProblem(key, record.prefix);
  if (problem !== null) throw validationError(`${path}.key`, problem);
  return { destinationId: record.destinationId, key };
}
