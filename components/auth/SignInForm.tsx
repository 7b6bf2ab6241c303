"use client";

import { signIn } from "next-auth/react";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button, ErrorNote, TextInput } from "@/components/ui/controls";
import { DEFAULT_RETURN_PATH, safeReturnPath } from "@/common/auth/return-path";

export function SignInForm() {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    const res = await signIn("credentials", {
      email: String(form.get("email")),
      password: String(form.get("password")),
      redirect: false,
    });
    setBusy(false);
    if (res?.ok) {
      // Back to the page asked for: only a path on this site, never another one (open redirect).
      router.replace(safeReturnPath(params.get("callbackUrl")) ?? DEFAULT_RETURN_PATH);
      router.refresh();
    } else {
      setError(res?.error && res.error !== "CredentialsSignin" ? res.error : "Wrong e-mail or password.");
    }
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <TextInput label="E-mail" name="email" type="email" autoComplete="username" required autoFocus />
      <TextInput label="Password" name="password" type="password" autoComplete="current-password" required />
      <ErrorNote error={error} />
      <Button type="submit" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
