import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { parseSubQuestions } from "./sub-question";
import { PACK_CHARS, packChunks, responseSynthesizer, synthesize } from "./response-synthesis";

// The four response synthesis modes of the query engines, on a fake model that answers each prompt
// with a line naming what it was given: the prompts sent, in order, show how each mode works.

const text = (messages: BaseMessage[]) => messages.map((m) => m.text).join("\n");

/** A model answering "answer(<the chunks it saw>)"; its calls are read back as prompts. */
function echoModel(calls: number) {
  const model = fakeModel();
  for (let i = 0; i < calls; i++)
    model.respond((messages) => new AIMessage(`answer(${/\[\[(.*)\]\]/s.exec(text(messages))?.[1] ?? ""})`));
  return model;
}
const prompts = (model: ReturnType<typeof fakeModel>) => model.calls.map((c) => text(c.messages));
const QA = "QA [[{context}]] for {query}";
const REFINE = "REFINE [[{context}]] had {existingAnswer} for {query}";

describe("response synthesis", () => {
  it("simple: every chunk in one prompt", async () => {
    const model = echoModel(1);
    const out = await synthesize(responseSynthesizer("simple", { textQAPrompt: QA }), {
      model,
      query: "q",
      chunks: ["a", "b"],
      stream: false,
    });
    expect(out).toBe("answer(a\n\nb)");
    expect(prompts(model)).toEqual(["QA [[a\n\nb]] for q"]);
  });

  it("refine: an answer from the first chunk, refined with each next one", async () => {
    const model = echoModel(3);
    const out = await synthesize(responseSynthesizer("refine", { textQAPrompt: QA, refinePrompt: REFINE }), {
      model,
      query: "q",
      chunks: ["a", "b", "c"],
      stream: false,
    });
    expect(prompts(model)).toEqual([
      "QA [[a]] for q",
      "REFINE [[b]] had answer(a) for q",
      "REFINE [[c]] had answer(b) for q",
    ]);
    expect(out).toBe("answer(c)");
  });

  it("compact and refine: chunks packed into as few prompts as fit, then refined across packs", async () => {
    const big = "x".repeat(PACK_CHARS - 2);
    const model = echoModel(2);
    await synthesize(responseSynthesizer("compactRefine", { textQAPrompt: QA, refinePrompt: REFINE }), {
      model,
      query: "q",
      chunks: ["a", "b", big],
      stream: false,
    });
    expect(prompts(model)).toEqual(["QA [[a\n\nb]] for q", `REFINE [[${big}]] had answer(a\n\nb) for q`]);
  });

  it("tree summarize: packs answered, then their answers (here too long to pack smaller) in one last prompt", async () => {
    const big = (c: string) => c.repeat(PACK_CHARS);
    const model = echoModel(3);
    const out = await synthesize(responseSynthesizer("treeSummarize", { textQAPrompt: QA }), {
      model,
      query: "q",
      chunks: [big("a"), big("b")],
      stream: false,
    });
    expect(prompts(model)).toEqual([
      `QA [[${big("a")}]] for q`,
      `QA [[${big("b")}]] for q`,
      `QA [[answer(${big("a")})\n\nanswer(${big("b")})]] for q`,
    ]);
    expect(out).toBe(`answer(answer(${big("a")})\n\nanswer(${big("b")}))`);
  });

  it("tree summarize: short answers of three packs are packed into one and answered from there", async () => {
    const model = fakeModel();
    for (const reply of ["one", "two", "three", "all"]) model.respond(new AIMessage(reply));
    const out = await synthesize(responseSynthesizer("treeSummarize", { textQAPrompt: QA }), {
      model,
      query: "q",
      chunks: ["a", "b", "c"].map((c) => c.repeat(PACK_CHARS)),
      stream: false,
    });
    expect(out).toBe("all");
    expect(prompts(model).map((p) => p.length)).toEqual([PACK_CHARS + 13, PACK_CHARS + 13, PACK_CHARS + 13, 28]);
    expect(prompts(model)[3]).toBe("QA [[one\n\ntwo\n\nthree]] for q");
  });

  it("packs chunks up to the budget; a longer chunk is a pack of its own", () => {
    expect(packChunks(["aa", "bb", "cccccccc", "d"], 6)).toEqual(["aa\n\nbb", "cccccccc", "d"]);
  });
});

describe("sub-questions", () => {
  const tools = new Set(["apple_tool", "tesla_tool"]);
  it("reads LlamaIndex's shape, a bare list, camelCase keys and a fenced reply", () => {
    const want = [{ question: "Apple?", tool: "apple_tool" }];
    expect(parseSubQuestions('{"items":[{"sub_question":"Apple?","tool_name":"apple_tool"}]}', tools)).toEqual(want);
    expect(parseSubQuestions('```json\n[{"subQuestion":"Apple?","toolName":"apple_tool"}]\n```', tools)).toEqual(want);
  });

  it("names what is wrong: not JSON, no list, a missing field, a tool not offered", () => {
    expect(parseSubQuestions("Ask Apple.", tools)).toBe("the reply is not JSON");
    expect(parseSubQuestions('{"questions":[]}', tools)).toBe('the JSON has no "items" list');
    expect(parseSubQuestions('[{"sub_question":"x"}]', tools)).toMatch(/item 1 needs/);
    expect(parseSubQuestions('[{"sub_question":"x","tool_name":"ibm_tool"}]', tools)).toMatch(
      /names tool "ibm_tool", which is not one of apple_tool, tesla_tool/,
    );
  });
});
