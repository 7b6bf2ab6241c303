import { idParams, route } from "@/lib/http/route";
import { AppError } from "@/common/errors";
import { updateUserSchema } from "@/common/schemas/user";
import { changeUserRole, deleteUser } from "@/lib/services/users";
import { adminsOnly } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";
import { deletedResponseSchema, userResponseSchema } from "@/common/schemas/responses";

/** Changes a user's role; a demoted admin's keys lose admin-only permissions at once. */
export const PUT = route(
  {
    auth: adminsOnly,
    params: idParams,
    body: { json: updateUserSchema },
    docs: {
      tag: "Users",
      summary: "Change a user's role",
      description: "A demoted admin's keys lose admin-only permissions at once.",
      responses: { 200: { description: "The user", schema: userResponseSchema } },
    },
  },
  async ({ params, body, caller }) => {
    if (caller.kind !== "user") throw new AppError("forbidden", "Admins only.");
    return changeUserRole(params.id, body.role, caller.user.id);
  },
);

/** Removes a user: their chatflows and credentials go to the acting admin, their keys are deleted. */
export const DELETE = route(
  {
    auth: adminsOnly,
    params: idParams,
    docs: {
      tag: "Users",
      summary: "Remove a user (their chatflows and credentials go to the acting admin)",
      description: "Their chatflows and credentials go to the acting admin; their API keys are deleted.",
      responses: { 200: { description: "Deleted", schema: deletedResponseSchema } },
    },
  },
  async ({ params, caller }) => {
    if (caller.kind !== "user") throw new AppError("forbidden", "Admins only.");
    return deleteUser(params.id, caller.user.id);
  },
);

export const { GET, HEAD, POST, PATCH } = refuseOtherMethods("PUT", "DELETE");
