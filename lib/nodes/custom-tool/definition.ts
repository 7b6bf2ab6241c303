import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

export const customToolDefinition = {
  name: "customTool",
  version: 1,
  label: "Custom Tool",
  category: "Tools",
  description:
    "A tool whose JavaScript runs in the sandbox (no process, files or imports; time and memory limits). The code sees each input as $<name>, all of them as $input, and the global variables as $vars; network only through fetch, under the outbound rules.",
  inputs: [
    {
      kind: "param",
      name: "name",
      label: "Tool name",
      type: "string",
      pattern: "^[A-Za-z0-9_-]{1,64}$",
      placeholder: "get_weather",
    },
    {
      kind: "param",
      name: "description",
      label: "Description",
      type: "text",
      placeholder: "Gets the weather of a city. Use it when the user asks about the weather.",
    },
    {
      kind: "param",
      name: "schema",
      label: "Input schema",
      type: "json",
      default: { type: "object", properties: {} },
      description:
        'A JSON schema of the inputs, e.g. {"type":"object","properties":{"city":{"type":"string","description":"the city"}},"required":["city"]}.',
    },
    {
      kind: "param",
      name: "code",
      label: "JavaScript function",
      type: "code",
      placeholder:
        "const res = await fetch('https://api.example.com/weather?city=' + encodeURIComponent($city));\nreturn await res.text();",
      description: "The body of an async function; it may await and returns a string (or a JSON value, sent as JSON).",
    },
    {
      kind: "param",
      name: "returnDirect",
      label: "Return directly",
      type: "boolean",
      default: false,
      additional: true,
      description: "The tool's result is the answer; the model does not see it first.",
    },
  ],
  outputs: [{ name: "tool", label: "Tool", types: [T.tool, "CustomTool"] }],
} as const satisfies NodeDefinitionSpec;
