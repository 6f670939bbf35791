// The playground form as a request body, and the API's errors shown on it (imported by
// ./app.js). Fields are generated from the contract (src/http/dashboard/playground-form.ts):
// `data-kind` says how a control's value becomes JSON; `name="clip.x"` is a property of an
// object field.

/** A field's value the body cannot carry (JSON that does not parse), named like the API does. */
export class FieldError extends Error {
  constructor(path, message) {
    super(path + ": " + message);
    this.path = path;
    this.detail = message;
  }
}

const lines = (text) =>
  text
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);

/** One control's value for the body, or undefined when it says nothing beyond the default. */
function valueOf(el) {
  const kind = el.dataset.kind;
  if (kind === "bool") return String(el.checked) !== el.dataset.default ? el.checked : undefined;
  if (kind === "number") return el.value !== "" ? Number(el.value) : undefined;
  if (kind === "enum")
    return el.value !== "" && el.value !== el.dataset.default ? el.value : undefined;
  if (kind === "multi") {
    const chosen = [...el.selectedOptions].map((o) => o.value);
    return chosen.length ? chosen : undefined;
  }
  if (kind === "lines") {
    const items = lines(el.value).map((s) =>
      el.dataset.numeric === "true" && /^\d+$/.test(s) ? Number(s) : s,
    );
    return items.length ? items : undefined;
  }
  if (kind === "json") {
    if (el.value.trim() === "") return undefined;
    try {
      return JSON.parse(el.value);
    } catch {
      throw new FieldError(el.name, "Not valid JSON.");
    }
  }
  return el.value !== "" ? el.value : undefined;
}

/** The JSON body of the fields whose scope is in `scopes`: only what differs from the defaults. */
export function bodyOf(form, scopes) {
  const out = {};
  for (const el of form.querySelectorAll("[data-kind]")) {
    if (!scopes.includes(el.closest(".field").dataset.scope)) continue;
    const value = valueOf(el);
    if (value === undefined) continue;
    const [name, key] = el.name.split(".");
    if (key === undefined) out[name] = value;
    else (out[name] ??= {})[key] = value;
  }
  return out;
}

/** The form field a detail's path names: `clip.x` → that input; `actions[2]` → actions. */
function fieldFor(form, path) {
  // A name two actions share (`format`: an image's, a recording's): the field on show.
  const shown = (selector) =>
    [...form.querySelectorAll(selector)].find((el) => !el.closest(".field").hidden) ??
    form.querySelector(selector);
  const exact = shown(`[name="${CSS.escape(path)}"]`);
  const root = path.split(/[.[]/)[0];
  return (exact ?? shown(`[data-field="${CSS.escape(root)}"] [data-kind]`))?.closest(".field");
}

export function clearFieldErrors(form) {
  for (const el of form.querySelectorAll(".field-error")) el.remove();
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
}

/**
 * An error answer as the API gave it: its code and message, each of its `details` in a list,
 * and each named field marked with its message.
 */
export function showError(form, output, error) {
  const p = document.createElement("p");
  p.className = "notice error";
  p.setAttribute("role", "alert");
  p.dataset.errorCode = error.code;
  p.textContent = error.code + ": " + error.message;
  output.append(p);
  const details = error.details ?? [];
  if (details.length === 0) return;
  const list = document.createElement("ul");
  list.id = "pg-error-details";
  for (const d of details) {
    const li = document.createElement("li");
    li.dataset.path = d.path;
    const code = document.createElement("code");
    code.textContent = d.path;
    li.append(code, ": " + d.message);
    list.append(li);
    const field = fieldFor(form, d.path);
    if (!field) continue;
    for (const control of field.querySelectorAll("[data-kind]"))
      control.setAttribute("aria-invalid", "true");
    const note = document.createElement("small");
    note.className = "field-error";
    note.textContent =
      (d.path.includes(".") || d.path.includes("[") ? d.path + ": " : "") + d.message;
    field.append(note);
  }
  output.append(list);
}
