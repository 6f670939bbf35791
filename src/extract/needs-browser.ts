/**
 * `render: "auto"`'s test (crawls and POST /v1/extract), on the raw document as fetched: a page
 * whose scripts would have to run before it shows its content — an empty application root
 * (`<div id="root"></div>` and scripts), or scripts and almost no readable text — goes to the
 * browser; anything else is read as fetched. Pure DOM (linkedom's, in the Worker).
 */
import { collapse, type DomDocument, type DomElement, selectAll, visibleText } from "./dom";

/** Elements that hold an application the page's scripts render into, when it is server-rendered. */
const APP_ROOTS = [
  "#root",
  "#app",
  "#__next",
  "#__nuxt",
  "#___gatsby",
  "#svelte",
  "app-root",
  "[data-reactroot]",
  "[ng-app]",
  "[ng-version]",
].join(",");
/** Below this many characters of readable text, a page with scripts is taken to need them. */
export const MIN_READABLE_CHARS = 200;
/** Script types a browser runs (no type, or a JavaScript one, or a module). */
const RUNNABLE = /^(|module|text\/javascript|application\/javascript|text\/ecmascript)$/i;
const NOT_TEXT = "script, style, noscript, template";

/** Whether the raw document must be rendered by the browser to show its content. */
export function needsBrowser(doc: DomDocument): boolean {
  const scripts = selectAll(doc, "script").filter((s) =>
    RUNNABLE.test((s.getAttribute("type") ?? "").trim()),
  );
  if (scripts.length === 0) return false;
  const body = doc.body;
  if (!body) return true;
  for (const root of selectAll(doc, APP_ROOTS))
    if (root.children.length === 0 && visibleText(root) === "") return true;
  return readableText(body).length < MIN_READABLE_CHARS;
}

/** The text of `body` a reader sees, script and style contents left out (no mutation). */
function readableText(body: DomElement): string {
  let text = visibleText(body);
  for (const el of selectAll(body, NOT_TEXT)) {
    const inner = visibleText(el);
    if (inner !== "") text = text.replace(inner, "");
  }
  return collapse(text);
}
