import { defineMapping, param, toBoolean, toText } from "../rules";
import type { Convert } from "../types";
import { zodText } from "../zod-text";

/**
 * Flowise keeps a custom tool in its database and the node names it (`selectedTool`); newer exports
 * carry its name, description, zod schema and code on the node too. Only those can be imported.
 */
const selectedTool: Convert = (_value, { node }) => {
  const inputs = node.data.inputs ?? {};
  if (typeof inputs.customToolFunc === "string" && inputs.customToolFunc.trim() && inputs.customToolName)
    return { skip: true };
  return {
    drop: "the tool is kept in Flowise's database, not in this export: export it from a Flowise version that copies the tool's name, schema and code onto the node, or rebuild it with our Custom Tool",
  };
};

/** Flowise "Custom Tool" → ours: its code runs in lib/sandbox, its zod schema read as text into a JSON schema. */
export const customTool = defineMapping({
  flowise: "customTool",
  type: "customTool",
  inputs: {
    // Never written (skipped or dropped): it only checks that the tool itself came with the node.
    selectedTool: param("name", selectedTool),
    customToolName: param("name", toText),
    customToolDesc: param("description", toText),
    customToolSchema: param("schema", zodText),
    customToolFunc: param("code", (v) => (typeof v === "string" ? { value: v } : { drop: "is not code" })),
    returnDirect: param("returnDirect", toBoolean),
  },
  outputs: { customTool: "tool" },
});
