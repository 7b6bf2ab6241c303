// The studio offers what the permission table allows a role, and nothing more (server-rendered
// markup of the real components with their queries' data; the API enforces the same table, see
// permissions-matrix.test.ts).
import { describe, expect, it, vi } from "vitest";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ApiKeyManager } from "../../components/studio/ApiKeyManager";
import { ChatflowList } from "../../components/studio/ChatflowList";

// Rendered to a string outside Next: the list's router (create and duplicate open the editor) is a stub.
vi.mock("next/navigation", () => ({ useRouter: () => ({ push: () => {}, replace: () => {}, refresh: () => {} }) }));
import { CredentialManager } from "../../components/studio/CredentialManager";
import { StudioUserProvider, type StudioUserInfo } from "../../components/studio/StudioUser";

const ME = "00000000-0000-4000-8000-0000000000b1";
const ADA = { id: "00000000-0000-4000-8000-0000000000a1", name: "Ada Admin", email: "ada@example.com" };
const at = "2026-01-01T00:00:00.000Z";

function render(role: StudioUserInfo["role"], node: ReactNode, data: Record<string, unknown> = {}) {
  const client = new QueryClient();
  // A key "chatflows/CHATFLOW" is the query key ["chatflows", "CHATFLOW"].
  for (const [key, value] of Object.entries(data)) client.setQueryData(key.split("/"), value);
  return renderToString(
    createElement(
      QueryClientProvider,
      { client },
      createElement(StudioUserProvider, { user: { id: ME, name: "Me", email: "me@example.com", role } }, node),
    ),
  );
}

describe("studio views by role", () => {
  it("offers the messages permission on new keys to admins only", () => {
    expect(render("admin", createElement(ApiKeyManager))).toContain("Read messages");
    const builder = render("builder", createElement(ApiKeyManager));
    expect(builder).toContain("Prediction");
    expect(builder).not.toContain("Read messages");
  });

  it("shows chatflow owners and conversations to admins only", () => {
    const chatflows = [
      {
        id: ADA.id,
        name: "Shop bot",
        description: "",
        type: "CHATFLOW",
        version: 1,
        isPublic: false,
        updatedAt: at,
        owner: ADA,
      },
    ];
    const admin = render("admin", createElement(ChatflowList), { "chatflows/CHATFLOW": chatflows });
    expect(admin).toContain("Owner: <!-- -->Ada Admin");
    expect(admin).toContain("Conversations of Shop bot");
    const builder = render("builder", createElement(ChatflowList), { "chatflows/CHATFLOW": chatflows });
    expect(builder).toContain("Shop bot");
    expect(builder).not.toContain("Owner:");
    expect(builder).not.toContain("Conversations of Shop bot");
    // Both roles may create chatflows, so both may import one from Flowise.
    expect(admin).toContain("Import from Flowise");
    expect(builder).toContain("Import from Flowise");
  });

  it("lets admins share credentials and see owners; builders cannot edit one shared with them", () => {
    const credentials = [
      {
        id: "c1",
        name: "Team key",
        type: "openai",
        createdAt: at,
        updatedAt: at,
        ownerId: ADA.id,
        owner: ADA,
        sharedWithBuilders: true,
      },
      {
        id: "c2",
        name: "My key",
        type: "openai",
        createdAt: at,
        updatedAt: at,
        ownerId: ME,
        owner: { name: "Me" },
        sharedWithBuilders: false,
      },
    ];
    const admin = render("admin", createElement(CredentialManager), { credentials });
    expect(admin).toContain("Share Team key with all builders");
    expect(admin).toContain("owner: Ada Admin");
    expect(admin).toContain("Delete Team key");
    const builder = render("builder", createElement(CredentialManager), { credentials });
    expect(builder).not.toContain("Share Team key with all builders");
    expect(builder).not.toContain("owner: Ada Admin");
    expect(builder).toContain("shared by an admin");
    expect(builder).not.toContain("Delete Team key");
    expect(builder).toContain("Delete My key");
  });
});
