/**
 * HTML → a linkedom document in the Worker: the one place an untyped linkedom value becomes a
 * typed DomDocument. Kept apart from ./dom.ts so the page bundle (./reader.ts) carries no linkedom.
 */
import { parseHTML } from "linkedom";
import type { DomDocument } from "./dom";

export function parseDocument(html: string): DomDocument {
  const parsed: { document: DomDocument } = parseHTML(html);
  const document = parsed.document;
  // Readability creates elements as "DIV", "P"; an HTML document lower-cases the name (DOM spec),
  // linkedom keeps it as given and would serialize `<DIV>` (unit tests run the reader here).
  const create = document.createElement.bind(document);
  document.createElement = (name: string, options?: unknown) => create(name.toLowerCase(), options);
  return document;
}

/** A document from `parseDocument` serialized back to HTML (linkedom's `toString`: doctype included). */
export function serializeDocument(doc: DomDocument): string {
  return String(doc);
}
