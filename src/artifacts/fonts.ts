/**
 * The artifact font families that ship with the service: open-licensed web fonts from the
 * `@fontsource/*` packages (Latin subset, regular and bold), kept as static assets
 * (public/fonts/, copied by scripts/lib/assets.mjs) and read through the ASSETS binding, then
 * embedded as data: URIs in the document, so an artifact renders the same locally and on
 * Cloudflare and the browser never fetches a font. Each stack falls back to the generic family
 * for glyphs outside the subset.
 */
import type { ArtifactFont } from "../../schemas/artifact";
import { toBase64 } from "../encoding";

type Embedded = Exclude<ArtifactFont, "sans" | "serif" | "mono">;

interface Family {
  name: string;
  fallback: string;
  /** Each face's weight and its file under public/. */
  faces: Array<{ weight: number; path: string }>;
}

const FAMILIES: Record<Embedded, Family> = {
  inter: {
    name: "Inter",
    fallback: "sans-serif",
    faces: [
      { weight: 400, path: "/fonts/inter-400.woff2" },
      { weight: 700, path: "/fonts/inter-700.woff2" },
    ],
  },
  merriweather: {
    name: "Merriweather",
    fallback: "serif",
    faces: [
      { weight: 400, path: "/fonts/merriweather-400.woff2" },
      { weight: 700, path: "/fonts/merriweather-700.woff2" },
    ],
  },
  "jetbrains-mono": {
    name: "JetBrains Mono",
    fallback: "monospace",
    faces: [
      { weight: 400, path: "/fonts/jetbrains-mono-400.woff2" },
      { weight: 700, path: "/fonts/jetbrains-mono-700.woff2" },
    ],
  },
};

const isEmbedded = (font: ArtifactFont): font is Embedded =>
  font !== "sans" && font !== "serif" && font !== "mono";

/** A font file's bytes from the static assets; the URL's origin is not looked at, only its path. */
async function fontFile(assets: Fetcher, path: string): Promise<Uint8Array> {
  const res = await assets.fetch(new URL(path, "https://assets.invalid"));
  // A missing file is a build that did not run (scripts/assets.mjs): ours, never the caller's.
  if (!res.ok) throw new Error(`artifact font ${path}: ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

const faceCss = new Map<Embedded, string>();

/** The @font-face rules of an embedded family (read once per isolate), or "" for the generic stacks. */
export async function fontFaces(assets: Fetcher, font: ArtifactFont): Promise<string> {
  if (!isEmbedded(font)) return "";
  const known = faceCss.get(font);
  if (known !== undefined) return known;
  const family = FAMILIES[font];
  const rules = await Promise.all(
    family.faces.map(async (f) => {
      const data = toBase64(await fontFile(assets, f.path));
      return `@font-face { font-family: "${family.name}"; font-style: normal; font-weight: ${f.weight}; font-display: block;
  src: url(data:font/woff2;base64,${data}) format("woff2"); }`;
    }),
  );
  const css = rules.join("\n");
  faceCss.set(font, css);
  return css;
}

/** The CSS font-family of an embedded family; null for the generic stacks. */
export function embeddedFamily(font: ArtifactFont): string | null {
  if (!isEmbedded(font)) return null;
  const family = FAMILIES[font];
  return `"${family.name}", ${family.fallback}`;
}
