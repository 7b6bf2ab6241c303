import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";

export const githubLoaderDefinition = {
  name: "githubLoader",
  version: 1,
  label: "GitHub Repository",
  category: "Document Loaders",
  description:
    "Loads a repository's text files (code, Markdown, docs) from GitHub at each upsert: public repositories as they are, private ones with a token.",
  inputs: [
    { kind: "anchor", name: "textSplitter", label: "Text splitter", accepts: [DT.textSplitter], optional: true },
    {
      kind: "param",
      name: "credential",
      label: "Credential",
      type: "credential",
      credentialTypes: ["github"],
      optional: true,
      description:
        "A token for private repositories and a higher rate limit. Empty: public repositories on github.com.",
    },
    {
      kind: "param",
      name: "repoLink",
      label: "Repository",
      type: "string",
      pattern: "^(https://[^/]+/)?[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+/?$",
      placeholder: "https://github.com/owner/repo",
    },
    { kind: "param", name: "branch", label: "Branch, tag or commit", type: "string", default: "main" },
    {
      kind: "param",
      name: "recursive",
      label: "Include folders",
      type: "boolean",
      default: true,
      description: "Off: only the files at the repository's top level.",
    },
    {
      kind: "param",
      name: "ignorePaths",
      label: "Ignore paths",
      type: "json",
      optional: true,
      additional: true,
      description: 'A JSON array of glob patterns to leave out, e.g. ["*.lock", "test/**"].',
    },
    {
      kind: "param",
      name: "maxFiles",
      label: "Most files",
      type: "number",
      default: 200,
      integer: true,
      min: 1,
      max: 2000,
      additional: true,
    },
    { kind: "param", name: "metadata", label: "Extra metadata", type: "json", optional: true, additional: true },
  ],
  outputs: [{ name: "document", label: "Document", types: [DT.document] }],
} as const satisfies NodeDefinitionSpec;
