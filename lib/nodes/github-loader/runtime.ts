import picomatch from "picomatch";
import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText, PROVIDER_DEFAULT_URL } from "../../security/credential-hosts";
import { splitDocuments } from "../../vector/loaders";
import type { DocumentSource, StoreDocument } from "../../vector/types";
import type { RuntimeOf } from "../define";
import { requesterOf } from "../shared/openai-connection";
import type { githubLoaderDefinition } from "./definition";

/** Files read as text (by extension), and names without one that are text. */
const TEXT_FILE =
  /\.(md|mdx|markdown|txt|rst|adoc|json|ya?ml|toml|ini|cfg|conf|env\.example|csv|tsv|xml|html?|css|scss|less|js|jsx|mjs|cjs|ts|tsx|py|rb|go|rs|java|kt|kts|scala|swift|c|h|cc|cpp|hpp|cs|php|pl|sh|bash|zsh|ps1|sql|graphql|proto|vue|svelte|lua|r|dart|ex|exs|erl|hs|clj|tf|gradle)$/i;
const TEXT_NAME = /^(README|LICENSE|CHANGELOG|CONTRIBUTING|Dockerfile|Makefile|Procfile|\.gitignore)$/i;
/** Files larger than this are skipped (generated code, data dumps). */
const MAX_FILE_BYTES = 1_000_000;
const CONCURRENCY = 4;

interface TreeEntry {
  path: string;
  type: string;
  size?: number;
}

/** owner/repo from "owner/repo" or a repository URL. */
function repoOf(link: string, label: string): { owner: string; repo: string } {
  const m = /^(?:https:\/\/[^/]+\/)?([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/.exec(link.trim());
  if (!m) throw new AppError("invalid_graph", `${label}: "${link}" is not a repository (owner/repo or its URL).`);
  return { owner: m[1], repo: m[2] };
}

/**
 * A source reading the repository through GitHub's REST API when an upsert runs: the tree of the
 * ref, then each text file's raw content (a few at a time), through the guarded fetch pinned to the
 * API host; the token (if any) goes only to the credential's host. Files ignored by pattern, binary
 * or over 1 MB are skipped; `source` is the file's path.
 */
export const buildGithubLoader: RuntimeOf<typeof githubLoaderDefinition> = async ({
  params,
  inputs,
  label,
  nodeId,
  ctx,
}) => {
  const requester = requesterOf({ label, nodeId });
  const { owner, repo } = repoOf(params.repoLink, requester);
  let api = PROVIDER_DEFAULT_URL.github;
  const headers: Record<string, string> = {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
  };
  if (params.credential) {
    const cred = await ctx.resolveCredential(params.credential);
    api = credentialText(cred, "baseURL") || api;
    assertCredentialHost(cred, api, requester);
    const token = credentialText(cred, "apiKey");
    if (token) headers.authorization = `Bearer ${token}`;
  }
  const ignore = Array.isArray(params.ignorePaths) ? params.ignorePaths.map(String) : [];
  const ignored = ignore.length ? picomatch(ignore, { dot: true }) : () => false;
  const fetch = ctx.fetchFor?.({ baseUrl: api, methods: ["GET"] }) ?? ctx.fetch;
  const base = `${api.replace(/\/+$/, "")}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  const ref = encodeURIComponent(params.branch);

  const get = async (url: string, accept?: string) => {
    const res = await fetch(url, { headers: accept ? { ...headers, accept } : headers });
    if (res.ok) return res;
    await res.body?.cancel().catch(() => undefined);
    const why =
      res.status === 404
        ? "not found (a private repository needs a token; check the owner, name and branch)"
        : res.status === 401 || res.status === 403
          ? `refused (HTTP ${res.status}: the token, or GitHub's rate limit)`
          : `HTTP ${res.status}`;
    throw new AppError("upstream_error", `${requester}: GitHub answered ${owner}/${repo}@${params.branch}: ${why}.`);
  };

  const source: DocumentSource = {
    kind: "documentSource",
    label,
    accepts: [],
    async load() {
      const tree = (await (await get(`${base}/git/trees/${ref}${params.recursive ? "?recursive=1" : ""}`)).json()) as {
        tree?: TreeEntry[];
        truncated?: boolean;
      };
      const files = (tree.tree ?? [])
        .filter((e) => e.type === "blob" && (e.size ?? 0) <= MAX_FILE_BYTES)
        .filter((e) => TEXT_FILE.test(e.path) || TEXT_NAME.test(e.path.split("/").pop() ?? ""))
        .filter((e) => !ignored(e.path))
        .slice(0, params.maxFiles);
      const docs: StoreDocument[] = [];
      for (let i = 0; i < files.length; i += CONCURRENCY) {
        const batch = files.slice(i, i + CONCURRENCY);
        const texts = await Promise.all(
          batch.map(async (f) => {
            const path = f.path.split("/").map(encodeURIComponent).join("/");
            return (await get(`${base}/contents/${path}?ref=${ref}`, "application/vnd.github.raw+json")).text();
          }),
        );
        batch.forEach((f, j) => {
          if (texts[j].trim() && !texts[j].includes("\u0000"))
            docs.push({
              pageContent: texts[j],
              metadata: { source: f.path, repository: `${owner}/${repo}`, branch: params.branch },
            });
        });
      }
      const extra =
        params.metadata && typeof params.metadata === "object" && !Array.isArray(params.metadata)
          ? params.metadata
          : {};
      return splitDocuments(
        docs.map((d) => ({ ...d, metadata: { ...extra, ...d.metadata } })),
        inputs.textSplitter,
        label,
      );
    },
  };
  return source;
};
