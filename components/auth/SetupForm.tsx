"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button, ErrorNote, TextInput } from "@/components/ui/controls";
import { api } from "@/browser/client/api";
import { userResponseSchema } from "@/common/schemas/responses";
import { PASSWORD_MIN_LENGTH } from "@/common/schemas/user";

export function SetupForm() {
  const router = useRouter();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const body = {
      name: String(form.get("name")),
      email: String(form.get("email")),
      password: String(form.get("password")),
    };
    setBusy(true);
    setError(null);
    try {
      await api("/api/v1/setup", { method: "POST", body, schema: userResponseSchema });
      await signIn("credentials", { email: body.email, password: body.password, redirect: false });
      router.replace("/chatflows");
      router.refresh();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <TextInput label="Your name" name="name" required autoFocus />
      <TextInput label="E-mail" name="email" type="email" autoComplete="username" required />
      <TextInput
        label="Password (10+ characters)"
        name="password"
        type="password"
        minLength={PASSWORD_MIN_LENGTH}
        autoComplete="new-password"
        required
      />
      <ErrorNote error={error} />
      <Button type="submit" disabled={busy}>
        {busy ? "Creating…" : "Create admin account"}
      </Button>
    </form>
  );
}
