// `npm run generate`: the SDK's types from the service's OpenAPI document. Relative imports get
// `.js` extensions, so the package compiles under moduleResolution NodeNext as well as Bundler.
export default {
  input: "../schemas/openapi.json",
  output: { path: "src/generated", importFileExtension: ".js" },
  plugins: ["@hey-api/typescript"],
};
