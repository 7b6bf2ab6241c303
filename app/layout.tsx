import type { Metadata } from "next";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "Switchyard",
  description: "Build, test and publish LangChain chatflows.",
};

// Every page carries a per-request CSP nonce (proxy.ts) that Next puts on its scripts: a page
// prerendered at build time would have scripts without it and be blocked, so none is.
export const dynamic = "force-dynamic";

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
