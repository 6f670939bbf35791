/**
 * The S3-compatible test server (s3rver, test/fixtures/s3.ts) from inside workerd: destination
 * bodies that point at it, and signed reads / bucket deletion to check what landed there.
 */
import { env } from "cloudflare:workers";
import { AwsClient } from "aws4fetch";
import { postJson } from "./http";

export const S3_ORIGIN = (env as unknown as { S3_ORIGIN: string }).S3_ORIGIN;
export interface KeyPair {
  accessKeyId: string;
  secretAccessKey: string;
}

/** s3rver's built-in key pair: the tests' own reads. */
const aws = new AwsClient({
  accessKeyId: "S3RVER",
  secretAccessKey: "S3RVER",
  service: "s3",
  region: "us-east-1",
  retries: 0,
});

/** A fresh key pair on the test server, with a distinctive secret (`sk-…`). */
export async function newKeyPair(): Promise<KeyPair> {
  const res = await fetch(`${S3_ORIGIN}/__keys`, { method: "POST" });
  return (await res.json()) as KeyPair;
}

/** Replaces the key's secret on the server: the stored one stops working. */
export async function rotateKey(accessKeyId: string): Promise<void> {
  const res = await fetch(`${S3_ORIGIN}/__keys/${accessKeyId}/rotate`, { method: "POST" });
  if (!res.ok) throw new Error(`rotateKey: ${res.status}`);
  await res.body?.cancel();
}

export function destinationBody(
  key: KeyPair,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: "test bucket",
    endpoint: S3_ORIGIN,
    region: "us-east-1",
    bucket: "edgeshot-test",
    pathStyle: true,
    ...key,
    ...overrides,
  };
}

export async function createDestination(
  headers: Record<string, string>,
  key: KeyPair,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const res = await postJson("/v1/storage/destinations", destinationBody(key, overrides), headers);
  const body = (await res.json()) as { data?: { destinationId: string } };
  if (res.status !== 201 || !body.data)
    throw new Error(`createDestination: ${res.status} ${JSON.stringify(body)}`);
  return body.data.destinationId;
}

/** The object as s3rver stores it (signed GET), or null when absent. */
export async function readObject(
  bucket: string,
  key: string,
): Promise<{ bytes: Uint8Array; contentType: string | null; headers: Headers } | null> {
  const url = `${S3_ORIGIN}/${bucket}/${key.split("/").map(encodeURIComponent).join("/")}`;
  const res = await aws.fetch(url);
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`readObject: ${res.status}`);
  return {
    bytes: new Uint8Array(await res.arrayBuffer()),
    contentType: res.headers.get("content-type"),
    headers: res.headers,
  };
}

/** Keys in `bucket` under `prefix`. */
export async function listKeys(bucket: string, prefix: string): Promise<string[]> {
  const res = await aws.fetch(
    `${S3_ORIGIN}/${bucket}?list-type=2&prefix=${encodeURIComponent(prefix)}`,
  );
  const text = await res.text();
  return [...text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1] ?? "");
}

/** Deletes an (empty) bucket: later uploads to it fail with NoSuchBucket. */
export async function deleteBucket(bucket: string): Promise<void> {
  const res = await aws.fetch(`${S3_ORIGIN}/${bucket}`, { method: "DELETE" });
  if (res.status !== 204) throw new Error(`deleteBucket: ${res.status} ${await res.text()}`);
}
