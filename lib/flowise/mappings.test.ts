import { describe, expect, it } from "vitest";
import { getDefinition } from "../nodes/registry";
import { convertFlowiseFlow } from "./convert";
import { flowiseMappings } from "./mappings";
import { REFUSED_FLOWISE_TYPES } from "./refused";
import { dataUrlText, promptValues, toText } from "./rules";
import type { FlowiseFlow } from "./types";

const ctx = { node: { id: "n", data: { name: "x" } }, input: "i" };

describe("Flowise mappings", () => {
  it("each maps a distinct Flowise type onto inputs and outputs our node really has", () => {
    const names = flowiseMappings.map((m) => m.flowise);
    expect(new Set(names).size).toBe(names.length);
    for (const m of flowiseMappings) {
      const def = getDefinition(m.type);
      expect(def, `${m.flowise} → ${m.type}`).toBeDefined();
      if (!def) continue;
      for (const [input, rule] of Object.entries(m.inputs)) {
        if (rule.kind === "ignore") continue;
        const ours = def.inputs.find((i) => i.name === rule.to);
        // An embedded component (an agentflow step's model, tools) becomes a node feeding that anchor.
        expect(ours?.kind, `${m.flowise}.${input} → ${m.type}.${rule.to}`).toBe(
          rule.kind === "component" ? "anchor" : rule.kind,
        );
      }
      for (const out of Object.values(m.outputs ?? {}))
        expect(
          def.outputs.map((o) => o.name),
          `${m.flowise} output → ${out}`,
        ).toContain(out);
      if (m.credential)
        expect(def.inputs.find((i) => i.name === m.credential)).toMatchObject({ kind: "param", type: "credential" });
    }
  });

  it("never maps a custom-code type (they are refused by name)", () => {
    for (const m of flowiseMappings) expect(REFUSED_FLOWISE_TYPES[m.flowise]).toBeUndefined();
    const flow: FlowiseFlow = {
      nodes: Object.keys(REFUSED_FLOWISE_TYPES).map((name, i) => ({ id: `n${i}`, data: { name, label: name } })),
      edges: [],
    };
    const r = convertFlowiseFlow(flow, flowiseMappings, getDefinition);
    expect(r.graph.nodes).toEqual([]);
    expect(r.unmapped.map((u) => u.flowiseType)).toEqual(Object.keys(REFUSED_FLOWISE_TYPES));
  });
});

describe("converters", () => {
  it("read Flowise uploads: data URL with its filename, a one-file list; refuse Flowise storage and several files", () => {
    const b64 = Buffer.from("openapi: 3.0.1\n").toString("base64");
    expect(dataUrlText(`data:application/x-yaml;base64,${b64},filename:spec.yaml`, ctx)).toEqual({
      value: "openapi: 3.0.1\n",
    });
    expect(dataUrlText(JSON.stringify([`data:text/yaml;base64,${b64},filename:a.yaml`]), ctx)).toEqual({
      value: "openapi: 3.0.1\n",
    });
    expect(dataUrlText("FILE-STORAGE::spec.yaml", ctx)).toMatchObject({ drop: expect.stringContaining("storage") });
    expect(dataUrlText(JSON.stringify(["data:,a", "data:,b"]), ctx)).toMatchObject({ drop: expect.any(String) });
  });

  it("refuse text that uses Flowise variables, keep other text", () => {
    expect(toText("Hi {{$vars.company}}", ctx)).toMatchObject({ drop: expect.stringContaining("{{$vars.company}}") });
    expect(toText("Session {{ $flow.sessionId }}", ctx)).toMatchObject({ drop: expect.any(String) });
    expect(toText("Answer about {topic}", ctx)).toEqual({ value: "Answer about {topic}" });
  });

  it("keep fixed prompt values and the history, name chains by id, leave {{question}} to our default, refuse the rest", () => {
    expect(promptValues('{"a":"x","q":"{{question}}"}', ctx)).toEqual({ value: { a: "x" } });
    expect(promptValues({ q: "{{question}}" }, ctx)).toEqual({ skip: true });
    expect(promptValues('{"h":"{{chat_history}}","r":"{{ llmChain_0.data.instance }}"}', ctx)).toEqual({
      value: { h: "{{chat_history}}", r: "{{llmChain_0}}" },
    });
    expect(promptValues('{"s":"{{$flow.state.x}}"}', ctx)).toMatchObject({ drop: expect.stringContaining('"s"') });
    expect(promptValues("not json", ctx)).toMatchObject({ drop: expect.any(String) });
  });
});

describe("sticky notes and connections", () => {
  it("keeps sticky notes as canvas notes with their position and text", () => {
    const r = convertFlowiseFlow(
      {
        nodes: [
          {
            id: "stickyNote_0",
            type: "stickyNote",
            position: { x: 5, y: 6 },
            data: { name: "stickyNote", inputs: { note: "Read me" } },
          },
        ],
        edges: [],
      },
      flowiseMappings,
      getDefinition,
    );
    expect(r.graph.notes).toEqual([{ id: "stickyNote_0", position: { x: 5, y: 6 }, text: "Read me" }]);
    expect(r.unmapped).toEqual([]);
  });

  it("refuses a reference to a node that is not in the flow, and several connections into a single anchor", () => {
    const r = convertFlowiseFlow(
      {
        nodes: [
          { id: "m1", data: { name: "chatOpenAI", inputs: {} } },
          { id: "m2", data: { name: "chatOpenAI", inputs: {} } },
          {
            id: "c",
            data: {
              name: "conversationChain",
              inputs: { model: "{{m1.data.instance}}", memory: "{{gone.data.instance}}" },
            },
          },
        ],
        edges: [
          {
            source: "m2",
            sourceHandle: "m2-output-chatOpenAI-X",
            target: "c",
            targetHandle: "c-input-model-BaseChatModel",
          },
        ],
      },
      flowiseMappings,
      getDefinition,
    );
    expect(r.dropped.map((d) => [d.nodeId, d.input, d.reason])).toEqual([
      ["c", "model", expect.stringContaining("one connection")],
      ["c", "memory", expect.stringContaining("gone")],
    ]);
  });
});

describe("document loaders", () => {
  it("keep the uploaded file with its name, the splitter connection and the metadata", () => {
    const pdf = `data:application/pdf;base64,${Buffer.from("%PDF-1.4").toString("base64")},filename:guide.pdf`;
    const r = convertFlowiseFlow(
      {
        nodes: [
          {
            id: "splitter_0",
            data: {
              name: "recursiveCharacterTextSplitter",
              inputs: { chunkSize: "500", chunkOverlap: 50, separators: '["\\n\\n"]' },
            },
          },
          {
            id: "pdf_0",
            data: {
              name: "pdfFile",
              inputs: {
                pdfFile: pdf,
                usage: "perFile",
                textSplitter: "{{splitter_0.data.instance}}",
                metadata: '{"team":"docs"}',
                legacyBuild: false,
              },
            },
          },
        ],
        edges: [],
      },
      flowiseMappings,
      getDefinition,
    );
    expect(r.unmapped).toEqual([]);
    expect(r.dropped).toEqual([]);
    expect(r.graph.nodes.map((n) => [n.type, n.data.inputs])).toEqual([
      ["recursiveTextSplitter", { chunkSize: 500, chunkOverlap: 50, separators: ["\n\n"] }],
      [
        "pdfLoader",
        {
          file: `data:application/pdf;name=guide.pdf;base64,${Buffer.from("%PDF-1.4").toString("base64")}`,
          usage: "perFile",
          metadata: { team: "docs" },
        },
      ],
    ]);
    expect(r.graph.edges.map((e) => [e.sourceHandle, e.targetHandle])).toEqual([
      ["splitter_0:out:textSplitter", "pdf_0:in:textSplitter"],
    ]);
  });
});

describe("Gemini", () => {
  it("maps ChatGoogleGenerativeAI's settings, the custom model name winning; stricter safety settings refuse", () => {
    const gemini = (inputs: Record<string, unknown>) =>
      convertFlowiseFlow(
        { nodes: [{ id: "g", data: { name: "chatGoogleGenerativeAI", credential: "c1", inputs } }], edges: [] },
        flowiseMappings,
        getDefinition,
      );
    const r = gemini({
      modelName: "gemini-2.0-flash",
      customModelName: "gemini-exp",
      temperature: "0.4",
      maxOutputTokens: "256",
      topK: 3,
      streaming: true,
      baseUrl: "https://gemini-proxy.example.com",
      harmCategory: "",
      allowImageUploads: "",
    });
    expect(r.dropped).toEqual([]);
    expect(r.graph.nodes[0]).toMatchObject({
      type: "chatGoogleGenerativeAI",
      data: {
        inputs: {
          modelName: "gemini-exp",
          temperature: 0.4,
          maxOutputTokens: 256,
          topK: 3,
          streaming: true,
          baseUrl: "https://gemini-proxy.example.com",
        },
      },
    });
    expect(r.warnings).toEqual([expect.objectContaining({ kind: "credential", input: "credential" })]);
    const strict = gemini({
      harmCategory: '["HARM_CATEGORY_HARASSMENT"]',
      harmBlockThreshold: '["BLOCK_LOW_AND_ABOVE"]',
    });
    expect(strict.dropped.map((d) => d.input)).toEqual(["harmCategory", "harmBlockThreshold"]);
  });
});
