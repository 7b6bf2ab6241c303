import { DomainsView } from "@/components/domains/DomainsView";

// The studio page lives at /domains/manage: GET /domains itself is the domain listing API.
export default function DomainsPage() {
  return <DomainsView />;
}
