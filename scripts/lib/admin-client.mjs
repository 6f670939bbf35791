// A small client for Edgeshot's admin API (Bearer ADMIN_TOKEN), shared by `npm run admin` and
// `npm start`'s demo seeding.
import { existsSync, readFileSync } from "node:fs";

/** A variable from the environment, else from .dev.vars (KEY=value lines), else undefined. */
export function devVar(name, file = ".dev.vars") {
  if (process.env[name]) return process.env[name];
  if (!existsSync(file)) return undefined;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (m && m[1] === name) return m[2].replace(/^"(.*)"$/, "$1");
  }
  return undefined;
}

export class AdminError extends Error {
  constructor(status, code, message) {
    super(`${code ?? status}: ${message}`);
    this.status = status;
    this.code = code;
  }
}

export function adminClient({ baseUrl, token }) {
  const base = baseUrl.replace(/\/+$/, "");
  async function request(method, path, body) {
    const res = await fetch(`${base}/admin${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      throw new AdminError(res.status, undefined, `unexpected response: ${text.slice(0, 200)}`);
    }
    if (!res.ok || !json.success) {
      throw new AdminError(res.status, json.error?.code, json.error?.message ?? "request failed");
    }
    return json.data;
  }
  const id = (value) => encodeURIComponent(value);
  return {
    createAccount: (plan, name) => request("POST", "/accounts", name ? { plan, name } : { plan }),
    addKey: (accountId) => request("POST", `/accounts/${id(accountId)}/keys`),
    revokeKey: (keyId) => request("POST", `/keys/${id(keyId)}/revoke`),
    update: (accountId, change) => request("PATCH", `/accounts/${id(accountId)}`, change),
    show: (accountId) => request("GET", `/accounts/${id(accountId)}`),
    setLogin: (accountId, email, password) =>
      request("PUT", `/accounts/${id(accountId)}/login`, { email, password }),
  };
}

/**
 * Whether `apiKey` still works, by GET /v1/credential-check (a rate-limited key is still a
 * valid key). Throws when the service cannot be reached.
 */
export async function keyWorks(baseUrl, apiKey) {
  const res = await fetch(`${baseUrl.replace(/\/+$/, "")}/v1/credential-check`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  await res.body?.cancel();
  return res.ok || res.status === 429;
}
