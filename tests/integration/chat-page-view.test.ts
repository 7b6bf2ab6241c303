import { beforeAll, describe, expect, it } from "vitest";
import { edge, node } from "../../lib/flow/__fixtures__/graphs";
import { userCaller } from "../../dev/callers";
import type { Caller } from "@/common/access/callers";
import { createChatflow, updateChatflow } from "../../lib/services/chatflows";
import { publishVersion } from "../../lib/services/chatflow-versions";
import { getChatPageView, getPublicChatbotConfig } from "../../lib/services/public-chatbot";
import { createUser, setupFirstAdmin } from "../../lib/services/users";

// Issue 38: what the full-page chat (/chat/{id}) shows for a public, a private and an unknown
// chatflow, to whom (point 8); and the chatbot's settings applying at once, not with a version (point 1).

const graph = {
  nodes: [node("model", "chatOpenAICompatible", {}), node("conv", "conversationChain", {})],
  edges: [edge("model", "chatModel", "conv", "model")],
};
const anonymous: Caller = { kind: "anonymous" };
let owner: Caller;
let admin: Caller;
let otherBuilder: Caller;
let privateId: string;
let publicId: string;

beforeAll(async () => {
  const a = await setupFirstAdmin({ email: "ada@example.com", name: "Ada", password: "admin-pass-1" });
  admin = userCaller({ ...a, role: "admin" });
  const mk = async (email: string) =>
    userCaller({
      ...(await createUser({ email, name: email, password: "builder-pass-1", role: "builder" })),
      role: "builder",
    });
  owner = await mk("owner@example.com");
  otherBuilder = await mk("other@example.com");
  privateId = (await createChatflow({ name: "Secret pricing bot", graph: graph as never }, owner)).id;
  publicId = (
    await createChatflow(
      { name: "Shop bot", graph: graph as never, isPublic: true, chatbotConfig: { title: "Shop" } },
      owner,
    )
  ).id;
});

describe("the full-page chat's view of a chatflow", () => {
  it("a public chatflow: its id and the chatbot title, to anyone", async () => {
    expect(await getChatPageView(publicId, anonymous)).toEqual({ kind: "public", chatflowId: publicId, title: "Shop" });
    expect(await getChatPageView(publicId, otherBuilder)).toMatchObject({ kind: "public" });
  });

  it("a private chatflow: only 'private' to visitors and other builders, never its name or id", async () => {
    for (const caller of [anonymous, otherBuilder]) {
      const view = await getChatPageView(privateId, caller);
      expect(view).toEqual({ kind: "private" });
      expect(JSON.stringify(view)).not.toContain("Secret");
    }
  });

  it("a private chatflow: its owner and admins see which flow it is and whether a version is published", async () => {
    const expected = {
      kind: "private-managed",
      chatflowId: privateId,
      name: "Secret pricing bot",
      publishedVersion: null,
    };
    expect(await getChatPageView(privateId, owner)).toEqual(expected);
    expect(await getChatPageView(privateId, admin)).toEqual(expected);
    await publishVersion(privateId, 1, owner);
    expect(await getChatPageView(privateId, owner)).toMatchObject({ publishedVersion: 1 });
  });

  it("an unknown id is 'private' to anyone (no telling which ids exist); one that is no UUID: nothing", async () => {
    for (const caller of [anonymous, otherBuilder, owner, admin])
      expect(await getChatPageView("7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b", caller)).toEqual({ kind: "private" });
    expect(await getChatPageView("not-an-id", admin)).toBeNull();
  });

  it("turned public, the private flow's page is its chat", async () => {
    await updateChatflow(privateId, { isPublic: true }, owner);
    expect(await getChatPageView(privateId, anonymous)).toMatchObject({ kind: "public", title: "Secret pricing bot" });
    await updateChatflow(privateId, { isPublic: false }, owner);
  });
});

describe("chatbot settings apply at once, with no new version", () => {
  it("a save of chatbotConfig on a published flow keeps its version and reaches the widget and the page", async () => {
    await publishVersion(publicId, 1, owner);
    const saved = await updateChatflow(
      publicId,
      { chatbotConfig: { title: "Gadget Guide", welcomeMessage: "Welcome!", starterPrompts: ["Laptops?"] } },
      owner,
    );
    expect(saved).toMatchObject({ version: 1, publishedVersion: 1 });
    const widget = await getPublicChatbotConfig({ chatflowId: publicId, caller: anonymous, origin: null });
    expect(widget).toMatchObject({
      title: "Gadget Guide",
      welcomeMessage: "Welcome!",
      starterPrompts: { "0": { prompt: "Laptops?" } },
    });
    expect(await getChatPageView(publicId, anonymous)).toMatchObject({ title: "Gadget Guide" });
  });

  it("a save of the allow-list or speech-to-text is a new draft: the published version keeps its own", async () => {
    const saved = await updateChatflow(publicId, { speechToText: { enabled: true } }, owner);
    expect(saved).toMatchObject({ version: 2, publishedVersion: 1 });
    const widget = await getPublicChatbotConfig({ chatflowId: publicId, caller: anonymous, origin: null });
    // Version 1 has no speech-to-text: the widget shows no microphone until version 2 is published.
    expect(widget.uploads.audio).toBe(false);
    expect(widget.title).toBe("Gadget Guide");
    await publishVersion(publicId, 2, owner);
    const after = await getPublicChatbotConfig({ chatflowId: publicId, caller: anonymous, origin: null });
    expect(after.uploads.audio).toBe(true);
  });
});
