import { json } from "@/lib/http/responses";
import { refuseOtherMethods } from "@/lib/http/methods";

/** Health check: answers without touching the database so load balancers stay cheap. */
export function GET() {
  return json({ status: "ok", service: "switchyard" });
}

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
