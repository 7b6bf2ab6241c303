import { z } from "zod";

/**
 * Query parameters read from text, with the OpenAPI pattern of what they accept: the document's
 * schema is the string's, so its pattern has to say what the parsing after it enforces (issue 31:
 * no request the document allows is refused).
 */

/** A pattern for whole numbers from 1 to `max` (a power of ten), leading zeros allowed. */
function upToPattern(max?: number): string {
  // Up to 15 digits: every such number is a safe integer (z.number().int() refuses the rest).
  if (max === undefined) return "^0*[1-9]\\d{0,14}$";
  const digits = Math.log10(max);
  if (!Number.isInteger(digits) || digits < 1) throw new Error(`upToPattern: ${max} is not a power of ten`);
  return `^0*([1-9]\\d{0,${digits - 1}}|${max})$`;
}

/** A whole number from 1 (to `max`, a power of ten), sent as text: `page`, `limit`. */
export const positiveIntParam = (max?: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a positive whole number")
    .transform(Number)
    .pipe(
      max
        ? z.number().int().min(1, "must be at least 1").max(max, `must be at most ${max}`)
        : z.number().int().min(1, "must be at least 1"),
    )
    .meta({ override: { pattern: upToPattern(max) } });
