/**
 * The DOM the extractor works on: linkedom, parsed in the Worker. The project compiles without
 * the "dom" lib (Workers have no DOM), so linkedom's documents arrive untyped; these are the
 * few members the extractor uses, declared once, and `parseDocument` is the one place an
 * untyped value becomes a typed one.
 */
import { parseHTML } from "linkedom";

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

export interface DomNode {
  readonly nodeType: number;
  /** Upper case for HTML elements ("P", "TABLE"); "#text" for text. */
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<DomNode>;
  readonly parentNode: DomNode | null;
}

export interface DomElement extends DomNode {
  readonly tagName: string;
  readonly children: ArrayLike<DomElement>;
  readonly parentElement: DomElement | null;
  innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  closest(selector: string): DomElement | null;
  appendChild(node: DomNode): void;
  remove(): void;
}

export interface DomDocument {
  /** null for an empty document. */
  readonly documentElement: DomElement | null;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  createElement(tagName: string, options?: unknown): DomElement;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

export function parseDocument(html: string): DomDocument {
  const parsed: { document: DomDocument } = parseHTML(html);
  const document = parsed.document;
  // Readability creates elements as "DIV", "P"; an HTML document lower-cases the name (DOM spec),
  // linkedom keeps it as given and would serialize `<DIV>` into the html format.
  const create = document.createElement.bind(document);
  document.createElement = (name: string, options?: unknown) => create(name.toLowerCase(), options);
  return document;
}

export const isElement = (node: DomNode): node is DomElement => node.nodeType === ELEMENT_NODE;

/** Whitespace runs collapsed to one space, trimmed: text as a reader sees it. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function visibleText(node: DomNode): string {
  return collapse(node.textContent ?? "");
}

/** Every element matching `selector`; a selector linkedom cannot evaluate matches nothing. */
export function selectAll(root: DomDocument | DomElement, selector: string): DomElement[] {
  try {
    return Array.from(root.querySelectorAll(selector));
  } catch {
    return [];
  }
}
