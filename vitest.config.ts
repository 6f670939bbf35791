import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** Loopback fixtures the URL guard lets through in tests (and nowhere else). */
const FIXTURES = "127.0.0.1:4010,127.0.0.1:4011";

export const TEST_SECRETS = {
  ADMIN_TOKEN: "test-admin-token-0123456789abcdef",
  URL_SIGNING_SECRET: "test-url-signing-secret-0123456789",
  WEBHOOK_SIGNING_SECRET: "test-webhook-signing-secret-0123456",
  SAFE_BROWSING_API_KEY: "",
};

export default defineConfig({
  test: {
    globalSetup: ["./test/fixtures/global-setup.ts"],
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { ...TEST_SECRETS, TARGET_ALLOWLIST: FIXTURES },
              browserRendering: { binding: "BROWSER" },
            },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
