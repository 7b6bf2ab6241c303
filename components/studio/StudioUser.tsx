"use client";

import { createContext, useContext } from "react";
import { roleMay, type Action } from "@/common/access/permissions";
import type { getStudioUser } from "@/lib/auth/studio-user";

/** The signed-in user as the server reads it from the session (getStudioUser), without anything else it holds. */
export type StudioUserInfo = Pick<
  NonNullable<Awaited<ReturnType<typeof getStudioUser>>>,
  "id" | "name" | "email" | "role"
>;

const StudioUserContext = createContext<StudioUserInfo | null>(null);

/** The signed-in user for studio components, set once by the studio layout. */
export function StudioUserProvider({ user, children }: { user: StudioUserInfo; children?: React.ReactNode }) {
  return <StudioUserContext.Provider value={user}>{children}</StudioUserContext.Provider>;
}

/**
 * The signed-in user and what their role may do, read from the permission table the server
 * enforces (common/access/permissions.ts), so the studio offers exactly what the API allows.
 */
export function useStudioUser() {
  const user = useContext(StudioUserContext);
  return { user, may: (action: Action) => (user ? roleMay(user.role, action) : false) };
}
