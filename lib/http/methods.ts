import { AppError } from "@/common/errors";
import { errorResponse } from "./responses";
import { requestIdOf } from "./request-id";

/** Property set on the 405 handlers below. */
export const METHOD_REFUSAL = Symbol.for("switchyard.methodRefusal");

const REFUSABLE = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
type RefusableMethod = (typeof REFUSABLE)[number];

/**
 * Handlers answering 405 in the API's error shape with an Allow header, for the methods a route
 * file does not implement. Next answers those itself with an empty 405 and no Allow header, so
 * each route file exports these for its missing methods:
 * `export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");`
 */
export function refuseOtherMethods(
  ...implemented: RefusableMethod[]
): Record<RefusableMethod, (req: Request) => Response> {
  const allowed = new Set<string>([...implemented, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  const allow = [...allowed].sort().join(", ");
  const refuse = (req: Request) =>
    errorResponse(
      new AppError(
        "method_not_allowed",
        `Method ${req.method} is not allowed on ${new URL(req.url).pathname.slice(0, 200)}; allowed: ${allow}.`,
        {
          headers: { allow },
        },
      ),
      undefined,
      requestIdOf(req),
    );
  // Marked so that tests enumerating route files can tell a refusal from a real handler.
  Object.defineProperty(refuse, METHOD_REFUSAL, { value: true });
  return Object.fromEntries(REFUSABLE.map((m) => [m, refuse])) as Record<RefusableMethod, typeof refuse>;
}
