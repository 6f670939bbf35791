/** `.woff2` files are bundled as Data modules (wrangler.toml [[rules]]): their bytes. */
declare module "*.woff2" {
  const bytes: ArrayBuffer;
  export default bytes;
}
