import { defineNode } from "../define";
import { webBrowserDefinition } from "./definition";
import { buildWebBrowser } from "./runtime";

export const webBrowser = defineNode({ definition: webBrowserDefinition, runtime: buildWebBrowser });
