// Dependency rules: which folder may import which. Run by scripts/lint.sh (`npm run lint`, `npm test`);
// scripts/toolchain-rules.test.ts proves that a broken rule fails the run.
// Three homes: lib/ is server code, browser/ (with components/ and widget/) runs in the browser, common/ is
// code both run (schemas, node definitions' types, graph validation, the permission table, errors).
// Layers point one way: app (routes, pages) → lib/http → lib/services → lib/{flow,db,…} → common/; features in
// components/ share only components/ui.

/** Test files may reach across layers (a unit test beside lib/ code may start a route or a stub). */
const TEST_FILE = "\\.test\\.tsx?$";
/** Layers below lib/http: none of them may import it (nor may lib/services). */
const BELOW_HTTP = "^(lib/(services|auth|access|db|flow|nodes|vector|security|jobs)|common)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "lib-not-to-app-or-components",
      comment: "lib/, common/ and browser/ are below the Next.js app and the React components: they never import them.",
      severity: "error",
      from: { path: "^(lib|common|browser)/", pathNot: TEST_FILE },
      to: { path: "^(app|components)/" },
    },
    {
      name: "no-http-below-http",
      comment:
        "Services and the layers under them take plain data: they never import lib/http (callers, policies, " +
        "rate limits and the key cache live in lib/access).",
      severity: "error",
      from: { path: BELOW_HTTP, pathNot: TEST_FILE },
      to: { path: "^lib/http/" },
    },
    {
      name: "db-not-to-services",
      comment: "lib/db is the bottom layer: services call it, never the other way round.",
      severity: "error",
      from: { path: "^lib/db/", pathNot: TEST_FILE },
      to: { path: "^lib/services/" },
    },
    {
      name: "flow-through-node-interface",
      comment:
        "lib/flow knows nodes only through the interface at the top of lib/nodes (registry, types, define*, " +
        "handles, params): never a node's own folder nor the runtimes' shared helpers.",
      severity: "error",
      from: { path: "^lib/flow/", pathNot: TEST_FILE },
      to: { path: "^lib/nodes/[^/]+/" },
    },
    {
      name: "no-cross-feature-components",
      comment:
        "A feature folder in components/ never imports another feature (an editor owns slots instead); " +
        "shared pieces live in components/ui.",
      severity: "error",
      from: { path: "^components/([^/]+)/" },
      to: { path: "^components/", pathNot: ["^components/$1/", "^components/ui/"] },
    },
    {
      name: "browser-not-to-server",
      comment:
        "Browser code (components, the widget, browser/) imports no server module (lib/) at run time: type-only " +
        "imports are erased and allowed (client types are derived from the server's schemas and services).",
      severity: "error",
      from: { path: "^(components|widget|browser)/", pathNot: TEST_FILE },
      to: { path: "^(lib|server)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "common-is-shared",
      comment:
        "common/ runs in the browser and on the server: it imports neither side (only the generated enums' types).",
      severity: "error",
      from: { path: "^common/", pathNot: TEST_FILE },
      to: { path: "^(lib|browser|server|components|app|widget)/", pathNot: "^lib/db/generated/enums" },
    },
    {
      name: "common-only-types-of-enums",
      comment: "The generated enums module pulls Prisma's runtime: common/ takes its types only.",
      severity: "error",
      from: { path: "^common/", pathNot: TEST_FILE },
      to: { path: "^lib/db/generated/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "scripts-bench-not-to-tests",
      comment: "server/, scripts/ and bench/ run in production and CI tooling: development stubs live outside tests/.",
      severity: "error",
      from: { path: "^(server|scripts|bench)/", pathNot: TEST_FILE },
      to: { path: "^tests/" },
    },
    {
      name: "no-circular",
      comment: "No import cycles (type-only imports excluded: they vanish at run time).",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "not-to-unresolvable",
      comment: "Every relative or aliased import resolves to a file.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true, pathNot: ["^(node|bun):", "^virtual:"] },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^lib/db/generated/"] },
    exclude: {
      path: [
        "(^|/)node_modules/",
        "^\\.next/",
        "^data/",
        "^test-results/",
        "^playwright-report/",
        "^bench/results/",
        "^public/",
      ],
    },
    // Type-only imports count for the layer rules (a service must not even name an HTTP type).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".d.ts", ".mts", ".d.mts", ".js", ".mjs", ".cjs", ".json"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
