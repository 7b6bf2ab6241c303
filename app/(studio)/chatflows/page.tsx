import { ChatflowList } from "@/components/studio/ChatflowList";
import { readExampleFlows, readFlowiseTemplates } from "@/lib/services/examples";

/** Reads a gallery source; a broken file hides that part of the gallery, never the list. */
function orNone<T>(read: () => T[]): T[] {
  try {
    return read();
  } catch {
    return [];
  }
}

export default function ChatflowsPage() {
  // The templates gallery: the example flows (flows/*.json) and the Flowise templates (flows/flowise/*.json).
  return (
    <ChatflowList
      templates={orNone(() => readExampleFlows())}
      flowiseTemplates={orNone(() => readFlowiseTemplates())}
    />
  );
}
