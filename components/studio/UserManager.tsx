"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { api } from "@/browser/client/api";
import { deletedResponseSchema, userResponseSchema } from "@/common/schemas/responses";
import { PASSWORD_MIN_LENGTH } from "@/common/schemas/user";
import { Button, Card, ErrorNote, PageHeader, TextInput } from "@/components/ui/controls";
import { useConfirm } from "@/components/ui/ConfirmDialog";

const userListSchema = z.array(userResponseSchema);

export function UserManager() {
  const confirm = useConfirm();
  const qc = useQueryClient();
  const users = useQuery({ queryKey: ["users"], queryFn: () => api("/api/v1/users", { schema: userListSchema }) });
  const refresh = () => qc.invalidateQueries({ queryKey: ["users"] });
  const create = useMutation({
    mutationFn: (body: object) => api("/api/v1/users", { method: "POST", body, schema: userResponseSchema }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/api/v1/users/${id}`, { method: "DELETE", schema: deletedResponseSchema }),
    onSuccess: refresh,
  });

  return (
    <>
      <PageHeader
        title="Users"
        subtitle="Builders design and test chatflows; admins also manage users and read messages."
      />
      <Card className="mb-6 p-4">
        <form
          className="grid grid-cols-2 gap-3 md:grid-cols-5 md:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            const form = e.currentTarget;
            create.mutate(
              { name: f.get("name"), email: f.get("email"), password: f.get("password"), role: f.get("role") },
              { onSuccess: () => form.reset() },
            );
          }}
        >
          <TextInput label="Name" name="name" required />
          <TextInput label="E-mail" name="email" type="email" required />
          <TextInput label="Password" name="password" type="password" minLength={PASSWORD_MIN_LENGTH} required />
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-slate-700">Role</span>
            <select name="role" className="rounded-md border border-slate-300 px-3 py-2" defaultValue="builder">
              <option value="builder">Builder</option>
              <option value="admin">Admin</option>
            </select>
          </label>
          <Button type="submit" disabled={create.isPending}>
            Add user
          </Button>
        </form>
        <div className="mt-3">
          <ErrorNote error={create.error ?? remove.error ?? users.error} />
        </div>
      </Card>
      <Card className="divide-y divide-slate-100">
        {users.data?.map((u) => (
          <div key={u.id} className="flex items-center gap-4 px-4 py-3 text-sm">
            <div className="flex-1">
              <span className="font-medium">{u.name}</span> <span className="text-slate-500">{u.email}</span>
            </div>
            <span className="rounded bg-slate-100 px-2 py-0.5 text-xs">{u.role}</span>
            <Button
              variant="danger"
              onClick={async () => {
                if (
                  await confirm({
                    title: `Remove ${u.email}?`,
                    message: "They can no longer sign in.",
                    confirmLabel: "Remove",
                  })
                )
                  remove.mutate(u.id);
              }}
            >
              Remove
            </Button>
          </div>
        ))}
      </Card>
    </>
  );
}
