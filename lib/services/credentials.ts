import type { PageRequest } from "@/common/schemas/pagination";
import { z } from "zod";
import { AppError } from "@/common/errors";
import {
  deleteCredentialById,
  findCredentialAccess,
  findCredentialById,
  insertCredential,
  listCredentials as listRows,
  updateCredentialById,
} from "../db/queries/credentials";
import { findChatflowGraphs } from "../db/queries/chatflows";
import { findUserRole, userExists } from "../db/queries/users";
import type { Caller } from "@/common/access/callers";
import {
  assertMay,
  chatflowScope,
  grantFor,
  mayAct,
  ownerFilter,
  actingUserId,
  rule,
} from "@/common/access/permissions";
import { getDefinition } from "../nodes/registry";
import type { ResolvedCredential } from "../security/credential-hosts";
import { decryptJson, encryptJson } from "../security/secrets";
import { credentialDataSchemas, HEADER_VALUE, type CredentialType } from "@/common/schemas/credential";
import { publishChange } from "../state";
import { describeIssues } from "@/common/schemas/issue-words";

function validateData(type: string, data: unknown): Record<string, unknown> {
  const schema = credentialDataSchemas[type as CredentialType];
  if (!schema) throw new AppError("validation_failed", `body.type: unknown credential type '${type}'.`);
  const parsed = (schema as z.ZodType<Record<string, unknown>>).safeParse(data);
  if (!parsed.success) {
    // Sentences for people, the fields (body.data.…) in details, as for every other body (lib/http/route.ts).
    const { message, details } = describeIssues(
      parsed.error.issues.map((i) => ({ ...i, path: ["data", ...i.path] })),
      "body",
    );
    throw new AppError("validation_failed", message, { details });
  }
  return parsed.data;
}

/** Whether the caller may pick this credential on a node: admins any; builders own or shared. */
function mayUse(caller: Caller, row: { ownerId: string | null; sharedWithBuilders: boolean }): boolean {
  return (
    mayAct(caller, "credential.use", row.ownerId) ||
    (row.sharedWithBuilders && grantFor(caller, "credential.use") !== "none")
  );
}

/**
 * Credentials without their values: admins see all; builders their own and those shared with them; a
 * key scoped to chosen chatflows, only the credentials those chatflows use.
 */
export async function listCredentials(caller: Caller, page?: PageRequest) {
  const rows = await listRows({ ownerId: ownerFilter(caller, "credential.list"), page });
  const scope = chatflowScope(caller);
  if (!scope) return rows;
  // A key scoped to chosen chatflows sees only the credentials those chatflows use.
  const used = new Set(
    (await findChatflowGraphs({ ids: scope })).flatMap((f) =>
      credentialRefs(f.graph, f.speechToText as { credentialId?: string }).map((r) => r.credentialId),
    ),
  );
  // Filtered after the page is read: a page may hold fewer than `limit`, and its cursor still continues.
  return { items: rows.items.filter((r) => used.has(r.id)), nextCursor: rows.nextCursor };
}

/** Stores a credential encrypted (AES-256-GCM), owned by the caller; answers without the values. */
export async function createCredential(input: { name: string; type: CredentialType; data: unknown }, caller: Caller) {
  const data = validateData(input.type, input.data);
  return insertCredential({
    name: input.name,
    type: input.type,
    encrypted: encryptJson(data),
    ownerId: actingUserId(caller),
  });
}

/**
 * A credential the caller may change: 404 when they cannot even see it (ids are no oracle), 403 for
 * one an admin shared with all builders (usable by them, never editable).
 */
async function getEditableOrThrow(id: string, caller: Caller, action: "credential.update" | "credential.delete") {
  const row = await findCredentialById({ id });
  if (row && mayAct(caller, action, row.ownerId)) return row;
  if (row?.sharedWithBuilders && mayUse(caller, row)) {
    throw new AppError("forbidden", `Credential ${id} is shared with you by an admin: you may use it, not change it.`);
  }
  throw new AppError("not_found", `Credential ${id} not found.`);
}

type CredentialUpdate = { name?: string; data?: unknown; ownerId?: string; sharedWithBuilders?: boolean };

/** A credential its caller may manage, with its decrypted values (for the connection test). */
export async function manageableCredentialValues(id: string, caller: Caller): Promise<ResolvedCredential> {
  return decrypted(await getEditableOrThrow(id, caller, "credential.update"));
}

/** Renames, replaces values, shares or transfers (the last two: admins only). Built flows rebuild. */
export async function updateCredential(id: string, input: CredentialUpdate, caller: Caller) {
  const row = await getEditableOrThrow(id, caller, "credential.update");
  if (input.sharedWithBuilders !== undefined)
    assertMay(caller, "credential.share", "share a credential with all builders (admins only)");
  if (input.ownerId !== undefined)
    assertMay(caller, "credential.transfer", "transfer a credential to another owner (admins only)");
  if (input.ownerId && !(await userExists({ id: input.ownerId }))) {
    throw new AppError("validation_failed", `body.ownerId: user ${input.ownerId} does not exist.`);
  }
  const updated = await updateCredentialById({
    id,
    data: {
      ...(input.name ? { name: input.name } : {}),
      ...(input.data !== undefined ? { encrypted: encryptJson(validateData(row.type, input.data)) } : {}),
      ...(input.sharedWithBuilders !== undefined ? { sharedWithBuilders: input.sharedWithBuilders } : {}),
      ...(input.ownerId ? { ownerId: input.ownerId } : {}),
    },
  });
  // Built flows hold the decrypted values: a rotated key must be used from the next request on.
  await publishChange({ type: "credential.updated", credentialId: id });
  return updated;
}

/** Deletes a credential; flows built with it rebuild (and then name it as missing). */
export async function deleteCredential(id: string, caller: Caller) {
  await getEditableOrThrow(id, caller, "credential.delete");
  await deleteCredentialById({ id });
  await publishChange({ type: "credential.deleted", credentialId: id });
  return { deleted: true, id };
}

/**
 * Name, kind and decrypted values for the flow engine (server only; never returned by an endpoint).
 * The name lets a refusal say which credential would have gone to the wrong host.
 */
export async function resolveCredential(id: string): Promise<ResolvedCredential> {
  return decrypted(await findCredentialForRun(id));
}

/** The credential row a node refers to; 422 invalid_graph when there is none. */
async function findCredentialForRun(id: string) {
  const row = z.uuid().safeParse(id).success ? await findCredentialById({ id }) : null;
  if (!row) throw new AppError("invalid_graph", `Credential ${id} does not exist; pick another one on the node.`);
  return row;
}

function decrypted(row: { name: string; type: string; encrypted: string }): ResolvedCredential {
  const data = decryptJson<Record<string, unknown>>(row.encrypted);
  assertHeaderSafe(row.name, data);
  return { name: row.name, type: row.type, data };
}

/**
 * Credentials saved before their values were checked may hold what no HTTP header can carry; the
 * run would fail inside fetch with a 500, so it is refused here, naming the credential to edit.
 */
function assertHeaderSafe(name: string, data: Record<string, unknown>): void {
  const headers =
    data.headers && typeof data.headers === "object" ? Object.entries(data.headers as Record<string, unknown>) : [];
  const values: [string, unknown][] = [
    ["apiKey", data.apiKey],
    ...headers.map(([k, v]): [string, unknown] => [`headers.${k}`, v]),
  ];
  const bad = values.find(([, v]) => typeof v === "string" && !HEADER_VALUE.test(v));
  if (bad) {
    throw new AppError(
      "unprocessable",
      `Credential "${name}": ${bad[0]} holds a line break or a non-ASCII character, which an HTTP header cannot carry; edit the credential.`,
    );
  }
}

/**
 * Like resolveCredential, for a chatflow owned by `ownerId`: a builder's chatflow runs only with
 * the builder's own credentials and those shared with all builders (also after a transfer, or
 * after an admin stops sharing one). Unowned chatflows and admins' use any.
 */
export async function resolveCredentialForOwner(id: string, ownerId: string | null): Promise<ResolvedCredential> {
  // One read of the credential: its row carries the owner and sharing the check needs.
  const row = await findCredentialForRun(id);
  const values = decrypted(row);
  if (!ownerId) return values;
  const role = (await findUserRole({ id: ownerId })) ?? "builder";
  if (rule("credential.use").roles[role] === "any" || row.ownerId === ownerId || row.sharedWithBuilders) return values;
  throw new AppError(
    "forbidden",
    `Credential ${id} may not be used by this chatflow's owner: pick one of theirs or one shared with all builders.`,
  );
}

/** The credential ids a graph (and its speech-to-text setting) refers to, with the node of each. */
export function credentialRefs(
  graph: unknown,
  speechToText?: { credentialId?: string },
): { nodeId: string; credentialId: string }[] {
  const nodes = (graph as { nodes?: unknown } | null)?.nodes;
  const refs = (Array.isArray(nodes) ? nodes : []).flatMap(
    (n: { id?: string; type?: string; data?: { inputs?: Record<string, unknown> } }) => {
      const def = typeof n?.type === "string" ? getDefinition(n.type) : undefined;
      return (def?.inputs ?? []).flatMap((input) => {
        const value = n.data?.inputs?.[input.name];
        return input.kind === "param" && input.type === "credential" && typeof value === "string" && value
          ? [{ nodeId: String(n.id), credentialId: value }]
          : [];
      });
    },
  );
  if (speechToText?.credentialId) refs.push({ nodeId: "speechToText", credentialId: speechToText.credentialId });
  return refs;
}

/**
 * Refuses (403 naming the node and credential) a graph that picks a credential the caller may not
 * use: a builder only their own and those an admin shared with all builders.
 */
export async function assertMayUseCredentials(
  caller: Caller,
  graph: unknown,
  speechToText?: { credentialId?: string },
) {
  if (grantFor(caller, "credential.use") === "any") return;
  const refs = credentialRefs(graph, speechToText);
  if (!refs.length) return;
  const ids = refs.map((r) => r.credentialId).filter((id) => z.uuid().safeParse(id).success);
  const rows = await findCredentialAccess({ ids });
  const usable = new Set(rows.filter((r) => mayUse(caller, r)).map((r) => r.id));
  const bad = refs.find((r) => !usable.has(r.credentialId));
  if (bad) {
    throw new AppError(
      "forbidden",
      `Node '${bad.nodeId}' uses credential ${bad.credentialId}, which you may not use: pick one of your own or one shared with all builders.`,
    );
  }
}
