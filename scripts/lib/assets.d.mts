// Types of scripts/lib/assets.mjs for the TypeScript that uses it (vitest.config.ts).
export function buildAssets(): void;
