/**
 * `npm run product-api`: the demo product-search API on 127.0.0.1:4010 (PORT / HOST override,
 * PRODUCT_API_UNAVAILABLE=1 starts it answering 503). Stops cleanly on SIGINT / SIGTERM.
 */
import { z } from "zod";
import { createProductApi, PRODUCTS_PATH } from "../dev/product-api/server";

const envSchema = z.object({
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  PRODUCT_API_UNAVAILABLE: z.enum(["0", "1", "true", "false"]).optional(),
});

async function main(): Promise<void> {
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`product-api: ${issue.path.join(".")}: ${issue.message}`);
    process.exit(2);
  }
  const env = parsed.data;
  const api = await createProductApi({
    host: env.HOST,
    port: env.PORT,
    unavailable: env.PRODUCT_API_UNAVAILABLE === "1" || env.PRODUCT_API_UNAVAILABLE === "true",
  });
  console.log(
    `product-api listening on ${api.url} (GET ${api.url}${PRODUCTS_PATH})${api.isUnavailable() ? " [answering 503]" : ""}`,
  );
  const stop = (signal: string) => {
    console.log(`product-api: ${signal}, shutting down`);
    api.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err) => {
  console.error(`product-api failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
