import type { Metadata } from "next";
import { headers } from "next/headers";
import { THEME_SCRIPT } from "@/browser/client/theme";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "Switchyard",
  description: "Build, test and publish LangChain chatflows.",
};

// Every page carries a per-request CSP nonce (proxy.ts) that Next puts on its scripts: a page
// prerendered at build time would have scripts without it and be blocked, so none is.
export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The theme script runs inline before paint, so it needs this response's nonce (from the CSP proxy.ts set).
  const csp = (await headers()).get("content-security-policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  return (
    // The head script sets the `dark` class before React hydrates: not a mismatch to report.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, no user data */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
