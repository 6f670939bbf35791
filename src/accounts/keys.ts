/**
 * API keys and account/key ids: generation, format check, hashing.
 *
 * A key is `svc_` + 32 random bytes in base62, left-padded to a fixed 43 characters. Only its
 * sha256 (hex) is ever stored; the full key is shown once, at creation.
 */
import baseX from "base-x";
import { sha256Hex } from "../encoding";

const BASE62 = baseX("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");

export const KEY_PREFIX = "svc_";
/** 62^43 > 2^256, so 32 random bytes always fit in 43 base62 digits. */
const KEY_BODY_CHARS = 43;
const KEY_FORMAT = /^svc_[0-9A-Za-z]{43}$/;
const ACCOUNT_ID_FORMAT = /^acc_[0-9A-Za-z]{22}$/;
const KEY_ID_FORMAT = /^key_[0-9A-Za-z]{22}$/;

function randomBase62(bytes: number, chars: number): string {
  return BASE62.encode(crypto.getRandomValues(new Uint8Array(bytes))).padStart(chars, "0");
}

export function generateApiKey(): string {
  return KEY_PREFIX + randomBase62(32, KEY_BODY_CHARS);
}

/** `acc_` + 16 random bytes (22 base62 characters). */
export function generateAccountId(): string {
  return `acc_${randomBase62(16, 22)}`;
}

/** `key_` + 16 random bytes (22 base62 characters). */
export function generateKeyId(): string {
  return `key_${randomBase62(16, 22)}`;
}

/** Cheap syntactic check, done before any lookup (so a 10 KB header is never hashed). */
export function isWellFormedKey(candidate: string): boolean {
  return candidate.length === KEY_PREFIX.length + KEY_BODY_CHARS && KEY_FORMAT.test(candidate);
}

export function isAccountId(value: string): boolean {
  return ACCOUNT_ID_FORMAT.test(value);
}

export function isKeyId(value: string): boolean {
  return KEY_ID_FORMAT.test(value);
}

/** What a key may be shown as after creation: `svc_AbCd…`. */
export function displayPrefix(key: string): string {
  return `${key.slice(0, KEY_PREFIX.length + 4)}…`;
}

/** The key as stored: sha256 hex of the full key, prefix included. */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}
