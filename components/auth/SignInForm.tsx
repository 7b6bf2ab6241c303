"use client";

import { signIn } from "next-auth/react";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button, ErrorNote, TextInput } from "@/components/ui/controls";

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
      router.replace(params.get("callbackUrl")?.startsWith("/") ? params.get("callbackUrl")! : "/chatflows");
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
