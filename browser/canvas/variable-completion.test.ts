import { CompletionContext } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { variableSource } from "./variable-completion";

const refs = () => [
  { name: "question", detail: "the user's question" },
  { name: "$flow.state.order", detail: "flow state" },
];

/** The source's answer with the cursor at `|` of `text`. */
function complete(text: string) {
  const pos = text.indexOf("|");
  const state = EditorState.create({ doc: text.replace("|", "") });
  return variableSource(refs)(new CompletionContext(state, pos, false));
}

describe("the {{ completion source", () => {
  it("answers after an opening {{ only, from just after the braces (and spaces)", () => {
    expect(complete("Hi |")).toBeNull();
    expect(complete("Hi {|")).toBeNull();
    expect(complete("Hi {{q}} |")).toBeNull();
    expect(complete("Hi {{|")?.from).toBe(5);
    expect(complete("Hi {{  $flow.st|")?.from).toBe(7);
    expect(complete("Hi {{|")?.options.map((o) => o.label)).toEqual(["question", "$flow.state.order"]);
  });

  it("closes the braces when they are not closed already (a bracket-closing editor typed them)", () => {
    expect(complete("Hi {{|")?.options[0].apply).toBe("question}}");
    expect(complete("Hi {{|}}")?.options[0].apply).toBe("question");
  });
});
