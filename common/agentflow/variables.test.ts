import { describe, expect, it } from "vitest";
import { readVariable, resolveVariables, type VariableScope } from "./variables";

const scope: VariableScope = {
  question: "What is new?",
  chatHistory: [],
  state: {},
  flow: { sessionId: "s", chatId: "c", chatflowId: "f" },
  outputs: {},
  nodeIds: new Set(["llm_0"]),
};

describe("agentflow variables", () => {
  // Flowise's research templates write "Today's date is {{ current_date_time }}" in their messages.
  it("{{current_date_time}} is the time of resolving in ISO 8601 (UTC), as Flowise's", () => {
    expect(readVariable("current_date_time", scope.nodeIds)).toEqual({ kind: "current_date_time" });
    const now = () => new Date(Date.UTC(2026, 6, 1, 9, 30));
    expect(resolveVariables("Today is {{ current_date_time }}; asked: {{question}}", { ...scope, now })).toBe(
      "Today is 2026-07-01T09:30:00.000Z; asked: What is new?",
    );
    const iso = resolveVariables("{{current_date_time}}", scope);
    expect(new Date(iso).toISOString()).toBe(iso);
  });

  // Flowise's Deep Research With Multi-turn Conversations stops researching on this count.
  it("{{runtime_messages_length}} is the messages this run's steps added, less one; 0 before any", () => {
    expect(readVariable("runtime_messages_length", scope.nodeIds)).toEqual({ kind: "runtime_messages_length" });
    expect(resolveVariables("n={{ runtime_messages_length }}", scope)).toBe("n=0");
    expect(resolveVariables("n={{runtime_messages_length}}", { ...scope, runtimeMessagesLength: 5 })).toBe("n=5");
  });

  it("an unknown name stays as written", () => {
    expect(readVariable("current_date", scope.nodeIds)).toEqual({ kind: "unknown", name: "current_date" });
    expect(resolveVariables("{{current_date}}", scope)).toBe("{{current_date}}");
  });
});
