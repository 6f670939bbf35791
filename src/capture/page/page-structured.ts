/**
 * Structured data read in the page (POST /v1/json; docs/STRUCTURED-DATA.md), in the same one
 * isolated-world evaluation as the other page content outputs (./page-content.ts): the strings
 * of a fields-by-selector schema, and the page's own markup — JSON-LD script texts, microdata
 * and RDFa Lite items, Open Graph / Twitter / product / article meta tags, the Next.js and Nuxt
 * state scripts. Only strings cross CDP, each bounded here; typing and normalising them is plain
 * code in the Worker (src/extract/fields.ts, src/extract/markup.ts).
 */
import { LIMITS } from "../../../schemas/limits";

/** The bounds of the in-page readers (schemas/limits.ts). */
export const STRUCTURED_BOUNDS = {
  fields: {
    listItems: LIMITS.structuredListItems,
    reads: LIMITS.structuredReads,
    bytes: LIMITS.structuredBytes,
  },
  markup: {
    bytes: LIMITS.markupBytes,
    items: LIMITS.markupItems,
    depth: LIMITS.structuredDepth + 3,
  },
};

/**
 * In the page: `(fields, bounds)` → `{ values, base, truncated }` or `{ refusedField: path }`.
 * Each field's selector is matched inside its object's element (the document at the top); a
 * value is the attribute named, or the text (a form control's value), whitespace collapsed.
 * Every query and every element read spends one read; past the read or byte budget the rest is left unread and `truncated` is set.
 */
export const READ_FIELDS = `(fields, bounds) => {
  const encoder = new TextEncoder();
  let reads = bounds.reads;
  let bytes = bounds.bytes;
  let truncated = false;
  const CONTROL = /^(input|textarea|select)$/;
  const keep = (s) => {
    if (s === null) return null;
    const size = s.length <= 64 ? s.length * 3 : encoder.encode(s).byteLength;
    if (size > bytes) { truncated = true; bytes = 0; return null; }
    bytes -= size;
    return s;
  };
  const valueOf = (el, spec) => {
    if (spec.attribute !== undefined) return keep(el.getAttribute(spec.attribute));
    const raw = CONTROL.test(el.localName) ? el.value : el.textContent;
    return keep((raw || "").replace(/\\s+/g, " ").trim());
  };
  const refused = (path) => ({ refusedField: path });
  const matches = (scope, spec, path) => {
    if (spec.selector === undefined) return [scope.nodeType === 9 ? scope.documentElement : scope];
    try {
      if (!spec.list) {
        const one = scope.querySelector(spec.selector);
        return one ? [one] : [];
      }
      const all = scope.querySelectorAll(spec.selector);
      if (all.length > bounds.listItems) truncated = true;
      return Array.from(all).slice(0, bounds.listItems);
    } catch { throw refused(path + ".selector"); }
  };
  const readObject = (scope, map, path) => {
    const out = Object.create(null);
    for (const name of Object.keys(map)) {
      if (reads <= 0 || bytes <= 0) { truncated = true; break; }
      const spec = map[name];
      const here = path + "." + name;
      reads--;
      const found = matches(scope, spec, here);
      const read = (el) => {
        if (reads <= 0) { truncated = true; return null; }
        reads--;
        return spec.fields ? readObject(el, spec.fields, here + ".fields") : valueOf(el, spec);
      };
      if (spec.list) {
        const values = [];
        for (const el of found) {
          if (reads <= 0 || bytes <= 0) { truncated = true; break; }
          values.push(read(el));
        }
        out[name] = values;
      } else out[name] = found.length > 0 ? read(found[0]) : null;
    }
    return out;
  };
  try {
    return { values: readObject(document, fields, "fields"), base: document.baseURI, truncated };
  } catch (err) {
    if (err && typeof err.refusedField === "string") return err;
    throw err;
  }
}`;

/**
 * In the page: `(bounds)` → the page's own markup as strings (RawMarkup,
 * src/extract/markup.ts). Microdata values follow the HTML standard's rules (meta content,
 * src/href/data resolved, data/meter value, time datetime, else the text; a `content`
 * attribute wins elsewhere too, as search engines read it); RDFa Lite's the same way, with
 * `resource` for links. `itemref` is not followed.
 */
export const READ_MARKUP = `(bounds) => {
  let budget = bounds.bytes;
  let items = 0;
  let truncated = false;
  const keep = (s) => {
    if (s === null) return null;
    if (s.length > budget) { truncated = true; return null; }
    budget -= s.length;
    return s;
  };
  const text = (el) => (el.textContent || "").replace(/\\s+/g, " ").trim();
  const abs = (el, attr) => {
    const v = (el.getAttribute(attr) || "").trim();
    try { return new URL(v, el.baseURI).href; } catch { return v; }
  };
  const words = (s) => (s || "").trim().split(/\\s+/).filter((w) => w !== "");
  const microValue = (el) => {
    switch (el.localName) {
      case "meta": return el.getAttribute("content") || "";
      case "audio": case "embed": case "iframe": case "img": case "source": case "track": case "video":
        return abs(el, "src");
      case "a": case "area": case "link": return abs(el, "href");
      case "object": return abs(el, "data");
      case "data": case "meter": return el.getAttribute("value") || "";
      case "time": return el.getAttribute("datetime") || text(el);
      default: return el.hasAttribute("content") ? el.getAttribute("content") : text(el);
    }
  };
  const rdfaValue = (el) => {
    if (el.hasAttribute("content")) return el.getAttribute("content");
    if (el.hasAttribute("resource")) return abs(el, "resource");
    if (el.hasAttribute("href")) return abs(el, "href");
    if (el.hasAttribute("src")) return abs(el, "src");
    if (el.localName === "time" && el.hasAttribute("datetime")) return el.getAttribute("datetime");
    return text(el);
  };
  // One item: the properties below it, down to (and including) nested items.
  const itemOf = (el, depth, syntax) => {
    items++;
    const scopeAttr = syntax.scope;
    const item = { types: words(el.getAttribute(syntax.type)), props: Object.create(null) };
    const walk = (node) => {
      for (const child of node.children) {
        const names = words(child.getAttribute(syntax.prop));
        const nested = child.hasAttribute(scopeAttr);
        if (names.length > 0) {
          let value = null;
          if (nested) {
            if (depth < bounds.depth && items < bounds.items) value = itemOf(child, depth + 1, syntax);
            else truncated = true;
          } else value = keep(syntax.value(child));
          if (value !== null) for (const n of names) (item.props[n] = item.props[n] || []).push(value);
        }
        if (!nested) walk(child);
      }
    };
    walk(el);
    return item;
  };
  const itemsOf = (selector, syntax) => {
    const out = [];
    for (const el of document.querySelectorAll(selector)) {
      if (items >= bounds.items) { truncated = true; break; }
      out.push(itemOf(el, 0, syntax));
    }
    return out;
  };
  const MICRODATA = { scope: "itemscope", type: "itemtype", prop: "itemprop", value: microValue };
  const RDFA = { scope: "typeof", type: "typeof", prop: "property", value: rdfaValue };

  const jsonLd = [];
  for (const s of document.querySelectorAll('script[type="application/ld+json" i]')) {
    if (jsonLd.length >= bounds.items) { truncated = true; break; }
    const t = keep(s.textContent || "");
    if (t !== null) jsonLd.push(t);
  }
  const microdata = itemsOf("[itemscope]:not([itemprop])", MICRODATA);
  const rdfa = itemsOf("[typeof]:not([property])", RDFA);
  const meta = [];
  for (const m of document.querySelectorAll("meta[property], meta[name]")) {
    const key = (m.getAttribute("property") || m.getAttribute("name") || "").trim().toLowerCase();
    if (!/^(og|product|article|twitter):/.test(key)) continue;
    if (meta.length >= bounds.items) { truncated = true; break; }
    const value = keep((m.getAttribute("content") || "").trim());
    if (value !== null) meta.push({ key, value });
  }
  const script = (id) => {
    const el = document.getElementById(id);
    return el && el.localName === "script" ? keep(el.textContent || "") : null;
  };
  return {
    base: document.baseURI,
    jsonLd,
    microdata,
    rdfa,
    meta,
    nextData: script("__NEXT_DATA__"),
    nuxtData: script("__NUXT_DATA__"),
    truncated,
  };
}`;
