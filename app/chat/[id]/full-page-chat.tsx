"use client";

import { WidgetPreview } from "@/components/publish/WidgetPreview";

/** Our embed widget in full-page mode, filling the viewport, with the chatflow's saved settings. */
export function FullPageChat({ chatflowId }: { chatflowId: string }) {
  return <WidgetPreview chatflowId={chatflowId} fill />;
}
