/**
 * The capture options' classes (schemas/capture/options.ts) agree with the fields they classify:
 * GET's query type is the field's JSON type, and the lists the rules read come from them.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { captureFields } from "../../schemas/capture";
import { GET_PARAMS, POST_ONLY } from "../../schemas/capture-query";
import { CAPTURE_OPTIONS, optionsWhere } from "../../schemas/capture/options";

const JSON_TYPES = { string: ["string"], number: ["number", "integer"], boolean: ["boolean"] };

describe("capture options' classes", () => {
  it("give each field GET takes the query type of the field's own JSON type", () => {
    for (const name of GET_PARAMS) {
      const type = CAPTURE_OPTIONS[name].get;
      if (type === false) throw new Error(`${name} is a GET parameter classed POST-only`);
      const schema = z.toJSONSchema(captureFields[name], { io: "input" }) as { type?: string };
      expect(JSON_TYPES[type], name).toContain(schema.type);
    }
  });

  it("split every field between GET's parameters and the POST-only ones", () => {
    expect([...GET_PARAMS, ...POST_ONLY].sort()).toEqual(Object.keys(captureFields).sort());
  });

  it("leave to the geo check by value only the options it reads", () => {
    expect(optionsWhere((c) => c.geo === "value")).toEqual(["format", "extract"]);
  });
});
