/**
 * Dashboard users: the `DashboardUser` Durable Object, one per email address (named by the
 * normalised address), which makes an email unique — two signups for one address reach the
 * same object, and its single-threaded storage lets only the first claim it. It holds the
 * password hash (src/accounts/passwords.ts), the account it signs into, failed logins (the
 * per-email throttle) and sessions (hashed tokens, sliding expiry).
 *
 * A session may hold one plain API key to reveal on the next page view (the key is shown once:
 * the read deletes it, and it is dropped after `revealTtlMs` anyway).
 */
import { DurableObject } from "cloudflare:workers";
import { LIMITS } from "../../schemas/limits";
import { sha256Hex, toHex } from "../encoding";
import { TUNING } from "../tuning";
import { DECOY_HASH, verifyPassword } from "./passwords";
import { migrate, type Migration } from "./migrate";
import { FAILURES_TABLE, clearFailures, recordFailure, retryAfterSeconds } from "./throttle";

const USER_MIGRATIONS: readonly Migration[] = [
  [
    `CREATE TABLE user (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      email TEXT NOT NULL,
      account_id TEXT NOT NULL,
      password_hash TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`,
    `CREATE TABLE sessions (
      token_hash TEXT PRIMARY KEY,
      csrf TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      reveal_key TEXT,
      reveal_until INTEGER
    )`,
    FAILURES_TABLE,
  ],
];

/** How long a just-created key waits in the session for the page that shows it. */
const revealTtlMs = 5 * 60_000;

export interface SessionView {
  email: string;
  accountId: string;
  /** The session's CSRF token: every state-changing form and the playground carry it. */
  csrf: string;
}

export type LoginResult =
  | { status: "ok"; token: string }
  | { status: "wrong" }
  | { status: "throttled"; retryAfter: number };

interface UserRow extends Record<string, SqlStorageValue> {
  email: string;
  account_id: string;
  password_hash: string;
}

interface SessionRow extends Record<string, SqlStorageValue> {
  csrf: string;
  expires_at: number;
  reveal_key: string | null;
  reveal_until: number | null;
}

const randomHex = (bytes: number): string => toHex(crypto.getRandomValues(new Uint8Array(bytes)));

export class DashboardUser extends DurableObject<Env> {
  clock: () => number = () => Date.now();
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrate(ctx.storage, USER_MIGRATIONS);
  }

  private user(): UserRow | undefined {
    return this.sql.exec<UserRow>("SELECT email, account_id, password_hash FROM user").toArray()[0];
  }

  /** Claims this email for `accountId`; false when it is taken. */
  register(email: string, accountId: string, passwordHash: string): boolean {
    if (this.user()) return false;
    this.sql.exec(
      "INSERT INTO user (id, email, account_id, password_hash, created_at) VALUES (1, ?, ?, ?, ?)",
      email,
      accountId,
      passwordHash,
      this.clock(),
    );
    return true;
  }

  /**
   * Claims this email for `accountId` (operators: the admin API's login for an existing
   * account), or sets a new password when it already signs into that account; "taken" when it
   * signs into another one.
   */
  claim(email: string, accountId: string, passwordHash: string): "created" | "updated" | "taken" {
    const user = this.user();
    if (!user) return this.register(email, accountId, passwordHash) ? "created" : "taken";
    if (user.account_id !== accountId) return "taken";
    this.sql.exec("UPDATE user SET password_hash = ? WHERE id = 1", passwordHash);
    return "updated";
  }

  /** A new session for the registered user (signup, login); returns its plain token. */
  async startSession(): Promise<string> {
    const token = randomHex(32);
    const tokenHash = await sha256Hex(token);
    this.sql.exec(
      "INSERT INTO sessions (token_hash, csrf, expires_at) VALUES (?, ?, ?)",
      tokenHash,
      randomHex(32),
      this.clock() + LIMITS.sessionTtlMs,
    );
    return token;
  }

  /** Checks a password under the per-email throttle; a success clears the failures. */
  async login(password: string): Promise<LoginResult> {
    const { loginFailuresPerEmail: max, loginWindowMs: windowMs } = TUNING;
    const retryAfter = retryAfterSeconds(this.sql, max, windowMs, this.clock());
    if (retryAfter > 0) return { status: "throttled", retryAfter };
    const user = this.user();
    const ok = await verifyPassword(password, user?.password_hash ?? DECOY_HASH);
    if (!ok || !user) {
      recordFailure(this.sql, this.clock());
      return { status: "wrong" };
    }
    clearFailures(this.sql);
    return { status: "ok", token: await this.startSession() };
  }

  /** The session of a token hash, its expiry pushed back (sliding); null when unknown or expired. */
  session(tokenHash: string): SessionView | null {
    const user = this.user();
    const now = this.clock();
    this.sql.exec("DELETE FROM sessions WHERE expires_at <= ?", now);
    const row = this.sql
      .exec<SessionRow>("SELECT * FROM sessions WHERE token_hash = ?", tokenHash)
      .toArray()[0];
    if (!user || !row) return null;
    this.sql.exec(
      "UPDATE sessions SET expires_at = ? WHERE token_hash = ?",
      now + LIMITS.sessionTtlMs,
      tokenHash,
    );
    return { email: user.email, accountId: user.account_id, csrf: row.csrf };
  }

  endSession(tokenHash: string): void {
    this.sql.exec("DELETE FROM sessions WHERE token_hash = ?", tokenHash);
  }

  /** Holds a just-created key for the next page of this session. */
  holdReveal(tokenHash: string, apiKey: string): void {
    this.sql.exec(
      "UPDATE sessions SET reveal_key = ?, reveal_until = ? WHERE token_hash = ?",
      apiKey,
      this.clock() + revealTtlMs,
      tokenHash,
    );
  }

  /** The held key, once: the read clears it. */
  takeReveal(tokenHash: string): string | null {
    const row = this.sql
      .exec<SessionRow>("SELECT * FROM sessions WHERE token_hash = ?", tokenHash)
      .toArray()[0];
    if (!row?.reveal_key) return null;
    this.sql.exec(
      "UPDATE sessions SET reveal_key = NULL, reveal_until = NULL WHERE token_hash = ?",
      tokenHash,
    );
    return (row.reveal_until ?? 0) > this.clock() ? row.reveal_key : null;
  }
}
