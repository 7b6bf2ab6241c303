import type { NodeCategory } from "@/common/nodes/types";

/** One look per category: a tint for the header badge and a short glyph. */
export const categoryStyle: Record<NodeCategory, { badge: string; glyph: string }> = {
  "Chat Models": { badge: "bg-violet-100 text-violet-700", glyph: "AI" },
  Prompts: { badge: "bg-amber-100 text-amber-700", glyph: "Pr" },
  Chains: { badge: "bg-sky-100 text-sky-700", glyph: "Ch" },
  Memory: { badge: "bg-emerald-100 text-emerald-700", glyph: "Me" },
  Tools: { badge: "bg-orange-100 text-orange-700", glyph: "Tl" },
  Agents: { badge: "bg-rose-100 text-rose-700", glyph: "Ag" },
  "Document Loaders": { badge: "bg-teal-100 text-teal-700", glyph: "Dl" },
  "Text Splitters": { badge: "bg-lime-100 text-lime-700", glyph: "Ts" },
  Embeddings: { badge: "bg-indigo-100 text-indigo-700", glyph: "Em" },
  "Vector Stores": { badge: "bg-cyan-100 text-cyan-700", glyph: "Vs" },
  "Output Parsers": { badge: "bg-yellow-100 text-yellow-800", glyph: "Op" },
  Moderation: { badge: "bg-red-100 text-red-700", glyph: "Md" },
  Utilities: { badge: "bg-stone-100 text-stone-700", glyph: "Ut" },
  "Agent Flows": { badge: "bg-fuchsia-100 text-fuchsia-700", glyph: "Af" },
};

export const fieldClass =
  "nodrag w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-xs shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100";
