"use client";

import { ErrorPanel } from "@/components/ui/ErrorPanel";

/** An error in a studio page: shown inside the studio's frame (the layout around it stays). */
export default function StudioError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorPanel error={error} reset={reset} />;
}
