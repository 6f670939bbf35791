// Registers bench/lib/ts-resolve.mjs: `node --import ./bench/lib/ts-register.mjs …`, or import it
// first. The bench and its fixture process load the service's and the tests' TypeScript sources.
import { register } from "node:module";

register("./ts-resolve.mjs", import.meta.url);
