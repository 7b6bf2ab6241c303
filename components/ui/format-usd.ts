/** A cost in USD for people: cents for sums of a dollar or more, more digits for the tiny costs of one answer. */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  if (usd >= 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toPrecision(2)}`;
}
