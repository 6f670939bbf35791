/**
 * Customer secrets at rest (a storage destination's secret access key): AES-256-GCM with a key
 * derived from the deployment secret STORAGE_ENCRYPTION_KEY (SHA-256 of it), a fresh 96-bit IV
 * per encryption, and the owning record's id as associated data — a ciphertext copied to
 * another record does not decrypt. Stored as `v1.<iv b64url>.<ciphertext b64url>`.
 */
import { decodeBase64Url, encodeBase64Url } from "../../schemas/base64url";
import { config } from "../config";

const VERSION = "v1";

async function aesKey(env: Env): Promise<CryptoKey> {
  const material = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(config(env).storageEncryptionKey),
  );
  return crypto.subtle.importKey("raw", material, { name: "AES-GCM" }, false, [
    "encrypt",
    "decrypt",
  ]);
}

export async function encryptSecret(
  env: Env,
  plaintext: string,
  associatedData: string,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(associatedData) },
    await aesKey(env),
    new TextEncoder().encode(plaintext),
  );
  return `${VERSION}.${encodeBase64Url(iv)}.${encodeBase64Url(new Uint8Array(sealed))}`;
}

/** The plaintext; throws when the value was not sealed for `associatedData` with this key. */
export async function decryptSecret(
  env: Env,
  sealed: string,
  associatedData: string,
): Promise<string> {
  const [version, ivText, dataText] = sealed.split(".");
  const iv = decodeBase64Url(ivText ?? "");
  const data = decodeBase64Url(dataText ?? "");
  if (version !== VERSION || !iv || !data) throw new Error("sealed secret: unknown format");
  const opened = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(associatedData) },
    await aesKey(env),
    data,
  );
  return new TextDecoder().decode(opened);
}
