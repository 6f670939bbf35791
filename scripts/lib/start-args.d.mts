// Types of scripts/lib/start-args.mjs for the TypeScript that uses it (its unit test).
export interface SplitArgs {
  vars: string[];
  rest: string[];
}
export function splitVars(args: string[]): SplitArgs;
export function varValue(vars: string[], name: string): string | undefined;
export function withVar(given: SplitArgs, name: string, value: string): string[];
