"use client";

import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/browser/client/api";
import { credentialResponseSchema } from "@/common/schemas/responses";
import { fieldClass } from "./node-style";

const credentialListSchema = z.array(credentialResponseSchema);

/** Credentials of the allowed types; values never reach the browser, only ids and names. */
export function CredentialField({
  id,
  types,
  optional,
  value,
  onChange,
}: {
  id: string;
  types: string[];
  optional: boolean;
  value: string;
  onChange: (v: string | undefined) => void;
}) {
  const creds = useQuery({
    queryKey: ["credentials"],
    queryFn: () => api("/api/v1/credentials", { schema: credentialListSchema }),
    staleTime: 30_000,
  });
  const usable = (creds.data ?? []).filter((c) => types.length === 0 || types.includes(c.type));
  const missing = value && creds.data && !usable.some((c) => c.id === value);
  return (
    <select id={id} className={fieldClass} value={value} onChange={(e) => onChange(e.target.value || undefined)}>
      <option value="">{optional ? "None (server default)" : "Choose a credential…"}</option>
      {usable.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
      {missing && <option value={value}>Missing credential</option>}
    </select>
  );
}
