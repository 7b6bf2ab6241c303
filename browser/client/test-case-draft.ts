import type { Expectation, TestCaseBody } from "@/common/schemas/chatflow-tests";
import type { UsedTool } from "@/common/schemas/prediction-stream";

/**
 * "Save this exchange as a test": a real question and answer turned into a test case with its
 * expectations prefilled, for the studio's test chat and Conversations view. Pure: no React, no fetch.
 */

/** The react-query key of a chatflow's cases: whoever adds one invalidates it. */
export const chatflowTestsKey = (chatflowId: string) => ["chatflow-tests", chatflowId] as const;

const STOP_WORDS = new Set(
  "about after again also how what why who because been before being below between both could does doing down during each from further have having here into itself just more most other over same should some such than that their them then there these they this those through under until very what when where which while will with would your yours here's that's you're i'm it's can't don't".split(
    " ",
  ),
);

/** Up to `max` words of the answer that say something: not in the question, not filler; names and numbers first. */
export function distinctiveWords(answer: string, question: string, max = 3): string[] {
  const asked = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const seen = new Set<string>();
  const words: { word: string; score: number; at: number }[] = [];
  for (const [at, word] of (answer.match(/[\p{L}\p{N}][\p{L}\p{N}'.-]*[\p{L}\p{N}]/gu) ?? []).entries()) {
    const lower = word.toLowerCase();
    // Short words say little, unless they are names ("Ada") or numbers.
    if (
      word.length < (/^[\p{Lu}\p{N}]/u.test(word) ? 3 : 4) ||
      STOP_WORDS.has(lower) ||
      asked.has(lower) ||
      seen.has(lower)
    )
      continue;
    seen.add(lower);
    const score = word.length + (/^\p{Lu}/u.test(word) ? 4 : 0) + (/\p{N}/u.test(word) ? 3 : 0);
    words.push({ word, score, at });
  }
  return words
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .slice(0, max)
    .sort((a, b) => a.at - b.at)
    .map((w) => w.word);
}

function parsedInput(input: unknown): unknown {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** A tool input's main fields: up to 4 short strings, numbers or booleans (JSON text inside is read). */
export function mainInputFields(input: unknown): Record<string, unknown> | undefined {
  const value = parsedInput(input);
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const fields = Object.entries(value as Record<string, unknown>).filter(
    ([, v]) =>
      typeof v === "number" || typeof v === "boolean" || (typeof v === "string" && v.length > 0 && v.length <= 120),
  );
  return fields.length ? Object.fromEntries(fields.slice(0, 4)) : undefined;
}

/** The case a real exchange becomes: status 200, each tool called with its main input fields, a few answer words. */
export function caseFromExchange(exchange: { question: string; answer: string; usedTools?: UsedTool[] }): TestCaseBody {
  const question = exchange.question.trim();
  const expectations: Expectation[] = [{ type: "status", value: 200 }];
  const tools = new Set<string>();
  for (const t of exchange.usedTools ?? []) {
    if (tools.has(t.tool)) continue;
    tools.add(t.tool);
    const input = mainInputFields(t.toolInput);
    expectations.push({ type: "toolCalled", tool: t.tool, ...(input ? { input } : {}) });
  }
  for (const word of distinctiveWords(exchange.answer, question))
    expectations.push({ type: "answerContains", value: word });
  const name = question.length > 80 ? `${question.slice(0, 77)}…` : question;
  return { name: name || "Saved exchange", question: question || "(empty question)", expectations };
}
