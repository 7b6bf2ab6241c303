import { UsageView } from "@/components/usage/UsageView";

export default async function UsagePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <UsageView chatflowId={id} />;
}
