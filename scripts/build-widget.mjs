// Builds the embed widget (widget/*.ts) into public/embed.js: one small, minified, dependency-free
// script for any web page. `--check` fails when the committed file differs from a fresh build.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const outfile = path.join(root, "public/embed.js");

/** Builds the widget in memory and returns the script's text. */
export async function buildWidget() {
  const result = await build({
    entryPoints: [path.join(root, "widget/index.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    target: ["es2020", "chrome90", "firefox90", "safari15"],
    legalComments: "none",
    banner: { js: "/* Switchyard embed widget. Built from widget/ by scripts/build-widget.mjs; do not edit. */" },
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await buildWidget();
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(outfile) ? fs.readFileSync(outfile, "utf8") : "";
    if (current !== text) {
      console.error("public/embed.js is out of date: run `npm run build:widget` and commit it.");
      process.exit(1);
    }
    console.log(`public/embed.js is up to date (${text.length} bytes).`);
  } else {
    fs.mkdirSync(path.dirname(outfile), { recursive: true });
    fs.writeFileSync(outfile, text);
    console.log(`Wrote public/embed.js (${text.length} bytes).`);
  }
}
