import type { BaseChain } from "@langchain/classic/chains";
import { ChainTool } from "@langchain/classic/tools";
import type { NodeRuntime } from "../runtime-types";

/** Wraps the connected chain in a ChainTool (the chain runs with the tool's text input, no history). */
export const buildChainTool: NodeRuntime = async ({ params, inputs }) =>
  new ChainTool({
    name: params.name as string,
    description: params.description as string,
    chain: inputs.chain as BaseChain,
    returnDirect: params.returnDirect === true,
  });
