import { AppError } from "@/common/errors";
import { errorResponse } from "@/lib/http/responses";
import { requestIdOf } from "@/lib/http/request-id";
import { tracedHandler } from "@/lib/telemetry/http";

// Any /api path no route matched answers the JSON error shape, not an HTML page.
const notFound = tracedHandler((req: Request) =>
  errorResponse(
    new AppError("not_found", `No API route ${req.method} ${new URL(req.url).pathname}.`),
    undefined,
    requestIdOf(req),
  ),
);

export {
  notFound as GET,
  notFound as POST,
  notFound as PUT,
  notFound as PATCH,
  notFound as DELETE,
  notFound as OPTIONS,
};
