import { pageOfQuery, pageParams } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { adminsOnly } from "@/common/access/permissions";
import { createUserSchema } from "@/common/schemas/user";
import { createUser, listUsersDto } from "@/lib/services/users";
import { refuseOtherMethods } from "@/lib/http/methods";
import { userResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

export const GET = route(
  {
    auth: adminsOnly,
    query: z.object(pageParams("users")),
    docs: {
      tag: "Users",
      summary: "List users",
      description: "Every user of the studio with their role; never password hashes.",
      responses: {
        200: {
          description: "Users without password hashes",
          schema: z.array(userResponseSchema),
          headers: PAGE_HEADER_DOCS,
        },
      },
    },
  },
  async ({ req, query }) => pagedArray(req, await listUsersDto(pageOfQuery(query))),
);

export const POST = route(
  {
    auth: adminsOnly,
    body: { json: createUserSchema },
    idempotency: {},
    docs: {
      tag: "Users",
      summary: "Add a user",
      description:
        "An e-mail, a name, a password (at least 10 characters) and a role (`builder` by default). 409 when the e-mail is taken.",
      responses: { 201: { description: "The new user", schema: userResponseSchema } },
      errors: [409],
    },
  },
  async ({ body }) => json(await createUser(body), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
