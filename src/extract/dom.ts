/**
 * The DOM the extractor works on: Chromium's, in the page (./reader.ts), and linkedom's, in the
 * Worker (./parse.ts). The project compiles without the "dom" lib (Workers have no DOM), so
 * these are the few members the extractor uses, declared once. Nothing here imports linkedom:
 * this module is bundled into the page.
 */

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
  readonly firstElementChild: DomElement | null;
  innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  getAttributeNames(): string[];
  /** Chromium's rendering test; absent where nothing is rendered (linkedom). */
  checkVisibility?(): boolean;
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
