import type { TextSplitter } from "@langchain/textsplitters";
import { fileDocumentSource } from "../../vector/loaders";
import type { NamedBytes } from "../../vector/parsers";
import type { StoreDocument } from "../../vector/types";
import type { RuntimeArgs } from "../runtime-types";

/** The params and anchors every file loader has (lib/vector/loader-inputs.ts), typed. */
interface FileLoaderArgs<P> extends Omit<RuntimeArgs, "params" | "inputs"> {
  params: P & { file?: string; sourceName?: string; metadata?: Record<string, unknown> | unknown[] };
  inputs: { textSplitter?: TextSplitter };
}

/**
 * The runtime of a file loader node: reads the uploads of the given media types (or the node's
 * saved file), parses each with `parse` and splits the documents when a splitter is connected.
 * Every loader is this factory with its own types and parser.
 */
export function fileLoaderRuntime<P extends object = object>(
  accepts: readonly string[],
  parse: (file: NamedBytes, params: P) => Promise<StoreDocument[]> | StoreDocument[],
) {
  return async ({ params, inputs, label }: FileLoaderArgs<P>) =>
    fileDocumentSource({
      label,
      params,
      accepts,
      splitter: inputs.textSplitter,
      parse: (file) => parse(file, params),
    });
}
