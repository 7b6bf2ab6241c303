import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { findFirstAdminId } from "../db/queries/users";
import { findSetting, insertChatflowsOnce } from "../db/queries/settings";
import { versionContentOf } from "../db/queries/chatflow-versions";
import { graphShapeSchema } from "@/common/schemas/chatflow";
import { testCaseBodySchema } from "@/common/schemas/chatflow-tests";
import { testCaseData } from "./chatflow-tests/cases";

const EXAMPLES_KEY = "examplesLoaded";

const exampleFileSchema = z.object({
  name: z.string().min(1),
  description: z.string().default(""),
  /** CHATFLOW (default) or AGENTFLOW. */
  type: z.enum(["CHATFLOW", "AGENTFLOW"]).default("CHATFLOW"),
  graph: graphShapeSchema,
  overrideAllowList: z.array(z.string()).default([]),
  chatbotConfig: z.record(z.string(), z.unknown()).default({}),
  /** Test cases shipped with the example (loaded with it as its chatflow's cases). */
  tests: z.array(testCaseBodySchema).default([]),
});

/** Replaces `{ "$file": "specs/x.yaml" }` values with the file's text, so saved graphs hold real data. */
function inlineFiles(value: unknown, dir: string): unknown {
  if (Array.isArray(value)) return value.map((v) => inlineFiles(v, dir));
  if (value && typeof value === "object") {
    const file = (value as { $file?: unknown }).$file;
    if (typeof file === "string") {
      const resolved = path.resolve(dir, file);
      if (!resolved.startsWith(path.resolve(dir) + path.sep)) throw new Error(`Example file escapes flows/: ${file}`);
      return fs.readFileSync(resolved, "utf8");
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inlineFiles(v, dir)]));
  }
  return value;
}

/** The parsed `*.json` files of a folder, by name (none when the folder is missing). */
function readJsonFiles(dir: string): { file: string; raw: unknown }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, raw: JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as unknown }));
}

/** Reads every `flows/*.json` example, with referenced files inlined. */
export function readExampleFlows(dir = path.resolve("flows")) {
  return readJsonFiles(dir).map(({ file, raw }) => ({ file, ...exampleFileSchema.parse(inlineFiles(raw, dir)) }));
}

/** Loads the example flows once, on the first start of an installation. */
export async function loadExampleFlowsOnce(dir?: string): Promise<number> {
  if ((await findSetting({ key: EXAMPLES_KEY })) !== undefined) return 0;
  const examples = readExampleFlows(dir);
  // Owned by the first admin when there is one; before setup they stay unowned until setup claims them.
  const adminId = await findFirstAdminId();
  await insertChatflowsOnce({
    key: EXAMPLES_KEY,
    value: { at: new Date().toISOString(), count: examples.length },
    chatflows: examples.map((e) => {
      const content = versionContentOf({ ...e, speechToText: {} });
      return {
        name: e.name,
        description: e.description,
        type: e.type,
        ...content,
        ...(adminId ? { ownerId: adminId } : {}),
        versions: { create: { version: 1, ...content, authorId: adminId ?? null, message: "Example flow" } },
        testCases: { create: e.tests.map(testCaseData) },
      };
    }),
  });
  return examples.length;
}

const flowiseTemplateSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().default(""),
  nodes: z.array(z.unknown()),
  edges: z.array(z.unknown()).default([]),
});

/**
 * Flowise templates shipped with the project (`flows/flowise/*.json`): written in Flowise's export
 * format, as its marketplace templates are, and turned into chatflows by the Flowise import
 * (POST /api/v1/chatflows/import) when a builder uses one from the templates gallery.
 */
export function readFlowiseTemplates(dir = path.resolve("flows/flowise")) {
  return readJsonFiles(dir).map(({ file, raw }) => {
    const { name, description, nodes, edges } = flowiseTemplateSchema.parse(raw);
    return { file: `flowise/${file}`, name, description, flowise: { nodes, edges } };
  });
}
