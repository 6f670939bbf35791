/**
 * The declarative-root marker (src/capture/guard/dsd-markers.ts): where the HTML tokenizer ends a
 * `<template>` start tag with a `shadowrootmode` attribute (the marker goes right after it).
 */
import { describe, expect, it } from "vitest";
import { templateEndsSource } from "../../src/capture/guard/dsd-markers";

/** The very function the hardening runs in the page. */
const declarativeTemplateEnds = new Function(`return (${templateEndsSource});`)() as (
  html: string,
) => number[];

/** `html` with the marker wherever the scanner puts one. */
const marked = (html: string) => {
  let out = "";
  let from = 0;
  for (const end of declarativeTemplateEnds(html)) {
    out += html.slice(from, end) + "|";
    from = end;
  }
  return out + html.slice(from);
};

describe("declarativeTemplateEnds: the tokenizer's reading of a template start tag", () => {
  it.each([
    [
      '<div><template shadowrootmode="open"><p>x</p></template></div>',
      '<div><template shadowrootmode="open">|<p>x</p></template></div>',
    ],
    ["<TEMPLATE ShadowRootMode=CLOSED>x", "<TEMPLATE ShadowRootMode=CLOSED>|x"],
    ['<template title="a>b" shadowrootmode=open>x', '<template title="a>b" shadowrootmode=open>|x'],
    ["<template title='a>b' shadowrootmode=open>x", "<template title='a>b' shadowrootmode=open>|x"],
    ["<template/shadowrootmode=open>x", "<template/shadowrootmode=open>|x"],
    ["<template\n\tshadowrootmode\n=\n'open'\n>x", "<template\n\tshadowrootmode\n=\n'open'\n>|x"],
    ['<template a=b"c shadowrootmode=open>x', '<template a=b"c shadowrootmode=open>|x'],
    ["<template =x shadowrootmode>x", "<template =x shadowrootmode>|x"],
    ['<template shadowrootmode="open"x=">">y', '<template shadowrootmode="open"x=">">|y'],
    [
      "<template shadowrootmode=open><b><template shadowrootmode=closed>i</template></b></template>",
      "<template shadowrootmode=open>|<b><template shadowrootmode=closed>|i</template></b></template>",
    ],
  ])("marks %j", (html, expected) => {
    expect(marked(html)).toBe(expected);
  });

  it.each([
    "<template>plain</template>",
    "<templatex shadowrootmode=open>x",
    "<template shadowrootmodes=open>x",
    "<template data-shadowrootmode=open>x",
    '<template title="shadowrootmode=open">x',
    "<template x=shadowrootmode>x",
    '<template shadowrootmode="open',
    "<template shadowrootmode",
    "<template",
    "shadowrootmode=open>",
  ])("leaves %j alone", (html) => {
    expect(marked(html)).toBe(html);
  });
});
