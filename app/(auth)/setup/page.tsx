import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/SetupForm";
import { needsSetup } from "@/lib/services/users";

export const dynamic = "force-dynamic";

/** One-time page: open only while no user exists (ADMIN_EMAIL/ADMIN_PASSWORD skip it). */
export default async function SetupPage() {
  if (!(await needsSetup())) redirect("/signin");
  return (
    <>
      <h1 className="mb-1 text-lg font-semibold">Welcome to Switchyard</h1>
      <p className="mb-5 text-sm text-slate-500">Create the first admin account. This page disappears afterwards.</p>
      <SetupForm />
    </>
  );
}
