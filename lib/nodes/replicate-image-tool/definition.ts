import { T, type NodeDefinitionSpec } from "@/common/nodes/types";

/** An image model on Replicate as a tool an agent calls with a prompt; it answers the image URL(s). */
export const replicateImageToolDefinition = {
  name: "replicateImageTool",
  version: 1,
  label: "Replicate Image Generation",
  category: "Tools",
  description:
    "Makes images with a Replicate image model (FLUX, SDXL, …) from the agent's prompt and hands back their URLs.",
  inputs: [
    { kind: "param", name: "credential", label: "Credential", type: "credential", credentialTypes: ["replicate"] },
    {
      kind: "param",
      name: "model",
      label: "Model",
      type: "string",
      default: "black-forest-labs/flux-schnell",
      pattern: "^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+(:[0-9a-f]{64})?$",
      suggestions: [
        "black-forest-labs/flux-schnell",
        "black-forest-labs/flux-dev",
        "black-forest-labs/flux-1.1-pro",
        "stability-ai/stable-diffusion-3.5-large",
        "recraft-ai/recraft-v3",
      ],
      description: "owner/name runs the model's current version; owner/name:version a pinned one.",
    },
    {
      kind: "param",
      name: "additionalInputs",
      label: "More model inputs",
      type: "json",
      optional: true,
      additional: true,
      description: 'Sent with every prompt, e.g. {"aspect_ratio": "16:9", "num_outputs": 2}.',
    },
    {
      kind: "param",
      name: "toolName",
      label: "Tool name",
      type: "string",
      default: "generate_image",
      pattern: "^[A-Za-z0-9_-]{1,64}$",
      additional: true,
    },
    {
      kind: "param",
      name: "toolDescription",
      label: "Tool description",
      type: "text",
      default:
        "Generates an image from a text description and returns its URL. Input: a detailed description of the image.",
      additional: true,
    },
    {
      kind: "param",
      name: "timeoutSeconds",
      label: "Timeout (seconds)",
      type: "number",
      default: 120,
      integer: true,
      min: 5,
      max: 600,
      additional: true,
      description: "How long one image may take, waiting and polling included.",
    },
  ],
  outputs: [{ name: "tool", label: "Tool", types: [T.tool] }],
} as const satisfies NodeDefinitionSpec;
