/**
 * The Python SDK (sdk-python/) against the shared `wrangler dev`: its unittest suite
 * (sdk-python/tests) runs in a python3 child with the service's URL, a Pro key, the fixture
 * server (its pages and the monitor fixture site), the crawl fixture site, a webhook port the
 * service may deliver to, and a webhook signature made by the Worker's own code
 * (src/webhooks/sign.ts). Skipped, saying so, only when python3 is absent.
 */
import { spawn, spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "../../src/webhooks/sign";
import { E2E_WEBHOOK_PORT } from "../fixtures/e2e-service";
import {
  createAccount,
  CRAWL_SITE_ORIGIN,
  FIXTURE_ORIGIN,
  ROOT,
  sharedService,
  type Service,
} from "../helpers/e2e";

const version = spawnSync("python3", ["-c", "import sys; print(sys.version_info >= (3, 9))"], {
  encoding: "utf8",
});
const python = version.status === 0 && version.stdout.trim() === "True";
if (!python)
  console.warn("[python-sdk] python3 ≥ 3.9 not found: the Python SDK's tests are SKIPPED.");

function unittest(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("python3", ["-m", "unittest", "discover", "-v", "-s", "sdk-python/tests"], {
      cwd: ROOT,
      env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe.skipIf(!python)("Python SDK (sdk-python) against wrangler dev", () => {
  let service: Service;
  let apiKey: string;
  beforeAll(async () => {
    service = sharedService();
    ({ apiKey } = await createAccount(service.base, "pro"));
  });

  it("python3 -m unittest discover -s sdk-python/tests passes", { timeout: 300_000 }, async () => {
    const secret = "whsec_from_the_worker_0123456789";
    const timestamp = String(Math.floor(Date.now() / 1000));
    const body = JSON.stringify({ event: "job.completed", jobId: "job_py", status: "completed" });
    const { code, output } = await unittest({
      EDGESHOT_BASE_URL: service.base,
      EDGESHOT_API_KEY: apiKey,
      EDGESHOT_FIXTURE_URL: FIXTURE_ORIGIN,
      EDGESHOT_WEBHOOK_PORT: String(E2E_WEBHOOK_PORT),
      EDGESHOT_CRAWL_SITE_URL: CRAWL_SITE_ORIGIN,
      EDGESHOT_RUN_ID: `${Date.now()}`,
      EDGESHOT_SIGNED_BODY: body,
      EDGESHOT_SIGNED_SECRET: secret,
      EDGESHOT_SIGNED_TIMESTAMP: timestamp,
      EDGESHOT_SIGNED_SIGNATURE: await signWebhook(secret, timestamp, body),
    });
    if (code !== 0) console.error(`[python-sdk] unittest output:\n${output}`);
    expect(code, output.slice(-4000)).toBe(0);
    // Every test ran: none skipped for want of a setting.
    expect(output).not.toMatch(/skipped '/);
    expect(output).toMatch(/^OK$/m);
  });
});
