import { AppError } from "@/common/errors";
import { errorResponse } from "@/lib/http/responses";
import { readSwaggerUiFile } from "@/lib/http/swagger-ui-assets";

/** Swagger UI's script and stylesheet for the API reference page; versioned URLs, cached for a year. */
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }) {
  const file = await readSwaggerUiFile((await ctx.params).file);
  if (!file) return errorResponse(new AppError("not_found", "No such file."));
  return new Response(file.body, {
    headers: { "content-type": file.type, "cache-control": "public, max-age=31536000, immutable" },
  });
}
