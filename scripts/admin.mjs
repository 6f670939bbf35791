#!/usr/bin/env node
// `npm run admin -- <command>`: Edgeshot's admin API from the command line.
//
//   create-account --plan <plan> [--name <name>]   new account + first key (shown once)
//   add-key <accountId>                             another key (shown once)
//   revoke <keyId>                                  revoke a key (403 KEY_DISABLED from then on)
//   set-plan <accountId> <plan>
//   set-usage <accountId> <credits>                 set this month's used credits
//   show <accountId>                                summary and keys
//
// --json prints the API's data as JSON. The service is EDGESHOT_URL (default
// http://localhost:8787); the token is ADMIN_TOKEN from the environment or .dev.vars.
import { parseArgs } from "node:util";
import { adminClient, devVar } from "./lib/admin-client.mjs";

const PLANS = ["free", "basic", "starter", "pro", "enterprise"];
const USAGE = `usage: npm run admin -- <command> [--json]
  create-account --plan <${PLANS.join("|")}> [--name <name>]
  add-key <accountId>
  revoke <keyId>
  set-plan <accountId> <plan>
  set-usage <accountId> <credits>
  show <accountId>`;

function fail(message, code = 2) {
  console.error(message);
  process.exit(code);
}

function plan(value) {
  if (!PLANS.includes(value)) fail(`unknown plan "${value}"; one of ${PLANS.join(", ")}`);
  return value;
}

const fmt = (n) => (n === null ? "unlimited" : n.toLocaleString("en-US"));

function printAccount(a) {
  const { usage } = a;
  console.log(`Account ${a.accountId}${a.name ? ` "${a.name}"` : ""}: plan ${a.plan}`);
  console.log(
    `  usage: ${fmt(usage.used)} of ${fmt(usage.limit)} credits used, ${fmt(usage.remaining)} left; resets ${usage.resetsAt}`,
  );
  console.log(
    `  rate limit: ${a.rateLimitPerMinute}/min (reads ${a.readRateLimitPerMinute}/min); active jobs: ${a.activeJobs}`,
  );
  if (!a.keys) return;
  console.log("  keys:");
  for (const k of a.keys) {
    const used = k.lastUsedAt ? `last used ${k.lastUsedAt}` : "never used";
    const revoked = k.revokedAt ? ` at ${k.revokedAt}` : "";
    console.log(
      `    ${k.keyId}  ${k.prefix}  ${k.status}${revoked}  created ${k.createdAt}  ${used}`,
    );
  }
}

function printKey(data) {
  console.log(`  key id:  ${data.keyId}`);
  console.log(`  API key: ${data.apiKey}`);
  console.log("  (the key is shown only now: store it somewhere safe)");
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      plan: { type: "string" },
      name: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, ...args] = positionals;
  if (values.help || !command) fail(USAGE, values.help ? 0 : 2);
  const need = (n) => {
    if (args.length !== n) fail(`${command}: expected ${n} argument(s)\n${USAGE}`);
    return args;
  };
  const token = devVar("ADMIN_TOKEN");
  if (!token) fail("ADMIN_TOKEN is not set (environment or .dev.vars)");
  const baseUrl = process.env.EDGESHOT_URL || "http://localhost:8787";
  const api = adminClient({ baseUrl, token });

  let data;
  let print;
  switch (command) {
    case "create-account": {
      need(0);
      if (!values.plan) fail("create-account: --plan is required");
      data = await api.createAccount(plan(values.plan), values.name);
      print = () => {
        console.log(`Created account ${data.accountId} on plan ${data.plan}`);
        printKey(data);
      };
      break;
    }
    case "add-key": {
      const [accountId] = need(1);
      data = await api.addKey(accountId);
      print = () => {
        console.log(`Added a key to ${accountId}`);
        printKey(data);
      };
      break;
    }
    case "revoke": {
      const [keyId] = need(1);
      data = await api.revokeKey(keyId);
      print = () =>
        console.log(
          `Revoked ${data.keyId} (${data.prefix}) of ${data.accountId} at ${data.revokedAt}`,
        );
      break;
    }
    case "set-plan": {
      const [accountId, to] = need(2);
      data = await api.update(accountId, { plan: plan(to) });
      print = () => printAccount(data);
      break;
    }
    case "set-usage": {
      const [accountId, n] = need(2);
      if (!/^\d+$/.test(n)) fail(`set-usage: credits must be a whole number, got "${n}"`);
      data = await api.update(accountId, { creditsUsed: Number(n) });
      print = () => printAccount(data);
      break;
    }
    case "show": {
      const [accountId] = need(1);
      data = await api.show(accountId);
      print = () => printAccount(data);
      break;
    }
    default:
      fail(`unknown command "${command}"\n${USAGE}`);
  }
  if (values.json) console.log(JSON.stringify(data, null, 2));
  else print();
}

main().catch((err) => {
  const reach = err?.cause?.code === "ECONNREFUSED" ? " (is the service running? npm start)" : "";
  fail(`error: ${err.message}${reach}`, 1);
});
