import { redirect } from "next/navigation";
import { Suspense } from "react";
import { SignInForm } from "@/components/auth/SignInForm";
import { needsSetup } from "@/lib/services/users";

export const dynamic = "force-dynamic";

export default async function SignInPage() {
  if (await needsSetup()) redirect("/setup");
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Sign in</h1>
      <p className="mb-5 text-sm text-slate-500">Use the account your admin gave you.</p>
      <Suspense>
        <SignInForm />
      </Suspense>
    </>
  );
}
