import { ApiKeyManager } from "@/components/studio/ApiKeyManager";

export default function ApiKeysPage() {
  return <ApiKeyManager />;
}
