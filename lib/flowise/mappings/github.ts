import { anchor, defineMapping, ignore, param, toBoolean, toJson, toText } from "../rules";

/** Flowise "Github" loader → our GitHub Repository loader (its token goes in a GitHub credential). */
export const github = defineMapping({
  flowise: "github",
  type: "githubLoader",
  credential: "credential",
  inputs: {
    repoLink: param("repoLink", toText),
    branch: param("branch", toText),
    recursive: param("recursive", toBoolean),
    textSplitter: anchor("textSplitter"),
    metadata: param("metadata", toJson),
    ignorePath: param("ignorePaths", toJson),
    maxConcurrency: ignore("files are read a few at a time, as GitHub asks"),
    maxRetries: ignore("a failed read fails the upsert, naming the repository"),
    omitMetadataKeys: ignore("omitting metadata keys has no equivalent", () => false),
  },
  outputs: { document: "document" },
});
