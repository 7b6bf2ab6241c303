import type { Expectation } from "@/common/schemas/chatflow-tests";

/**
 * What an expectation asks, in words: the "expected" side of a test result (the server's checks)
 * and the list of checks the studio shows under a case without opening its editor — one wording
 * for both.
 */
export function describeExpectation(e: Expectation): string {
  const q = (s: string) => JSON.stringify(s);
  switch (e.type) {
    case "status":
      return `status ${e.value}`;
    case "answerContains":
      return `the answer contains ${q(e.value)}${e.caseSensitive ? " (same case)" : ""}`;
    case "answerNotContains":
      return `the answer does not contain ${q(e.value)}${e.caseSensitive ? " (same case)" : ""}`;
    case "answerMatches":
      return `the answer matches /${e.pattern}/${e.flags ?? ""}`;
    case "answerJsonSchema":
      return "the answer is JSON matching the schema";
    case "toolCalled":
      return `${e.tool} is called${e.input ? ` with ${JSON.stringify(e.input)}` : ""}`;
    case "toolNotCalled":
      return `${e.tool} is not called`;
    case "sourceContains":
      return `a source document contains ${q(e.value)}`;
    case "latencyBelow":
      return `answered in under ${e.ms} ms${e.gating ? "" : " (reported, does not fail the case)"}`;
  }
}
