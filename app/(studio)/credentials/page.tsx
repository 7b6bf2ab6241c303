import { CredentialManager } from "@/components/studio/CredentialManager";

export default function CredentialsPage() {
  return <CredentialManager />;
}
