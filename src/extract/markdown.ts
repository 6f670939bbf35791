/**
 * Article element → Markdown with Turndown (CommonMark rules: ATX headings, fenced code, `-`
 * bullets, inline links), plus the GFM parts as Turndown rules: tables (./markdown-tables.ts),
 * and strikethrough. Code fences carry the block's language; images are
 * Markdown image links to their absolute URL (inline `data:` images become their alt text).
 *
 * Turndown is handed linkedom elements, never strings: it only parses strings with a browser
 * DOMParser, which Workers do not have.
 */
import TurndownService from "turndown";
import { markedLanguage } from "./code";
import type { DomElement } from "./dom";
import { tableRules } from "./markdown-tables";

let service: TurndownService | null = null;

export function toMarkdown(content: DomElement): string {
  service ??= createService();
  return service.turndown(content).trim();
}

function createService(): TurndownService {
  const td = new TurndownService({
    headingStyle: "atx",
    hr: "---",
    bulletListMarker: "-",
    codeBlockStyle: "fenced",
    emDelimiter: "_",
    strongDelimiter: "**",
    linkStyle: "inlined",
  });
  td.remove(["script", "style", "noscript", "template"]);
  td.use(tableRules);

  td.addRule("fencedCodeWithLanguage", {
    filter: "pre",
    replacement: (_content: string, pre: DomElement) => {
      const text = (pre.textContent ?? "").replace(/\n$/, "");
      const longest = Math.max(2, ...(text.match(/^`{3,}/gm) ?? []).map((f) => f.length));
      const fence = "`".repeat(longest + 1);
      return `\n\n${fence}${markedLanguage(pre) ?? ""}\n${text}\n${fence}\n\n`;
    },
  });

  td.addRule("imageLink", {
    filter: "img",
    replacement: (_content: string, img: DomElement) => {
      const alt = (img.getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
      const src = img.getAttribute("src") ?? "";
      if (!/^https?:\/\//i.test(src)) return escapeText(alt);
      const title = img.getAttribute("title");
      const titlePart = title ? ` "${title.replace(/"/g, '\\"')}"` : "";
      return `![${escapeText(alt)}](${src.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}`)}${titlePart})`;
    },
  });

  td.addRule("strikethrough", {
    filter: ["del", "s", "strike"],
    replacement: (content: string) => (content.trim() ? `~~${content}~~` : content),
  });

  return td;
}

function escapeText(text: string): string {
  return text.replace(/([\\[\]*_`])/g, "\\$1");
}
