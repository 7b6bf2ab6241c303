import { ChatflowList } from "@/components/studio/ChatflowList";

export default function ChatflowsPage() {
  return <ChatflowList />;
}
