/**
 * Dashboard passwords: the common-password rule and PBKDF2-SHA256 hashing through WebCrypto.
 *
 * Stored as `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`, so the iteration count can rise
 * later without invalidating stored hashes. Comparison is constant-time.
 */
import { COMMON_PASSWORDS } from "../data/common-passwords";
import { toHex } from "../encoding";
import { timingSafeEqualDigests } from "../signing/hmac";
import { TUNING } from "../tuning";

const SCHEME = "pbkdf2-sha256";
const HASH_BITS = 256;
const SALT_BYTES = 16;

/**
 * Whether a new password is on the common list (compared lower-cased). Its length rules are
 * the signup form's schema (schemas/dashboard.ts).
 */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number) {
  const material = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    material,
    HASH_BITS,
  );
  return toHex(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iterations = TUNING.passwordIterations;
  return `${SCHEME}$${iterations}$${toHex(salt)}$${await derive(password, salt, iterations)}`;
}

/** A stored hash of nothing, so an unknown email costs as much as a wrong password. */
export const DECOY_HASH = `${SCHEME}$${TUNING.passwordIterations}$${"00".repeat(SALT_BYTES)}$${"00".repeat(HASH_BITS / 8)}`;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltHex, hashHex] = stored.split("$");
  const iterations = Number(iterationsText);
  if (scheme !== SCHEME || !saltHex || !hashHex || !Number.isSafeInteger(iterations)) return false;
  const derived = await derive(password, fromHex(saltHex), iterations);
  return timingSafeEqualDigests(derived, hashHex);
}
