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

/**
 * Words any friendly answer may use, whatever the flow: a check on them fails the day the model
 * greets differently ("Hello" → "Hi"), so a builder would delete it. Small talk keeps only what is
 * particular to the flow (its name for itself, what it offers).
 */
const PLEASANTRIES = new Set(
  "hello hi hey hiya greetings thanks thank thankyou welcome today tonight please sure glad happy help helping assist assistance anything something else great good nice morning afternoon evening day feel free like know need want might maybe certainly course of okay ok well let ask questions question".split(
    " ",
  ),
);

/** Whether the word at `index` of `text` starts a sentence (its capital says nothing about it being a name). */
function startsSentence(text: string, index: number): boolean {
  const before = text.slice(0, index).trimEnd();
  return before === "" || /[.!?]$/.test(before);
}

/**
 * Up to `max` words of the answer that say something: not in the question, not filler or
 * pleasantries; names (capitalised inside a sentence) and numbers first.
 */
export function distinctiveWords(answer: string, question: string, max = 3): string[] {
  const asked = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const seen = new Set<string>();
  const words: { word: string; score: number; at: number }[] = [];
  for (const [at, match] of [...answer.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'.-]*[\p{L}\p{N}]/gu)].entries()) {
    const word = match[0];
    const lower = word.toLowerCase();
    const name = /^\p{Lu}/u.test(word) && !startsSentence(answer, match.index);
    // Short words say little, unless they are names ("Ada") or numbers.
    if (
      word.length < (name || /^\p{N}/u.test(word) ? 3 : 4) ||
      STOP_WORDS.has(lower) ||
      PLEASANTRIES.has(lower) ||
      asked.has(lower) ||
      seen.has(lower)
    )
      continue;
    seen.add(lower);
    const score = word.length + (name ? 4 : 0) + (/\p{N}/u.test(word) ? 3 : 0);
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

/** Longest string value kept as a key field of a tool input, and most words in it. */
const KEY_FIELD_MAX_CHARS = 40;
const KEY_FIELD_MAX_WORDS = 3;

/**
 * A tool input's key fields: up to 3 numbers, booleans or short strings (codes, names, a search
 * term), JSON text inside read. Free text the model words anew each time (a sentence, a long query)
 * and nested objects are left out, so the check holds while the model rephrases.
 */
export function mainInputFields(input: unknown): Record<string, unknown> | undefined {
  const value = parsedInput(input);
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const fields = Object.entries(value as Record<string, unknown>).filter(
    ([, v]) =>
      typeof v === "number" ||
      typeof v === "boolean" ||
      (typeof v === "string" &&
        v.trim().length > 0 &&
        v.length <= KEY_FIELD_MAX_CHARS &&
        v.trim().split(/\s+/).length <= KEY_FIELD_MAX_WORDS),
  );
  return fields.length ? Object.fromEntries(fields.slice(0, 3)) : undefined;
}

/**
 * The case a real exchange becomes: status 200, each tool called with its key input fields, each
 * tool the conversation used elsewhere (`knownTools`) but this answer did not as "not called" (small
 * talk must not call the product search), and a few distinctive answer words.
 */
export function caseFromExchange(exchange: {
  question: string;
  answer: string;
  usedTools?: UsedTool[];
  knownTools?: string[];
}): TestCaseBody {
  const question = exchange.question.trim();
  const expectations: Expectation[] = [{ type: "status", value: 200 }];
  const tools = new Set<string>();
  for (const t of exchange.usedTools ?? []) {
    if (tools.has(t.tool)) continue;
    tools.add(t.tool);
    const input = mainInputFields(t.toolInput);
    expectations.push({ type: "toolCalled", tool: t.tool, ...(input ? { input } : {}) });
  }
  const notCalled = [...new Set(exchange.knownTools ?? [])].filter((t) => !tools.has(t)).slice(0, 3);
  for (const tool of notCalled) expectations.push({ type: "toolNotCalled", tool });
  for (const word of distinctiveWords(exchange.answer, question))
    expectations.push({ type: "answerContains", value: word });
  const name = question.length > 80 ? `${question.slice(0, 77)}…` : question;
  return { name: name || "Saved exchange", question: question || "(empty question)", expectations };
}

/** The tools any answer of a conversation called, by name, in order of first use. */
export function toolsOfConversation(answers: { usedTools?: readonly { tool: string }[] | null }[]): string[] {
  return [...new Set(answers.flatMap((a) => (a.usedTools ?? []).map((t) => t.tool)))];
}
