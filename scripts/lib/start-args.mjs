// `npm start`'s arguments for wrangler dev, with the vars pulled out and put back once.
// wrangler's `--var` takes one or more KEY:VALUE pairs (`--var A:1 B:2`), may repeat (`--var A:1
// --var B:2`) and has an `=` form (`--var=A:1`); a pair's group ends at the next flag. start.mjs
// replaces TARGET_ALLOWLIST (the demo site joins it), so it reads every pair and passes them back
// as one group: a pair that followed the one it replaced is not left stray (wrangler then printed
// its usage and nothing started).

/** The `--var` pairs (in order) and every other argument, as given. */
export function splitVars(args) {
  const vars = [];
  const rest = [];
  let inVars = false;
  for (const arg of args) {
    if (arg === "--var") {
      inVars = true;
    } else if (arg.startsWith("--var=")) {
      vars.push(arg.slice("--var=".length));
      inVars = false;
    } else if (inVars && !arg.startsWith("-")) {
      vars.push(arg);
    } else {
      inVars = false;
      rest.push(arg);
    }
  }
  return { vars, rest };
}

/** The value a `KEY:VALUE` pair of `vars` gives `name` (the last one wins), or undefined. */
export function varValue(vars, name) {
  return vars
    .filter((pair) => pair.startsWith(`${name}:`))
    .map((pair) => pair.slice(name.length + 1))
    .pop();
}

/** wrangler's arguments: `rest`, then one `--var` group with `vars`, `name` set to `value`. */
export function withVar({ vars, rest }, name, value) {
  const kept = vars.filter((pair) => !pair.startsWith(`${name}:`));
  return [...rest, "--var", ...kept, `${name}:${value}`];
}
