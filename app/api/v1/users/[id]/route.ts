import { idParams, route } from "@/lib/http/route";
import { AppError } from "@/lib/errors";
import { deleteUser } from "@/lib/services/users";
import { adminsOnly } from "@/lib/http/policies";
import { refuseOtherMethods } from "@/lib/http/methods";

export const DELETE = route({ auth: adminsOnly, params: idParams }, async ({ params, caller }) => {
  if (caller.kind !== "user") throw new AppError("forbidden", "Admins only.");
  return deleteUser(params.id, caller.user.id);
});

export const { GET, HEAD, POST, PUT, PATCH } = refuseOtherMethods("DELETE");
