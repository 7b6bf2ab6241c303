import { resetEnvForTests } from "../../lib/env";
import { createModelStub, type ModelStub, type ModelStubOptions } from "../../dev/model-stub/server";

/**
 * Starts a model stub and points the server's own model at it (OPENAI_API_KEY "test-key",
 * OPENAI_BASE_URL, OPENAI_MODEL "stub-model"), then `extraEnv` on top, and re-reads the env.
 * Kept apart from model-stub.ts, which Playwright and scripts/model-stub.ts load without the app.
 */
export async function startServerModelStub(
  extraEnv: Record<string, string> = {},
  options?: ModelStubOptions,
): Promise<ModelStub> {
  const stub = await createModelStub(options);
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: stub.url,
    OPENAI_MODEL: "stub-model",
    ...extraEnv,
  });
  resetEnvForTests();
  return stub;
}
