import { ChainTool } from "@langchain/classic/tools";
import type { RuntimeOf } from "../define";
import type { chainToolDefinition } from "./definition";

/** Wraps the connected chain in a ChainTool (the chain runs with the tool's text input, no history). */
export const buildChainTool: RuntimeOf<typeof chainToolDefinition> = async ({ params, inputs }) =>
  new ChainTool({
    name: params.name,
    description: params.description,
    chain: inputs.chain,
    returnDirect: params.returnDirect,
  });
