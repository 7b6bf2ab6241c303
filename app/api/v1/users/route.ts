import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { adminsOnly } from "@/common/access/permissions";
import { createUserSchema } from "@/common/schemas/user";
import { createUser, listUsersDto } from "@/lib/services/users";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route({ auth: adminsOnly }, async () => listUsersDto());

export const POST = route({ auth: adminsOnly, body: { json: createUserSchema } }, async ({ body }) =>
  json(await createUser(body), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
