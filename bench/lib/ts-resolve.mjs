// A resolve hook for running the repo's TypeScript test fixtures under Node's type stripping:
// their imports omit the ".ts" extension (as the bundler allows), which Node does not resolve.
// Usage: node --import ./bench/lib/ts-resolve.mjs --experimental-strip-types file.ts
import { register } from "node:module";

if (!globalThis.__edgeshotTsResolve) {
  globalThis.__edgeshotTsResolve = true;
  register(
    "data:text/javascript," +
      encodeURIComponent(`
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND" || !/^\\.{1,2}\\//.test(specifier)) throw err;
    return next(specifier + ".ts", context);
  }
}`),
  );
}
