import { defineNode } from "../define";
import { recursiveTextSplitterDefinition } from "./definition";
import { buildRecursiveTextSplitter } from "./runtime";

export const recursiveTextSplitter = defineNode({
  definition: recursiveTextSplitterDefinition,
  runtime: buildRecursiveTextSplitter,
});
