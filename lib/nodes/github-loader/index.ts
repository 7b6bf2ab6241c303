import { defineNode } from "../define";
import { githubLoaderDefinition } from "./definition";
import { buildGithubLoader } from "./runtime";

export const githubLoader = defineNode({ definition: githubLoaderDefinition, runtime: buildGithubLoader });
