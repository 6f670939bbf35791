// The dashboard's one script (GET /dashboard/assets/app.js, a static asset: the CSP needs no
// `unsafe-inline`), a module: the copy buttons, the tables' labels for a phone's width, the
// before/after viewers of a monitor check's changed pages, and the playground (a recording
// previewed in a <video>, a GIF in an <img>), whose code
// snippets are ./snippets.js and whose form-to-body and error display are ./form.js. Every
// other page works without it (a table then scrolls sideways on a phone).
import { bodyOf, clearFieldErrors, FieldError, showError } from "./form.js";
import { snippetsFor } from "./snippets.js";

(() => {
  const $ = (sel, root = document) => root.querySelector(sel);

  // Copy buttons: data-copy names the element whose text is copied.
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button.copy");
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = "Copied";
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = "Selected: press Ctrl+C";
    }
  });

  // Tables: each cell gets its column's header as `data-label`, and the table the class
  // `stacked`, which the stylesheet lays out as one block per row on a phone's width.
  for (const table of document.querySelectorAll(".table-wrap table")) {
    const labels = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    for (const tr of table.querySelectorAll("tbody tr")) {
      [...tr.children].forEach((cell, i) => {
        if (labels[i]) cell.dataset.label = labels[i];
      });
    }
    table.classList.add("stacked");
  }

  // Before/after viewers: the after image lies over the before, clipped to the right of the
  // divider; the range input moves the divider (0–100 % of the width). Styles are set through
  // the CSSOM, which `style-src 'self'` allows (a style attribute would not be). Without the
  // script the stylesheet's own clip shows half of each.
  for (const viewer of document.querySelectorAll("figure.compare")) {
    const slider = $("input.compare-slider", viewer);
    const after = $("img.after", viewer);
    const divider = $(".divider", viewer);
    const show = () => {
      after.style.clipPath = "inset(0 0 0 " + slider.value + "%)";
      divider.style.left = slider.value + "%";
    };
    slider.addEventListener("input", show);
    show();
  }

  const form = document.getElementById("playground");
  if (!form) return;

  const actionSelect = $("#pg-action");
  const action = () => actionSelect.value;
  /** Which field scopes an action takes: page content routes refuse image and PDF options. */
  const SCOPES = {
    screenshot: ["page", "image", "capture"],
    snapshot: ["page", "image"],
    content: ["page"],
    text: ["page"],
    scrape: ["page"],
    links: ["page"],
    animate: ["page", "animation"],
  };
  const showScopes = () => {
    for (const f of form.querySelectorAll(".field[data-scope]")) {
      f.hidden = !SCOPES[action()].includes(f.dataset.scope);
    }
    $("#pg-elements-field").hidden = action() !== "scrape";
    $("#pg-animation").hidden = action() !== "animate";
  };
  actionSelect.addEventListener("change", showScopes);
  showScopes();

  /** The JSON body the form describes for the chosen action: only what differs from the defaults. */
  function body() {
    const out = bodyOf(form, SCOPES[action()]);
    if (action() === "text") out.contentFormat = "text";
    if (action() === "scrape") {
      out.elements = $("#pg-elements")
        .value.split("\n")
        .map((s) => s.trim())
        .filter(Boolean)
        .map((selector) => ({ selector }));
    }
    return out;
  }

  const snippets = snippetsFor(action);
  let lang = "curl";
  const showSnippet = () => {
    try {
      $("#pg-snippet").textContent = snippets[lang](body());
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      $("#pg-snippet").textContent = "Fix " + err.message;
    }
  };
  for (const b of document.querySelectorAll("button.snippet")) {
    b.addEventListener("click", () => {
      lang = b.dataset.lang;
      showSnippet();
    });
  }
  form.addEventListener("input", showSnippet);
  actionSelect.addEventListener("change", showSnippet);

  function row(list, name, value) {
    const dt = document.createElement("dt");
    dt.textContent = name;
    const dd = document.createElement("dd");
    dd.textContent = value;
    dd.dataset.meta = name;
    list.append(dt, dd);
  }

  async function post(path, payload = body()) {
    const res = await fetch(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "x-csrf-token": form.dataset.csrf,
      },
      body: JSON.stringify(payload),
      credentials: "same-origin",
    });
    return res.json();
  }

  /**
   * The body of a render link: the form's, without the fields a link cannot carry (marked
   * `data-link="refused"` by the server from the render-link contract: `extract`, …), which
   * are named as left out.
   */
  function linkBody() {
    const out = body();
    const left = [];
    for (const f of form.querySelectorAll(".field[data-link=refused]")) {
      if (!(f.dataset.field in out)) continue;
      delete out[f.dataset.field];
      left.push(f.dataset.field);
    }
    return { out, left };
  }

  const escapeAttr = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  $("#pg-link-button").addEventListener("click", async () => {
    const status = $("#pg-status");
    status.textContent = "Minting…";
    try {
      const { out, left } = linkBody();
      const json = await post("/dashboard/api/render-link", out);
      const tags = $("#pg-link-tags");
      $("#pg-link").hidden = false;
      $("#pg-link-left").textContent = left.length
        ? "Left out of the link (render links return an image only): " + left.join(", ") + "."
        : "";
      if (!json.success) {
        tags.textContent = json.error.code + ": " + json.error.message;
        tags.dataset.errorCode = json.error.code;
      } else {
        const u = escapeAttr(json.data.url);
        tags.textContent =
          '<img src="' + u + '" alt="">\n<meta property="og:image" content="' + u + '">';
        tags.dataset.url = json.data.url;
      }
      status.textContent = "";
    } catch (err) {
      status.textContent = "Failed: " + err;
    }
  });

  /** A text block: every string from the page is shown as text, never as markup. */
  function block(id, text) {
    const pre = document.createElement("pre");
    pre.id = id;
    pre.className = "pg-text";
    pre.textContent = text;
    return pre;
  }

  /**
   * The article read with `extract: true`: its content as text (a json extraction pretty
   * printed), its title and byline; or why there is none (`extractionError`).
   */
  function showExtraction(d, output, meta) {
    if (d.extracted === undefined) return;
    const heading = document.createElement("h3");
    heading.textContent = "Extracted article";
    output.append(heading);
    if (d.extracted === null) {
      const p = document.createElement("p");
      p.id = "pg-extraction-error";
      p.className = "notice error";
      p.dataset.errorCode = d.extractionError.code;
      p.textContent = d.extractionError.code + ": " + d.extractionError.message;
      output.append(p);
      return;
    }
    const e = d.extracted;
    const text = e.format === "json" ? JSON.stringify(JSON.parse(e.content), null, 2) : e.content;
    const pre = block("pg-extracted", text);
    pre.dataset.format = e.format;
    output.append(pre);
    row(meta, "article title", e.title);
    if (e.byline) row(meta, "byline", e.byline);
    row(meta, "article length", e.length.toLocaleString() + " characters, " + e.format);
  }

  /** A page content answer: its strings as text (textContent), never parsed as HTML. */
  function showPageResult(chosen, d, output, meta) {
    if (chosen === "snapshot") {
      const img = document.createElement("img");
      img.id = "pg-image";
      img.alt = "Screenshot of " + d.url;
      const bytes = Uint8Array.from(atob(d.screenshot), (c) => c.charCodeAt(0));
      img.src = URL.createObjectURL(new Blob([bytes], { type: d.contentType }));
      output.append(img);
    }
    if (chosen === "content" || chosen === "snapshot") output.append(block("pg-html", d.html));
    if (chosen === "text") output.append(block("pg-text", d.text));
    if (chosen === "links") {
      const list = document.createElement("ol");
      list.id = "pg-links";
      for (const link of d.links) {
        const li = document.createElement("li");
        li.textContent =
          link.url + (link.text ? " — " + link.text : "") + (link.internal ? "" : " (external)");
        list.append(li);
      }
      output.append(list);
    }
    if (chosen === "scrape") output.append(block("pg-scrape", JSON.stringify(d.results, null, 2)));
    row(meta, "page", d.url);
    row(meta, "title", d.metadata.title);
    if (d.truncated) row(meta, "truncated", "yes: cut at its limit");
    row(meta, "wait strategy", d.waitStrategy);
    row(meta, "load time", d.loadTimeMs + " ms");
  }

  /** A recording (POST /v1/animate's answer, base64): played in a <video>, a GIF in an <img>. */
  function showRecording(d, output, meta) {
    const bytes = Uint8Array.from(atob(d.clip), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: d.contentType }));
    const gif = d.contentType === "image/gif";
    const clip = document.createElement(gif ? "img" : "video");
    clip.id = "pg-clip";
    if (gif) clip.alt = "Recording of " + d.finalUrl;
    else {
      clip.controls = true;
      clip.muted = true;
      clip.loop = true;
      clip.playsInline = true;
    }
    clip.src = url;
    output.append(clip);
    const seconds = (d.durationMs / 1000).toFixed(1);
    row(
      meta,
      "size",
      d.width + " × " + d.height + " px, " + d.bytesSize.toLocaleString() + " bytes",
    );
    row(meta, "clip", d.frames + " frames over " + seconds + " s");
    row(meta, "format", d.format + " (" + d.contentType + ")");
    row(meta, "page", d.finalUrl);
    row(meta, "load time", d.loadTimeMs + " ms");
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const status = $("#pg-status");
    const output = $("#pg-output");
    const meta = $("#pg-meta");
    status.textContent = "Capturing…";
    form.querySelector("button[type=submit]").disabled = true;
    clearFieldErrors(form);
    try {
      const chosen = action();
      const kind = chosen === "text" ? "content" : chosen;
      const path =
        chosen === "screenshot"
          ? "/dashboard/api/capture"
          : chosen === "animate"
            ? "/dashboard/api/animate"
            : "/dashboard/api/page/" + kind;
      const json = await post(path);
      output.replaceChildren();
      meta.replaceChildren();
      $("#pg-result").hidden = false;
      if (!json.success) {
        status.textContent = "";
        showError(form, output, json.error);
        return;
      }
      const d = json.data;
      if (chosen !== "screenshot") {
        if (chosen === "animate") showRecording(d, output, meta);
        else showPageResult(chosen, d, output, meta);
        const usage = json.meta.usage || {};
        row(meta, "credits left", usage.remaining === null ? "unlimited" : String(usage.remaining));
        status.textContent = "Done";
        return;
      }
      const bytes = Uint8Array.from(atob(d.image), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: d.contentType }));
      if (d.contentType === "application/pdf") {
        const frame = document.createElement("iframe");
        frame.src = url;
        frame.title = "Captured PDF";
        output.append(frame);
      } else {
        const img = document.createElement("img");
        img.id = "pg-image";
        img.alt = "Capture of " + d.url;
        img.src = url;
        output.append(img);
      }
      showExtraction(d, output, meta);
      const bytesText = d.bytesSize.toLocaleString() + " bytes";
      if (d.format === "pdf") {
        // A PDF has pages of a paper size, not pixels: the count from the answer, the paper
        // from the request (its default when the form left it out).
        const sent = body();
        const paper = sent.pdfFormat ?? $("#f-pdfFormat").dataset.default;
        const orientation = sent.pdfLandscape ? "landscape" : "portrait";
        const pages = d.pages === 1 ? "1 page" : d.pages + " pages";
        row(meta, "size", pages + ", " + paper + " " + orientation + ", " + bytesText);
      } else {
        row(meta, "size", d.width + " × " + d.height + " px, " + bytesText);
      }
      row(meta, "format", d.format + " (" + d.contentType + ")");
      row(meta, "quality", d.quality);
      row(meta, "wait strategy", d.waitStrategy);
      row(meta, "load time", d.loadTimeMs + " ms");
      const usage = json.meta.usage || {};
      row(meta, "credits left", usage.remaining === null ? "unlimited" : String(usage.remaining));
      status.textContent = "Done";
    } catch (err) {
      if (!(err instanceof FieldError)) status.textContent = "Failed: " + err;
      else {
        status.textContent = "";
        output.replaceChildren();
        meta.replaceChildren();
        $("#pg-result").hidden = false;
        showError(form, output, {
          code: "VALIDATION_ERROR",
          message: "Invalid request: " + err.message,
          details: [{ path: err.path, message: err.detail }],
        });
      }
    } finally {
      form.querySelector("button[type=submit]").disabled = false;
    }
  });
})();
