"use client";

import Script from "next/script";
import { useEffect, useRef, useState } from "react";

type SwaggerUIBundle = (options: { url: string; domNode: HTMLElement; deepLinking?: boolean }) => unknown;
declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUIBundle;
  }
}

/**
 * Swagger UI rendering /api/v1/openapi.json. Its script and stylesheet come from our own origin
 * (app/swagger-ui/[file]); Next loads the script from its own nonce'd code, which the studio's
 * Content-Security-Policy ('strict-dynamic') allows without a change to any page's policy.
 * "Try it out" calls the API as the signed-in user (session cookie, same origin).
 */
export function ApiReference({ version }: { version: string }) {
  const node = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!loaded || !node.current || !window.SwaggerUIBundle) return;
    window.SwaggerUIBundle({ url: "/api/v1/openapi.json", domNode: node.current, deepLinking: true });
  }, [loaded]);

  return (
    <section aria-label="API reference">
      <link rel="stylesheet" href={`/swagger-ui/swagger-ui.css?v=${version}`} precedence="default" />
      <Script
        src={`/swagger-ui/swagger-ui-bundle.js?v=${version}`}
        strategy="afterInteractive"
        onReady={() => setLoaded(true)}
        onError={() => setFailed(true)}
      />
      <h1 className="mb-1 text-xl font-semibold">API reference</h1>
      <p className="mb-4 text-sm text-slate-600">
        Every route, from{" "}
        <a className="text-brand-700 underline" href="/api/v1/openapi.json">
          /api/v1/openapi.json
        </a>{" "}
        (OpenAPI 3.1). API clients send <code>Authorization: Bearer sy_…</code>; here, &quot;Try it out&quot; uses your
        session.
      </p>
      {failed ? <p role="alert">The API reference could not be loaded.</p> : null}
      {/* Swagger UI has no dark theme: in dark mode it stays a light panel (api-reference-panel in globals.css). */}
      <div ref={node} data-testid="swagger-ui" className="api-reference-panel" />
    </section>
  );
}
