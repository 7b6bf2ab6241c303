import type { ExecutionUsage, NodeUsage } from "@/common/schemas/execution";
import { formatUsd } from "@/components/ui/format-usd";

/**
 * "120 in + 45 out tokens (estimated) · $0.00012": model usage in one line, for a step or a whole
 * run. No cost shown where none was worked out (a run priced by nothing); "cost unknown" where a
 * model had no price.
 */
export function usageLine(u: Pick<NodeUsage, "promptTokens" | "completionTokens" | "estimated" | "costUsd">): string {
  const tokens = `${u.promptTokens} in + ${u.completionTokens} out tokens${u.estimated ? " (estimated)" : ""}`;
  if (u.costUsd === undefined) return tokens;
  return `${tokens} · ${u.costUsd === null ? "cost unknown" : formatUsd(u.costUsd)}`;
}

/** The run's total usage and cost as its answers recorded them (nothing while it runs, or when it called no model). */
export function RunUsage({ usage }: { usage: ExecutionUsage | null }) {
  if (!usage || (usage.models.length === 0 && usage.promptTokens + usage.completionTokens === 0)) return null;
  return (
    <span data-testid="execution-usage" title={usage.models.length ? `Models: ${usage.models.join(", ")}` : undefined}>
      {usageLine(usage)}
    </span>
  );
}
