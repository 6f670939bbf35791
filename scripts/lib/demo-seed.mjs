// Demo accounts for `npm start`: one per plan, created through the admin API on first start
// and kept in the git-ignored .demo-keys.json (EDGESHOT_DEMO_KEYS overrides the path), keyed by
// the local storage directory, so a different --persist-to gets its own. Keys that still work
// are reused; the others are replaced.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { adminClient, keyWorks } from "./admin-client.mjs";

export const DEMO_PLANS = ["free", "basic", "starter", "pro", "enterprise"];

function load(file) {
  if (!existsSync(file)) return {};
  try {
    const data = JSON.parse(readFileSync(file, "utf8"));
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/** Ensures one working demo key per plan; returns {plan: {accountId, keyId, apiKey}}. */
export async function seedDemoAccounts({ baseUrl, token, persistDir, file }) {
  const path = resolve(file ?? process.env.EDGESHOT_DEMO_KEYS ?? ".demo-keys.json");
  const store = load(path);
  const slot = resolve(persistDir);
  const known = store[slot]?.accounts ?? {};
  const api = adminClient({ baseUrl, token });
  const accounts = {};
  let created = 0;
  for (const plan of DEMO_PLANS) {
    const have = known[plan];
    if (have?.apiKey && (await keyWorks(baseUrl, have.apiKey))) {
      accounts[plan] = have;
      continue;
    }
    const made = await api.createAccount(plan, `Demo ${plan}`);
    accounts[plan] = { accountId: made.accountId, keyId: made.keyId, apiKey: made.apiKey };
    created += 1;
  }
  store[slot] = { accounts };
  writeFileSync(path, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  return { accounts, created, path };
}

export function demoBanner(baseUrl, accounts) {
  const pad = Math.max(...DEMO_PLANS.map((p) => p.length));
  const lines = ["", "Demo API keys (one account per plan):"];
  for (const plan of DEMO_PLANS) lines.push(`  ${plan.padEnd(pad)}  ${accounts[plan].apiKey}`);
  const key = accounts.pro.apiKey;
  lines.push(
    "",
    `Dashboard: ${baseUrl}/dashboard  (sign up there for an account of your own, on Free)`,
    "",
    "Try it:",
    `  curl -o shot.png "${baseUrl}/v1/screenshot?url=https://example.com&key=${key}"`,
    `  curl -H "Authorization: Bearer ${key}" ${baseUrl}/v1/account`,
    "",
  );
  return lines.join("\n");
}
