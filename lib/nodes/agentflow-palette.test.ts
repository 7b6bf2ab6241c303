import { describe, expect, it } from "vitest";
import { agentflowPalette } from "@/common/agentflow/palette";
import { nodeDefinitions } from "./registry";

describe("agentflowPalette", () => {
  const names = agentflowPalette(nodeDefinitions).map((d) => d.name);

  it("offers every agentflow step first, then the models, tools and stores they connect to", () => {
    const steps = nodeDefinitions.filter((d) => d.capabilities?.agentflow).map((d) => d.name);
    expect(names.slice(0, steps.length)).toEqual(steps);
    for (const n of ["chatOpenAICompatible", "chatAnthropic", "calculator", "retrieverTool", "pgvectorStore"])
      expect(names).toContain(n);
    // What a store needs in turn.
    expect(names).toContain("openAIEmbeddings");
  });

  it("leaves out a chatflow's chains and agents, and tools that need them", () => {
    for (const n of ["llmChain", "conversationChain", "toolAgent", "chainTool", "promptTemplate", "bufferMemory"])
      expect(names).not.toContain(n);
  });
});
