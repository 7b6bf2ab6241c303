"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { SessionProvider } from "next-auth/react";
import { useState } from "react";
import { ApiError } from "@/browser/client/api";
import { ConfirmProvider } from "@/components/ui/ConfirmDialog";

/**
 * One retry for what may pass (network, 5xx); none for an answer about the request itself (4xx):
 * a retry would only hold the message back for a silent second.
 */
function retryQuery(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < 1;
}

export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 5_000, retry: retryQuery } } }),
  );
  return (
    <SessionProvider>
      <QueryClientProvider client={client}>
        <ConfirmProvider>{children}</ConfirmProvider>
      </QueryClientProvider>
    </SessionProvider>
  );
}
