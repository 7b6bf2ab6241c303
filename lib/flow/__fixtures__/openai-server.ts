import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny OpenAI-compatible chat server for tests: answers POST /v1/chat/completions from a queue of
 * scripted replies (text or tool calls), streamed word by word as SSE when asked, with a unique
 * completion id each time. Records every request body.
 */

export type ScriptedReply = { content: string } | { toolCalls: { name: string; args: Record<string, unknown> }[] };

export async function startOpenAIServer(replies: ScriptedReply[]) {
  const bodies: Record<string, any>[] = [];
  let n = 0;
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw);
    bodies.push(body);
    const reply = replies.shift() ?? { content: "(no scripted reply)" };
    const id = `chatcmpl-${++n}`;
    const toolCalls =
      "toolCalls" in reply
        ? reply.toolCalls.map((c, i) => ({ index: i, id: `call_${n}_${i}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args) } }))
        : undefined;
    const content = "content" in reply ? reply.content : null;
    const base = { id, created: 1, model: body.model };
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [{ index: 0, finish_reason: toolCalls ? "tool_calls" : "stop", message: { role: "assistant", content, tool_calls: toolCalls } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const send = (delta: object, finish: string | null = null) =>
      res.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    send({ role: "assistant", content: "" });
    if (toolCalls) send({ tool_calls: toolCalls });
    for (const word of (content ?? "").split(/(?<= )/)) if (word) send({ content: word });
    send({}, toolCalls ? "tool_calls" : "stop");
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
