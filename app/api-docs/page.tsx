import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ApiReference } from "@/components/studio/ApiReference";
import { StudioShell } from "@/components/studio/StudioShell";
import { getStudioUser } from "@/lib/auth/studio-user";
import { getEnv } from "@/lib/env";
import { swaggerUiVersion } from "@/lib/http/swagger-ui-assets";
import { needsSetup } from "@/lib/services/users";
import { PAGE_PATH_HEADER, signInPathFor } from "@/common/auth/return-path";

export const dynamic = "force-dynamic";

/**
 * The API reference: Swagger UI over GET /api/v1/openapi.json (the document of every route). Readable
 * without an account unless API_DOCS_PUBLIC=false (the document itself is public either way); a
 * signed-in user sees it inside the studio, where "Try it out" runs as them.
 */
export default async function ApiDocsPage() {
  const user = await getStudioUser();
  if (!user && getEnv().API_DOCS_PUBLIC !== "true")
    redirect((await needsSetup()) ? "/setup" : signInPathFor((await headers()).get(PAGE_PATH_HEADER)));
  const reference = <ApiReference version={swaggerUiVersion()} />;
  if (user) return <StudioShell user={user}>{reference}</StudioShell>;
  return (
    <main className="mx-auto max-w-6xl p-4">
      <p className="mb-2 text-sm text-gray-600 dark:text-gray-400">
        Switchyard API reference.{" "}
        <a className="underline" href="/signin">
          Sign in
        </a>{" "}
        to try requests as yourself, or send an API key in <code>Authorization: Bearer</code>.
      </p>
      {reference}
    </main>
  );
}
