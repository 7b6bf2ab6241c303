import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";

export const webPageLoaderDefinition = {
  name: "webPageLoader",
  version: 1,
  label: "Web Page Loader",
  category: "Document Loaders",
  description:
    "Loads web pages as readable text: one page, the pages it links to on the same site, or a sitemap's pages. Read at each upsert through the outbound guard.",
  inputs: [
    { kind: "anchor", name: "textSplitter", label: "Text splitter", accepts: [DT.textSplitter], optional: true },
    {
      kind: "param",
      name: "url",
      label: "URL",
      type: "string",
      pattern: "^https?://",
      placeholder: "https://docs.example.com/",
    },
    {
      kind: "param",
      name: "mode",
      label: "Pages",
      type: "options",
      default: "page",
      options: [
        { label: "This page only", name: "page" },
        {
          label: "Crawl links on the same site",
          name: "crawl",
          description: "Breadth first from the URL, same origin only.",
        },
        { label: "Pages of a sitemap (the URL is the sitemap.xml)", name: "sitemap" },
      ],
    },
    {
      kind: "param",
      name: "limit",
      label: "Most pages",
      type: "number",
      default: 10,
      integer: true,
      min: 1,
      max: 500,
      description: "When crawling or reading a sitemap.",
    },
    {
      kind: "param",
      name: "selector",
      label: "CSS selector",
      type: "string",
      optional: true,
      placeholder: "main, article",
      additional: true,
      description: "Keep only this part of each page (its main content). Empty: the whole page.",
    },
    { kind: "param", name: "metadata", label: "Extra metadata", type: "json", optional: true, additional: true },
  ],
  outputs: [{ name: "document", label: "Document", types: [DT.document] }],
} as const satisfies NodeDefinitionSpec;
