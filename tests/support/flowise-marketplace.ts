import fs from "node:fs";
import path from "node:path";

/**
 * Flowise's marketplace chatflow templates, read where they are kept (never copied into the
 * project): the 8 in the shared fixtures always, and all 24 from the `flowise@3.1.4` npm package when
 * it has been unpacked on this machine (docs/testing.md says how: `npm pack` into /tmp). Tests that
 * need a template only the package holds are skipped without it, and say so in their name.
 */

export const SHARED_MARKETPLACE = path.resolve(import.meta.dirname, "../../../shared/fixtures/flowise/marketplace");

/** Where the unpacked package's chatflow templates are looked for (FLOWISE_MARKETPLACE_DIR overrides). */
export const NPM_MARKETPLACE = process.env.FLOWISE_MARKETPLACE_DIR ?? "/tmp/flowise-npm/package/marketplaces/chatflows";

/** True when the npm package's templates are unpacked where NPM_MARKETPLACE says. */
export const hasNpmMarketplace = fs.existsSync(path.join(NPM_MARKETPLACE, "Conversation Chain.json"));

const jsonFiles = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();

/** The template files of a folder, by name without ".json". */
export const sharedTemplateNames = () => jsonFiles(SHARED_MARKETPLACE).map((f) => f.replace(/\.json$/, ""));
export const npmTemplateNames = () =>
  hasNpmMarketplace ? jsonFiles(NPM_MARKETPLACE).map((f) => f.replace(/\.json$/, "")) : [];

/** A shared template by its file name ("SQL_DB_Chain"). */
export const sharedTemplate = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(SHARED_MARKETPLACE, `${name}.json`), "utf8"));

/** A template of the npm package by its name ("Query Engine"); only call it when hasNpmMarketplace. */
export const npmTemplate = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(NPM_MARKETPLACE, `${name}.json`), "utf8"));
