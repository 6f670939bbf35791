/** The API reference's browser bundle, bundled as a Text module (wrangler.toml [[rules]]). */
declare module "#scalar-standalone" {
  const script: string;
  export default script;
}
