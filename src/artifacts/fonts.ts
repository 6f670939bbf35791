/**
 * The artifact font families that ship with the service: open-licensed web fonts from the
 * `@fontsource/*` packages (Latin subset, regular and bold), bundled into the Worker and embedded
 * as data: URIs in the document, so an artifact renders the same locally and on Cloudflare and
 * the browser never fetches a font. Each stack falls back to the generic family for glyphs
 * outside the subset.
 */
import interBold from "@fontsource/inter/files/inter-latin-700-normal.woff2";
import inter from "@fontsource/inter/files/inter-latin-400-normal.woff2";
import monoBold from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-700-normal.woff2";
import mono from "@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2";
import merriweatherBold from "@fontsource/merriweather/files/merriweather-latin-700-normal.woff2";
import merriweather from "@fontsource/merriweather/files/merriweather-latin-400-normal.woff2";
import type { ArtifactFont } from "../../schemas/artifact";
import { toBase64 } from "../encoding";

interface Family {
  name: string;
  fallback: string;
  faces: Array<{ weight: number; bytes: ArrayBuffer }>;
}

const FAMILIES: Record<Exclude<ArtifactFont, "sans" | "serif" | "mono">, Family> = {
  inter: {
    name: "Inter",
    fallback: "sans-serif",
    faces: [
      { weight: 400, bytes: inter },
      { weight: 700, bytes: interBold },
    ],
  },
  merriweather: {
    name: "Merriweather",
    fallback: "serif",
    faces: [
      { weight: 400, bytes: merriweather },
      { weight: 700, bytes: merriweatherBold },
    ],
  },
  "jetbrains-mono": {
    name: "JetBrains Mono",
    fallback: "monospace",
    faces: [
      { weight: 400, bytes: mono },
      { weight: 700, bytes: monoBold },
    ],
  },
};

const faceCss = new Map<string, string>();

/** The @font-face rules of an embedded family (built once per isolate), or "" for the generic stacks. */
export function fontFaces(font: ArtifactFont): string {
  if (font === "sans" || font === "serif" || font === "mono") return "";
  const family = FAMILIES[font];
  let css = faceCss.get(font);
  if (css === undefined) {
    css = family.faces
      .map(
        (
          f,
        ) => `@font-face { font-family: "${family.name}"; font-style: normal; font-weight: ${f.weight}; font-display: block;
  src: url(data:font/woff2;base64,${toBase64(new Uint8Array(f.bytes))}) format("woff2"); }`,
      )
      .join("\n");
    faceCss.set(font, css);
  }
  return css;
}

/** The CSS font-family of an embedded family; null for the generic stacks. */
export function embeddedFamily(font: ArtifactFont): string | null {
  if (font === "sans" || font === "serif" || font === "mono") return null;
  const family = FAMILIES[font];
  return `"${family.name}", ${family.fallback}`;
}
