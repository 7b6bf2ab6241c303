import { ChatflowList } from "@/components/studio/ChatflowList";
import { readExampleFlows } from "@/lib/services/examples";

export default function ChatflowsPage() {
  // The example flows (flows/*.json) are the templates gallery; a broken file hides the gallery, not the list.
  let templates: ReturnType<typeof readExampleFlows> = [];
  try {
    templates = readExampleFlows();
  } catch {
    templates = [];
  }
  return <ChatflowList templates={templates} />;
}
