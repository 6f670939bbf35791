/**
 * The S3 REST calls we make to a customer's bucket (AWS S3, R2, B2, Wasabi, MinIO…): PUT and
 * DELETE of one object, signed with SigV4 by `aws4fetch`. Path-style
 * (`https://endpoint/bucket/key`) or virtual-host style (`https://bucket.endpoint/key`).
 * Redirects are never followed; 5xx, 429, network errors and timeouts are retried with backoff.
 * A failure is reduced to a reason class — the provider's body is never shown to anyone.
 */
import { AwsClient } from "aws4fetch";
import { TUNING } from "../tuning";

export interface BucketTarget {
  endpoint: string;
  region: string;
  bucket: string;
  pathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

export type BucketFailureReason =
  "unreachable" | "access_denied" | "no_such_bucket" | "signature_mismatch" | "rejected";

export type BucketResult =
  | { ok: true; etag: string | null }
  | { ok: false; reason: BucketFailureReason; status: number | null };

/** Each `/`-separated segment percent-encoded (RFC 3986), as S3 canonicalises object keys. */
export function encodeKey(key: string): string {
  return key
    .split("/")
    .map((s) =>
      encodeURIComponent(s).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ),
    )
    .join("/");
}

/** The object's URL in the customer's bucket (path-style or virtual-host style). */
export function objectUrl(
  target: Pick<BucketTarget, "endpoint" | "bucket" | "pathStyle">,
  key: string,
): string {
  const base = new URL(target.endpoint);
  const path = base.pathname.replace(/\/+$/, "");
  if (target.pathStyle)
    return `${base.origin}${path}/${encodeURIComponent(target.bucket)}/${encodeKey(key)}`;
  return `${base.protocol}//${target.bucket}.${base.host}${path}/${encodeKey(key)}`;
}

function client(target: BucketTarget): AwsClient {
  return new AwsClient({
    accessKeyId: target.accessKeyId,
    secretAccessKey: target.secretAccessKey,
    service: "s3",
    region: target.region,
    retries: 0,
  });
}

/** The reason class of an S3 error answer, from its status and `<Code>`. */
export function classify(status: number, code: string | null): BucketFailureReason {
  if (code === "SignatureDoesNotMatch") return "signature_mismatch";
  if (code === "NoSuchBucket") return "no_such_bucket";
  if (code === "InvalidAccessKeyId" || code === "AccessDenied" || status === 401 || status === 403)
    return "access_denied";
  if (status === 404) return "no_such_bucket";
  if (status >= 300 && status < 400) return "unreachable"; // a redirect we do not follow
  return status >= 500 || status === 429 ? "unreachable" : "rejected";
}

async function errorCode(res: Response): Promise<string | null> {
  const text = await res.text().catch(() => "");
  return /<Code>([A-Za-z]{1,64})<\/Code>/.exec(text.slice(0, 4096))?.[1] ?? null;
}

const retryable = (status: number): boolean => status >= 500 || status === 429;

async function send(
  target: BucketTarget,
  method: "PUT" | "DELETE",
  key: string,
  init: { body?: Uint8Array; headers?: Record<string, string> },
): Promise<BucketResult> {
  const aws = client(target);
  const url = objectUrl(target, key);
  let last: BucketResult = { ok: false, reason: "unreachable", status: null };
  for (let attempt = 1; attempt <= TUNING.bucketAttempts; attempt++) {
    if (attempt > 1)
      await new Promise((r) => setTimeout(r, TUNING.bucketRetryBaseMs * 2 ** (attempt - 2)));
    try {
      const res = await aws.fetch(url, {
        method,
        body: init.body,
        headers: init.headers,
        redirect: "manual",
        signal: AbortSignal.timeout(TUNING.bucketTimeoutMs),
      });
      if (res.ok) {
        await res.body?.cancel();
        return { ok: true, etag: res.headers.get("etag") };
      }
      last = { ok: false, reason: classify(res.status, await errorCode(res)), status: res.status };
      if (!retryable(res.status)) return last;
    } catch {
      last = { ok: false, reason: "unreachable", status: null };
    }
  }
  return last;
}

export interface PutOptions {
  contentType: string;
  acl?: "private" | "public-read";
  storageClass?: string;
}

const hex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * PUT one object; `Content-Type`, `Content-Length`, and `x-amz-acl` / storage class when set.
 * The payload's SHA-256 is signed too (`x-amz-content-sha256`), so the bytes cannot be swapped.
 */
export async function putObject(
  target: BucketTarget,
  key: string,
  bytes: Uint8Array,
  options: PutOptions,
): Promise<BucketResult> {
  const headers: Record<string, string> = {
    "content-type": options.contentType,
    "content-length": String(bytes.byteLength),
    "x-amz-content-sha256": hex(await crypto.subtle.digest("SHA-256", bytes)),
  };
  if (options.acl) headers["x-amz-acl"] = options.acl;
  if (options.storageClass) headers["x-amz-storage-class"] = options.storageClass;
  return send(target, "PUT", key, { body: bytes, headers });
}

export function deleteObject(target: BucketTarget, key: string): Promise<BucketResult> {
  return send(target, "DELETE", key, {});
}
