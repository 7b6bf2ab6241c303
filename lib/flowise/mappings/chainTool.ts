import { anchor, defineMapping, param, toBoolean, toText } from "../rules";

/** Flowise "Chain Tool" → our Chain Tool. */
export const chainTool = defineMapping({
  flowise: "chainTool",
  type: "chainTool",
  inputs: {
    name: param("name", toText),
    description: param("description", toText),
    returnDirect: param("returnDirect", toBoolean),
    baseChain: anchor("chain"),
  },
});
