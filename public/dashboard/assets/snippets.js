// The playground's code snippets (imported by ./app.js): the request the form describes as a
// curl command, a JavaScript call (@edgeshot/sdk) and a Python call (edgeshot), with a
// placeholder key.

/** The API route of each playground action, and its SDK call (JavaScript, Python). */
const ROUTES = {
  screenshot: ["/v1/screenshot/json", "screenshotJson", "screenshot_json"],
  content: ["/v1/content", "content", "content"],
  text: ["/v1/content", "content", "content"],
  scrape: ["/v1/scrape", "scrape", "scrape"],
  links: ["/v1/links", "links", "links"],
  snapshot: ["/v1/snapshot", "snapshot", "snapshot"],
  animate: ["/v1/animate", "animate", "animate"],
};

/** A JSON value as a Python literal (the Python snippet's request dict). */
function py(v) {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (Array.isArray(v)) return "[" + v.map(py).join(", ") + "]";
  if (typeof v === "object") {
    return (
      "{" +
      Object.entries(v)
        .map(([k, x]) => JSON.stringify(k) + ": " + py(x))
        .join(", ") +
      "}"
    );
  }
  return JSON.stringify(v);
}

/** Each language's snippet of a request body `b`, for the action `action()` names. */
export function snippetsFor(action) {
  const endpointOf = () => location.origin + ROUTES[action()][0];
  // One line a language: each builds the snippet's source text.
  // prettier-ignore
  return {
    curl: (b) => "curl " + endpointOf() + " \\\n  -H 'Authorization: Bearer YOUR_API_KEY' \\\n  -H 'Content-Type: application/json' \\\n" + (["screenshot", "animate"].includes(action()) ? "" : "  -H 'Accept: application/json' \\\n") + "  -d '" + JSON.stringify(b).replace(/'/g, "'\\''") + "'" + (action() === "animate" ? " \\\n  -o clip." + (b.format ?? "webm") : ""),
    js: (b) => 'import { Edgeshot } from "@edgeshot/sdk";\n\nconst edgeshot = new Edgeshot({ apiKey: "YOUR_API_KEY", baseUrl: ' + JSON.stringify(location.origin) + ' });\nconst result = await edgeshot.' + ROUTES[action()][1] + '(' + JSON.stringify(b, null, 2) + ');\n' + (action() === "animate" ? 'console.log(result.frames, result.creditsRemaining);' : 'console.log(result.meta.usage);'),
    python: (b) => "from edgeshot import Edgeshot, meta_of\n\nedgeshot = Edgeshot(\"YOUR_API_KEY\", base_url=" + JSON.stringify(location.origin) + ")\nresult = edgeshot." + ROUTES[action()][2] + "(" + py(b) + ")\n" + (action() === "animate" ? "print(result.frames, result.credits_remaining)" : "print(meta_of(result).get(\"usage\"))"),
  };
}
