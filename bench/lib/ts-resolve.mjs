// Module resolve hook for the bench: lets node import the service's TypeScript sources, whose
// relative imports carry no extension (`../encoding`, resolved by the bundler in the Worker).
// A relative specifier that does not resolve as written is tried with `.ts`.
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (err) {
    const relative = specifier.startsWith("./") || specifier.startsWith("../");
    if (!relative || /\.[cm]?[jt]s$/.test(specifier)) throw err;
    return next(`${specifier}.ts`, context);
  }
}
